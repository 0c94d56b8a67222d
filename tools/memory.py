#!/usr/bin/env python3
"""Memory report for Patina (Linux): resident memory against Hash, and leak checks.

  python3 tools/memory.py [--engine target/release/patina] [--hash 1 16 256 4096]
                          [--newgames 10000] [--thread-changes 1000]

1. For each Hash size: `setoption name Hash value N`, `isready`; prints the seconds until
   readyok and the process's VmRSS. An absurd size is tried last: it must be refused.
2. `ucinewgame` + `isready`, --newgames times at Hash 16: RSS and time per cycle, first and
   last thousand compared.
3. --thread-changes times: `setoption name Threads value 1..4` then `go nodes 2000`, so every
   change really starts that many search threads: RSS before and after.

Exits non-zero if a 256 GiB Hash is accepted, or if RSS grows by more than 4 MiB over the
second half of either cycle run (the first half lets allocator arenas settle).
"""

import argparse
import os
import subprocess
import sys
import time

LEAK_SLACK_KIB = 4096


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"engine closed its output waiting for {prefix!r}")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        return self.until("readyok")

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def mib(kib):
    return f"{kib / 1024:8.1f} MiB"


def hash_sizes(engine, sizes):
    print("Hash (MiB)   setoption+isready   VmRSS")
    for size in sizes:
        start = time.perf_counter()
        engine.send(f"setoption name Hash value {size}")
        lines = engine.ready()
        elapsed = time.perf_counter() - start
        errors = [line for line in lines if "error" in line]
        print(f"{size:>10}   {elapsed:14.2f} s   {mib(engine.rss_kib())}  {' '.join(errors)}")
    engine.send("setoption name Hash value 262144")
    lines = engine.ready()
    refused = any("cannot allocate" in line for line in lines)
    print(f"Hash 262144 (256 GiB): {'refused, old table kept' if refused else 'ACCEPTED'}  {mib(engine.rss_kib())}")
    return refused


def cycles(engine, label, count, one_cycle):
    """Runs `one_cycle` `count` times; RSS is sampled at ten checkpoints. Allocators keep some
    memory per thread arena on first use, so growth is judged over the second half only."""
    engine.send("setoption name Hash value 16")
    engine.ready()
    one_cycle(0)
    before = engine.rss_kib()
    samples = []
    timings = []
    for index in range(count):
        start = time.perf_counter()
        one_cycle(index)
        timings.append(time.perf_counter() - start)
        if (index + 1) % max(1, count // 10) == 0:
            samples.append(engine.rss_kib())
    after = engine.rss_kib()
    middle = samples[len(samples) // 2 - 1] if samples else before
    block = min(1000, count)
    first = sum(timings[:block]) / block * 1e3
    last = sum(timings[-block:]) / block * 1e3
    print(
        f"{label}: {count} cycles, RSS {mib(before)} -> {mib(after)} ({after - before:+d} KiB; "
        f"{after - middle:+d} KiB over the second half); mean {first:.3f} ms/cycle over the first "
        f"{block}, {last:.3f} ms over the last {block}"
    )
    print("    RSS at each tenth (KiB): " + " ".join(str(sample) for sample in samples))
    return after - middle <= LEAK_SLACK_KIB


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--engine", default=os.path.join(root, "target", "release", "patina"))
    parser.add_argument("--hash", type=int, nargs="*", default=[1, 16, 256, 4096])
    parser.add_argument("--newgames", type=int, default=10000)
    parser.add_argument("--thread-changes", type=int, default=1000)
    args = parser.parse_args()

    engine = Engine(args.engine)
    engine.send("uci")
    engine.until("uciok")
    print(f"engine {args.engine}; idle RSS {mib(engine.rss_kib())} at the default Hash")
    ok = hash_sizes(engine, args.hash)

    def new_game(_):
        engine.send("ucinewgame")
        engine.ready()

    ok &= cycles(engine, "ucinewgame", args.newgames, new_game)

    def thread_change(index):
        engine.send(f"setoption name Threads value {index % 4 + 1}")
        engine.send("position startpos moves e2e4")
        engine.send("go nodes 2000")
        engine.until("bestmove")

    ok &= cycles(engine, "Threads change + search", args.thread_changes, thread_change)
    engine.quit()
    print("memory: passed" if ok else "memory: FAILED (refused Hash accepted, or RSS grew)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

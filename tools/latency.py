#!/usr/bin/env python3
"""Measures Patina's UCI responsiveness: stop latency, isready latency during search, and
`go movetime` accuracy. Prints medians and worst cases.

Usage: python3 tools/latency.py [ENGINE] [--trials N]
"""
import argparse
import statistics
import subprocess
import time


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return time.perf_counter(), line.strip()

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=5)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("engine", nargs="?", default="target/release/patina")
    parser.add_argument("--trials", type=int, default=20)
    args = parser.parse_args()
    engine = Engine(args.engine)
    engine.send("uci")
    engine.wait_for("uciok")
    stops, readies, movetimes = [], [], []
    positions = [
        "position startpos",
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]
    for trial in range(args.trials):
        engine.send(positions[trial % 2])
        engine.send("go infinite")
        time.sleep(0.2)
        sent = engine.send("isready")
        got, _ = engine.wait_for("readyok")
        readies.append((got - sent) * 1000)
        time.sleep(0.1)
        sent = engine.send("stop")
        got, _ = engine.wait_for("bestmove")
        stops.append((got - sent) * 1000)
        sent = engine.send("go movetime 100")
        got, _ = engine.wait_for("bestmove")
        movetimes.append((got - sent) * 1000)
    engine.close()

    def show(name, values):
        print(f"{name:28} median {statistics.median(values):7.2f} ms   max {max(values):7.2f} ms   (n={len(values)})")

    show("stop -> bestmove", stops)
    show("isready -> readyok (search)", readies)
    show("go movetime 100 -> bestmove", movetimes)


if __name__ == "__main__":
    main()

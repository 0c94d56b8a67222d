#!/usr/bin/env python3
"""isready latency while the engine is busy: ten `isready`s each during `go infinite`,
`go perft 7` and `bench 30` (issue 36's check).

Usage: python3 tools/ready_latency.py ENGINE
"""
import statistics
import subprocess
import sys
import time

BUSY_COMMANDS = ["go infinite", "go perft 7", "bench 30"]
SAMPLES = 10


def latencies(engine, busy):
    """Milliseconds from each `isready` to its `readyok` while `busy` runs."""
    process = subprocess.Popen(
        [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        process.stdin.write(line + "\n")
        process.stdin.flush()
        return time.perf_counter()

    send("position startpos")
    send(busy)
    time.sleep(0.5)  # let the job get going before the first isready
    samples = []
    for _ in range(SAMPLES):
        sent = send("isready")
        while True:
            line = process.stdout.readline()
            if not line:  # the engine is gone: a hang here would hide that
                sys.exit(f"{engine} closed its output during '{busy}'")
            if line.strip() == "readyok":
                samples.append((time.perf_counter() - sent) * 1000)
                break
        time.sleep(0.1)
    send("quit")
    process.wait()
    return samples


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for busy in BUSY_COMMANDS:
        samples = latencies(sys.argv[1], busy)
        print(f"{busy}: median {statistics.median(samples):.2f} ms, max {max(samples):.2f} ms")


if __name__ == "__main__":
    main()

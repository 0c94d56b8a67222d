#!/usr/bin/env python3
"""How far `go` overruns its clock: random positions from the perft suite, random clocks
(150/370/1000/3000 ms with a 10 or 80 ms increment), for SECONDS seconds. Prints the number of
searches, the slowest go->bestmove times, and the worst overshoot of the hard limit (a third of
the clock after Move Overhead, see src/time.rs), as measured from this script.

  python3 tools/overshoot.py [ENGINE] [SECONDS]     defaults: target/release/patina 60
"""

import os
import random
import subprocess
import sys
import time

if sys.argv[1:2] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
engine_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "release", "patina")
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
random.seed(5)
with open(os.path.join(root, "tests", "data", "perft_standard.epd")) as suite:
    fens = [line.split(";")[0].strip() for line in suite if line.strip() and not line.startswith("#")]

engine = subprocess.Popen([engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
slowest, overshoots = [], []
deadline = time.time() + seconds
while time.time() < deadline:
    fen = random.choice(fens)
    clock, increment = random.choice([150, 370, 1000, 3000]), random.choice([10, 80])
    engine.stdin.write(f"position fen {fen}\ngo wtime {clock} btime {clock} winc {increment} binc {increment}\n")
    engine.stdin.flush()
    start = time.perf_counter()
    while not engine.stdout.readline().startswith("bestmove"):
        pass
    elapsed = (time.perf_counter() - start) * 1000
    slowest.append((round(elapsed), clock, increment))
    overshoots.append(round(elapsed - (clock - 10) / 3))
engine.stdin.write("quit\n")
engine.stdin.flush()
engine.wait()
slowest.sort(reverse=True)
overshoots.sort(reverse=True)
print(f"{len(slowest)} searches; slowest (ms, clock, inc): {slowest[:5]}; worst overshoot of the hard limit (ms): {overshoots[:5]}")

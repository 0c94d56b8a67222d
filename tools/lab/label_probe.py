#!/usr/bin/env python3
"""How far datagen's labels sit from deeper searches, and how far the net sits from the labels.

Reads the text lines `patina-learn datagen --out FILE.txt` writes (`FEN | score | result`, quiet
positions, White's point of view), samples some, and for each asks the engine for its network
evaluation (`eval`) and for searches of the given node counts on a fresh table
(`ucinewgame`). It prints the mean squared distance between them in the trainer's units,
`sigmoid(cp / 400)`, over all sampled positions and over the balanced ones (|label| < 300),
where most games are decided. Mate scores and labels beyond 2,000 cp are skipped.

    target/release/patina-learn datagen --games 100 --threads 1 --soft-nodes 2000 \\
        --random-plies 2 --book "$BOOK" --seed 777 --out /tmp/probe.txt
    tools/lab/label_probe.py /tmp/probe.txt --engine target/release/patina --nodes 4000 16000 64000

(`make learn` builds patina-learn; BOOK names an EPD opening book such as noob_3moves.epd;
--engine defaults to the environment's PATINA, else target/release/patina.)
An existing record file works too, through `patina-learn data export data.bin --out /tmp/probe.txt`
(its FENs lose castling rights: the net does not read them, a search may score such positions a little differently).

If the labels sit about as far from a deep search as the net sits from the labels, the
labels' noise is a large share of what the net is asked to fit (docs/nets.md, label probe).
"""
import argparse
import math
import os
import random
import re
import statistics
import subprocess
import sys

SCORE = re.compile(r" score (cp|mate) (-?\d+)")
NET_EVAL = re.compile(r"^Network evaluation: ([-+]?\d+\.\d+)")


def sigmoid(cp):
    return 1.0 / (1.0 + math.exp(-cp / 400.0))


class Engine:
    """One engine process spoken to over UCI."""

    def __init__(self, path, hash_mb):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.read_until("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"label_probe: the engine closed its output while waiting for '{prefix}'")
            if line.startswith(prefix):
                return line

    def net_eval_white(self, fen):
        self.send(f"position fen {fen}")
        self.send("eval")
        match = NET_EVAL.match(self.read_until("Network evaluation"))
        return round(float(match.group(1)) * 100)

    def search_white(self, fen, nodes):
        """The last reported score of a search on a fresh table, from White's side; None for mates."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("label_probe: the engine closed its output during a search")
            found = SCORE.search(line)
            if found:
                last = found.groups()
            if line.startswith("bestmove"):
                break
        if last is None or last[0] == "mate":
            return None
        side = 1 if fen.split()[1] == "w" else -1
        return int(last[1]) * side

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def mean_squared(pairs):
    return sum((sigmoid(a) - sigmoid(b)) ** 2 for a, b in pairs) / len(pairs)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="a datagen .txt file")
    parser.add_argument("--engine", default=os.environ.get("PATINA") or "target/release/patina")
    parser.add_argument("--nodes", type=int, nargs="+", default=[64000], help="node counts of the deeper searches")
    parser.add_argument("--sample", type=int, default=500, help="positions to probe")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hash", type=int, default=64)
    args = parser.parse_args()

    lines = [line.strip() for line in open(args.data) if line.count("|") == 2]
    if not lines:
        sys.exit(f"label_probe: no 'FEN | score | result' lines in {args.data}")
    random.seed(args.seed)
    sample = random.sample(lines, min(args.sample, len(lines)))

    engine = Engine(args.engine, args.hash)
    rows = []  # (net eval, label, deep score per node count), all from White's side
    for line in sample:
        fen, label, _result = (field.strip() for field in line.split("|"))
        label = int(label)
        if abs(label) > 2000:
            continue
        deep = [engine.search_white(fen, nodes) for nodes in args.nodes]
        if None in deep:
            continue
        rows.append((engine.net_eval_white(fen), label, deep))
    engine.quit()
    if not rows:
        sys.exit("label_probe: every sampled position was a mate or beyond 2,000 cp")

    balanced = [row for row in rows if abs(row[1]) < 300]
    print(f"{len(rows)} positions ({len(balanced)} with |label| < 300); mean squared distance in sigmoid(cp/400)")
    print(f"{'pair':<28}{'all':>10}{'balanced':>10}")

    def report(name, pick):
        shown = [f"{mean_squared([pick(row) for row in group]):>10.6f}" if group else f"{'-':>10}" for group in (rows, balanced)]
        print(f"{name:<28}{''.join(shown)}")

    report("net vs label", lambda row: (row[0], row[1]))
    for index, nodes in enumerate(args.nodes):
        report(f"label vs {nodes} nodes", lambda row, i=index: (row[1], row[2][i]))
        report(f"net vs {nodes} nodes", lambda row, i=index: (row[0], row[2][i]))
    print(f"median |net - label|: {statistics.median(abs(row[0] - row[1]) for row in rows)} cp")


if __name__ == "__main__":
    main()

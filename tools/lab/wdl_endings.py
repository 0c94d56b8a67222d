#!/usr/bin/env python3
"""The WDL model's conversion curve (src/wdl/mod.rs, `CONVERSION_A` and `CONVERSION_B`): how large
a search score means a forced win in an ending where only one side can win.

Usage: python3 tools/lab/wdl_endings.py --tables DIR [--engine target/release/patina]
           [--per-ending 120] [--seed 1] [--nodes 20000] [--out POSITIONS.txt]
       python3 tools/lab/wdl_endings.py --from POSITIONS.txt [--from MORE.txt ...]

For each ending of a lone king against up to three men whose tables DIR holds (KPvK, KRvK,
KBNvK, KNNvK, KRPvK, ...), places the men at random (legal, the game not over, either side to
move), labels each position won or not for the stronger side by the tables (a win under the
fifty-move rule; cursed wins count as draws), and scores it with a search of the engine
(`ucinewgame`, `go nodes N`, the last score, from the stronger side's view; a mate counts as
+/-30000). Then fits P(win) = 1 / (1 + exp((a - s) / b)) by maximum likelihood over all
positions (a grid of 1 cp in a, 1 cp in b) and prints a, b, the cross-entropy, and each
ending's score range for wins and draws. `--out` keeps the labelled, scored positions
(`ending|fen|wdl|stronger side to move?|score`), so a fit can be repeated without searching:
`--from` (repeatable) fits the positions of such files, pooled, and searches nothing.

The shipped constants come from seeds 1 (120 per ending) and 2 (200 per ending) pooled, with
the standard 3-5 piece Syzygy set (18 endings: its 5-man set lacks KPPPvK) and the release engine at
62f1845 (net 14); refit when a new net scores endings differently.
"""
import argparse
import math
import random
import subprocess
import sys

import chess
import chess.syzygy

ENDINGS = [
    "KPvK", "KNNvK", "KBBvK", "KBNvK", "KRvK", "KQvK", "KPPvK", "KBPvK", "KNPvK", "KRPvK",
    "KQPvK", "KRRvK", "KQQvK", "KRBvK", "KRNvK", "KQRvK", "KQBvK", "KQNvK", "KPPPvK",
]
PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT,
          "P": chess.PAWN}
ATTEMPTS_PER_POSITION = 1000


def random_position(rng, strong, weak):
    """A random legal position of `strong` against `weak`, or None when this try failed."""
    board = chess.Board(None)
    strong_color = rng.choice([chess.WHITE, chess.BLACK])
    men = [(c, strong_color) for c in strong] + [(c, not strong_color) for c in weak]
    for (letter, color), square in zip(men, rng.sample(range(64), len(men))):
        if letter == "P" and chess.square_rank(square) in (0, 7):
            return None
        board.set_piece_at(square, chess.Piece(PIECES[letter], color))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    if not board.is_valid() or board.is_game_over():
        return None
    return board, strong_color


def labelled_positions(tables, ending, count, rng):
    """`count` positions of `ending` with the stronger side's WDL; [] when a table is missing."""
    strong, weak = ending.split("v")
    found, attempts = [], 0
    while len(found) < count and attempts < count * ATTEMPTS_PER_POSITION:
        attempts += 1
        drawn = random_position(rng, strong, weak)
        if drawn is None:
            continue
        board, strong_color = drawn
        try:
            wdl = tables.probe_wdl(board)
        except chess.syzygy.MissingTableError:
            return []
        found.append((board, wdl if board.turn == strong_color else -wdl, board.turn == strong_color))
    return found


class Engine:
    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def score(self, fen, nodes):
        """The last reported score of `go nodes`, side to move's view; mates as +/-30000."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = 0
        for line in self.process.stdout:
            tokens = line.split()
            if tokens[:2] == ["info", "depth"] and "score" in tokens:
                kind, value = tokens[tokens.index("score") + 1: tokens.index("score") + 3]
                score = int(value) if kind == "cp" else (30000 if int(value) > 0 else -30000)
            if tokens[:1] == ["bestmove"]:
                return score
        sys.exit("the engine stopped answering")

    def close(self):
        self.send("quit")
        self.process.wait()


def cross_entropy(samples, a, b):
    total = 0.0
    for score, won in samples:
        z = max(-700.0, min(700.0, (score - a) / b))
        p = min(max(1.0 / (1.0 + math.exp(-z)), 1e-12), 1.0 - 1e-12)
        total -= math.log(p if won else 1.0 - p)
    return total / len(samples)


def fit(samples):
    """(cross-entropy, a, b) minimising the cross-entropy: a coarse grid, then 1 cp around it."""
    coarse = min((cross_entropy(samples, a, b), a, b) for a in range(100, 1000, 20) for b in range(5, 200, 10))
    _, a0, b0 = coarse
    return min((cross_entropy(samples, a, b), a, b)
               for a in range(a0 - 20, a0 + 21) for b in range(max(1, b0 - 10), b0 + 11))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", help="a folder of Syzygy tables (required unless --from)")
    parser.add_argument("--engine", default="target/release/patina")
    parser.add_argument("--per-ending", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--out", help="write the labelled, scored positions here")
    parser.add_argument("--from", dest="inputs", action="append", default=[],
                        help="fit the positions of an earlier --out file instead of searching (repeatable)")
    args = parser.parse_args()
    if args.inputs:
        if args.tables or args.out:
            parser.error("--from fits saved positions and searches nothing: drop --tables and --out")
        report([row for path in args.inputs for row in read_rows(path)])
        return
    if not args.tables:
        parser.error("--tables is required unless --from names positions to fit")

    rng = random.Random(args.seed)
    tables = chess.syzygy.open_tablebase(args.tables)
    engine = Engine(args.engine)
    rows = []
    for ending in ENDINGS:
        positions = labelled_positions(tables, ending, args.per_ending, rng)
        if not positions:
            print(f"{ending}: no table, skipped", file=sys.stderr)
            continue
        for board, wdl, strong_to_move in positions:
            score = engine.score(board.fen(), args.nodes)
            rows.append((ending, board.fen(), wdl, strong_to_move, score if strong_to_move else -score))
        print(f"{ending}: {len(positions)} positions", file=sys.stderr)
    engine.close()
    if args.out:
        write_rows(args.out, rows)
    report(rows)


def write_rows(path, rows):
    """Writes `rows` (ending, fen, wdl, strong side to move, score) as `read_rows` reads them."""
    with open(path, "w") as out:
        for ending, fen, wdl, strong_to_move, score in rows:
            side = "stm_strong" if strong_to_move else "stm_weak"
            out.write(f"{ending}|{fen}|{wdl}|{side}|{score}\n")


def read_rows(path):
    """The rows of a file `--out` wrote: (ending, fen, wdl, strong side to move, score)."""
    rows = []
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            fields = line.rstrip("\n").split("|")
            try:
                ending, fen, wdl, side, score = fields
                if side not in ("stm_strong", "stm_weak"):
                    raise ValueError(side)
                rows.append((ending, fen, int(wdl), side == "stm_strong", int(score)))
            except ValueError:
                sys.exit(f"{path}:{number}: not a line --out writes: {line.rstrip()}")
    if not rows:
        sys.exit(f"{path}: no positions")
    return rows


def report(rows):
    """Fits the conversion curve to `rows` and prints it with each ending's score ranges."""
    samples = [(max(-3000, min(3000, score)), wdl == 2) for _, _, wdl, _, score in rows]
    entropy, a, b = fit(samples)
    print(f"{len(samples)} positions of {len({row[0] for row in rows})} endings: a = {a}, b = {b}, "
          f"cross-entropy {entropy:.5f} nats per position")
    for ending in dict.fromkeys(row[0] for row in rows):
        wins = sorted(score for e, _, wdl, _, score in rows if e == ending and wdl == 2)
        draws = sorted(score for e, _, wdl, _, score in rows if e == ending and wdl != 2)
        span = lambda scores: f"{scores[0]}..{scores[-1]}" if scores else "-"
        print(f"  {ending:7} wins {len(wins):4} scoring {span(wins):>14}   not won {len(draws):4} "
              f"scoring {span(draws):>12}")


if __name__ == "__main__":
    main()

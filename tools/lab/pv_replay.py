#!/usr/bin/env python3
"""Replays the games behind fastchess's "PV continues after ..." warnings through one engine
and counts the `info ... pv` lines that run past a threefold repetition or the fifty-move rule.

Usage: python3 tools/lab/pv_replay.py ENGINE FASTCHESS_LOG NAME [NODES] [GAMES]

NAME is the engine's name in the log (the warnings end "from NAME"). Each game is replayed from
its opening for NAME's side with `go nodes NODES` (the match's node limit) and no `ucinewgame`
inside a game, so a fixed-node, one-thread engine fills its table as it did in the match. Two
binaries with the same search replay the same trees: compare their counts.
Needs python-chess (`pip install chess`).
"""

import subprocess
import sys

import chess

WARNING = "Warning; PV continues after"


def warned_games(log_path, name):
    """(opening FEN, the game's moves up to the warned move) for each game warned about once."""
    lines = open(log_path).read().splitlines()
    seen = set()
    for index, line in enumerate(lines):
        if not (line.startswith(WARNING) and line.endswith("from " + name)):
            continue
        nearby = lines[index : index + 4]
        fen = next(l for l in nearby if l.startswith("Position; "))[len("Position; ") :]
        moves = next(l for l in nearby if l.startswith("Moves; "))[len("Moves; ") :].split()
        fen = fen.removeprefix("fen ")
        if (fen, moves[0]) not in seen:
            seen.add((fen, moves[0]))
            yield fen, moves


def breaks_a_rule(board, pv):
    """True when the line plays on from a position where the game is already drawn by rule."""
    board = board.copy()
    for move in pv:
        if board.is_repetition(3) or board.halfmove_clock >= 100:
            return True
        board.push_uci(move)
    return False


class Engine:
    def __init__(self, path):
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.send("setoption name Hash value 16")
        self.send("isready")
        while self.read() != ["readyok"]:
            pass

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def read(self):
        line = self.process.stdout.readline()
        if not line:
            sys.exit("the engine closed its output")
        return line.split()

    def search(self, fen, moves, nodes):
        """The PVs of every `info` line and the best move."""
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        pvs = []
        while True:
            tokens = self.read()
            if tokens and tokens[0] == "bestmove":
                return pvs, tokens[1]
            if "pv" in tokens:
                pvs.append(tokens[tokens.index("pv") + 1 :])


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    path, log_path, name = sys.argv[1:4]
    nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 20000
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    engine = Engine(path)
    games = lines = broken = 0
    for fen, moves in warned_games(log_path, name):
        if games == limit:
            break
        games += 1
        board = chess.Board(fen)
        warned_side = board.turn if len(moves) % 2 == 1 else not board.turn
        engine.send("ucinewgame")
        for index, move in enumerate(moves):
            if board.turn == warned_side:
                pvs, _ = engine.search(fen, moves[:index], nodes)
                lines += len(pvs)
                broken += sum(breaks_a_rule(board, pv) for pv in pvs)
            board.push_uci(move)
    print(f"{path}: {games} games, {lines} pv lines, {broken} past a repetition or fifty moves")
    engine.send("quit")


if __name__ == "__main__":
    main()

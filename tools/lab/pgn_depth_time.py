#!/usr/bin/env python3
"""Each engine's depth and thinking time a move, from a fastchess PGN (issue 65's two-threads
check: does the side with more threads search deeper, and does it spend its clock alike?).

Usage: python3 tools/lab/pgn_depth_time.py GAMES.pgn [FIRST_PLY LAST_PLY]   (plies 4-60 by default)
Needs python-chess (`pip install chess`), as tools/lab/clock_share.py does.

Plies count each game's moves from its first (0-based, the opening's FEN or the start); a move
whose comment has no `score/depth time` head (a book move) is skipped. The default window
skips the first moves, where the table is cold, and the endgames, where depth runs away.
Prints, per engine, the moves read and the mean and median depth and the mean time a move.
"""

import re
import statistics
import sys
from collections import defaultdict

import chess.pgn

SEARCH_COMMENT = re.compile(r"^[+-]?M?[0-9.]+/(\d+) ([0-9.]+)s")


def main() -> None:
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    first, last = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (4, 60)
    depths, times = defaultdict(list), defaultdict(list)
    with open(sys.argv[1], encoding="utf-8") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            names = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
            # The movers alternate from the opening's side to move (`node.board()` would replay
            # the game from its start at every ply).
            mover = game.board().turn
            for ply, node in enumerate(game.mainline()):
                search = SEARCH_COMMENT.match(node.comment)
                if search and first <= ply <= last:
                    depths[names[mover]].append(int(search.group(1)))
                    times[names[mover]].append(float(search.group(2)))
                mover = not mover
    for name in sorted(depths):
        print(
            f"{name}: {len(depths[name])} moves, depth mean {statistics.mean(depths[name]):.2f}"
            f" median {statistics.median(depths[name])}, time mean {statistics.mean(times[name]):.3f} s"
        )


if __name__ == "__main__":
    main()

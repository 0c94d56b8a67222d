#!/usr/bin/env python3
"""Each engine's depth and thinking time a move, from a fastchess PGN (issue 65's two-threads
check: does the side with more threads search deeper, and does it spend its clock alike?).

Usage: python3 tools/pgn_depth_time.py GAMES.pgn [FIRST_PLY LAST_PLY]   (plies 5-61 by default)

Reads the `{score/depth time` head of each move's comment; plies count those moves from 0 (with
an EPD book, the PGN's moves from its FEN; book moves without such a comment are not counted).
The default
window skips the first moves, where the table is cold, and the endgames, where depth runs away.
Prints, per engine, the moves read and the mean and median depth and the mean time a move.
"""

import re
import statistics
import sys
from collections import defaultdict

MOVE_COMMENT = re.compile(r"\{([+-]?M?[0-9.]+)/(\d+) ([0-9.]+)s")


def main() -> None:
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    first, last = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (4, 60)
    depths = defaultdict(list)
    times = defaultdict(list)
    text = open(sys.argv[1], encoding="utf-8").read()
    for game in text.split("[Event ")[1:]:
        white = re.search(r'\[White "([^"]+)"\]', game).group(1)
        black = re.search(r'\[Black "([^"]+)"\]', game).group(1)
        moves = game[game.index("\n\n") :]
        for ply, (_, depth, seconds) in enumerate(MOVE_COMMENT.findall(moves)):
            if first <= ply <= last:
                side = white if ply % 2 == 0 else black
                depths[side].append(int(depth))
                times[side].append(float(seconds))
    for side in sorted(depths):
        print(
            f"{side}: {len(depths[side])} moves, depth mean {statistics.mean(depths[side]):.2f}"
            f" median {statistics.median(depths[side])}, time mean {statistics.mean(times[side]):.3f} s"
        )


if __name__ == "__main__":
    main()

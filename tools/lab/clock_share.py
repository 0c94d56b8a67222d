#!/usr/bin/env python3
"""Share of the clock each engine has used by a given move, from a fastchess PGN written with
`-pgnout file=F timeleft=true` (issue 35: 40/10 and 10+0.1 against Ethereal 12).

Usage: python3 tools/lab/clock_share.py GAMES.pgn [MOVE]   (MOVE defaults to 20)

MOVE counts the engine's own moves from the opening book's last (the clock starts there). The
clock left after each engine's MOVEth move is read from the comment's `tl=`; the share used is
1 - left / given, where `given` is what the clock has handed out by then, from the
`TimeControl` tag (or, where the engines had different clocks, each side's
`WhiteTimeControl` / `BlackTimeControl`):
- `40/10` (moves to go): the first period's 10 s. MOVE must fall inside the first period
  (before its last move, whose `tl=` already holds the next period).
- `10+0.1` (increment): the base 10 s plus MOVE + 1 increments (fastchess credits one before
  the first move: after a first move of 0.665 s its `tl=` reads 10 + 0.2 - 0.665 = 9.535 s).
- `10` (sudden death): the base.
Prints each engine's median, quartiles and extremes over the games that reached that move,
and any time forfeits.
"""

import math
import re
import statistics
import sys

import chess.pgn

TIME_LEFT = re.compile(r"tl=([0-9.]+)s")


def time_given(tag, move_number):
    """Seconds the clock has handed an engine by its `move_number`th move under `tag`."""
    first = tag.split(":")[0]
    try:
        if "/" in first:
            moves, seconds = first.split("/", 1)
            moves = int(moves)
            if move_number >= moves:
                # The clock after the period's last move already holds the next period.
                sys.exit(f"move {move_number} is not inside the first period (moves 1-{moves - 1})")
            given = float(seconds)
        else:
            base, _, increment = first.partition("+")
            # fastchess's clock holds one increment more than the moves made (see the module doc).
            given = float(base) + (move_number + 1) * float(increment or 0)
    except ValueError:
        given = math.nan
    if not math.isfinite(given) or given <= 0:
        # `-`, `inf` (float() reads it) or nonsense: a fixed-node or fixed-time match.
        sys.exit(f"TimeControl {tag!r} is not a clock (a fixed-node or fixed-time match?)")
    return given


def clock_tag(headers, white):
    """The clock one side played under: its own tag where the engines' clocks differ (fastchess
    writes `WhiteTimeControl` / `BlackTimeControl`), else the game's `TimeControl`."""
    own = headers.get("WhiteTimeControl" if white else "BlackTimeControl")
    if own is None and "TimeControl" not in headers:
        sys.exit("the PGN has neither a TimeControl tag nor each side's (WhiteTimeControl)")
    return own or headers["TimeControl"]


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    move_number = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    shares, forfeits = {}, {}
    with open(sys.argv[1]) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            given = {side: time_given(clock_tag(game.headers, side), move_number) for side in (True, False)}
            names = {True: game.headers["White"], False: game.headers["Black"]}
            if "time forfeit" in game.headers.get("Termination", "").lower():
                loser = names[game.headers["Result"] == "0-1"]
                forfeits[loser] = forfeits.get(loser, 0) + 1
            played = {True: 0, False: 0}
            # The sides alternate from the opening's side to move (`node.board()` at every ply
            # would replay the game from its start each time).
            mover = game.board().turn
            for node in game.mainline():
                played[mover] += 1
                left = TIME_LEFT.search(node.comment) if played[mover] == move_number else None
                if left:
                    shares.setdefault(names[mover], []).append(1 - float(left.group(1)) / given[mover])
                mover = not mover
    for name, values in sorted(shares.items()):
        values.sort()
        quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
        print(
            f"{name}: clock used by move {move_number} over {len(values)} games: median "
            f"{statistics.median(values):.0%}, quartiles {quartiles[0]:.0%}-{quartiles[2]:.0%}, "
            f"range {values[0]:.0%}-{values[-1]:.0%}; time forfeits {forfeits.get(name, 0)}"
        )


if __name__ == "__main__":
    main()

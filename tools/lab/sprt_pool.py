#!/usr/bin/env python3
"""Pools fastchess runs of one test (the same two engines, other seeds) into one SPRT.

An SPRT run that reaches its game cap undecided can go on as a fresh run with another
`-srand`; the sequential test is the pooled one. Reads the last `Ptnml(0-2): [...]` line of
each fastchess log and prints the pooled pentanomial, Elo with its 95% error, nElo and the
normalized-Elo LLR (fastchess's default model; matches its own Elo, error and LLR for a single
log). Fixed-count runs (`GAMES=N`, no SPRT) pool the same way: read the Elo and its error.

    python3 tools/lab/sprt_pool.py m/b8.log m/b8-2.log [--elo0 0 --elo1 10]

`--decided` exits 0 once the pooled test has decided and 1 before, so a watcher that stops the
running part at the pooled decision is one loop (fastchess stops cleanly on SIGINT):

    until python3 tools/lab/sprt_pool.py a.log b.log --decided; do sleep 20; done
    pkill -INT -f "fastchess.*name=NAME-b "
"""
import argparse
import math
import re
import sys

SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]
NELO_PER_T = 800 / math.log(10)


def last_pentanomial(path):
    found = None
    with open(path, errors="replace") as log:
        for line in log:
            match = re.search(r"Ptnml\(0-2\):\s*\[([\d,\s]+)\]", line)
            if match:
                found = [int(x) for x in match.group(1).split(",")]
    if found is None or len(found) != 5:
        sys.exit(f"sprt_pool: no Ptnml(0-2) line in {path}")
    return found


def elo_of(score):
    return -400 * math.log10(1 / score - 1) if 0 < score < 1 else float("nan")


def summary(pent, elo0, elo1):
    pairs = sum(pent)
    mu = sum(s * c for s, c in zip(SCORES, pent)) / pairs
    var = sum(c * (s - mu) ** 2 for s, c in zip(SCORES, pent)) / pairs
    sigma = math.sqrt(var)
    # Normalized Elo: the score's distance from 1/2 in per-pair standard deviations.
    mu0 = 0.5 + elo0 / NELO_PER_T * math.sqrt(2) * sigma
    mu1 = 0.5 + elo1 / NELO_PER_T * math.sqrt(2) * sigma
    llr = pairs / (2 * var) * ((mu - mu0) ** 2 - (mu - mu1) ** 2)
    elo = elo_of(mu)
    # 95% interval on the pair scores, as fastchess prints it (half the interval's width).
    margin = 1.96 * sigma / math.sqrt(pairs)
    elo_error = (elo_of(mu + margin) - elo_of(mu - margin)) / 2
    nelo = (mu - 0.5) / (math.sqrt(2) * sigma) * NELO_PER_T
    return pairs, mu, elo, elo_error, nelo, llr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--decided", action="store_true",
                        help="exit 0 when the pooled test has decided, 1 while it has not")
    args = parser.parse_args()
    pooled = [0] * 5
    for path in args.logs:
        pent = last_pentanomial(path)
        pooled = [a + b for a, b in zip(pooled, pent)]
        print(f"{path}: {pent}")
    pairs, mu, elo, elo_error, nelo, llr = summary(pooled, args.elo0, args.elo1)
    upper = math.log((1 - args.beta) / args.alpha)
    lower = math.log(args.beta / (1 - args.alpha))
    decided = llr >= upper or llr <= lower
    verdict = ("H1 accepted" if llr >= upper else "H0 accepted") if decided else "no decision yet"
    print(f"pooled {pooled}: {2 * pairs} games, score {100 * mu:.2f}%, Elo {elo:+.1f} +/- {elo_error:.1f}, nElo {nelo:+.1f}")
    print(f"LLR {llr:.2f} ({lower:.2f}, {upper:.2f}) [{args.elo0}, {args.elo1}]: {verdict}")
    if args.decided and not decided:
        sys.exit(1)


if __name__ == "__main__":
    main()

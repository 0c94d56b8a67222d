#!/usr/bin/env bash
# Soak test: many fast games, two at a time on two cores (so the engine plays under CPU
# contention), against Stockfish limited to UCI_Elo 1600. Passes only if Patina had no time
# forfeit, illegal move, crash or stall in any game.
#
#   tools/soak.sh [GAMES] [THREADS]      defaults: 1000 games, Threads 1 on both sides
#   tools/soak.sh 200 2                  the two-thread soak
#
#   BOOK=noob_3moves.epd MATCH_PY=match.py tools/soak.sh 200
#
# Needs python-chess (`pip install chess`), Stockfish (`apt-get install stockfish`), match.py
# (a python-chess match runner) and an opening book.
# Environment: BOOK (the openings, .epd or .pgn; required), MATCH_PY (match.py; required),
# PATINA (binary, default target/release/patina, built if missing), OPPONENT (default
# /usr/games/stockfish), TC (default 1+0.01), SEED. The log and PGN go to target/soak/. The
# shared setup is tools/lab/match-setup.sh.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0; fi

games=${1:-1000}
threads=${2:-1}
tc=${TC:-1+0.01}
tool=soak
needs=(python-chess match opponent book)
# shellcheck source=tools/lab/match-setup.sh
source "$(dirname "$0")/lab/match-setup.sh"

name="soak-${games}g-t${threads}-$(date -u +%Y%m%dT%H%M%SZ)"
python3 "$match_py" \
    --engine name=patina cmd="$patina" \
    --engine name=sf1600 cmd="$opponent" opt.UCI_LimitStrength=true opt.UCI_Elo=1600 \
    --each tc="$tc" opt.Hash=16 opt.Threads="$threads" \
    --games "$games" --concurrency 2 --openings "$book" \
    "${seed_args[@]}" --pgnout "$out/$name.pgn" | tee "$out/$name.log"

failures=$(grep '^Failures of patina:' "$out/$name.log" || true)
echo "soak: $failures (log and games in target/soak/$name.*)"
# "Failures of patina: time forfeit 0, illegal move 0, crash 0, stall 0"
if [[ -z $failures ]] || grep -qE '[1-9][0-9]*' <<<"${failures#*:}"; then
    echo "soak: FAILED" >&2
    exit 1
fi
echo "soak: passed"

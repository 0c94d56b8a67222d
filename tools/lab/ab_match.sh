#!/usr/bin/env bash
# One Patina build against another, each with its own built-in net, with fastchess: the matches
# that decide a search or time-management change and issue 89's check 1 (main against an older
# release). Fixed nodes with SPRT [0, 10] by default, or a clock.
#
#   tools/lab/ab_match.sh NAME CANDIDATE BASE           fixed nodes, SPRT [0, 10], 8,000-game cap
#   TC=10+0.1 GAMES=400 tools/lab/ab_match.sh NAME C B  a clock, a fixed game count, no SPRT
#   TC=5+0.05 SPRT=1 tools/lab/ab_match.sh NAME C B     a clock with SPRT [0, 10] (time management)
#   NODES=120000 SPRT=0 GAMES=1000 ab_match.sh NAME C B fixed nodes, a fixed game count (scaling)
#   RESUME=1 tools/lab/ab_match.sh NAME C B             carry on a stopped run from its config
#
# CANDIDATE and BASE are engine binaries (build each with `make EXE=path` from its commit).
# Environment: BOOK (the openings, .epd or .pgn; required unless RESUME), FASTCHESS (default
# `fastchess` on PATH), NODES (default 20000), TC (a clock such as 10+0.1; replaces NODES),
# SPRT (1: SPRT [0, 10], the default at fixed nodes; 0: none, the default at a clock), GAMES
# (default 8000 with SPRT, else 400; even: games come in pairs with colours reversed), HASH (MiB,
# default 16), SRAND (the opening shuffle's seed, default 1), CONCURRENCY (default 2).
# docs/tests.md's rows used noob_3moves.epd.
# Log, PGN (with the clock left after each move) and fastchess config go to
# target/ab_match/NAME-{nodes,TC}.*; every game must end "normal" and the log must be free of
# warnings, or the script says so and fails. A clock match wants the machine to itself: stop
# datagen first (pkill -STOP), or its searches lose time to it.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0; fi

if [[ $# -ne 3 ]]; then
    sed -n '2,/^[^#]/{/^#/p}' "$0" >&2
    exit 2
fi
name=$1 candidate=$2 base=$3
for engine in "$candidate" "$base"; do
    [[ -x $engine ]] || { echo "ab_match: no engine binary $engine" >&2; exit 2; }
done
tool=ab_match
needs=(fastchess)
[[ -n ${RESUME:-} ]] || needs+=(book)
PATINA=$candidate
# shellcheck source=tools/lab/match-setup.sh
source "$(dirname "$0")/match-setup.sh"

# One SPRT switch for both limits: on by default at fixed nodes, off at a clock.
if [[ -n ${TC:-} ]]; then
    limit=(tc="$TC") tag=$TC sprt_default=0
else
    nodes=${NODES:-20000}
    [[ $nodes =~ ^[1-9][0-9]*$ ]] || { echo "ab_match: node count '$nodes' is not a positive number" >&2; exit 2; }
    limit=(tc=inf nodes="$nodes") tag=nodes sprt_default=1
fi
case ${SPRT:-$sprt_default} in
    1) sprt=(-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05) ;;
    0) sprt=() ;;
    *) echo "ab_match: SPRT '$SPRT' is neither 0 nor 1" >&2; exit 2 ;;
esac
if [[ ${#sprt[@]} -gt 0 ]]; then games=${GAMES:-8000}; else games=${GAMES:-400}; fi
require_game_pairs "$games"
hash=${HASH:-16}
[[ $hash =~ ^[1-9][0-9]*$ ]] || { echo "ab_match: HASH '$hash' is not a positive number of MiB" >&2; exit 2; }
stem="$out/$name-$tag"

if [[ -n ${RESUME:-} ]]; then
    resume_run "$stem"
else
    refuse_existing_pgn "$stem.pgn" "pick another NAME, or RESUME=1"
    "$fastchess" \
        -engine cmd="$(realpath "$candidate")" name="$name" \
        -engine cmd="$(realpath "$base")" name=base \
        -each "${limit[@]}" option.Hash="$hash" option.Threads=1 \
        -openings file="$book" format="$book_format" order=random -srand "${SRAND:-1}" \
        -rounds $((games / 2)) -repeat -concurrency "${CONCURRENCY:-2}" "${sprt[@]}" \
        -pgnout file="$stem.pgn" timeleft=true -config outname="$stem-config.json" | tee "$stem.log"
fi

check_run_end "$stem"

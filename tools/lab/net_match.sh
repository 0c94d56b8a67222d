#!/usr/bin/env bash
# One net against another in the same binary (EvalFile on both sides), with fastchess: the
# matches that decide a net (docs/tests.md). Fixed nodes with SPRT [0, 10] by default, or a
# clock check at a fixed game count.
#
#   tools/lab/net_match.sh NAME CANDIDATE.nnue BASE.nnue        fixed nodes, SPRT, 1,200-game cap
#   TC=8+0.08 GAMES=200 tools/lab/net_match.sh NAME CAND BASE   clock check, no SPRT
#
# Environment: BOOK (the openings, .epd or .pgn; required), FASTCHESS (default `fastchess` on
# PATH), PATINA (binary, default target/release/patina, built if missing), NODES (default
# 20000: the base's, and the candidate's unless CAND_NODES), CAND_NODES (the candidate's own
# node count: a wider, slower net gets nodes in proportion to its measured nps, so that fixed
# nodes still compare equal time), TC (a clock such as 8+0.08; replaces NODES and turns SPRT
# off), GAMES (default 1200; even, games come in pairs with colours reversed), SRAND (the
# opening shuffle's seed, default 1), CONCURRENCY (default 2). The nets' rows in docs/tests.md
# used noob_3moves.epd.
# Log, PGN and fastchess config go to target/net_match/NAME-{nodes,TC}.*; every game must end
# "normal" and the log must be free of warnings, or the script says so and fails.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0; fi

if [[ $# -ne 3 ]]; then
    sed -n '2,/^[^#]/{/^#/p}' "$0" >&2
    exit 2
fi
name=$1 candidate=$2 base=$3
games=${GAMES:-1200}
srand=${SRAND:-1}
concurrency=${CONCURRENCY:-2}
for net in "$candidate" "$base"; do
    [[ -f $net ]] || { echo "net_match: no net file $net" >&2; exit 2; }
done
tool=net_match
needs=(fastchess book)
# shellcheck source=tools/lab/match-setup.sh
source "$(dirname "$0")/match-setup.sh"
require_game_pairs "$games"

if [[ -n ${TC:-} ]]; then
    [[ -z ${CAND_NODES:-} ]] || { echo "net_match: CAND_NODES goes with fixed nodes, not TC" >&2; exit 2; }
    candidate_limit=(tc="$TC") base_limit=(tc="$TC") tag=$TC sprt=()
else
    nodes=${NODES:-20000}
    candidate_nodes=${CAND_NODES:-$nodes}
    for count in "$nodes" "$candidate_nodes"; do
        [[ $count =~ ^[1-9][0-9]*$ ]] || { echo "net_match: node count '$count' is not a positive number" >&2; exit 2; }
    done
    candidate_limit=(tc=inf nodes="$candidate_nodes") base_limit=(tc=inf nodes="$nodes") tag=nodes
    sprt=(-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05)
fi
stem="$out/$name-$tag"
refuse_existing_pgn "$stem.pgn" "pick another NAME"

"$fastchess" \
    -engine cmd="$patina" name="$name" option.EvalFile="$(realpath "$candidate")" "${candidate_limit[@]}" \
    -engine cmd="$patina" name=base option.EvalFile="$(realpath "$base")" "${base_limit[@]}" \
    -each option.Hash=16 option.Threads=1 \
    -openings file="$book" format="$book_format" order=random -srand "$srand" \
    -rounds $((games / 2)) -repeat -concurrency "$concurrency" "${sprt[@]}" \
    -pgnout file="$stem.pgn" -config outname="$stem-config.json" | tee "$stem.log"

check_run_end "$stem"

#!/usr/bin/env bash
# The net's own score (White's view, before the search's material scaling) of twelve textbook
# endings, one column per net: how far a net guesses the endings of five pieces or fewer that
# games without tablebases reach (docs/tests.md, 2026-12-05). Eight are draws, four wins (each
# checked against the Syzygy tables).
#
#   tools/lab/endgame_evals.sh NET.nnue [NET.nnue ...]
#
# Environment: PATINA (binary, default target/release/patina).
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0; fi

if [[ $# -eq 0 ]]; then
    sed -n '2,/^[^#]/{/^#/p}' "$0" >&2
    exit 2
fi
patina=${PATINA:-target/release/patina}
endings=(
    "8/8/4k3/3b4/8/8/3R4/4K3 w - - 0 1|KRvKB, draw"
    "8/8/4k3/3r4/8/2B5/3R4/4K3 w - - 0 1|KRBvKR, draw"
    "8/8/4k3/3n4/8/8/3R4/4K3 w - - 0 1|KRvKN, draw"
    "8/8/4k3/8/8/2N5/3N4/4K3 w - - 0 1|KNNvK, draw"
    "k7/8/8/8/8/8/P7/K7 w - - 0 1|KPvK rook pawn, draw"
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1|KPvK king in front, draw"
    "8/8/1r2k3/8/4P3/4K3/8/R7 w - - 0 1|KRPvKR, draw"
    "8/8/4k3/8/8/2B5/P7/K7 w - - 0 1|KBPvK wrong bishop, draw"
    "4k3/8/8/4K3/4P3/8/8/8 w - - 0 1|KPvK, win"
    "8/8/8/3k4/8/8/3K4/R7 w - - 0 1|KRvK, win"
    "8/8/4k3/8/8/8/3Q4/r3K3 w - - 0 1|KQvKR, win"
    "2K5/2P1k3/8/8/8/8/7r/R7 w - - 0 1|KRPvKR Lucena, win"
)
printf "%-28s" "ending"
for net in "$@"; do printf "%12s" "$(basename "$net" .nnue)"; done
echo
for entry in "${endings[@]}"; do
    fen=${entry%%|*}
    printf "%-28s" "${entry#*|}"
    for net in "$@"; do
        score=$("$patina" "setoption name EvalFile value $(realpath "$net")" "position fen $fen" "eval" "quit" 2>&1 |
            awk '/^Network evaluation/ {print $3}')
        printf "%12s" "${score:-?}"
    done
    echo
done

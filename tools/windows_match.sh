#!/usr/bin/env bash
# The Windows build, under Wine, against the Linux build on the clock (`make windows-match`):
# a short fastchess match that must end with every game "normal" (no time loss, illegal move,
# disconnect or stall) and a log free of warnings. Both play the same search and net, so the
# score is only a sanity check; what it tests is the Windows engine's clock, pipes and protocol
# over whole games.
#
#   BOOK=noob_3moves.epd tools/windows_match.sh [PATINA.EXE]
#
# Environment: BOOK (the openings, .epd or .pgn; required), FASTCHESS (default `fastchess` on
# PATH), PATINA (the Linux binary, default target/release/patina), GAMES (default 20, even), TC
# (default 2+0.02), SRAND (the opening shuffle's seed, default 1), WINEPREFIX (default
# target/wine, as tools/windows_check.sh). Log, PGN and fastchess config go to
# target/windows_match/TC.*; an older PGN there is moved aside, since fastchess would append to
# it. The shared setup is tools/lab/match-setup.sh.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0; fi
tool=windows_match
needs=(fastchess book)
# shellcheck source=tools/lab/match-setup.sh
source "$(dirname "$0")/lab/match-setup.sh"
exe=${1:-$root/target/windows/x86-64/x86_64-win7-windows-gnu/release/patina.exe}
games=${GAMES:-20}
tc=${TC:-2+0.02}
srand=${SRAND:-1}
require_game_pairs "$games"
wine=$(command -v wine) || { echo "windows_match: no wine: apt-get install wine" >&2; exit 2; }
[[ -f $exe ]] || { echo "windows_match: no $exe (make windows)" >&2; exit 2; }
# shellcheck source=tools/wine-env.sh
source "$root/tools/wine-env.sh"

stem="$out/$tc"
[[ ! -e $stem.pgn ]] || mv "$stem.pgn" "$stem.pgn.old"
"$fastchess" \
    -engine cmd="$wine" args="$(realpath "$exe")" name=patina-windows \
    -engine cmd="$patina" name=patina-linux \
    -each tc="$tc" option.Hash=16 option.Threads=1 \
    -openings file="$book" format="$book_format" order=random -srand "$srand" \
    -rounds $((games / 2)) -repeat -concurrency 1 \
    -pgnout file="$stem.pgn" -config outname="$stem-config.json" | tee "$stem.log"

check_run_end "$stem" "$games"

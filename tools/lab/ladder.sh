#!/usr/bin/env bash
# Issue 34's ladder rows: Patina against a reference engine at 10+0.1, one thread, Hash 64, 200
# games with colours reversed in pairs, with fastchess (docs/tests.md logs each row).
#
#   tools/lab/ladder.sh ethereal       Ethereal 12 (/usr/games/ethereal-chess)
#   tools/lab/ladder.sh stockfish      Stockfish 15.1 at full strength (/usr/games/stockfish)
#   tools/lab/ladder.sh sf2400         Stockfish 15.1 with UCI_LimitStrength and UCI_Elo 2400
#   tools/lab/ladder.sh sf2600         the same at UCI_Elo 2600 (any sfNNNN in Stockfish's UCI_Elo
#                                      range, 1350..2850): the rung above once sf2400 scores 70%+
#   RESUME=1 tools/lab/ladder.sh ROW   carry on a stopped run from its fastchess config
#
# Environment: BOOK (the openings, .epd or .pgn; required unless RESUME), FASTCHESS (default
# `fastchess` on PATH), PATINA (binary, default target/release/patina, built if missing), NAME
# (the run's file stem, default the row's name), GAMES (default 200, even), TC (default
# 10+0.1), OPP_TC (the opponent's clock, default TC; issue 89's Stockfish row gives it a
# quarter: OPP_TC=2.5+0.025), SRAND (the opening shuffle's seed, default 1), CONCURRENCY
# (default 2). Reference engines: apt-get install stockfish ethereal-chess. Issue 34's rows used
# noob_3moves.epd.
# Log, PGN (with each move's clock) and fastchess config go to target/ladder/NAME.*. The run
# fails if a game ends other than normally or a fastchess warning names Patina; warnings that
# name the opponent (a limited Stockfish plays off its PV by design) are counted, not failed.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0; fi

if [[ $# -ne 1 ]]; then
    sed -n '2,/^[^#]/{/^#/p}' "$0" >&2
    exit 2
fi
row=$1
level='' # a Stockfish UCI_Elo rung, set by sfNNNN only (never taken from the environment)
case $row in
    ethereal) opponent_cmd=/usr/games/ethereal-chess opponent_options=() ;;
    stockfish) opponent_cmd=/usr/games/stockfish opponent_options=() ;;
    sf[0-9][0-9][0-9][0-9])
        level=$((10#${row#sf}))
        opponent_cmd=/usr/games/stockfish
        opponent_options=(option.UCI_LimitStrength=true option.UCI_Elo="$level")
        ;;
    *) echo "ladder: unknown row $row (ethereal, stockfish or sfNNNN, e.g. sf2400)" >&2; exit 2 ;;
esac
[[ -x $opponent_cmd ]] || { echo "ladder: no $opponent_cmd: apt-get install stockfish ethereal-chess" >&2; exit 2; }
games=${GAMES:-200}
tc=${TC:-10+0.1}
opponent_tc=${OPP_TC:-$tc}
tool=ladder
needs=(fastchess)
[[ -n ${RESUME:-} ]] || needs+=(book)
# shellcheck source=tools/lab/match-setup.sh
source "$(dirname "$0")/match-setup.sh"
require_game_pairs "$games"
if [[ -n $level ]]; then
    read_uci_elo_range "$opponent_cmd"
    ((level >= uci_elo_min && level <= uci_elo_max)) ||
        { echo "ladder: $row asks for UCI_Elo $level, outside $opponent_cmd's $uci_elo_min..$uci_elo_max" >&2; exit 2; }
fi

stem="$out/${NAME:-$row}"
if [[ -n ${RESUME:-} ]]; then
    resume_run "$stem"
else
    refuse_existing_pgn "$stem.pgn" "set NAME, or RESUME=1"
    "$fastchess" \
        -engine cmd="$patina" name=patina tc="$tc" \
        -engine cmd="$opponent_cmd" name="$row" tc="$opponent_tc" "${opponent_options[@]}" \
        -each option.Hash=64 option.Threads=1 \
        -openings file="$book" format="$book_format" order=random -srand "${SRAND:-1}" \
        -rounds $((games / 2)) -repeat -concurrency "${CONCURRENCY:-2}" \
        -pgnout file="$stem.pgn" timeleft=true -config outname="$stem-config.json" | tee "$stem.log"
fi

count_endings "$stem.pgn"
# A trouble line names its engine before or after the word ("Engine patina crashed", "... from sf2400").
trouble=$(trouble_lines "$stem.log")
ours=$(grep -ciw patina <<<"$trouble" || true)
theirs=$(grep -ciw "$row" <<<"$trouble" || true)
echo "ladder: $normal of $total games ended normally; $ours warning lines name patina, $theirs name $row (log: $stem.log)"
[[ $normal -eq $total && $ours -eq 0 ]] || { echo "ladder: FAILED" >&2; exit 1; }

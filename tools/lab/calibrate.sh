#!/usr/bin/env bash
# UCI_Elo calibration: for each requested Elo E, Patina with UCI_LimitStrength at E plays
# Stockfish with its own UCI_LimitStrength at E, at 10+0.1 (Hash 64, Threads 1, two games at
# once, the BOOK openings). The Elo difference match.py measures, added to Stockfish's level,
# is Patina's measured strength on Stockfish's UCI_Elo scale; the table at the end goes into
# docs/strength.md, and src/strength.rs's LEVELS is retuned until requested and measured agree.
#
#   tools/lab/calibrate.sh [GAMES] [ELO ...]     defaults: 40 games, 1300 (vs 1350) 1500 1700 1900 2100 2200
#   tools/lab/calibrate.sh 100 1500 2300         100 games each at 1500 and 2300
#   tools/lab/calibrate.sh 40 2000:1500           Patina at 2000 against Stockfish at 1500
#
# ELO:LEVEL plays Stockfish at LEVEL instead of ELO: a level far from Patina's scores near 0% or
# 100%, which measures nothing, so probe the raw table against a nearby Stockfish level first.
#
# A requested Elo outside Stockfish's UCI_Elo range (1350..2850 for Stockfish 15.1, read from
# its `uci` answer) plays Stockfish at the nearest end of that range, and is measured from there.
# Needs python-chess (`pip install chess`), Stockfish (`apt-get install stockfish`), match.py
# (a python-chess match runner) and an opening book (noob_3moves.epd for the table's rows).
# Environment: BOOK (the openings, .epd or .pgn; required), MATCH_PY (match.py; required),
# PATINA (binary, default target/release/patina, built if missing), OPPONENT (default
# /usr/games/stockfish), TC (default 10+0.1), SEED, CONCURRENCY (games at once, default 2).
# Logs and PGNs go to target/calibrate/.
#
# Neither side's strength depends on the CPU it gets: a limited Patina searches a node budget
# and then waits out its clock, and a limited Stockfish picks its move at a fixed depth (its
# skill level plus one, reached in milliseconds). So CONCURRENCY 4 on two cores measures the
# same thing in half the time, as long as a level's node budget (docs/strength.md's table) is
# far below its share of the clock on a shared core: up to 2200 today. Higher levels and full
# strength want one game a core.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0; fi

games=${1:-40}
shift || true
elos=("$@")
[[ ${#elos[@]} -gt 0 ]] || elos=(1300:1350 1500 1700 1900 2100 2200)
tc=${TC:-10+0.1}
concurrency=${CONCURRENCY:-2}
[[ $games =~ ^[1-9][0-9]*$ ]] || { echo "calibrate: GAMES must be a positive number, got '$games'" >&2; exit 2; }
[[ $concurrency =~ ^[1-9][0-9]*$ ]] || { echo "calibrate: CONCURRENCY must be a positive number, got '$concurrency'" >&2; exit 2; }
for elo in "${elos[@]}"; do
    [[ $elo =~ ^[1-9][0-9]*(:[1-9][0-9]*)?$ ]] || { echo "calibrate: not an Elo or ELO:LEVEL: '$elo'" >&2; exit 2; }
done
tool=calibrate
needs=(python-chess match opponent book)
# shellcheck source=tools/lab/match-setup.sh
source "$(dirname "$0")/match-setup.sh"

read_uci_elo_range "$opponent"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
rows=()
for pair in "${elos[@]}"; do
    diff='' error=''
    elo=${pair%%:*}
    asked=${pair#*:}
    level=$((asked < uci_elo_min ? uci_elo_min : asked > uci_elo_max ? uci_elo_max : asked))
    name="calibrate-$elo-vs-sf$level-${games}g-$stamp"
    echo "=== Patina UCI_Elo $elo vs Stockfish UCI_Elo $level, $games games at $tc ==="
    python3 "$match_py" \
        --engine name="patina$elo" cmd="$patina" opt.UCI_LimitStrength=true opt.UCI_Elo="$elo" \
        --engine name="sf$level" cmd="$opponent" opt.UCI_LimitStrength=true opt.UCI_Elo="$level" \
        --each tc="$tc" opt.Hash=64 opt.Threads=1 \
        --games "$games" --concurrency "$concurrency" --openings "$book" \
        "${seed_args[@]}" --pgnout "$out/$name.pgn" | tee "$out/$name.log"
    # Summary lines: "Games: 40/40  a vs b  W-D-L 20-5-15  score 56.2%  draws 12.5%", then
    # "Elo +43.7 ± 95.1 (95%, pentanomial, 20 pairs)  LOS 81.0%" (the first is the one kept).
    wdl=$(sed -n 's/^Games: .* W-D-L \([0-9]*-[0-9]*-[0-9]*\) .*/\1/p' "$out/$name.log" | tail -1)
    score=$(sed -n 's/^Games: .* score \([0-9.]*%\).*/\1/p' "$out/$name.log" | tail -1)
    read -r diff error < <(sed -n 's/^Elo \([^ ]*\) ± \([^ ]*\) (95%.*/\1 \2/p' "$out/$name.log" | head -1) || true
    measured=$(awk -v level="$level" -v diff="${diff:-n/a}" \
        'BEGIN { if (diff ~ /^[-+]?[0-9.]+$/) printf "%.0f", level + diff; else print diff }')
    rows+=("| $elo | $level | ${wdl:-none} | ${score:-n/a} | ${diff:-n/a} ± ${error:-n/a} | $measured ± ${error:-n/a} |")
done

echo
echo "Patina UCI_Elo vs Stockfish UCI_Elo, $tc, Hash 64, Threads 1, $games games each (logs in target/calibrate/)"
echo
echo "| requested Elo | Stockfish UCI_Elo | W-D-L | score | Elo diff ± | measured Elo ± |"
echo "|---:|---:|---|---:|---|---|"
printf '%s\n' "${rows[@]}"

#!/usr/bin/env bash
# Interleaved `bench` speed: each Patina binary given, then Stockfish's own `bench`, for ROUNDS
# rounds (default 3); prints every run's nps, then the medians. Quiet the machine first (pause
# datagen and matches: kill -STOP PID, kill -CONT PID after).
#   tools/lab/bench_vs_stockfish.sh [--rounds N] PATINA_BINARY...
# (Issue 34's check: `make EXE=patina-native` beside `cargo build --release`'s portable binary.)
# Environment: STOCKFISH (default /usr/games/stockfish, the Debian package's).
set -euo pipefail
usage() { sed -n '2,/^[^#]/{/^#/p}' "$0"; }
if [[ ${1:-} == -h || ${1:-} == --help ]]; then usage; exit 0; fi
rounds=3
if [ "${1:-}" = "--rounds" ]; then rounds=${2:?--rounds N}; shift 2; fi
if [[ $# -eq 0 ]]; then usage >&2; exit 2; fi
stockfish=${STOCKFISH:-/usr/games/stockfish}
declare -A runs
for round in $(seq 1 "$rounds"); do
  for binary in "$@"; do
    nps=$("$binary" bench 2>/dev/null | tail -1 | awk '{print $3}')
    echo "round $round $(basename "$binary") $nps"
    runs[$binary]+="$nps "
  done
  nps=$("$stockfish" bench 2>&1 | awk -F: '/Nodes\/second/ {gsub(/ /, "", $2); print $2}')
  echo "round $round stockfish $nps"
  runs[stockfish]+="$nps "
done
for name in "$@" stockfish; do
  median=$(tr ' ' '\n' <<< "${runs[$name]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "median $(basename "$name") $median"
done

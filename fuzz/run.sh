#!/usr/bin/env bash
# Runs each Patina fuzz target for N seconds (default 1800), at most two at a time, and prints
# each target's final libFuzzer stats (executions, exec/s, coverage).
#
#   fuzz/run.sh [SECONDS] [TARGET...]      e.g.  fuzz/run.sh 60 fen
#
# Works on stable Rust: `-s none` (no sanitizer) needs no -Z flags. Seeds: fuzz/seeds/<target>/
# (committed) plus FENs from tests/data/*.epd for `fen`, copied into the gitignored
# fuzz/corpus/<target>/ before each run. Logs go to fuzz/artifacts/logs/<target>.log and crashes
# to fuzz/artifacts/<target>/ (both gitignored). FUZZ_PARALLEL (default 2) caps concurrent runs.
set -euo pipefail
cd "$(dirname "$0")"

SECONDS_EACH=${1:-1800}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(uci_parser fen uci_session)
JOBS=${FUZZ_PARALLEL:-2}
LOGS=artifacts/logs
mkdir -p "$LOGS"

seed_corpus() {
    local target=$1
    mkdir -p "corpus/$target"
    cp -n "seeds/$target"/* "corpus/$target/" 2>/dev/null || true
    if [ "$target" = fen ]; then
        # One seed per EPD line: byte 0 selects the mode (1 = Chess960), then the FEN.
        local mode i=0
        for epd in ../tests/data/*.epd; do
            [ -f "$epd" ] || continue
            case "$epd" in *960*) mode='\x01' ;; *) mode='\x00' ;; esac
            grep -v '^#' "$epd" | cut -d';' -f1 | sed 's/ *$//' | grep . | while read -r fen; do
                i=$((i + 1))
                printf "$mode%s" "$fen" > "corpus/fen/epd_$(basename "$epd" .epd)_$i"
            done
        done
    fi
}

extra_args() {
    case "$1" in
        # The engine spawns threads; a stuck session should be reported, not waited on.
        uci_session) echo "-timeout=10" ;;
        *) echo "-timeout=5" ;;
    esac
}

run_one() {
    local target=$1
    seed_corpus "$target"
    # shellcheck disable=SC2046
    nice -n 19 cargo fuzz run -s none "$target" "corpus/$target" -- \
        -max_total_time="$SECONDS_EACH" -rss_limit_mb=4096 -print_final_stats=1 \
        $(extra_args "$target") > "$LOGS/$target.log" 2>&1 || echo "$target: libFuzzer exited $? (see $LOGS/$target.log)"
}

nice -n 19 cargo fuzz build -s none

running=0
for target in "${TARGETS[@]}"; do
    run_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

for target in "${TARGETS[@]}"; do
    log="$LOGS/$target.log"
    echo "== $target"
    grep -E '^#[0-9]+' "$log" | tail -1 || true
    grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$log" || true
    grep -E '^(==[0-9]+== ERROR|SUMMARY|artifact_prefix|Test unit written)' "$log" || true
done

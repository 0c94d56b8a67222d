#!/usr/bin/env bash
# Self-play data on a lent many-core machine (the device tool), dg8's recipe: one 2-thread
# `patina datagen` per pair of cores, each with its own seed, stopped by SIGINT (games in
# progress finish) after a fixed time so the run fits the device budget.
#
#   tools/device_datagen.sh stage BINARY [BOOK] [SYZYGY_DIR]
#       here: copies the binary, the book and the tables' WDL files (.rtbw, all adjudication
#       probes) into target/device/, the one path to name in the device call's `carry`.
#   tools/device_datagen.sh run SECONDS FIRST_SEED [DATAGEN_ARGS...]
#       there: writes $OUT/dgdN.bin and its .progress for each process, then prints the counts.
#       DATAGEN_ARGS default to dg12's recipe: --soft-nodes 2000 --random-plies 2.
#
# Back here, each file is cut to the byte count its .progress recorded and the files are joined
# in seed order (`head -c BYTES dgdN.bin >> dgX.bin`); record the counts in docs/nets.md.
set -euo pipefail

stage_dir=target/device

case "${1:-}" in
stage)
    binary=${2:?binary to carry}
    book=${3:-../shared/books/noob_3moves.epd}
    syzygy=${4:-../shared/syzygy}
    rm -rf "$stage_dir"
    mkdir -p "$stage_dir/syzygy"
    cp "$binary" "$stage_dir/patina"
    cp "$book" "$stage_dir/book.epd"
    cp "$syzygy"/*.rtbw "$stage_dir/syzygy/"
    du -sh "$stage_dir"
    ;;
run)
    seconds=${2:?seconds to run}
    first_seed=${3:?first seed}
    shift 3
    extra=("$@")
    if [ ${#extra[@]} -eq 0 ]; then
        extra=(--soft-nodes 2000 --random-plies 2)
    fi
    out=${OUT:?OUT must name the folder that comes back}
    processes=$(($(nproc) / 2))
    [ "$processes" -ge 1 ] || processes=1
    for i in $(seq 1 "$processes"); do
        timeout -s INT "$seconds" "$stage_dir/patina" datagen --games 1000000 --threads 2 \
            --seed $((first_seed + i - 1)) --book "$stage_dir/book.epd" --syzygy "$stage_dir/syzygy" \
            "${extra[@]}" --out "$out/dgd$i.bin" >"$out/dgd$i.log" 2>&1 &
    done
    wait || true
    for i in $(seq 1 "$processes"); do
        echo "dgd$i (seed $((first_seed + i - 1))): $(grep -E '^(games|positions|bytes) ' "$out/dgd$i.bin.progress" | tr '\n' ' ')"
    done
    ;;
*)
    sed -n '2,14p' "$0"
    exit 2
    ;;
esac

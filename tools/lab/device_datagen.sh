#!/usr/bin/env bash
# Self-play data on a lent many-core machine (the device tool), dg8's recipe: one 2-thread
# `patina-learn datagen` per pair of cores, each with its own seed, stopped by SIGINT (games in
# progress finish) after a fixed time so the run fits the device budget.
#
#   tools/lab/device_datagen.sh stage [BINARY] [BOOK] [SYZYGY_DIR]
#       here: copies the learning tools' binary (default PATINA_LEARN, else
#       target/release/patina-learn: `make learn`), the EPD opening book (default BOOK; dg8
#       and dg12 played noob_3moves.epd) and, where a tables folder is named (default SYZYGY;
#       optional), its WDL files (.rtbw, all adjudication probes) into target/device/, the one
#       path to name in the device call's `carry`. A `-` for BINARY or BOOK stages none (then
#       `run` needs BINARY and BOOK set, below); a book is needed one way or the other.
#   tools/lab/device_datagen.sh run SECONDS FIRST_SEED [DATAGEN_ARGS...]
#       there: one process per pair of cores, each cut to the byte count its .progress recorded
#       and joined in seed order into $OUT/dgd.bin, split into $OUT/dgd.bin.partNN of at most
#       15 MiB (the device tool brings back 8 files of 16 MiB at most), with each process's
#       counts in $OUT/dgd.txt. DATAGEN_ARGS default to dg12's recipe: --soft-nodes 2000
#       --random-plies 2. BINARY (a patina-learn binary) and BOOK, where set, replace the staged
#       ones (a match's staged book, say, so the two stagings fit the carry limit together).
#       Adjudication probes the staged tables when some were staged.
#
# Back here, `cat dgd.bin.part* > dgX.bin` and record dgd.txt's counts in docs/nets.md.
set -euo pipefail

stage_dir=target/device

case "${1:-}" in
stage)
    binary=${2:-${PATINA_LEARN:-target/release/patina-learn}}
    book=${3:-${BOOK:-}}
    syzygy=${4:-${SYZYGY:-}}
    [[ -n $book ]] || { echo "device_datagen: name an opening book: the BOOK argument or BOOK=FILE, or - for none ($0 --help)" >&2; exit 2; }
    [[ $binary == - || -x $binary ]] || { echo "device_datagen: no $binary (make learn, or PATINA_LEARN=FILE)" >&2; exit 2; }
    [[ $book == - || -f $book ]] || { echo "device_datagen: no book file $book" >&2; exit 2; }
    [[ -z $syzygy || -d $syzygy ]] || { echo "device_datagen: no tables folder $syzygy (SYZYGY)" >&2; exit 2; }
    rm -rf "$stage_dir"
    mkdir -p "$stage_dir"
    [ "$binary" = - ] || cp "$binary" "$stage_dir/patina-learn"
    [ "$book" = - ] || cp "$book" "$stage_dir/book.epd"
    if [[ -n $syzygy ]]; then
        mkdir -p "$stage_dir/syzygy"
        cp "$syzygy"/*.rtbw "$stage_dir/syzygy/"
    fi
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
    binary=${BINARY:-$stage_dir/patina-learn}
    book=${BOOK:-$stage_dir/book.epd}
    tables=()
    [[ ! -d $stage_dir/syzygy ]] || tables=(--syzygy "$stage_dir/syzygy")
    work=$(mktemp -d)
    processes=$(($(nproc) / 2))
    [ "$processes" -ge 1 ] || processes=1
    for i in $(seq 1 "$processes"); do
        timeout -s INT "$seconds" "$binary" datagen --games 1000000 --threads 2 \
            --seed $((first_seed + i - 1)) --book "$book" "${tables[@]}" \
            "${extra[@]}" --out "$work/dgd$i.bin" >"$work/dgd$i.log" 2>&1 &
    done
    wait || true
    for i in $(seq 1 "$processes"); do
        progress="$work/dgd$i.bin.progress"
        if [ -f "$progress" ]; then
            head -c "$(awk '$1 == "bytes" {print $2}' "$progress")" "$work/dgd$i.bin" >>"$work/dgd.bin"
            echo "dgd$i (seed $((first_seed + i - 1))): $(grep -E '^(games|positions|bytes) ' "$progress" | tr '\n' ' ')"
        else
            echo "dgd$i (seed $((first_seed + i - 1))): no progress file; $(tail -2 "$work/dgd$i.log" | tr '\n' ' ')"
        fi
    done | tee "$out/dgd.txt"
    [ -f "$work/dgd.bin" ] && split -b 15M -d "$work/dgd.bin" "$out/dgd.bin.part"
    ls -l "$out"
    ;;
-h | --help)
    sed -n '2,/^[^#]/{/^#/p}' "$0"
    ;;
*)
    sed -n '2,/^[^#]/{/^#/p}' "$0"
    exit 2
    ;;
esac

#!/usr/bin/env bash
# An SPSA run (run 2 of issue 65, run 3 of issue 89) on a lent many-core machine (the device
# tool), played one worker per core there, stopped in time to
# fit the device budget, its state brought back to resume here or on the next lent machine.
#
#   tools/lab/device_spsa.sh stage TUNE_BINARY STATE [BOOK]
#       here: copies a tuning build (`cargo build --release --features tune`), the state file
#       (e.g. docs/spsa/run3.json), fastchess (FASTCHESS, default `fastchess` on PATH),
#       tools/lab/spsa.py and the book (BOOK, .epd or .pgn; the argument or the environment,
#       one of them required; run 2 plays noob_3moves.epd) into target/device-spsa/, the one
#       path to name in the device call's `carry`.
#   tools/lab/device_spsa.sh run SECONDS [NODES ITERATIONS PAIRS]
#       there: resumes the staged state with one worker per core on the schedule the state
#       saved (NODES a move, ITERATIONS in all, PAIRS game pairs an iteration: they fix the
#       gain sequences). A state saved before schedules were kept (run 2's, run 3's) needs
#       them repeated: run 2 is `run SECONDS 20000 1500 4`, run 3 `run SECONDS 6000 2500 4`;
#       spsa.py refuses values that differ from a saved schedule. No iteration starts after
#       SECONDS; those under way finish and are saved. Writes $OUT/state.json and
#       $OUT/spsa.out. Back here, copy $OUT/state.json over the state file staged and commit it.
#
# The tunables are the state's own (its `theta`), so a resumed run never changes its set.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
stage_dir=$(cd "$here/../.." && pwd)/target/device-spsa

# Where the staged state (or the one named) stands: iterations, games and the largest moves.
report() {
    python3 "$stage_dir/spsa.py" --engine "$stage_dir/patina-tune" --state "$1" --report | sed -n 1,4p
}

case "${1:-}" in
stage)
    binary=${2:?tuning build of patina}
    state=${3:?SPSA state file to resume}
    # The match scripts' fastchess and book checks (sets $fastchess, $book, $book_format); with
    # PATINA set it builds nothing.
    tool=device-spsa
    needs=(fastchess book)
    PATINA=$binary
    BOOK=${4:-${BOOK:-}}
    # shellcheck source=tools/lab/match-setup.sh
    source "$here/match-setup.sh"
    "$binary" spsa >/dev/null || { echo "device_spsa: $binary is not a tuning build" >&2; exit 2; }
    rm -rf "$stage_dir"
    mkdir -p "$stage_dir"
    cp "$binary" "$stage_dir/patina-tune"
    cp "$state" "$stage_dir/state.json"
    cp "$fastchess" "$stage_dir/fastchess"
    cp "$here/spsa.py" "$stage_dir/spsa.py"
    cp "$book" "$stage_dir/book.$book_format"
    report "$stage_dir/state.json"
    du -sh "$stage_dir"
    ;;
run)
    seconds=${2:?seconds before no new iteration starts}
    schedule=()
    if [[ $# -ge 3 ]]; then
        [[ $# -eq 5 ]] || { echo "device_spsa: run takes NODES, ITERATIONS and PAIRS together or none" >&2; exit 2; }
        schedule=(--nodes "$3" --iterations "$4" --pairs "$5")
    fi
    out=${OUT:?OUT must name the folder that comes back}
    cp "$stage_dir/state.json" "$out/state.json"
    params=$(python3 -c 'import json, sys; print(",".join(json.load(open(sys.argv[1]))["theta"]))' "$out/state.json")
    # fastchess starts engines from its own folder (spsa.py gives each worker a scratch one):
    # absolute paths throughout.
    book=$stage_dir/book.epd
    [[ -f $book ]] || book=$stage_dir/book.pgn
    python3 "$stage_dir/spsa.py" --engine "$stage_dir/patina-tune" --book "$book" \
        --fastchess "$stage_dir/fastchess" --workers "$(nproc)" "${schedule[@]}" \
        --params "$params" --state "$out/state.json" \
        --stop-after "$seconds" >"$out/spsa.out" 2>&1 || true
    grep -c '^iteration ' "$out/spsa.out" | sed 's/^/iterations this run: /'
    report "$out/state.json"
    ;;
-h | --help)
    sed -n '2,/^[^#]/{/^#/p}' "$0"
    ;;
*)
    sed -n '2,/^[^#]/{/^#/p}' "$0"
    exit 2
    ;;
esac

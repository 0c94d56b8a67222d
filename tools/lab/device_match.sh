#!/usr/bin/env bash
# Matches on a lent many-core machine (the device tool), played in minutes rather than hours:
# a candidate build against a base at fixed nodes (so the machine's speed does not enter the
# result), and issue 65's clock and thread checks. Each is stopped by SIGINT after a fixed time
# so the run fits the device budget; fixed-node pentanomials are pooled with earlier parts here
# by tools/lab/sprt_pool.py. Issue 65's undecided patches stay in git, not in the tree:
# `git show 90f4126:docs/patches/NAME.diff > NAME.diff` (the list: `git ls-tree 90f4126
# docs/patches/`), then `git apply NAME.diff`, build, and stage that binary as CANDIDATE.
#
#   tools/lab/device_match.sh stage CANDIDATE BASE [BOOK]
#       here: copies both binaries, fastchess (FASTCHESS, default `fastchess` on PATH) and the
#       book (BOOK, .epd or .pgn; the argument or the environment, one of them required) into
#       target/device-match/, the one path to name in the device call's `carry`.
#   tools/lab/device_match.sh run SECONDS SRAND [NODES]
#       there: plays candidate against base at NODES (default 20,000) a move, Hash 16, one
#       thread each, concurrency = cores, SPRT [0, 10]; writes $OUT/match.out (fastchess's
#       report, whose last `Ptnml(0-2)` line sprt_pool.py reads), $OUT/match.pgn and
#       $OUT/match.fclog.
#   tools/lab/device_match.sh tc SECONDS SRAND [TC] [GAMES]
#       there: candidate against base at a clock, TC (default 10+0.1), Hash 16, one thread
#       each, GAMES (default 200) in pairs with colours reversed, one game per core but one
#       (a game thinks on one core at a time; the spare core keeps fastchess off the clocks);
#       writes $OUT/tc.out, $OUT/tc.pgn (clock left after each move) and $OUT/tc.fclog
#       (fastchess's warnings: time losses, a bestmove off its PV).
#   tools/lab/device_match.sh threads SECONDS SRAND [TC]
#       there: issue 65's thread check, the staged candidate with Threads=2 against itself with
#       Threads=1 at TC (default 10+0.1), Hash 64, half as many games at once as cores (a game
#       never runs more than two threads at a time); writes $OUT/threads.out, $OUT/threads.fclog and
#       $OUT/threads.pgn (with the clock left after each move).
#   tools/lab/device_match.sh scaling SECONDS [DEPTH]
#       there: issue 65's many-core figures for the staged candidate: `bench DEPTH` (default
#       13) at Hash 256 with 1, 2, 4, 8 and 16 threads (wall time, nodes, nps: time-to-depth),
#       then, until SECONDS have passed, 8 threads against 1 at 10+0.1, Hash 256, one game at
#       a time; writes $OUT/scaling.txt, $OUT/scaling.out, $OUT/scaling.fclog and $OUT/scaling.pgn.
set -euo pipefail

stage_dir=$(cd "$(dirname "$0")/../.." && pwd)/target/device-match

# One fastchess match of the staged engines until SECONDS pass, in the current folder:
# play_match SECONDS SRAND ROUNDS GAMES_AT_ONCE NAME ENGINES_AND_LIMITS... (the `-engine` and
# `-each` options); writes NAME.out, NAME.pgn (clock left after each move) and NAME.fclog
# (fastchess's warnings) and prints the result lines.
play_match() {
    local seconds=$1 srand=$2 rounds=$3 games_at_once=$4 name=$5 format=epd
    shift 5
    [[ -f $stage_dir/book.epd ]] || format=pgn
    timeout -s INT "$seconds" "$stage_dir/fastchess" "$@" \
        -openings file="$stage_dir/book.$format" format="$format" order=random -srand "$srand" \
        -rounds "$rounds" -repeat -concurrency "$games_at_once" \
        -pgnout file="$name.pgn" timeleft=true -log file="$name.fclog" level=warn >"$name.out" 2>&1 || true
    grep -E '^(Elo|Games|Ptnml|LLR)' "$name.out" | tail -4
}

# The staged candidate against the staged base, one thread and Hash 16 each:
# candidate_match SECONDS SRAND ROUNDS GAMES_AT_ONCE NAME LIMIT..., where LIMIT is the `-each`
# limit and any further fastchess options (`tc=10+0.1`, or `tc=inf nodes=20000 -sprt ...`).
candidate_match() {
    local seconds=$1 srand=$2 rounds=$3 games_at_once=$4 name=$5
    shift 5
    play_match "$seconds" "$srand" "$rounds" "$games_at_once" "$name" \
        -engine cmd="$stage_dir/candidate" name=candidate -engine cmd="$stage_dir/base" name=base \
        -each option.Hash=16 option.Threads=1 proto=uci "$@"
}

# The staged candidate with THREADS threads against itself with one:
# thread_match SECONDS SRAND TC HASH THREADS GAMES_AT_ONCE NAME.
thread_match() {
    local seconds=$1 srand=$2 tc=$3 hash=$4 threads=$5 games_at_once=$6 name=$7
    play_match "$seconds" "$srand" 20000 "$games_at_once" "$name" \
        -engine cmd="$stage_dir/candidate" name="t$threads" option.Threads="$threads" \
        -engine cmd="$stage_dir/candidate" name=t1 option.Threads=1 \
        -each tc="$tc" option.Hash="$hash" proto=uci
}

case "${1:-}" in
stage)
    candidate=${2:?candidate binary}
    base=${3:?base binary}
    rm -rf "$stage_dir"
    # The fastchess and book checks of the other match scripts; it also creates $stage_dir
    # (their target/$tool) and, with PATINA set, builds nothing.
    tool=device-match
    needs=(fastchess book)
    PATINA=$candidate
    BOOK=${4:-${BOOK:-}}
    # shellcheck source=tools/lab/match-setup.sh
    source "$(dirname "$0")/match-setup.sh"
    cp "$candidate" "$stage_dir/candidate"
    cp "$base" "$stage_dir/base"
    cp "$fastchess" "$stage_dir/fastchess"
    cp "$book" "$stage_dir/book.$book_format"
    du -sh "$stage_dir"
    ;;
run)
    seconds=${2:?seconds to run}
    srand=${3:?seed for the opening order}
    nodes=${4:-20000}
    out=${OUT:?OUT must name the folder that comes back}
    # fastchess starts engines from its own folder: absolute paths throughout. It runs in $OUT,
    # where an interrupted match leaves its config.json (what `-config file=` resumes).
    cd "$out"
    candidate_match "$seconds" "$srand" 20000 "$(nproc)" match tc=inf nodes="$nodes" \
        -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
    ;;
tc)
    seconds=${2:?seconds to run}
    srand=${3:?seed for the opening order}
    tc=${4:-10+0.1}
    games=${5:-200}
    out=${OUT:?OUT must name the folder that comes back}
    games_at_once=$(($(nproc) - 1))
    ((games_at_once >= 1)) || games_at_once=1
    cd "$out"
    candidate_match "$seconds" "$srand" $((games / 2)) "$games_at_once" tc tc="$tc"
    ;;
threads)
    seconds=${2:?seconds to run}
    srand=${3:?seed for the opening order}
    tc=${4:-10+0.1}
    out=${OUT:?OUT must name the folder that comes back}
    games_at_once=$(($(nproc) / 2))
    ((games_at_once >= 1)) || games_at_once=1
    cd "$out"
    thread_match "$seconds" "$srand" "$tc" 64 2 "$games_at_once" threads
    ;;
scaling)
    seconds=${2:?seconds to run}
    depth=${3:-13}
    out=${OUT:?OUT must name the folder that comes back}
    start=$(date +%s)
    cd "$out"
    for threads in 1 2 4 8 16; do
        begin=$(date +%s%N)
        result=$("$stage_dir/candidate" bench "$depth" --hash 256 --threads "$threads" 2>&1 | tail -1)
        wall_ms=$((($(date +%s%N) - begin) / 1000000))
        echo "threads $threads depth $depth: $result, wall $wall_ms ms" | tee -a scaling.txt
    done
    left=$((seconds - ($(date +%s) - start)))
    if ((left > 30)); then
        thread_match "$left" 8 10+0.1 256 8 1 scaling
        echo "8 threads against 1: $(grep -c '^\[Result' scaling.pgn || true) games," \
            "$(grep -c '^\[Termination "normal"\]' scaling.pgn || true) normal ends" | tee -a scaling.txt
    fi
    ;;
-h | --help)
    sed -n '2,/^[^#]/{/^#/p}' "$0"
    ;;
*)
    sed -n '2,/^[^#]/{/^#/p}' "$0"
    exit 2
    ;;
esac

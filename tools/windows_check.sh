#!/usr/bin/env bash
# The Windows build, run under Wine with no display (`make windows-check`): every check below
# must pass or the script says which failed and exits non-zero.
#
#   tools/windows_check.sh [PATINA.EXE]     default: the `make windows` build
#
# 1. `patina.exe bench` prints the node count pinned in tests/data/bench.nodes (same search and
#    net as on Linux, so the same fingerprint).
# 2. A UCI conversation, `uci`, `isready`, `position startpos moves e2e4`, `go depth 6`, `quit`:
#    `uciok`, `readyok`, a bestmove among Black's 20 legal replies, a clean exit. Once with LF
#    line endings, once with CRLF (what a Windows GUI may send).
# 3. `setoption name Hash value 262144` (256 GiB) is refused with `info string error`, and the
#    engine still answers `isready`.
# 4. Windows paths, sent with CRLF as a Windows GUI sends them: `Debug Log File` at a drive path
#    with a space (the file must then hold the conversation), `EvalFile` at a drive path with
#    spaces and at a relative path with backslashes (loaded; a missing one refused), and a
#    `SyzygyPath` of two folders separated by `;` (the tables of both counted), then a
#    tablebase position searched.
#
# Environment: WINEPREFIX (default target/wine, made on first use, so ~/.wine is left alone),
# TIMEOUT (seconds per answer, default 60: a first Wine start is slow), SYZYGY (the tables step
# 4 splits, default tests/data/syzygy).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$root/target/windows/x86-64/x86_64-win7-windows-gnu/release/patina.exe}
timeout_s=${TIMEOUT:-60}
command -v wine >/dev/null || { echo "windows_check: no wine: apt-get install wine" >&2; exit 2; }
# shellcheck source=tools/wine-env.sh
source "$root/tools/wine-env.sh"
[[ -f $exe ]] || { echo "windows_check: no $exe (make windows)" >&2; exit 2; }
exe=$(realpath "$exe")
cd "$root"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
pass() { echo "ok: $*"; }

# Step 1. bench against the pinned node count.
pinned=$(grep -v '^#' "$root/tests/data/bench.nodes" | tr -d '[:space:]')
bench_status=0
bench_line=$(timeout 600 wine "$exe" bench 2>/dev/null | tr -d '\r' | tail -n 1) || bench_status=$?
echo "bench: $bench_line"
((bench_status == 0)) || fail "bench exited with status $bench_status (53: Wine could not start it, e.g. a DLL it lacks)"
if [[ $bench_line =~ ^([0-9]+)\ nodes\ ([0-9]+)\ nps$ ]]; then
    if [[ ${BASH_REMATCH[1]} == "$pinned" ]]; then
        pass "bench node count ${BASH_REMATCH[1]} equals the pinned one"
    else
        fail "bench node count ${BASH_REMATCH[1]}, pinned $pinned"
    fi
else
    fail "bench's last line is not '<nodes> nodes <nps> nps': '$bench_line'"
fi

# Black's legal replies to 1. e4, written out so the check does not trust the engine's generator.
black_replies=" a7a6 a7a5 b7b6 b7b5 c7c6 c7c5 d7d6 d7d5 e7e6 e7e5 f7f6 f7f5 g7g6 g7g5 h7h6 h7h5 b8a6 b8c6 g8f6 g8h6 "

# One engine at a time as a coprocess: `say` writes a line with the session's line ending,
# `await REGEX WHAT` reads until a line matches (the match left in $line) or fails after
# $timeout_s seconds.
start_engine() {
    eol=$1
    coproc ENGINE { wine "$exe" 2>/dev/null; }
    engine_in=${ENGINE[1]} engine_out=${ENGINE[0]} engine_pid=$ENGINE_PID
}
# An engine that died must fail the checks, not end the script: no SIGPIPE, writes may fail.
trap '' PIPE
say() { { printf '%s%s' "$1" "$eol" >&"$engine_in"; } 2>/dev/null || true; }
await() {
    local deadline=$((SECONDS + timeout_s)) left
    while left=$((deadline - SECONDS)); ((left > 0)); do
        { IFS= read -r -t "$left" line <&"$engine_out"; } 2>/dev/null || break
        line=${line%$'\r'}
        [[ $line =~ $1 ]] && return 0
    done
    fail "$2: no line matching /$1/ within ${timeout_s}s ($label)"
    return 1
}
# Sends quit and expects the engine to exit, status 0, within the timeout.
stop_engine() {
    say quit
    exec {engine_in}>&-
    local waited=0
    while kill -0 "$engine_pid" 2>/dev/null && ((waited < timeout_s * 10)); do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$engine_pid" 2>/dev/null; then
        fail "the engine did not exit after quit ($label)"
        kill "$engine_pid" 2>/dev/null || true
    fi
    local status=0
    wait "$engine_pid" 2>/dev/null || status=$?
    ((status == 0)) && pass "exit status 0 after quit ($label)" || fail "exit status $status after quit ($label)"
}

# Step 2. The conversation, with each line ending.
for ending in lf crlf; do
    label=$ending
    if [[ $ending == lf ]]; then start_engine $'\n'; else start_engine $'\r\n'; fi
    say uci
    await '^uciok$' uci && pass "uciok ($label)"
    say isready
    await '^readyok$' isready && pass "readyok ($label)"
    say "position startpos moves e2e4"
    say "go depth 6"
    if await '^bestmove ' "go depth 6"; then
        move=$(awk '{print $2}' <<<"$line")
        if [[ $black_replies == *" $move "* ]]; then
            pass "bestmove $move is legal after 1. e4 ($label)"
        else
            fail "bestmove '$move' is not a legal reply to 1. e4 ($label): $line"
        fi
    fi
    stop_engine
done

# Step 3. A Hash beyond any machine: refused, and the engine answers after it.
label=hash
start_engine $'\n'
say "setoption name Hash value 262144"
await '^info string error' "Hash 262144" && pass "Hash 262144 refused: $line"
say isready
await '^readyok$' "isready after the refused Hash" && pass "readyok after the refused Hash"
stop_engine

# Step 4. Windows paths. Wine maps Z: to /, so Z:\a\b is /a/b; the folders are made here, the
# tables (the test suite's, or SYZYGY's) split between two of them (3-piece in one, the rest in
# the other) by symbolic links.
label=paths
scratch=$root/target/wine-paths
rm -rf "$scratch"
mkdir -p "$scratch/my nets" "$scratch/tables a" "$scratch/tables b"
cp "$root/tests/data/n8z.nnue" "$scratch/my nets/net 8z.nnue"
syzygy=${SYZYGY:-$root/tests/data/syzygy}
tables_a=0 tables_b=0
if [[ -d $syzygy ]]; then
    for table in "$syzygy"/*.rtb[wz]; do
        name=${table##*/}
        if [[ $name =~ ^K.vK\. ]]; then
            ln -s "$(realpath "$table")" "$scratch/tables a/$name"
            tables_a=$((tables_a + 1))
        else
            ln -s "$(realpath "$table")" "$scratch/tables b/$name"
            tables_b=$((tables_b + 1))
        fi
    done
fi
windows_path() { local p=${1//\//\\}; printf 'Z:%s' "$p"; }
log_file="$scratch/my log.txt"
start_engine $'\r\n'
say "setoption name Debug Log File value $(windows_path "$log_file")"
say "setoption name EvalFile value $(windows_path "$scratch/my nets/net 8z.nnue")"
await '^info string (error|EvalFile)' "EvalFile at a drive path" &&
    if [[ $line =~ ^info\ string\ EvalFile:\ net\ [0-9a-f]{16}\ loaded$ ]]; then
        pass "EvalFile at a drive path with spaces: $line"
    else
        fail "EvalFile at a drive path with spaces: $line"
    fi
say "setoption name EvalFile value $(windows_path "$scratch/my nets/none.nnue")"
await '^info string (error|EvalFile)' "a missing EvalFile" &&
    if [[ $line == "info string error"* ]]; then pass "a missing EvalFile refused: $line"; else fail "a missing EvalFile: $line"; fi
# Relative to the engine's working folder (this script runs it from the repository root).
say 'setoption name EvalFile value nets\default.nnue'
await '^info string (error|EvalFile)' "EvalFile at a relative path" &&
    if [[ $line =~ ^info\ string\ EvalFile:\ net\ [0-9a-f]{16}\ loaded$ ]]; then
        pass "EvalFile at a relative path with backslashes: $line"
    else
        fail "EvalFile at a relative path with backslashes: $line"
    fi
if ((tables_a > 0 && tables_b > 0)); then
    say "setoption name SyzygyPath value $(windows_path "$scratch/tables a");$(windows_path "$scratch/tables b")"
    await '^info string (error|SyzygyPath)' "SyzygyPath with ;" &&
        if [[ $line =~ ^info\ string\ SyzygyPath:\ $((tables_a + tables_b))\ table\ files,\ up\ to\ [3-7]\ pieces$ ]]; then
            pass "SyzygyPath of two folders separated by ';' ($tables_a + $tables_b files): $line"
        else
            fail "SyzygyPath of two folders separated by ';', expected $((tables_a + tables_b)) files: $line"
        fi
    # KQ against K: the tables make it a win, so the score is a tablebase (or mate) score.
    say "position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
    say "go depth 4"
    await '^bestmove ' "go in a tablebase position" && pass "bestmove in a tablebase position: $line"
else
    echo "skipped: SyzygyPath with ';' (no tables at $syzygy; SYZYGY=DIR names them)"
fi
say isready
await '^readyok$' "isready with the paths set" && pass "readyok with the paths set"
stop_engine
if [[ -f $log_file ]] && grep -q '>> isready' "$log_file" && grep -q '<< readyok' "$log_file"; then
    pass "Debug Log File at a drive path with a space holds the conversation"
else
    fail "Debug Log File: $log_file missing or without the conversation"
fi

if ((failures > 0)); then
    echo "windows_check: $failures check(s) failed" >&2
    exit 1
fi
echo "windows_check: all checks passed"

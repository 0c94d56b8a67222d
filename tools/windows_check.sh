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
#
# Environment: WINEPREFIX (default target/wine, made on first use, so ~/.wine is left alone),
# TIMEOUT (seconds per answer, default 60: a first Wine start is slow).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$root/target/windows/x86-64/x86_64-win7-windows-gnu/release/patina.exe}
timeout_s=${TIMEOUT:-60}
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-$root/target/wine}
# No Mono or Gecko install prompts when the prefix is made: a console engine needs neither.
export WINEDLLOVERRIDES="mscoree,mshtml="

command -v wine >/dev/null || { echo "windows_check: no wine: apt-get install wine" >&2; exit 2; }
[[ -f $exe ]] || { echo "windows_check: no $exe (make windows)" >&2; exit 2; }
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
pass() { echo "ok: $*"; }

# Wine prints its first-start notes (a missing 32-bit Wine, the prefix being updated) on stdout,
# where they would mix with the engine's lines: make the prefix now, with its output dropped.
if [[ ! -d $WINEPREFIX ]]; then
    mkdir -p "$WINEPREFIX"
    wineboot --init >/dev/null 2>&1 || true
    wineserver --wait || true
fi

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

if ((failures > 0)); then
    echo "windows_check: $failures check(s) failed" >&2
    exit 1
fi
echo "windows_check: all checks passed"

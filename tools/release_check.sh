#!/usr/bin/env bash
# Checks the binaries `make release` put in DIR and writes DIR/SHA256SUMS.
#
#   tools/release_check.sh DIR
#
# Every binary is named patina-VERSION-PLATFORM-LEVEL[.exe] (PLATFORM linux or windows, LEVEL
# x86-64, x86-64-v3 or x86-64-v4; or patina-VERSION-linux-aarch64). Each one this CPU can run has
# its `bench` node count compared with tests/data/bench.nodes (the Windows ones under Wine, the
# aarch64 one under qemu-user, where they are installed); a mismatch fails. One whose level this CPU lacks (v4 without AVX-512, say) is reported as not run, not
# failed. Then SHA256SUMS is written and verified.
#
# Environment: WINEPREFIX (default target/wine, as tools/windows_check.sh), AARCH64_RUN (how to
# run an ARM binary here, default `qemu-aarch64 -L /usr/aarch64-linux-gnu`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: tools/release_check.sh DIR}
[[ -d $dir ]] || { echo "release_check: no folder $dir" >&2; exit 2; }
pinned=$(grep -v '^#' "$root/tests/data/bench.nodes" | tr -d '[:space:]')
# shellcheck source=tools/wine-env.sh
source "$root/tools/wine-env.sh"

# Whether this CPU runs code built for LEVEL: the dynamic loader's own answer (glibc 2.33 and
# later list the x86-64 levels they found), else the CPU flags each level adds.
cpu_runs() {
    local level=$1
    [[ $level == x86-64 ]] && return 0
    local loader=/lib64/ld-linux-x86-64.so.2
    if [[ -x $loader ]] && "$loader" --help 2>/dev/null | grep -q "x86-64-v[234] (supported"; then
        "$loader" --help | grep -q "^ *$level (supported"
        return
    fi
    local flags needed
    flags=" $(grep -m 1 '^flags' /proc/cpuinfo | cut -d: -f2) "
    case $level in
        x86-64-v3) needed="avx avx2 bmi1 bmi2 f16c fma abm movbe xsave" ;;
        x86-64-v4) needed="avx avx2 bmi1 bmi2 f16c fma abm movbe xsave avx512f avx512bw avx512cd avx512dq avx512vl" ;;
        *) return 1 ;;
    esac
    for flag in $needed; do
        [[ $flags == *" $flag "* ]] || return 1
    done
}

failures=0
checked=0
not_run=()
printf '%-40s %10s  %s\n' binary bytes "bench (pinned $pinned)"
for path in "$dir"/patina-*; do
    [[ -f $path ]] || continue
    name=$(basename "$path")
    if [[ $name =~ -linux-aarch64$ ]]; then
        read -ra run <<<"${AARCH64_RUN:-qemu-aarch64 -L /usr/aarch64-linux-gnu}"
        if ! command -v "${run[0]}" >/dev/null; then
            not_run+=("$name (no ${run[0]}: apt-get install qemu-user)")
            continue
        fi
        run+=("$path")
    elif [[ $name =~ -(linux|windows)-(x86-64(-v[34])?)(\.exe)?$ ]]; then
        platform=${BASH_REMATCH[1]} level=${BASH_REMATCH[2]}
        run=("$path")
        if [[ $platform == windows ]]; then
            if ! command -v wine >/dev/null; then
                not_run+=("$name (no wine)")
                continue
            fi
            run=(wine "$path")
        fi
        if ! cpu_runs "$level"; then
            not_run+=("$name (this CPU lacks $level)")
            continue
        fi
    else
        echo "release_check: $name is not named patina-VERSION-PLATFORM-LEVEL" >&2
        failures=$((failures + 1))
        continue
    fi
    line=$("${run[@]}" bench 2>/dev/null | tr -d '\r' | tail -n 1) || true
    printf '%-40s %10s  %s\n' "$name" "$(stat -c %s "$path")" "$line"
    if [[ $line =~ ^([0-9]+)\ nodes\ [0-9]+\ nps$ && ${BASH_REMATCH[1]} == "$pinned" ]]; then
        checked=$((checked + 1))
    else
        echo "FAIL: $name: bench gave '$line', pinned $pinned nodes" >&2
        failures=$((failures + 1))
    fi
done
for entry in "${not_run[@]}"; do
    echo "not run: $entry"
done

(cd "$dir" && rm -f SHA256SUMS && sha256sum patina-* >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS && sha256sum --quiet -c SHA256SUMS)
echo "release_check: $checked binaries matched the pinned bench, ${#not_run[@]} not run, $failures failed; $dir/SHA256SUMS written"
((failures == 0 && checked > 0))

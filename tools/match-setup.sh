# Sourced by the match scripts (soak.sh, calibrate.sh, net_match.sh, ladder.sh) after they set `tool`
# (their name, for messages) and `needs` (what they play with: any of python-chess, for
# match.py; opponent, Stockfish or OPPONENT; fastchess) and before they play: the paths every
# one of them needs, the checks that it can run, and the optional --seed. Sets root, shared,
# patina, opponent, fastchess, out (target/$tool/, created) and seed_args (match.py's --seed);
# builds Patina when PATINA names no binary yet. The fastchess scripts' shared checks are the
# functions at the end.
# Environment: PATINA, OPPONENT, SHARED and SEED, as each script's header describes.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=${SHARED:-$root/../shared}
patina=${PATINA:-$root/target/release/patina}
opponent=${OPPONENT:-/usr/games/stockfish}
out="$root/target/$tool"
mkdir -p "$out"

if [[ ! -x $patina ]]; then
    (cd "$root" && cargo build --release)
fi
fastchess="$shared/tools/fastchess"
for need in "${needs[@]}"; do
    case $need in
        python-chess) python3 -c 'import chess' 2>/dev/null || { echo "$tool: needs python-chess: pip install chess" >&2; exit 2; } ;;
        opponent) [[ -x $opponent ]] || { echo "$tool: no $opponent: apt-get install stockfish" >&2; exit 2; } ;;
        fastchess) [[ -x $fastchess ]] || { echo "$tool: no $fastchess" >&2; exit 2; } ;;
        *) echo "match-setup: unknown need $need" >&2; exit 2 ;;
    esac
done

seed_args=()
# An `if`, not `[[ ]] &&`: as the file's last command a false test would be `source`'s status,
# and the callers' `set -e` would end them silently whenever SEED is unset.
if [[ -n ${SEED:-} ]]; then
    seed_args=(--seed "$SEED")
fi

# GAMES for fastchess's -repeat: pairs of games with colours reversed.
require_game_pairs() {
    (( $1 % 2 == 0 && $1 > 0 )) || { echo "$tool: GAMES must be even and positive" >&2; exit 2; }
}

# fastchess appends to a PGN that exists, which would pool two runs' games under one log.
refuse_existing_pgn() {
    [[ ! -e $1 ]] || { echo "$tool: $1 exists; $2" >&2; exit 2; }
}

# Sets total and normal: the PGN's games, and those whose Termination is "normal".
count_endings() {
    total=$(grep -c '^\[Termination ' "$1" || true)
    normal=$(grep -c '^\[Termination "normal"\]' "$1" || true)
}

# Sets uci_elo_min and uci_elo_max: the UCI_Elo range engine $1 offers, read from its `uci`
# answer ("option name UCI_Elo type spin default 1350 min 1350 max 2850" for Stockfish 15.1).
read_uci_elo_range() {
    local range
    range=$(printf 'uci\nquit\n' | timeout 10 "$1" | sed -n 's/^option name UCI_Elo .* min \([0-9]*\) max \([0-9]*\).*/\1 \2/p')
    [[ -n $range ]] || { echo "$tool: $1 offers no UCI_Elo option" >&2; exit 2; }
    read -r uci_elo_min uci_elo_max <<<"$range"
}

# The log lines a tester would be told about: fastchess's warnings and abnormal ends.
trouble_lines() {
    grep -iE 'warn|illegal|disconnect|timeout|forfeit|crash' "$1" || true
}

# Sourced by the match scripts (tools/soak.sh, tools/windows_match.sh and, here in tools/lab/,
# calibrate.sh, ladder.sh, net_match.sh, device_match.sh, device_spsa.sh) after they set `tool`
# (their name, for messages) and `needs` (any of python-chess and match, for match.py; opponent;
# fastchess; book) and before they play. Sets root (the clone), patina, opponent, fastchess, book,
# book_format (epd or pgn), match_py, out (target/$tool/, created) and seed_args (match.py's
# --seed), checks what `needs` names, and builds Patina when PATINA names no binary yet.
#
# The environment every lab script reads (none has a default tied to one machine):
#   PATINA        the engine binary; default target/release/patina in this clone
#   PATINA_LEARN  the learning tools (`make learn`); default target/release/patina-learn
#   FASTCHESS     the fastchess binary; default `fastchess` on PATH
#   BOOK          an opening book, .epd or .pgn (e.g. noob_3moves.epd); no default: the scripts
#                 that play from a book stop with a usage message without it
#   SYZYGY        a Syzygy tables folder; optional (device_datagen.sh stages its .rtbw files)
#   MATCH_PY      the python-chess match runner match.py (soak.sh, calibrate.sh); no default
#   OPPONENT      Stockfish for soak.sh and calibrate.sh (default /usr/games/stockfish, the
#                 Debian package's); STOCKFISH the same for bench_vs_stockfish.sh
#   OUT           the device tool's output folder (device_*.sh on the lent machine)
# and each script's own knobs (SEED, TC, GAMES, SRAND, CONCURRENCY, NODES, ...) in its header,
# which `SCRIPT --help` prints.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
patina=${PATINA:-$root/target/release/patina}
opponent=${OPPONENT:-/usr/games/stockfish}
out="$root/target/$tool"

fastchess=$(command -v "${FASTCHESS:-fastchess}" || true)
book=${BOOK:-}
book_format=epd
[[ $book != *.pgn ]] || book_format=pgn
match_py=${MATCH_PY:-}
for need in "${needs[@]}"; do
    case $need in
        python-chess) python3 -c 'import chess' 2>/dev/null || { echo "$tool: needs python-chess: pip install chess" >&2; exit 2; } ;;
        opponent) [[ -x $opponent ]] || { echo "$tool: no $opponent: apt-get install stockfish" >&2; exit 2; } ;;
        match) [[ -n $match_py && -f $match_py ]] ||
            { echo "$tool: set MATCH_PY to match.py, the python-chess match runner ($0 --help)" >&2; exit 2; } ;;
        fastchess) [[ -n $fastchess && -x $fastchess ]] ||
            { echo "$tool: no fastchess ${FASTCHESS:-on PATH}: put it on PATH or set FASTCHESS=/path/to/fastchess" >&2; exit 2; } ;;
        book)
            [[ -n $book ]] || { echo "$tool: set BOOK to an opening book, .epd or .pgn: BOOK=FILE $0 ... ($0 --help)" >&2; exit 2; }
            [[ -f $book ]] || { echo "$tool: no book file $book (BOOK)" >&2; exit 2; }
            book=$(realpath "$book")
            ;;
        *) echo "match-setup: unknown need $need" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
if [[ ! -x $patina ]]; then
    (cd "$root" && cargo build --release)
fi

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

# RESUME=1: carries on the stopped run whose fastchess config is $1-config.json. fastchess
# appends to the PGN and restarts its count from the saved games; the log is appended to.
resume_run() {
    [[ -f $1-config.json ]] || { echo "$tool: no $1-config.json to resume" >&2; exit 2; }
    "$fastchess" -config file="$1-config.json" | tee -a "$1.log"
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
    grep -iE 'warn|illegal|disconnect|timeout|forfeit|loses on time|crash' "$1" || true
}

# The verdict on a finished run $1 (its $1.pgn and $1.log): every game ended "normal", the log
# holds no trouble line and, given $2, the PGN holds that many games. Says how it stands; exits 1
# on a failure.
check_run_end() {
    count_endings "$1.pgn"
    local warnings
    warnings=$(trouble_lines "$1.log" | grep -c . || true)
    echo "$tool: $normal of $total games ended normally; $warnings warning lines (log: $1.log)"
    [[ (-z ${2:-} || $total -eq $2) && $normal -eq $total && $warnings -eq 0 ]] || { echo "$tool: FAILED" >&2; exit 1; }
}

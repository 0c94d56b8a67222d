# Sourced (POSIX sh or bash) by whatever runs patina.exe under Wine: tools/windows_check.sh,
# tools/windows_match.sh, tools/release_check.sh and `make windows-test`. Needs $root, the
# repository's root. Wine runs headless, in its own prefix (target/wine unless WINEPREFIX is
# set, so ~/.wine is left alone), with no Mono or Gecko install prompts: a console engine needs
# neither.
export WINEDEBUG=-all
export WINEPREFIX="${WINEPREFIX:-$root/target/wine}"
export WINEDLLOVERRIDES="mscoree,mshtml="
# Wine prints its first-start notes (a missing 32-bit Wine, the prefix being updated) on stdout,
# where they would mix with the engine's lines: make the prefix now, with its output dropped.
if command -v wineboot >/dev/null 2>&1 && [ ! -d "$WINEPREFIX" ]; then
    mkdir -p "$WINEPREFIX"
    wineboot --init >/dev/null 2>&1 || true
    wineserver --wait || true
fi

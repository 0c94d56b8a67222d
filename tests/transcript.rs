//! The UCI transcript of a fixed script, compared with `tests/data/transcript.golden`: the
//! handshake, `setoption` (good and bad values), every form of `position`, `go depth`,
//! `go nodes`, `go mate`, `go perft`, MultiPV, WDL, Chess960, and bad input of every kind.
//!
//! This pins the protocol's visible behaviour while the code behind it is reorganised: a
//! refactor that changes one character of what a GUI sees fails here. The script runs on one
//! thread with fixed depths and node counts, so every line is reproducible except `time` and
//! `nps`, which are replaced by `T` and `N`, the once-a-second progress line of a quiet search
//! (`info nodes ...`) and the `currmove` lines of a search past three seconds, which are
//! dropped, and the build's commit and date in `id name`, which are cut (`Patina 0.1.0 90f4126
//! 2026-12-05` is compared as `Patina 0.1.0`, so the golden file holds across commits).
//!
//! Each line waits for its answer before the next goes out, so the order never depends on
//! the machine's speed: a `go` waits for its `bestmove` (a `go perft` for its total), then
//! every command is followed by `isready`, whose `readyok` closes its output.
//!
//! When a change to the output is intended, rewrite the golden file with
//! `PATINA_BLESS=1 cargo test --profile test-release --test transcript` and say why in the
//! commit.

mod common;

use common::{is_currmove, EngineProcess, QUICK, SEARCH};
use std::path::PathBuf;
use std::time::Duration;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The conversation, one UCI line each. `quit` ends it.
fn script() -> Vec<String> {
    let lines = [
        // Handshake and options, including values out of range, of the wrong type, absurd.
        "uci",
        "isready",
        "debug off",
        "setoption name Threads value 1",
        "setoption name Hash value 8",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999999",
        "setoption name Hash value -5",
        "setoption name Threads value abc",
        "setoption name Threads value 100000",
        "setoption name MultiPV value -1",
        "setoption name UCI_Elo value 99999",
        "setoption name UCI_Elo value strong",
        "setoption name Ponder value maybe",
        "setoption name UCI_Chess960 value",
        "setoption name Nonsense value 3",
        "setoption name Move Overhead value 30",
        "setoption name Move Overhead value 5001",
        "setoption name SyzygyProbeLimit value 8",
        "setoption name Clear Hash",
        "setoption Hash 3",
        "setoption name",
        "ucinewgame",
        // Position forms and searches.
        "position startpos",
        "go depth 6",
        "position startpos moves e2e4 e7e5 g1f3",
        "go nodes 20000",
        &format!("position fen {KIWIPETE}"),
        "go depth 5",
        &format!("position fen {KIWIPETE} moves e1g1 e8c8"),
        "d",
        "result",
        "go nodes 5000 depth 3",
        "position startpos moves e2e4",
        "go perft 2",
        "go searchmoves d7d5 c7c5 depth 4",
        "setoption name MultiPV value 3",
        "position startpos",
        "go depth 5",
        "setoption name MultiPV value 1",
        "setoption name UCI_ShowWDL value true",
        "position fen kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        "go mate 2",
        "position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "go depth 3",
        "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "go depth 3",
        "setoption name UCI_ShowWDL value false",
        "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
        "result",
        "go depth 3",
        // Bad input: each is an error, and the engine carries on.
        "position startpos moves e2e4 e7e5 e1e3",
        "go depth 3",
        "result",
        "position fen garbage here",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "position startpos moves e2e4 zz99",
        "position startpos e2e4",
        "position endgame",
        "position fen",
        "position",
        "d",
        "position startpos",
        "fly to the moon",
        "go depth abc",
        "go sideways",
        "go wtime",
        "go depth -2",
        "go mate 0",
        "go searchmoves e2e5 depth 2",
        "bench abc",
        "bench 99",
        "debug maybe",
        "genfens ten",
        "genfens 5 colour red",
        "",
        "register",
        // Chess960.
        "setoption name UCI_Chess960 value true",
        "position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1 moves f1g1",
        "d",
        "go depth 4",
        "setoption name UCI_Chess960 value false",
        "quit",
    ];
    lines.iter().map(|l| l.to_string()).collect()
}

/// Replaces the values that depend on the clock: `time N` and `nps N` in info lines, and the
/// commit and date in `id name`. Returns `None` for the progress line a search prints after a
/// second of silence and for `currmove` lines.
fn normalise(line: &str) -> Option<String> {
    if line.starts_with("info nodes ") || is_currmove(line) {
        return None;
    }
    if let Some(name) = line.strip_prefix("id name ") {
        return Some(format!("id name {}", without_build(name)));
    }
    if !line.starts_with("info ") {
        return Some(line.to_string());
    }
    let mut tokens: Vec<&str> = line.split(' ').collect();
    for i in 1..tokens.len() {
        match tokens[i - 1] {
            "time" => tokens[i] = "T",
            "nps" => tokens[i] = "N",
            _ => {}
        }
    }
    Some(tokens.join(" "))
}

/// `Patina 0.1.0` of `Patina 0.1.0 90f4126 2026-12-05`: the name and version without the
/// commit and its date; anything else is left as it is (and then differs from the golden file).
fn without_build(name: &str) -> &str {
    let words: Vec<&str> = name.split(' ').collect();
    let is_commit = |word: &str| word.len() >= 4 && word.bytes().all(|b| b.is_ascii_hexdigit());
    let is_date = |word: &str| {
        let parts: Vec<&str> = word.split('-').collect();
        parts.len() == 3
            && parts.iter().zip([4, 2, 2]).all(|(p, n)| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()))
    };
    match words.as_slice() {
        [_, _, commit, date] if is_commit(commit) && is_date(date) => {
            let cut = name.len() - commit.len() - date.len() - 2;
            &name[..cut]
        }
        _ => name,
    }
}

/// Runs the script through the binary and returns the normalised conversation.
fn transcript() -> String {
    let mut engine = EngineProcess::spawn();
    let mut text = String::new();
    let record = |text: &mut String, lines: Vec<String>| {
        for line in lines.iter().filter_map(|l| normalise(l)) {
            text.push_str("< ");
            text.push_str(&line);
            text.push('\n');
        }
    };
    for line in script() {
        text.push_str(&format!("> {line}\n"));
        engine.send(&line);
        if line == "quit" {
            let status = engine.wait_exit(Duration::from_secs(10)).expect("the engine exits after quit");
            assert!(status.success(), "exit status {status:?}");
            let rest = engine.lines_during(Duration::from_millis(100));
            record(&mut text, rest);
            break;
        }
        if line.starts_with("go perft") {
            let lines = engine.lines_until(|l| l.starts_with("Nodes searched:"), SEARCH);
            record(&mut text, lines);
        } else if line.starts_with("go") {
            let lines = engine.lines_until(|l| l.starts_with("bestmove"), SEARCH);
            record(&mut text, lines);
        }
        if line != "isready" {
            engine.send("isready");
        }
        let lines = engine.lines_until(|l| l == "readyok", QUICK);
        record(&mut text, lines);
    }
    text
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcript.golden")
}

#[test]
fn transcript_matches_the_golden_file() {
    let actual = transcript();
    let path = golden_path();
    if std::env::var_os("PATINA_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &actual).expect("write the golden transcript");
        eprintln!("wrote {}", path.display());
        return;
    }
    let expected =
        std::fs::read_to_string(&path).expect("tests/data/transcript.golden (PATINA_BLESS=1 writes it)");
    if actual != expected {
        let first = actual.lines().zip(expected.lines()).position(|(a, e)| a != e);
        let at = first.unwrap_or(actual.lines().count().min(expected.lines().count()));
        let context =
            |text: &str| text.lines().skip(at.saturating_sub(3)).take(8).collect::<Vec<_>>().join("\n");
        panic!(
            "the UCI transcript differs from {} at line {}:\n--- expected\n{}\n--- actual\n{}\n\
             (PATINA_BLESS=1 rewrites the golden file when the change is intended)",
            path.display(),
            at + 1,
            context(&expected),
            context(&actual)
        );
    }
}

#[test]
fn normalising_keeps_everything_but_the_clock() {
    assert_eq!(
        normalise("info depth 5 seldepth 7 multipv 1 score cp 20 nodes 100 nps 5000 hashfull 1 tbhits 0 time 20 pv e2e4")
            .as_deref(),
        Some("info depth 5 seldepth 7 multipv 1 score cp 20 nodes 100 nps N hashfull 1 tbhits 0 time T pv e2e4")
    );
    assert_eq!(normalise("info nodes 100 nps 5 hashfull 0 time 1200"), None);
    assert_eq!(normalise("info depth 9 currmove e2e4 currmovenumber 3"), None);
    assert_eq!(normalise("id name Patina 0.1.0 90f4126 2026-12-05").as_deref(), Some("id name Patina 0.1.0"));
    assert_eq!(normalise("id name Patina 0.1.0").as_deref(), Some("id name Patina 0.1.0"));
    assert_eq!(normalise("id name Patina 0.1.0 dirty").as_deref(), Some("id name Patina 0.1.0 dirty"));
    assert_eq!(normalise("bestmove e2e4 ponder e7e5").as_deref(), Some("bestmove e2e4 ponder e7e5"));
}

//! The command-line interface: `bench`, `perft`, `result`, `spsa`, `data results` and
//! `--config`, run as a user would; exit statuses (a typo, a refused UCI command) and
//! `--version`.

use std::process::{Command, Output};

mod common;
use common::{path_str, patina, scratch};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Parses the OpenBench line `<nodes> nodes <nps> nps`.
fn bench_nodes(output: &Output) -> u64 {
    let text = stdout(output);
    let last = text.lines().last().expect("bench prints a line");
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "bench line: {last}");
    assert_eq!((fields[1], fields[3]), ("nodes", "nps"), "bench line: {last}");
    assert!(fields[2].parse::<u64>().is_ok(), "nps must be a number: {last}");
    fields[0].parse().expect("node count")
}

#[test]
fn bench_ends_with_openbench_line_and_is_reproducible() {
    let first = patina(&["bench", "5"]);
    assert!(first.status.success());
    let nodes = bench_nodes(&first);
    assert!(nodes > 10_000, "a depth-5 bench over 30+ positions searches more than {nodes} nodes");
    assert_eq!(bench_nodes(&patina(&["bench", "5"])), nodes, "bench node count must not vary");
    // One progress line per position on stderr, at least 30 positions.
    assert!(String::from_utf8_lossy(&first.stderr).lines().count() >= 30);
}

/// The pinned `bench` signature from `tests/data/bench.nodes` (its last non-comment line).
fn pinned_bench_nodes() -> u64 {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench.nodes");
    let text = std::fs::read_to_string(&path).expect("tests/data/bench.nodes");
    let line = text.lines().map(str::trim).rfind(|l| !l.is_empty() && !l.starts_with('#'));
    line.and_then(|l| l.parse().ok()).expect("a node count in tests/data/bench.nodes")
}

#[test]
fn bench_node_count_is_the_pinned_signature() {
    let output = patina(&["bench"]);
    assert!(output.status.success());
    assert_eq!(
        bench_nodes(&output),
        pinned_bench_nodes(),
        "`patina bench` no longer matches tests/data/bench.nodes: a change to search or evaluation \
         that is meant to change it updates that file and says old -> new in its commit"
    );
}

#[test]
fn perft_prints_divide_and_total() {
    let output = patina(&["perft", "3"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("e2e4: 600"), "{text}");
    assert!(text.trim_end().ends_with("Nodes searched: 8902"), "{text}");

    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let text = stdout(&patina(&["perft", "3", "--fen", kiwipete]));
    assert!(text.contains("e1g1: "), "standard castling notation: {text}");
    assert!(text.trim_end().ends_with("Nodes searched: 97862"), "{text}");

    let text = stdout(&patina(&["perft", "3", "--fen", kiwipete, "--chess960"]));
    assert!(text.contains("e1h1: ") && !text.contains("e1g1: "), "Chess960 castling notation: {text}");
    assert!(text.trim_end().ends_with("Nodes searched: 97862"), "{text}");
}

#[test]
fn result_judges_fens_and_move_lists() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    assert_eq!(
        stdout(&patina(&["result", "--moves", shuffle])).trim(),
        "info string result * ongoing claimable threefold-repetition"
    );
    assert_eq!(
        stdout(&patina(&["result", "--moves", "f2f3 e7e5 g2g4 d8h4"])).trim(),
        "info string result 0-1 checkmate"
    );
    assert_eq!(
        stdout(&patina(&["result", "--fen", "8/8/4k3/8/8/3BK3/8/8 w - - 0 1"])).trim(),
        "info string result 1/2-1/2 insufficient-material"
    );
    // A locked pawn wall neither king can pass.
    let wall = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
    assert_eq!(
        stdout(&patina(&["result", "--fen", wall])).trim(),
        "info string result 1/2-1/2 dead-position"
    );
    // SAN and move numbers, as `analyze` reads them.
    assert_eq!(
        stdout(&patina(&["result", "--moves", "1.f3 e5 2. g4 Qh4#"])).trim(),
        "info string result 0-1 checkmate"
    );
    let bad = patina(&["result", "--moves", "e2e4 e2e4"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("illegal move 'e2e4' at ply 2"));
}

#[test]
fn spsa_lists_every_tunable_one_thread_reads_as_openbench_input() {
    let output = patina(&["spsa"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let names: Vec<&str> = text.lines().map(|line| line.split(", ").next().unwrap_or("")).collect();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "OpenBench's NAME, int, default, min, max, c_end, r_end: {line}");
        assert_eq!(fields[1], "int", "{line}");
        let numbers: Vec<i64> = fields[2..6].iter().map(|f| f.parse().expect(line)).collect();
        assert!(numbers[1] <= numbers[0] && numbers[0] <= numbers[2], "default in range: {line}");
    }
    assert!(names.len() >= 40, "{text}");
    assert!(names.contains(&"ASPIRATION_DELTA"), "{text}");
    // Only several threads vote, so a one-thread tuner cannot move it.
    assert!(!names.contains(&"VOTE_SCORE_OFFSET"), "{text}");
}

#[test]
fn perft_zero_counts_the_position_itself() {
    let text = stdout(&patina(&["perft", "0"]));
    assert!(text.trim_end().ends_with("Nodes searched: 1"), "{text}");
    let text = stdout(&patina(&["go perft 0"]));
    assert_eq!(text.trim(), "Nodes searched: 1");
}

#[test]
fn a_typo_for_a_subcommand_is_a_usage_error_with_a_suggestion() {
    let output = patina(&["analyse", "--depth", "5"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("'analyse'") && stderr.contains("did you mean 'analyze'?"), "{stderr}");
    assert!(stdout(&output).is_empty(), "no UCI command ran: {}", stdout(&output));
}

#[test]
fn a_refused_uci_argument_fails_the_run() {
    let output = patina(&["isready", "position startpos moves e2e5", "isready"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = stdout(&output);
    assert_eq!(text.lines().filter(|l| *l == "readyok").count(), 2, "the lines after it still run: {text}");
    assert!(text.contains("info string error: "), "{text}");
    assert!(patina(&["isready", "position startpos moves e2e4"]).status.success());
}

/// `git rev-parse --short HEAD` of this checkout, when the crate is one (what `build.rs` names
/// the build by); `None` without git or outside a checkout of its own.
fn checkout_commit() -> Option<String> {
    let git = |args: &[&str]| {
        let output = Command::new("git").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?.trim().to_string();
        (output.status.success() && !text.is_empty()).then_some(text)
    };
    let top = std::fs::canonicalize(git(&["rev-parse", "--show-toplevel"])?).ok()?;
    let own = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok()?;
    (top == own).then(|| git(&["rev-parse", "--short", "HEAD"])).flatten()
}

#[test]
fn version_and_id_name_say_which_build_this_is() {
    let version = stdout(&patina(&["--version"]));
    let id_name = stdout(&patina(&["uci"]));
    let id_name = id_name.lines().find(|l| l.starts_with("id name ")).expect("an id name line");
    let expected = format!("patina {}", env!("CARGO_PKG_VERSION"));
    assert!(version.starts_with(&expected), "{version}");
    assert!(id_name.starts_with(&format!("id name Patina {}", env!("CARGO_PKG_VERSION"))), "{id_name}");
    let widths = ["AVX-512", "AVX2", "SSE2", "NEON", "scalar"];
    assert!(widths.iter().any(|w| version.trim_end().ends_with(&format!("(net loops: {w})"))), "{version}");
    match checkout_commit() {
        Some(commit) => {
            assert!(version.contains(&format!(" {commit} ")), "{version} lacks {commit}");
            assert!(id_name.contains(&format!(" {commit} ")), "{id_name} lacks {commit}");
        }
        None => eprintln!("not a git checkout: the version alone names the build"),
    }
}

#[test]
fn config_file_sets_option_defaults() {
    let dir = scratch("cli", "config");
    let good = dir.join("engine.toml");
    std::fs::write(&good, "hash_mib = 8\nmultipv = 3\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_patina"))
        .args(["--config", path_str(&good)])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"uci\nquit\n").unwrap();
    let text = String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned();
    assert!(text.contains("option name Hash type spin default 8 "), "{text}");
    assert!(text.contains("option name MultiPV type spin default 3 "), "{text}");

    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "threads = 0\n").unwrap();
    let output = patina(&["--config", path_str(&bad)]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("out of range"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_searches_with_the_evaluation_a_config_chooses() {
    let dir = scratch("cli", "bench-config");
    let path = dir.join("other-net.toml");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/n8z.nnue");
    std::fs::write(&path, format!("eval_file = \"{fixture}\"\n")).unwrap();
    let config = path_str(&path);
    let built_in = bench_nodes(&patina(&["bench", "5"]));
    let other_net = patina(&["--config", config, "bench", "5"]);
    assert!(other_net.status.success());
    // Another net searches another tree, the same one each time.
    let nodes = bench_nodes(&other_net);
    assert_ne!(nodes, built_in, "--config's eval_file must reach bench");
    assert_eq!(bench_nodes(&patina(&["--config", config, "bench", "5"])), nodes);
    // On two threads too (the tree then varies from run to run, so only the line is checked).
    let threaded = patina(&["--config", config, "bench", "5", "--threads", "2"]);
    assert!(threaded.status.success());
    assert!(bench_nodes(&threaded) > 0);
    // A net that cannot be loaded is named, not replaced by the built-in one.
    let missing = dir.join("missing.toml");
    std::fs::write(&missing, "eval_file = \"no-such.nnue\"\n").unwrap();
    let refused = patina(&["--config", path_str(&missing), "bench", "5"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no-such.nnue"));
    let _ = std::fs::remove_dir_all(&dir);
}

//! Data-driven perft through the library's `Position`, plus the incremental-hash property.
//!
//! The suites live in `tests/data/`: one position a line, `<FEN> ;D1 n ;D2 n ...` with any
//! number of depth tags, `#` starting a comment line. `perft_standard.epd` is parsed with
//! standard castling, `perft_chess960.epd` in Chess960 mode. Every listed depth is checked and
//! all mismatches are reported together before the test fails. The deep classic counts (313
//! million nodes) are `#[ignore]`d: run them with `cargo test --release -- --ignored`.

use patina::perft::perft;
use patina::position::Position;
use std::time::Instant;

const STANDARD_SUITE: &str = include_str!("data/perft_standard.epd");
const CHESS960_SUITE: &str = include_str!("data/perft_chess960.epd");

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The six classic positions (chessprogramming.org "Perft Results") at cheap depths.
const CLASSIC: [(&str, u32, u64); 6] = [
    (STARTPOS, 5, 4_865_609),
    (KIWIPETE, 4, 4_085_603),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422_333),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2_103_487),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 3_894_594),
];

/// One suite line: the FEN, whether it is Chess960, and `(depth, leaf count)` pairs.
struct Entry {
    fen: String,
    chess960: bool,
    counts: Vec<(u32, u64)>,
    /// `file:line`, for messages.
    origin: String,
}

/// Parses a suite; a malformed line panics naming the file, line and token.
fn parse_suite(name: &str, text: &str, chess960: bool) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let origin = format!("{name}:{}", index + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_string();
        let mut counts = Vec::new();
        for field in fields {
            let field = field.trim();
            let (tag, value) = field
                .split_once(char::is_whitespace)
                .unwrap_or_else(|| panic!("{origin}: tag '{field}' has no value"));
            let depth = tag
                .strip_prefix('D')
                .and_then(|d| d.parse().ok())
                .unwrap_or_else(|| panic!("{origin}: unknown tag '{tag}', expected D<depth>"));
            let nodes = value
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{origin}: node count '{value}' is not a number"));
            counts.push((depth, nodes));
        }
        assert!(!counts.is_empty(), "{origin}: no ;D<depth> tags");
        entries.push(Entry { fen, chess960, counts, origin });
    }
    entries
}

fn suite() -> Vec<Entry> {
    let mut entries = parse_suite("perft_standard.epd", STANDARD_SUITE, false);
    entries.extend(parse_suite("perft_chess960.epd", CHESS960_SUITE, true));
    entries
}

fn position(fen: &str, chess960: bool) -> Position {
    Position::from_fen(fen, chess960).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `cases` (fen, chess960, depth, expected), reports every mismatch, then fails if any.
fn check_counts(label: &str, cases: &[(String, bool, u32, u64)]) {
    let start = Instant::now();
    let mut total_nodes = 0u64;
    let mut mismatches = Vec::new();
    for (fen, chess960, depth, expected) in cases {
        let got = match Position::from_fen(fen, *chess960) {
            Ok(mut pos) => perft(&mut pos, *depth),
            Err(e) => {
                mismatches.push(format!("{fen}: {e}"));
                continue;
            }
        };
        total_nodes += got;
        if got != *expected {
            mismatches.push(format!("{fen} depth {depth}: expected {expected}, got {got}"));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{label}: {} counts, {total_nodes} nodes in {seconds:.2} s, {:.1} Mnps",
        cases.len(),
        total_nodes as f64 / seconds.max(1e-9) / 1e6
    );
    assert!(mismatches.is_empty(), "{} perft mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn parser_reads_any_number_of_depth_tags_and_skips_comments() {
    let text = "# comment\n\n8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D2 9 ;D7 123\n  # indented\n";
    let entries = parse_suite("inline", text, false);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].fen, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
    assert_eq!(entries[0].counts, vec![(1, 3), (2, 9), (7, 123)]);
}

#[test]
fn every_mismatch_is_reported_before_failing() {
    let cases = [(STARTPOS, 1, 21), (STARTPOS, 2, 400), (KIWIPETE, 1, 47)]
        .map(|(fen, depth, nodes)| (fen.to_string(), false, depth, nodes));
    let failure = std::panic::catch_unwind(|| check_counts("deliberately wrong", &cases))
        .expect_err("wrong counts must fail");
    let message = failure.downcast_ref::<String>().expect("panic message");
    assert!(message.starts_with("2 perft mismatches"), "{message}");
    assert!(message.contains(&format!("{STARTPOS} depth 1: expected 21, got 20")), "{message}");
    assert!(message.contains(&format!("{KIWIPETE} depth 1: expected 47, got 48")), "{message}");
}

#[test]
fn suites_are_large_enough() {
    let entries = suite();
    let chess960 = entries.iter().filter(|e| e.chess960).count();
    assert!(entries.len() >= 100, "only {} positions in the perft suites", entries.len());
    assert!(chess960 >= 30, "only {chess960} Chess960 positions in the perft suite");
}

#[test]
fn suite_positions_match_every_listed_depth() {
    let cases: Vec<_> = suite()
        .into_iter()
        .flat_map(|e| {
            let (fen, chess960) = (e.fen, e.chess960);
            e.counts.into_iter().map(move |(depth, nodes)| (fen.clone(), chess960, depth, nodes))
        })
        .collect();
    check_counts("perft suite", &cases);
}

#[test]
fn suite_contains_the_classic_positions_at_standard_depths() {
    let entries = suite();
    for (fen, depth, nodes) in CLASSIC {
        let entry = entries
            .iter()
            .find(|e| !e.chess960 && e.fen == fen)
            .unwrap_or_else(|| panic!("classic position missing from the suite: {fen}"));
        assert!(
            entry.counts.contains(&(depth, nodes)),
            "{}: {fen} should list ;D{depth} {nodes}, has {:?}",
            entry.origin,
            entry.counts
        );
    }
}

#[test]
#[ignore = "deep counts (313M nodes); run with --ignored"]
fn classic_deep_counts() {
    let cases = [(STARTPOS, 6, 119_060_324), (KIWIPETE, 5, 193_690_690)]
        .map(|(fen, depth, nodes)| (fen.to_string(), false, depth, nodes));
    check_counts("deep perft", &cases);
}

/// Walks the tree below `pos`, checking at every node that the incremental key equals a key
/// computed from scratch, and that `unmake` restores FEN and key exactly.
fn walk(pos: &mut Position, chess960: bool, depth: u32, failures: &mut Vec<String>) {
    let fen = pos.fen();
    let fresh = position(&fen, chess960).key();
    if pos.key() != fresh {
        failures.push(format!("{fen}: incremental key {:016x}, recomputed {fresh:016x}", pos.key()));
    }
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        let key = pos.key();
        pos.make(m);
        walk(pos, chess960, depth - 1, failures);
        pos.unmake();
        if pos.fen() != fen || pos.key() != key {
            let uci = pos.uci(m);
            failures.push(format!("{fen}: unmake of {uci} left {} key {:016x}", pos.fen(), pos.key()));
        }
    }
}

#[test]
fn incremental_key_equals_recompute_and_unmake_restores() {
    let mut failures = Vec::new();
    let mut walked = 0;
    for entry in suite() {
        let mut pos = position(&entry.fen, entry.chess960);
        // Depth 3 where the tree is small, depth 2 elsewhere, to keep the walk to seconds.
        let small = entry.counts.iter().any(|&(depth, nodes)| depth == 3 && nodes <= 20_000);
        let depth = if small { 3 } else { 2 };
        walk(&mut pos, entry.chess960, depth, &mut failures);
        walked += 1;
    }
    failures.truncate(50);
    assert!(failures.is_empty(), "hash/unmake failures:\n{}", failures.join("\n"));
    assert!(walked >= 100);
}

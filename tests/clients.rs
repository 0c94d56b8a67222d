//! What GUIs and match runners check, over pipes: the last `pv` before every `bestmove` starts
//! with the move played (self-play with two threads, clocks, ponder and a limited level), MultiPV
//! lines come sorted by score, and long commands (`bench`, `go perft`, `genfens`) run as jobs:
//! `isready` answered while they run, `stop` ends them, `quit` exits at once, and every `go`
//! still gets exactly one `bestmove`.
//!
//! Time bounds are generous (the CI machine is a loaded 2-core box): they catch an engine that
//! waits for a whole job, not one that is a little slow.

mod common;

use common::{field, pv, score, EngineProcess, Search, QUICK, SEARCH};
use std::time::Duration;

/// Longer than any answer that needs no thought, far shorter than the jobs started here.
const PROMPT: Duration = Duration::from_secs(8);

/// The last line of the first MultiPV line before `bestmove` (what fastchess and GUIs show as
/// the engine's plan).
fn last_pv_line(search: &Search) -> &str {
    search
        .lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" pv ") && field(l, "multipv").unwrap_or(1) == 1)
        .unwrap_or_else(|| panic!("no pv line before bestmove {}: {:?}", search.bestmove, search.lines))
}

/// Asserts the played move opens the last PV, and the ponder move (if any) follows it there.
fn assert_bestmove_on_last_pv(search: &Search, context: &str) {
    let line = last_pv_line(search);
    let moves = pv(line);
    assert_eq!(moves.first().copied(), Some(search.bestmove.as_str()), "{context}: last pv '{line}'");
    if let Some(ponder) = &search.ponder {
        assert_eq!(
            moves.get(1).copied(),
            Some(ponder.as_str()),
            "{context}: ponder move off the pv '{line}'"
        );
    }
}

/// A score as a number to sort by (mates beyond every centipawn score).
fn sort_key(line: &str) -> i64 {
    let text = score(line);
    match text.split_once(' ') {
        Some(("cp", cp)) => cp.parse().expect("cp value"),
        Some(("mate", n)) => {
            let n: i64 = n.parse().expect("mate value");
            if n > 0 {
                100_000 - n
            } else {
                -100_000 - n
            }
        }
        _ => panic!("no score in '{line}'"),
    }
}

/// Plays `plies` half-moves of self-play from `start` (a `position` prefix, without `moves`),
/// each engine answering its own `go`; checks every answer against its last PV. Returns the
/// moves played.
fn self_play(engines: &mut [EngineProcess; 2], start: &str, plies: usize, go: &[&str; 2]) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..plies {
        let side = ply % 2;
        let engine = &mut engines[side];
        let joiner = if start.contains(" moves ") { " " } else { " moves " };
        let position =
            if moves.is_empty() { start.to_string() } else { format!("{start}{joiner}{}", moves.join(" ")) };
        engine.send(&position);
        let search = engine.go(go[side], SEARCH);
        if search.bestmove == "(none)" {
            break;
        }
        assert_bestmove_on_last_pv(&search, &format!("ply {ply} after {position}"));
        moves.push(search.bestmove.clone());
    }
    moves
}

fn engine_with(options: &[&str]) -> EngineProcess {
    let mut engine = EngineProcess::spawn();
    for option in options {
        engine.send(&format!("setoption name {option}"));
    }
    engine.assert_ready();
    engine
}

#[test]
fn self_play_with_two_threads_plays_the_move_of_the_last_pv() {
    // Two threads vote, and tiny budgets cut iterations short: the cases where the move played
    // used to differ from the last line shown.
    let mut engines = [engine_with(&["Threads value 2", "Hash value 8"]), engine_with(&["Threads value 2"])];
    let played = self_play(&mut engines, "position startpos", 60, &["go movetime 30", "go nodes 20000"]);
    assert!(played.len() >= 20, "the game went on: {played:?}");
    let clocks = "go wtime 2000 btime 2000 winc 20 binc 20";
    let played = self_play(&mut engines, "position startpos moves d2d4 g8f6 c2c4", 40, &[clocks, clocks]);
    assert!(played.len() >= 10, "{played:?}");
}

#[test]
fn a_limited_level_and_ponder_keep_the_played_move_on_the_last_pv() {
    // A limited level often plays one of its weaker lines, not the best one it searched.
    let limited = engine_with(&["UCI_LimitStrength value true", "UCI_Elo value 1300", "Threads value 2"]);
    let mut engines = [limited, engine_with(&["Threads value 2"])];
    let moves = self_play(&mut engines, "position startpos", 24, &["go nodes 3000", "go movetime 20"]);
    assert!(moves.len() >= 10, "{moves:?}");
    let [limited, full] = &mut engines;

    // Ponder, then the opponent plays the expected move.
    full.send("setoption name Ponder value true");
    full.send("position startpos moves e2e4");
    let search = full.go("go movetime 200", SEARCH);
    assert_bestmove_on_last_pv(&search, "before ponder");
    let Some(ponder) = search.ponder.clone() else { return };
    full.send(&format!("position startpos moves e2e4 {} {ponder}", search.bestmove));
    full.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(300));
    full.send("ponderhit");
    let lines = full.lines_until(|l| l.starts_with("bestmove"), SEARCH);
    let pondered = common_search(lines);
    assert_bestmove_on_last_pv(&pondered, "after ponderhit");
    limited.assert_ready();
}

/// A `Search` from lines ending in `bestmove` (for searches not started by `EngineProcess::go`).
fn common_search(lines: Vec<String>) -> Search {
    let last = lines.last().expect("a bestmove line").clone();
    let tokens: Vec<&str> = last.split_whitespace().collect();
    Search {
        lines: lines[..lines.len() - 1].to_vec(),
        bestmove: tokens[1].to_string(),
        ponder: (tokens.get(2) == Some(&"ponder")).then(|| tokens[3].to_string()),
        elapsed: Duration::ZERO,
    }
}

#[test]
fn a_search_stopped_mid_iteration_still_shows_the_move_played() {
    let mut engine = engine_with(&["Threads value 2"]);
    for position in [
        "position startpos",
        "position fen r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
        "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        engine.send(position);
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(150));
        engine.send("stop");
        let search = common_search(engine.lines_until(|l| l.starts_with("bestmove"), PROMPT));
        assert_bestmove_on_last_pv(&search, position);
    }
}

#[test]
fn multipv_lines_come_sorted_by_score_with_one_and_two_threads() {
    for threads in [1, 2] {
        let mut engine = engine_with(&[&format!("Threads value {threads}"), "MultiPV value 4"]);
        for position in [
            "position startpos",
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        ] {
            engine.send(position);
            let search = engine.go("go depth 10", SEARCH);
            let infos = search.infos();
            // Group the lines of each iteration (multipv 1 opens one) and check their order.
            let mut iteration: Vec<&str> = Vec::new();
            for line in infos.iter().copied().chain(std::iter::once("end")) {
                if line == "end" || field(line, "multipv") == Some(1) {
                    let numbers: Vec<i64> = iteration.iter().filter_map(|l| field(l, "multipv")).collect();
                    let expected: Vec<i64> = (1..=numbers.len() as i64).collect();
                    assert_eq!(numbers, expected, "{threads} threads, {position}: {iteration:?}");
                    let keys: Vec<i64> = iteration.iter().map(|l| sort_key(l)).collect();
                    assert!(
                        keys.windows(2).all(|pair| pair[0] >= pair[1]),
                        "{threads} threads, {position}: lines out of order {keys:?}: {iteration:?}"
                    );
                    iteration.clear();
                }
                iteration.push(line);
            }
            assert_bestmove_on_last_pv(&search, position);
        }
    }
}

#[test]
fn go_perft_is_a_job_that_isready_passes_and_stop_ends() {
    let mut engine = engine_with(&[]);
    engine.send("go perft 8");
    let latency = engine.assert_ready();
    assert!(latency < PROMPT, "isready waited {latency:?} behind perft");
    engine.send("stop");
    let (line, latency) = engine.expect_line(|l| l.starts_with("info string perft stopped"), PROMPT);
    assert!(line.contains("the count is incomplete"), "{line}");
    assert!(latency < PROMPT, "stop took {latency:?}");
    engine.assert_ready();
    // A complete count still ends with the total, and `go perft` owes no bestmove.
    let moves = engine.legal_moves();
    assert_eq!(moves.len(), 20);
    engine.assert_ready();
}

#[test]
fn bench_and_genfens_are_jobs_too() {
    let mut engine = engine_with(&[]);
    engine.send("bench 40");
    engine.assert_ready();
    engine.send("stop");
    engine.expect_line(|l| l == "info string bench stopped; no node count", PROMPT);
    engine.assert_ready();

    engine.send("genfens 100000 seed 3 book None");
    engine.expect_line(|l| l.starts_with("info string genfens "), SEARCH);
    engine.send("stop");
    let (line, _) = engine.expect_line(|l| l.starts_with("info string genfens stopped after "), PROMPT);
    assert!(line.ends_with("of 100000 openings"), "{line}");
    engine.assert_ready();

    // A short bench runs to its OpenBench line.
    engine.send("bench 2");
    let (line, _) = engine.expect_line(|l| l.ends_with(" nps"), SEARCH);
    assert!(line.split_whitespace().nth(1) == Some("nodes"), "{line}");
    engine.assert_ready();
}

#[test]
fn a_go_during_a_job_ends_the_job_and_gets_exactly_one_bestmove() {
    let mut engine = engine_with(&[]);
    engine.send("go perft 8");
    let search = engine.go("go depth 4", SEARCH);
    assert!(search.lines.iter().any(|l| l.starts_with("info string perft stopped")), "{:?}", search.lines);
    assert_bestmove_on_last_pv(&search, "go after perft");
    engine.assert_ready();
    engine.send("bench 40");
    let search = engine.go("go nodes 5000", SEARCH);
    assert!(search.lines.iter().any(|l| l.starts_with("info string bench stopped")), "{:?}", search.lines);
    engine.assert_ready();
}

#[test]
fn quit_during_a_job_exits_at_once() {
    for job in ["go perft 9", "bench 40", "genfens 100000 seed 1 book None"] {
        let mut engine = engine_with(&[]);
        engine.send(job);
        engine.assert_ready();
        engine.send("quit");
        let status = engine.wait_exit(PROMPT).unwrap_or_else(|| panic!("no exit after quit during {job}"));
        assert!(status.success(), "{job}: {status:?}");
    }
}

#[test]
fn end_of_input_lets_a_job_finish() {
    let mut engine = engine_with(&[]);
    engine.send("go perft 4");
    engine.close_stdin();
    let (line, _) = engine.expect_line(|l| l.starts_with("Nodes searched:"), SEARCH);
    assert_eq!(line, "Nodes searched: 197281");
    assert!(engine.wait_exit(QUICK).is_some_and(|s| s.success()));
}

//! `patina-learn datagen`, driven through the real binary: the data format,
//! reproducibility across runs and thread counts, resuming (including after a torn write), and
//! the refusals that protect a data file.

use patina::position::Position;
use std::path::Path;

mod common;
use common::{engine_tables, learn, path_str, scratch, write_book};

/// Runs `patina-learn datagen --nodes 500` with `extra` arguments into `out`, asserting success.
fn datagen(out: &Path, extra: &[&str]) {
    let mut args = vec!["datagen", "--nodes", "500", "--out", path_str(out)];
    args.extend_from_slice(extra);
    let output = learn(&args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "datagen {extra:?} failed: {stderr}");
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks one data line and returns its result label.
fn check_line(line: &str) -> String {
    let fields: Vec<&str> = line.split(" | ").collect();
    assert_eq!(fields.len(), 3, "line is not 'FEN | score | result': {line}");
    let pos = Position::from_fen(fields[0], false).unwrap_or_else(|e| panic!("{e} in line {line}"));
    assert!(!pos.is_check(), "a kept position is in check: {line}");
    let score: i32 = fields[1].parse().unwrap_or_else(|_| panic!("score is not an integer: {line}"));
    assert!(score.abs() < 20_000, "mate scores are not kept: {line}");
    assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "bad result: {line}");
    fields[2].to_string()
}

#[test]
fn datagen_is_reproducible_and_well_formed() {
    let dir = scratch("datagen", "repro");
    let (first, second, one_thread) = (dir.join("a.txt"), dir.join("b.txt"), dir.join("c.txt"));
    datagen(&first, &["--games", "4", "--threads", "2", "--seed", "7"]);
    datagen(&second, &["--games", "4", "--threads", "2", "--seed", "7"]);
    datagen(&one_thread, &["--games", "4", "--threads", "1", "--seed", "7"]);
    let text = read(&first);
    assert_eq!(text, read(&second), "same seed and threads must give the same bytes");
    assert_eq!(text, read(&one_thread), "the thread count must not change the data");
    assert!(text.lines().count() >= 4, "four games keep some positions:\n{text}");
    for line in text.lines() {
        check_line(line);
    }
    assert!(read(&patina_learn::data::sidecar_path(&first)).contains("games 4\n"));

    let other_seed = dir.join("d.txt");
    datagen(&other_seed, &["--games", "4", "--threads", "2", "--seed", "8"]);
    assert_ne!(text, read(&other_seed), "another seed gives other games");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resuming_gives_the_same_file_as_one_run() {
    let dir = scratch("datagen", "resume");
    let (whole, resumed) = (dir.join("whole.txt"), dir.join("resumed.txt"));
    datagen(&whole, &["--games", "4", "--threads", "2", "--seed", "7"]);
    datagen(&resumed, &["--games", "2", "--threads", "2", "--seed", "7"]);
    // Seed and nodes come back from the sidecar when left out.
    let output = learn(&["datagen", "--games", "4", "--threads", "2", "--out", path_str(&resumed)]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(read(&whole), read(&resumed));

    // A torn write after the last recorded game (a killed run) is cut off on resume.
    let mut torn = read(&resumed);
    torn.push_str("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQ");
    std::fs::write(&resumed, torn).unwrap();
    datagen(&resumed, &["--games", "4", "--seed", "7"]);
    assert_eq!(read(&whole), read(&resumed));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_game_has_one_result() {
    // Growing the file one game at a time shows where each game's lines start and end.
    let dir = scratch("datagen", "games");
    let out = dir.join("data.txt");
    let mut seen = 0;
    for games in 1..=4 {
        datagen(&out, &["--games", &games.to_string(), "--seed", "11"]);
        let text = read(&out);
        let results: Vec<String> = text.lines().skip(seen).map(check_line).collect();
        seen = text.lines().count();
        assert!(results.windows(2).all(|pair| pair[0] == pair[1]), "game {games} mixes results: {results:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_refuses_to_mix_data() {
    let dir = scratch("datagen", "refuse");
    let out = dir.join("data.txt");
    datagen(&out, &["--games", "1", "--seed", "7"]);
    let output = learn(&["datagen", "--games", "2", "--seed", "9", "--out", path_str(&out)]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("seed '7'") && stderr.contains("'9'"), "{stderr}");

    let foreign = dir.join("foreign.txt");
    std::fs::write(&foreign, "not ours\n").unwrap();
    let output = learn(&["datagen", "--games", "1", "--out", path_str(&foreign)]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("foreign.txt.progress"));
    assert_eq!(read(&foreign), "not ours\n", "a refused file is left alone");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn soft_nodes_and_random_plies_are_reproducible_and_kept_on_resume() {
    let dir = scratch("datagen", "soft");
    let (first, second, resumed, plain) =
        (dir.join("a.txt"), dir.join("b.txt"), dir.join("r.txt"), dir.join("p.txt"));
    let deeper = ["--soft-nodes", "200", "--random-plies", "3", "--seed", "7"];
    datagen(&first, &[&["--games", "3", "--threads", "2"], &deeper[..]].concat());
    datagen(&second, &[&["--games", "3", "--threads", "1"], &deeper[..]].concat());
    datagen(&plain, &["--games", "3", "--seed", "7"]);
    let text = read(&first);
    assert_eq!(text, read(&second), "same settings, same bytes, whatever the threads");
    assert_ne!(text, read(&plain), "the soft limit and the extra plies change the games");
    for line in text.lines() {
        check_line(line);
    }
    let sidecar = read(&patina_learn::data::sidecar_path(&first));
    assert!(sidecar.contains("soft-nodes 200\n") && sidecar.contains("random-plies 3\n"), "{sidecar}");

    // Resumed without the flags, the run keeps them: the file is the one a single run writes.
    datagen(&resumed, &[&["--games", "1"], &deeper[..]].concat());
    datagen(&resumed, &["--games", "3"]);
    assert_eq!(read(&resumed), text);
    let output = learn(&["datagen", "--games", "4", "--random-plies", "2", "--out", path_str(&resumed)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("records random-plies '3' but '2'"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_plays_from_a_book() {
    let dir = scratch("datagen", "book");
    let (book, out) = (write_book(&dir), dir.join("data.txt"));
    datagen(&out, &["--games", "2", "--threads", "2", "--seed", "3", "--book", path_str(&book)]);
    let text = read(&out);
    assert!(text.lines().count() >= 2, "{text}");
    for line in text.lines() {
        check_line(line);
    }
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nbroken line\n").unwrap();
    let output =
        learn(&["datagen", "--games", "1", "--book", path_str(&bad), "--out", path_str(&dir.join("x.txt"))]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 2") && stderr.contains("'broken line'"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_plays_a_share_of_dfrc_starts_and_records_it() {
    let dir = scratch("datagen", "dfrc");
    let (book, mixed, again, plain) =
        (write_book(&dir), dir.join("mixed.txt"), dir.join("again.txt"), dir.join("plain.txt"));
    let args = |share: &'static str| ["--games", "4", "--threads", "2", "--seed", "5", "--dfrc", share];
    let with_book = |share| {
        let mut all = args(share).to_vec();
        all.extend_from_slice(&["--book", path_str(&book)]);
        all
    };
    datagen(&mixed, &with_book("100"));
    datagen(&again, &with_book("100"));
    datagen(&plain, &with_book("0"));
    let text = read(&mixed);
    assert_eq!(text, read(&again), "the same seed and share give the same games");
    assert_ne!(text, read(&plain), "DFRC starts are other games than the book's");
    assert!(text.lines().count() >= 4, "{text}");
    for line in text.lines() {
        let fen = line.split(" | ").next().unwrap();
        let pos = Position::from_fen(fen, true).unwrap_or_else(|e| panic!("{e} in line {line}"));
        assert!(!pos.is_check(), "{line}");
    }
    assert!(read(&patina_learn::data::sidecar_path(&mixed)).contains("dfrc 100\n"));
    // Resuming with another share is refused; 101 percent is no share at all.
    let output = learn(&["datagen", "--games", "5", "--dfrc", "10", "--out", path_str(&mixed)]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("records dfrc '100' but '10' was given"));
    let output = learn(&["datagen", "--games", "1", "--dfrc", "101", "--out", path_str(&dir.join("x.txt"))]);
    assert!(!output.status.success(), "a share above 100 percent is refused");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_records_its_tablebases_and_refuses_bad_ones() {
    let dir = scratch("datagen", "syzygy");
    let tables = engine_tables();
    let out = dir.join("data.bin");
    datagen(&out, &["--games", "1", "--seed", "3", "--syzygy", path_str(&tables)]);
    let sidecar = read(&patina_learn::data::sidecar_path(&out));
    assert!(sidecar.contains(&format!("syzygy {}\n", tables.display())), "{sidecar}");
    // Resuming with other tables is refused: the file's games would mix two settings.
    let elsewhere = format!("{}/.", tables.display());
    let args = ["datagen", "--games", "2", "--syzygy", &elsewhere, "--out", path_str(&out)];
    let stderr = String::from_utf8_lossy(&learn(&args).stderr).into_owned();
    assert!(stderr.contains("records syzygy") && stderr.contains(&format!("'{elsewhere}'")), "{stderr}");

    let missing = dir.join("no-tables");
    let fresh = dir.join("fresh.bin");
    let output =
        learn(&["datagen", "--games", "1", "--syzygy", path_str(&missing), "--out", path_str(&fresh)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("tablebases") && stderr.contains("no-tables"),
        "{stderr}"
    );
    assert!(!fresh.exists(), "nothing written before the tables load");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_plays_past_unreadable_and_missing_tables_and_reports_them() {
    let dir = scratch("datagen", "bad-table");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    // Garbage of a size a table may have (16 mod 64) registers, and fails when probed.
    std::fs::write(tables.join("KPvKP.rtbw"), vec![0x5au8; 64 * 10 + 16]).unwrap();
    // Every pawn move of these games probes KPvKP; a capture of a pawn needs KPvK, not there.
    let book = dir.join("pawns.epd");
    std::fs::write(&book, "4k3/4p3/8/8/8/8/4P3/4K3 w - -\n").unwrap();
    let out = dir.join("data.bin");
    let args = ["--games", "3", "--seed", "1", "--book", path_str(&book), "--syzygy", path_str(&tables)];
    let mut command = vec!["datagen", "--nodes", "300", "--out", path_str(&out)];
    command.extend_from_slice(&args);
    let output = learn(&command);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "a bad table does not stop the run: {stderr}");
    assert!(std::fs::metadata(&out).unwrap().len() > 0, "the games were played on and written");
    let warning =
        |what: &str| stderr.lines().any(|l| l.starts_with("datagen: warning: game ") && l.contains(what));
    assert!(warning("failed to probe wdl table KPvKP"), "{stderr}");
    assert!(warning("not found: KPvK"), "{stderr}");
    let summary = stderr.lines().last().unwrap_or_default();
    assert!(summary.contains("3 games this run"), "{stderr}");
    let counts = summary.split("tablebase misses: ").nth(1).unwrap_or_else(|| panic!("{stderr}"));
    let unreadable: u64 = counts.split(' ').next().unwrap().parse().unwrap();
    assert!(unreadable > 0 && counts.contains(" unreadable, "), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! `patina analyze`, run as a user would: a position's report, and a PGN file's annotated PGN,
//! SVG graph and summary. Searches are tiny (depth 4, a few thousand nodes) to keep CI fast.

mod common;
use common::{path_str, patina, scratch};

use std::path::Path;
use std::process::Output;

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games.pgn");

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn position_mode_prints_the_board_and_san_lines_with_wdl() {
    // Move numbers with or without a space after them.
    let output = patina(&["analyze", "--moves", "1.e4 e5 2. Nf3", "--nodes", "5000"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("8 │ ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜ │"), "{text}");
    assert!(text.contains("♘") && text.contains("a b c d e f g h"), "{text}");
    assert!(text.contains("Black to move (move 2)"), "{text}");
    let lines: Vec<&str> = text.lines().filter(|line| line.starts_with("depth ")).collect();
    assert!(lines.len() >= 3, "a line per depth: {text}");
    for line in &lines {
        // Black to move: the line starts `2... ` and White's replies carry their numbers.
        assert!(line.contains(" 2... "), "{line}");
        assert!(line.contains("W ") && line.contains("% D ") && line.contains("% L "), "{line}");
        assert!(line.contains(" nps "), "{line}");
    }
    assert!(lines.iter().any(|line| line.contains(" 3. ")), "a line reaching White's move 3: {text}");
    assert!(text.contains("Best move: 2... "), "{text}");
    assert!(stderr(&output).is_empty(), "nothing on stderr: {}", stderr(&output));
}

#[test]
fn position_mode_rejects_an_illegal_move_by_name() {
    let output = patina(&["analyze", "--moves", "e4 e5 Ke3", "--depth", "2"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("illegal move 'Ke3' at ply 3"), "{}", stderr(&output));
    assert!(stdout(&output).is_empty());
}

/// One game of the annotated PGN: its main line's moves (SAN with any glyph) and the comment
/// right after each, variations and their comments left out.
struct MainLine {
    moves: Vec<String>,
    comments: Vec<Option<String>>,
}

fn main_line(movetext: &str) -> MainLine {
    let mut line = MainLine { moves: Vec::new(), comments: Vec::new() };
    let (mut depth, mut chars) = (0, movetext.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if depth == 0 {
                    if let Some(slot @ None) = line.comments.last_mut() {
                        // Comments may be wrapped over lines: compare them with single spaces.
                        *slot = Some(comment.split_whitespace().collect::<Vec<_>>().join(" "));
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() => {}
            c => {
                let mut token = c.to_string();
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || "{}()".contains(next) {
                        break;
                    }
                    token.push(next);
                    chars.next();
                }
                let is_number = token.trim_end_matches('.').chars().all(|c| c.is_ascii_digit());
                let is_result = ["1-0", "0-1", "1/2-1/2", "*"].contains(&token.as_str());
                if depth == 0 && !is_number && !is_result {
                    line.moves.push(token);
                    line.comments.push(None);
                }
            }
        }
    }
    line
}

/// The annotated PGN's games as (tags, movetext).
fn games(pgn: &str) -> Vec<(String, String)> {
    pgn.split("\n\n[")
        .map(|game| {
            let (tags, movetext) = game.split_once("\n\n").expect("tags, blank line, movetext");
            (tags.to_string(), movetext.to_string())
        })
        .collect()
}

/// Counts of `?!`, `?`, `??` on the main line's moves.
fn glyph_counts(line: &MainLine) -> [usize; 3] {
    let mut counts = [0; 3];
    for san in &line.moves {
        let glyph = san.trim_start_matches(|c: char| !"?!".contains(c));
        match glyph {
            "" => {}
            "?!" => counts[0] += 1,
            "?" => counts[1] += 1,
            "??" => counts[2] += 1,
            other => panic!("unexpected glyph '{other}' on {san}"),
        }
    }
    counts
}

/// The summary's counts for one game (both sides added): inaccuracies, mistakes, blunders.
fn summary_counts(summary: &str) -> [usize; 3] {
    let mut counts = [0; 3];
    for line in summary.lines().filter(|l| l.starts_with("  White ") || l.starts_with("  Black ")) {
        for part in line.rsplit_once("; ").expect("counts after the move count").1.split(", ") {
            let (count, what) = part.split_once(' ').expect("`N what`");
            let count: usize = count.parse().expect("a count");
            match what.trim_end() {
                "inaccuracy" | "inaccuracies" => counts[0] += count,
                "mistake" | "mistakes" => counts[1] += count,
                "blunder" | "blunders" => counts[2] += count,
                other => panic!("unexpected count '{other}' in {line}"),
            }
        }
    }
    counts
}

/// Checks that every tag of `svg` is closed in order (a small well-formedness test).
fn assert_balanced_tags(svg: &str) {
    let mut open: Vec<&str> = Vec::new();
    for piece in svg.split('<').skip(1) {
        let tag = piece.split('>').next().expect("tag ends");
        let name = tag.trim_start_matches('/').split([' ', '\n', '/']).next().unwrap_or_default();
        if tag.starts_with('/') {
            assert_eq!(open.pop(), Some(name), "closing </{name}> out of order");
        } else if !tag.ends_with('/') {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "unclosed tags: {open:?}");
}

fn analyze_games(dir: &Path) -> (Output, String, String) {
    let (pgn_out, svg_out) = (dir.join("annotated.pgn"), dir.join("graph.svg"));
    let args = [
        "analyze",
        "--pgn",
        GAMES,
        "--depth",
        "4",
        "--out",
        path_str(&pgn_out),
        "--graph",
        path_str(&svg_out),
    ];
    let output = patina(&args);
    let pgn = std::fs::read_to_string(&pgn_out).unwrap_or_default();
    let svg = std::fs::read_to_string(&svg_out).unwrap_or_default();
    (output, pgn, svg)
}

#[test]
fn pgn_mode_annotates_graphs_and_summarises_every_game() {
    let dir = scratch("analyze", "pgn");
    let (output, pgn, svg) = analyze_games(&dir);
    assert!(output.status.success(), "{}", stderr(&output));
    let (text, errors) = (stdout(&output), stderr(&output));

    // Four games written, each with an eval on every main-line move and only ?!, ?, ?? marks.
    let games = games(&pgn);
    assert_eq!(games.len(), 4, "{pgn}");
    let summaries: Vec<&str> = text.split("\nGame ").skip(1).collect();
    assert_eq!(summaries.len(), 4, "{text}");
    let expected_moves = [33, 12, 6, 21];
    for (index, (tags, movetext)) in games.iter().enumerate() {
        assert!(tags.contains("[Annotator \"Patina "), "{tags}");
        let line = main_line(movetext);
        assert_eq!(line.moves.len(), expected_moves[index], "game {}: {movetext}", index + 1);
        for (san, comment) in line.moves.iter().zip(&line.comments) {
            let comment = comment.as_deref().unwrap_or_default();
            assert!(comment.starts_with("[%eval "), "game {} move {san}: {comment:?}", index + 1);
        }
        for (san, comment) in line.moves.iter().zip(&line.comments) {
            if san.ends_with('?') || san.ends_with("?!") {
                let comment = comment.as_deref().unwrap_or_default();
                assert!(comment.contains(" was best."), "a marked move names the better one: {comment}");
            }
        }
        assert_eq!(glyph_counts(&line), summary_counts(summaries[index]), "game {}", index + 1);
    }

    // The Opera Game ends in mate, the Bongcloud in a threefold repetition: the rules agree.
    let opera = main_line(&games[0].1);
    assert_eq!(opera.moves.last().map(String::as_str), Some("Rd8#"));
    assert!(opera.comments.last().unwrap().as_deref().unwrap().starts_with("[%eval #0]"));
    assert!(
        summaries[0].contains("Result: 1-0 in the PGN; by the rules 1-0 checkmate: agrees"),
        "{}",
        summaries[0]
    );
    assert!(
        summaries[1].contains("by the rules * ongoing claimable threefold-repetition: agrees"),
        "{}",
        summaries[1]
    );
    assert!(summaries[3].contains("by the rules 1-0 checkmate: agrees"), "{}", summaries[3]);

    // Game 3 has an illegal fourth move: reported on stderr and in the summary, the moves before
    // it analysed, and game 4 after it analysed in full.
    let report = "Game 3, move 4: illegal move 4. Ke3 (ply 7)";
    assert!(errors.contains(report), "{errors}");
    assert!(summaries[2].contains(report), "{}", summaries[2]);
    let third: Vec<&str> = games[2].1.split_whitespace().collect();
    assert!(third.join(" ").contains("4. Ke3, is an illegal move"), "{}", games[2].1);
    assert!(summaries[3].contains("21 plies analysed"), "{}", summaries[3]);

    // stdout holds results only; the progress bar is on stderr.
    assert!(!text.contains("[####"), "{text}");
    assert!(errors.contains("game 4/4 move 11/11 ["), "{errors}");

    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<polyline").count(), 4, "one curve per game");
    assert!(svg.contains("Paul Morphy – Duke Karl") && svg.contains("1-0"));
    assert_balanced_tags(&svg);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_result_tag_the_rules_contradict_is_flagged() {
    let dir = scratch("analyze", "mismatch");
    let pgn = dir.join("wrong.pgn");
    let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
                [White \"C\"]\n[Black \"D\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n";
    std::fs::write(&pgn, text).unwrap();
    let output = patina(&["analyze", "--pgn", path_str(&pgn), "--nodes", "2000"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = stdout(&output);
    assert!(summary.contains("Result: 1-0 in the PGN; by the rules 0-1 checkmate: MISMATCH"), "{summary}");
    assert!(
        summary.contains("Result: 0-1 in the PGN; by the rules * ongoing: decided off the board"),
        "{summary}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn position_mode_uses_syzygy_tables_from_the_flag_or_the_config() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    // King and rook against king: the issue's `+6.54 W 32.6% D 67.4%` without tables.
    let fen = "8/8/8/8/8/3k4/8/3KR3 w - - 0 1";
    let best_line = |output: &Output| {
        assert!(output.status.success(), "{}", stderr(output));
        let text = stdout(output);
        let best = text.lines().find(|line| line.starts_with("Best move: ")).map(str::to_string);
        (text, best.unwrap_or_default())
    };

    let (text, best) = best_line(&patina(&["analyze", "--fen", fen, "--depth", "8", "--syzygy", tables]));
    assert!(text.contains(&format!("Syzygy tables from {tables}")), "{text}");
    // A tablebase win (`+TB`) or a mate, a sure win.
    assert!(best.contains(" +TB") || best.contains(" #"), "{best}");
    assert!(best.contains("W 100.0% D 0.0% L 0.0%"), "{best}");
    let line = text.lines().find(|line| line.starts_with("Line: ")).unwrap_or_default();
    assert!(line.split_whitespace().count() >= 6, "a line, not one move: {line}");

    let dir = scratch("analyze", "syzygy-config");
    let config = dir.join("engine.toml");
    std::fs::write(&config, format!("syzygy_path = \"{tables}\"\n")).expect("write the config");
    let (text, best) =
        best_line(&patina(&["--config", path_str(&config), "analyze", "--fen", fen, "--depth", "8"]));
    assert!(text.contains(&format!("Syzygy tables from {tables}")), "{text}");
    assert!(best.contains(" +TB") || best.contains(" #"), "{best}");

    // Without tables the search's own score, still read as a win by the model: about +5 here,
    // which the conversion curve (only White can mate; src/wdl) puts at 99% or more.
    let (text, best) = best_line(&patina(&["analyze", "--fen", fen, "--depth", "8"]));
    assert!(!text.contains("Syzygy"), "{text}");
    let win: f64 = best
        .split_once(" W ")
        .and_then(|(_, rest)| rest.split('%').next()?.parse().ok())
        .unwrap_or_else(|| panic!("a W percentage: {best}"));
    assert!(!best.contains(" +TB") && win >= 99.0 && best.contains(" L 0.0%"), "{best}");

    let output = patina(&["analyze", "--fen", fen, "--depth", "2", "--syzygy", "/no/such/tables"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("Syzygy tables") && stderr(&output).contains("/no/such/tables"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

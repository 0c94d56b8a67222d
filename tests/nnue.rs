//! The evaluation network over UCI pipes: the `eval` command's trace, nets loaded with
//! `EvalFile`, and the files it must refuse. (The learning crate's tests train and average
//! nets.)

mod common;

use common::{path_str, scratch, EngineProcess, QUICK};

/// The net hash the `eval` command reports.
fn eval_net_hash(engine: &mut EngineProcess) -> String {
    engine.send("eval");
    let (line, _) = engine.expect_line(|l| l.starts_with("Net evaluation:"), QUICK);
    let start = line.find("net ").expect("a net hash") + 4;
    line[start..start + 16].to_string()
}

#[test]
fn eval_traces_each_piece_on_the_board_with_the_bucket_and_both_scores() {
    let mut engine = EngineProcess::spawn();
    engine.send("position startpos");
    engine.send("eval");
    let lines = engine.lines_until(|l| l.starts_with("Final evaluation:"), QUICK);
    let text = lines.join("\n");
    // Eight ranks of pieces, each followed by its values; kings and empty squares get none.
    let back_rank = lines.iter().find(|l| l.starts_with(" |   r   |   n   |")).expect("Black's back rank");
    assert!(back_rank.ends_with("| 8"), "{text}");
    let values = |rank: usize| {
        let at = lines.iter().position(|l| l.ends_with(&format!("| {rank}"))).expect("the rank");
        lines[at + 1].split('|').map(str::trim).filter(|cell| !cell.is_empty()).count()
    };
    assert_eq!((values(8), values(7), values(5), values(1)), (7, 8, 0, 7), "{text}");
    assert!(text.contains("Output bucket: 7 of 8 (32 pieces)"), "{text}");
    // The start position is symmetric: a queen is worth about the same to either side.
    let row = |rank: usize| {
        let at = lines.iter().position(|l| l.ends_with(&format!("| {rank}"))).expect("the rank");
        lines[at + 1].split('|').map(str::trim).map(str::to_string).collect::<Vec<_>>()
    };
    let (white_queen, black_queen) = (row(1)[4].clone(), row(8)[4].clone());
    let value = |cell: &str| cell.parse::<f64>().unwrap_or_else(|_| panic!("{cell} in {text}"));
    assert!(value(&white_queen) > 5.0 && (value(&white_queen) + value(&black_queen)).abs() < 0.1, "{text}");
    assert!(lines.iter().any(|l| l.starts_with("Net evaluation: ")), "{text}");

    engine.send("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    engine.send("eval");
    let lines = engine.lines_until(|l| l.starts_with("Final evaluation:"), QUICK);
    assert!(lines.iter().any(|l| l == "Output bucket: 0 of 8 (2 pieces)"), "{lines:?}");
    engine.send("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e1");
    engine.expect_line(|l| l.starts_with("info string error"), QUICK);
    engine.assert_ready();
}

#[test]
fn an_eval_file_net_plays_and_the_built_in_one_comes_back() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/n8z.nnue");
    let mut engine = EngineProcess::spawn();
    engine.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let builtin = eval_net_hash(&mut engine);
    let built_in_search = engine.go("go depth 6", QUICK);
    engine.send(&format!("setoption name EvalFile value {fixture}"));
    let (loaded, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    let other = eval_net_hash(&mut engine);
    assert_ne!(other, builtin);
    assert_eq!(loaded, format!("info string EvalFile: net {other} loaded"));
    engine.send("ucinewgame");
    let other_search = engine.go("go depth 6", QUICK);
    // Two nets that agree on the score and the size of a depth-6 tree would be a coincidence:
    // a different tree says the net reached the search.
    let summary = |search: &common::Search| {
        let last = *search.infos().last().expect("an info line");
        (common::score(last), common::field(last, "nodes"))
    };
    assert_ne!(summary(&built_in_search), summary(&other_search));
    engine.send("setoption name EvalFile value <empty>");
    engine.expect_line(|l| l.starts_with("info string EvalFile: "), QUICK);
    assert_eq!(eval_net_hash(&mut engine), builtin);
    engine.send("setoption name UseNNUE value false");
    let (refused, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert!(refused.starts_with("info string error: ") && refused.contains("UseNNUE"), "{refused}");
    engine.assert_ready();
}

#[test]
fn bad_net_files_are_refused_and_the_net_is_kept() {
    let dir = scratch("nnue", "refused");
    let truncated = dir.join("truncated.nnue");
    let builtin = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue")).unwrap();
    std::fs::write(&truncated, &builtin[..builtin.len() / 2]).unwrap();
    let corrupt = dir.join("corrupt.nnue");
    let mut flipped = builtin.clone();
    flipped[1000] ^= 0x10;
    std::fs::write(&corrupt, &flipped).unwrap();
    let other_size = dir.join("other.nnue");
    // A header naming another hidden size than the payload holds.
    let mut header = builtin.clone();
    let builtin_hidden = u32::from_le_bytes(builtin[20..24].try_into().unwrap());
    let other_hidden: u32 = if builtin_hidden == 256 { 128 } else { 256 };
    header[20..24].copy_from_slice(&other_hidden.to_le_bytes());
    let other_size_reason = format!("768 -> {other_hidden}");
    std::fs::write(&other_size, &header).unwrap();
    let not_a_net = dir.join("text.nnue");
    std::fs::write(&not_a_net, "hello, I am not a network").unwrap();

    let mut engine = EngineProcess::spawn();
    let before = eval_net_hash(&mut engine);
    let cases = [
        (dir.join("missing.nnue"), "cannot read"),
        (truncated, "truncated"),
        (corrupt, "corrupt"),
        (other_size, other_size_reason.as_str()),
        (not_a_net, "expected"),
    ];
    for (path, reason) in cases {
        engine.send(&format!("setoption name EvalFile value {}", path_str(&path)));
        let (line, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
        assert!(line.starts_with("info string error: EvalFile: ") && line.contains(reason), "{line}");
        assert!(line.ends_with("the net is unchanged"), "{line}");
        assert_eq!(eval_net_hash(&mut engine), before);
    }
    engine.send("uci");
    let lines = engine.lines_until(|l| l == "uciok", QUICK);
    assert!(lines.contains(&"option name EvalFile type string default <empty>".to_string()), "{lines:?}");
    engine.assert_ready();
    std::fs::remove_dir_all(&dir).unwrap();
}

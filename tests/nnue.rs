//! The evaluation network's pipeline as a user drives it: `patina datagen` records,
//! `patina data` verbs, `patina train`, and the net loaded with `EvalFile` over UCI pipes,
//! including the files it must refuse.

mod common;

use common::{path_str, patina, scratch, EngineProcess, QUICK};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The net hash the `eval` command reports.
fn eval_net_hash(engine: &mut EngineProcess) -> String {
    engine.send("eval");
    let (line, _) = engine.expect_line(|l| l.starts_with("Network evaluation:"), QUICK);
    let start = line.find("net ").expect("a net hash") + 4;
    line[start..start + 16].to_string()
}

#[test]
fn datagen_records_feed_data_verbs_and_train_a_net_the_engine_loads() {
    let dir = scratch("nnue", "pipeline");
    let records = dir.join("games.bin");
    let made = patina(&[
        "datagen",
        "--games",
        "6",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        path_str(&records),
    ]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let length = std::fs::metadata(&records).unwrap().len();
    assert!(length > 0 && length.is_multiple_of(32), "whole 32-byte records: {length} bytes");

    let stats = patina(&["data", "stats", path_str(&records)]);
    let text = stdout(&stats);
    assert!(text.starts_with(&format!("positions {} in 6 games", length / 32)), "{text}");
    let filtered = stdout(&patina(&["data", "stats", path_str(&records), "--filter", "check,noisy,mate"]));
    assert!(filtered.contains("in check 0  noisy best move 0  mate scores 0"), "{filtered}");

    // `export` writes what the training filter keeps, one `FEN | score | result` line each.
    let quiet = dir.join("quiet.txt");
    let exported = patina(&["data", "export", path_str(&records), "--out", path_str(&quiet)]);
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let lines = std::fs::read_to_string(&quiet).unwrap();
    assert!(filtered.starts_with(&format!("positions {} in", lines.lines().count())), "{filtered}");
    assert!(lines.lines().all(|line| line.split(" | ").count() == 3), "{lines}");

    let mixed = dir.join("mixed.bin");
    let interleaved =
        patina(&["data", "interleave", path_str(&records), path_str(&records), "--out", path_str(&mixed)]);
    assert!(
        stdout(&interleaved).starts_with(&format!("{} records", 2 * length / 32)),
        "{}",
        stdout(&interleaved)
    );
    let shuffled = dir.join("shuffled.bin");
    assert!(patina(&["data", "shuffle", path_str(&mixed), "--out", path_str(&shuffled)]).status.success());
    assert_eq!(std::fs::metadata(&shuffled).unwrap().len(), 2 * length);

    let net = dir.join("net.nnue");
    let trained = patina(&[
        "train",
        "--data",
        path_str(&records),
        "--out",
        path_str(&net),
        "--epochs",
        "2",
        "--batch",
        "64",
    ]);
    let log = String::from_utf8_lossy(&trained.stderr);
    assert!(trained.status.success(), "{log}");
    assert!(log.contains("epoch 2: train") && log.contains("wrote"), "{log}");
    assert!(log.contains("target scale 400.0 cp"), "the shipped nets' scale is the default: {log}");

    // `net-loss` scores the trained net and the built-in one on the held-out games, one line each.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
    let scored = patina(&[
        "net-loss",
        path_str(&net),
        shipped,
        "--data",
        path_str(&records),
        "--validation-fraction",
        "0.5",
    ]);
    let table = stdout(&scored);
    assert!(scored.status.success(), "{}", String::from_utf8_lossy(&scored.stderr));
    let rows: Vec<&str> = table.lines().skip(2).collect();
    assert!(table.starts_with("held-out positions: ") && rows.len() == 2, "{table}");
    assert!(rows[0].ends_with("net.nnue") && rows[1].ends_with("default.nnue"), "{table}");
    let loss: f64 = rows[0].split_whitespace().next().unwrap().parse().unwrap();
    assert!(loss > 0.0 && loss < 0.25, "{table}");
    let refused = patina(&["net-loss", path_str(&records), "--data", path_str(&records)]);
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success()
            && message.starts_with("patina: net-loss: ")
            && message.contains("games.bin: not a Patina net file"),
        "{message}"
    );

    let mut engine = EngineProcess::spawn();
    let builtin = eval_net_hash(&mut engine);
    engine.send(&format!("setoption name EvalFile value {}", path_str(&net)));
    let (loaded, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert!(loaded.starts_with("info string EvalFile: net ") && loaded.ends_with(" loaded"), "{loaded}");
    let trained_hash = eval_net_hash(&mut engine);
    assert_ne!(trained_hash, builtin);
    assert!(loaded.contains(&trained_hash), "{loaded}");
    let search = engine.go("go depth 4", QUICK);
    assert_eq!(search.last_depth(), 4, "{:?}", search.lines);
    assert!(!search.bestmove.is_empty() && search.bestmove != "0000", "{:?}", search.lines);
    engine.send("setoption name EvalFile value <empty>");
    engine.expect_line(|l| l.starts_with("info string EvalFile: "), QUICK);
    assert_eq!(eval_net_hash(&mut engine), builtin);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_net_plays_by_default_and_use_nnue_false_plays_the_hand_written_evaluation() {
    let mut engine = EngineProcess::spawn();
    engine.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    engine.send("eval");
    let (line, _) = engine.expect_line(|l| l.starts_with("Network evaluation:"), QUICK);
    assert!(line.contains("what the search uses"), "{line}");
    let net_search = engine.go("go depth 6", QUICK);

    engine.send("setoption name UseNNUE value false");
    let (said, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert_eq!(said, "info string UseNNUE: the hand-written evaluation plays");
    engine.send("eval");
    let (line, _) = engine.expect_line(|l| l.starts_with("Network evaluation:"), QUICK);
    assert!(line.contains("not playing"), "{line}");
    engine.send("ucinewgame");
    let hand_search = engine.go("go depth 6", QUICK);
    // Two evaluations that agree on the score and the size of a depth-6 tree would be a
    // coincidence: a different tree says the setting reached the search.
    let summary = |search: &common::Search| {
        let last = *search.infos().last().expect("an info line");
        (common::score(last), common::field(last, "nodes"))
    };
    assert_ne!(summary(&net_search), summary(&hand_search));

    engine.send("setoption name UseNNUE value maybe");
    let (refused, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert!(refused.starts_with("info string error: ") && refused.contains("UseNNUE"), "{refused}");
    engine.send("setoption name UseNNUE value true");
    let (said, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert_eq!(said, "info string UseNNUE: the net plays");
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

#[test]
fn truncated_data_and_bad_filters_are_errors_not_crashes() {
    let dir = scratch("nnue", "bad-data");
    let data = dir.join("cut.bin");
    std::fs::write(&data, [0u8; 50]).unwrap();
    let output = patina(&["data", "stats", path_str(&data)]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("50 bytes is not a whole number"), "{output:?}");
    let output = patina(&["train", "--data", path_str(&data), "--out", "/dev/null", "--filter", "checks"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown filter 'checks'"), "{output:?}");
    let output = patina(&["train", "--data", path_str(&data), "--out", "/dev/null", "--wdl-scale", "0"]);
    assert!(!output.status.success());
    let refusal = String::from_utf8_lossy(&output.stderr);
    assert!(refusal.contains("`0` is neither a positive number of centipawns nor `fit`"), "{refusal}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn average_nets_writes_a_net_the_engine_loads_and_refuses_mixed_shapes() {
    let dir = scratch("nnue", "average");
    let nets = concat!(env!("CARGO_MANIFEST_DIR"), "/nets");
    let (n8z, n12z) = (format!("{nets}/n8z.nnue"), format!("{nets}/n12z.nnue"));
    let mean = dir.join("mean.nnue");
    let output = patina(&["average-nets", &n8z, &n12z, "--out", path_str(&mean)]);
    assert!(output.status.success(), "{output:?}");
    let reported = stdout(&output);
    assert!(reported.starts_with("averaged 2 nets into "), "{reported}");

    // The mean is a third net: the engine loads it and names it by the hash reported.
    let mut engine = EngineProcess::spawn();
    engine.send(&format!("setoption name EvalFile value {}", path_str(&mean)));
    let hash = eval_net_hash(&mut engine);
    assert!(reported.contains(&format!("(hash {hash})")), "{reported} vs {hash}");
    for other in [&n8z, &n12z] {
        engine.send(&format!("setoption name EvalFile value {other}"));
        assert_ne!(eval_net_hash(&mut engine), hash);
    }
    engine.assert_ready();

    // A net of another size, or a file that is no net, is named; nothing is written.
    let wide = dir.join("wide.nnue");
    let mut header = std::fs::read(&n8z).unwrap();
    header[20..24].copy_from_slice(&256u32.to_le_bytes());
    std::fs::write(&wide, &header).unwrap();
    let refused = dir.join("refused.nnue");
    let output = patina(&["average-nets", &n8z, path_str(&wide), "--out", path_str(&refused)]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.starts_with("patina: average-nets: ") && message.contains("wide.nnue"), "{message}");
    assert!(!refused.exists());
    let output = patina(&["average-nets", &n8z, "--out", path_str(&refused)]);
    assert!(!output.status.success(), "one net is no average: {output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("nothing to average or rescale"), "{output:?}");

    // One net with an output scale is that net rescaled: the engine loads it as a new net.
    let scaled = dir.join("scaled.nnue");
    let output = patina(&["average-nets", &n8z, "--output-scale", "0.93", "--out", path_str(&scaled)]);
    assert!(output.status.success(), "{output:?}");
    let reported = stdout(&output);
    assert!(reported.contains("output layer x 0.93"), "{reported}");
    engine.send(&format!("setoption name EvalFile value {}", path_str(&scaled)));
    let scaled_hash = eval_net_hash(&mut engine);
    assert!(reported.contains(&format!("(hash {scaled_hash})")), "{reported} vs {scaled_hash}");
    assert_ne!(scaled_hash, hash);
    engine.assert_ready();
    let output = patina(&["average-nets", &n8z, &n12z, "--output-scale", "-1", "--out", path_str(&refused)]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("output scale -1 is not a finite number above 0"), "{message}");
    assert!(!refused.exists());

    // Weights: all on one net writes that net; equal weights write the plain mean; a negative
    // weight is refused by value and writes nothing.
    let weighted = dir.join("weighted.nnue");
    let output = patina(&["average-nets", &n8z, &n12z, "--weights", "1", "0", "--out", path_str(&weighted)]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(std::fs::read(&weighted).unwrap(), std::fs::read(&n8z).unwrap());
    let output = patina(&["average-nets", &n8z, &n12z, "--weights", "2,2", "--out", path_str(&weighted)]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(std::fs::read(&weighted).unwrap(), std::fs::read(&mean).unwrap());
    let output =
        patina(&["average-nets", &n8z, &n12z, "--weights", "1.2", "-0.2", "--out", path_str(&refused)]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("weight -0.2 is not a finite number of at least 0"), "{message}");
    assert!(!refused.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The network pipeline as the learning tools drive it: `patina-learn datagen` records, the
//! `data` verbs, `train`, `net-loss` and `average-nets`, and the nets they write loaded by the
//! engine's library (the engine's own tests load nets over UCI with `EvalFile`).

mod common;

use common::{learn, path_str, scratch};
use patina::nnue::Network;
use patina::search::Evaluator;
use std::path::Path;
use std::sync::Arc;

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The net in `path`, as the engine's `EvalFile` loads it.
fn load(path: &Path) -> Network {
    Network::load(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The hash the engine names the net in `path` by (`info string EvalFile: net HASH loaded`).
fn hash_of(path: &Path) -> String {
    format!("{:016x}", load(path).hash())
}

/// Nodes of the engine's depth-4 bench searched with `net`.
fn search_nodes(net: Network) -> u64 {
    let bench = patina::engine::bench::run(4, 1, 16, Evaluator(Arc::new(net)), |_, _, _| {});
    bench.expect("bench runs").nodes
}

#[test]
fn datagen_records_feed_data_verbs_and_train_a_net_the_engine_loads() {
    let dir = scratch("nnue", "pipeline");
    let records = dir.join("games.bin");
    let made = learn(&[
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

    let stats = learn(&["data", "stats", path_str(&records)]);
    let text = stdout(&stats);
    assert!(text.starts_with(&format!("positions {} in 6 games", length / 32)), "{text}");
    let filtered = stdout(&learn(&["data", "stats", path_str(&records), "--filter", "check,noisy,mate"]));
    assert!(filtered.contains("in check 0  noisy best move 0  mate scores 0"), "{filtered}");

    // `export` writes what the training filter keeps, one `FEN | score | result` line each.
    let quiet = dir.join("quiet.txt");
    let exported = learn(&["data", "export", path_str(&records), "--out", path_str(&quiet)]);
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let lines = std::fs::read_to_string(&quiet).unwrap();
    assert!(filtered.starts_with(&format!("positions {} in", lines.lines().count())), "{filtered}");
    assert!(lines.lines().all(|line| line.split(" | ").count() == 3), "{lines}");

    let mixed = dir.join("mixed.bin");
    let interleaved =
        learn(&["data", "interleave", path_str(&records), path_str(&records), "--out", path_str(&mixed)]);
    assert!(
        stdout(&interleaved).starts_with(&format!("{} records", 2 * length / 32)),
        "{}",
        stdout(&interleaved)
    );
    let shuffled = dir.join("shuffled.bin");
    assert!(learn(&["data", "shuffle", path_str(&mixed), "--out", path_str(&shuffled)]).status.success());
    assert_eq!(std::fs::metadata(&shuffled).unwrap().len(), 2 * length);

    let net = dir.join("net.nnue");
    let trained = learn(&[
        "train",
        "--data",
        path_str(&records),
        "--out",
        path_str(&net),
        "--epochs",
        "2",
        "--batch",
        "64",
        "--games",
        "6",
    ]);
    let log = String::from_utf8_lossy(&trained.stderr);
    assert!(trained.status.success(), "{log}");
    assert!(log.contains("from 6 games") && log.contains("reading stopped at --games 6;"), "{log}");
    assert!(log.contains("epoch 2: train") && log.contains("wrote"), "{log}");
    assert!(log.contains("target scale 400.0 cp"), "the shipped nets' scale is the default: {log}");

    // `net-loss` scores the trained net and the built-in one on the held-out games, one line each.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../nets/default.nnue");
    let scored = learn(&[
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
    // `--games 6` of the file given twice reads the first copy only: the same held-out
    // positions from 6 games; more games than the copies hold is refused, not a short read.
    let cut = |games: &str| {
        let data = path_str(&records);
        learn(&[
            "net-loss",
            path_str(&net),
            "--data",
            data,
            "--data",
            data,
            "--validation-fraction",
            "0.5",
            "--games",
            games,
        ])
    };
    let first_line = |output: &std::process::Output| stdout(output).lines().next().unwrap_or("").to_string();
    let held_out = first_line(&scored);
    assert!(held_out.contains("(of 6 games read)"), "{table}");
    assert_eq!(first_line(&cut("6")), held_out);
    let short = cut("13");
    let message = String::from_utf8_lossy(&short.stderr);
    assert!(
        !short.status.success() && message.contains("--games 13, but the data holds only 12 games"),
        "{message}"
    );
    let refused = learn(&["net-loss", path_str(&records), "--data", path_str(&records)]);
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success()
            && message.starts_with("patina-learn: net-loss: ")
            && message.contains("games.bin: not a Patina net file"),
        "{message}"
    );

    // The engine loads the trained net, names it by a new hash and searches with it.
    let trained_net = load(&net);
    assert_ne!(trained_net.hash(), patina::nnue::default_network().hash());
    assert!(search_nodes(trained_net) > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn truncated_data_and_bad_filters_are_errors_not_crashes() {
    let dir = scratch("nnue", "bad-data");
    let data = dir.join("cut.bin");
    std::fs::write(&data, [0u8; 50]).unwrap();
    let output = learn(&["data", "stats", path_str(&data)]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("50 bytes is not a whole number"), "{output:?}");
    let output = learn(&["train", "--data", path_str(&data), "--out", "/dev/null", "--filter", "checks"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown filter 'checks'"), "{output:?}");
    let output = learn(&["train", "--data", path_str(&data), "--out", "/dev/null", "--wdl-scale", "0"]);
    assert!(!output.status.success());
    let refusal = String::from_utf8_lossy(&output.stderr);
    assert!(refusal.contains("`0` is neither a positive number of centipawns nor `fit`"), "{refusal}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn average_nets_writes_a_net_the_engine_loads_and_refuses_mixed_shapes() {
    let dir = scratch("nnue", "average");
    let nets = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data");
    let (n8z, n12z) = (format!("{nets}/n8z.nnue"), format!("{nets}/n12z.nnue"));
    let mean = dir.join("mean.nnue");
    let output = learn(&["average-nets", &n8z, &n12z, "--out", path_str(&mean)]);
    assert!(output.status.success(), "{output:?}");
    let reported = stdout(&output);
    assert!(reported.starts_with("averaged 2 nets into "), "{reported}");

    // The mean is a third net: the engine loads it and names it by the hash reported.
    let hash = hash_of(&mean);
    assert!(reported.contains(&format!("(hash {hash})")), "{reported} vs {hash}");
    for other in [&n8z, &n12z] {
        assert_ne!(hash_of(Path::new(other)), hash);
    }
    assert!(search_nodes(load(&mean)) > 0);

    // A net of another size, or a file that is no net, is named; nothing is written.
    let wide = dir.join("wide.nnue");
    let mut header = std::fs::read(&n8z).unwrap();
    header[20..24].copy_from_slice(&256u32.to_le_bytes());
    std::fs::write(&wide, &header).unwrap();
    let refused = dir.join("refused.nnue");
    let output = learn(&["average-nets", &n8z, path_str(&wide), "--out", path_str(&refused)]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.starts_with("patina-learn: average-nets: ") && message.contains("wide.nnue"),
        "{message}"
    );
    assert!(!refused.exists());
    let output = learn(&["average-nets", &n8z, "--out", path_str(&refused)]);
    assert!(!output.status.success(), "one net is no average: {output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("nothing to average or rescale"), "{output:?}");

    // One net with an output scale is that net rescaled: the engine loads it as a new net.
    let scaled = dir.join("scaled.nnue");
    let output = learn(&["average-nets", &n8z, "--output-scale", "0.93", "--out", path_str(&scaled)]);
    assert!(output.status.success(), "{output:?}");
    let reported = stdout(&output);
    assert!(reported.contains("output layer x 0.93"), "{reported}");
    let scaled_hash = hash_of(&scaled);
    assert!(reported.contains(&format!("(hash {scaled_hash})")), "{reported} vs {scaled_hash}");
    assert_ne!(scaled_hash, hash);
    let output = learn(&["average-nets", &n8z, &n12z, "--output-scale", "-1", "--out", path_str(&refused)]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("output scale -1 is not a finite number above 0"), "{message}");
    assert!(!refused.exists());

    // Weights: all on one net writes that net; equal weights write the plain mean; a negative
    // weight is refused by value and writes nothing.
    let weighted = dir.join("weighted.nnue");
    let output = learn(&["average-nets", &n8z, &n12z, "--weights", "1", "0", "--out", path_str(&weighted)]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(std::fs::read(&weighted).unwrap(), std::fs::read(&n8z).unwrap());
    let output = learn(&["average-nets", &n8z, &n12z, "--weights", "2,2", "--out", path_str(&weighted)]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(std::fs::read(&weighted).unwrap(), std::fs::read(&mean).unwrap());
    let output =
        learn(&["average-nets", &n8z, &n12z, "--weights", "1.2", "-0.2", "--out", path_str(&refused)]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("weight -0.2 is not a finite number of at least 0"), "{message}");
    assert!(!refused.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

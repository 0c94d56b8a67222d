//! The trainer end to end: a small data set fitted, the written net checked against the
//! float net it came from, and a finished run resumed.

use super::*;
use crate::data::{DataResult, Filter, GamePlace, PackedPosition, RecordWriter, SearchLabel};
use patina::nnue::{Architecture, Network, HIDDEN};
use patina::position::Position;
use shakmaty::{Position as _, Role};

/// Material balance in centipawns, White's view: a target a small net can learn.
fn material(pos: &Position) -> i32 {
    let board = pos.chess().board();
    let values =
        [(Role::Pawn, 100), (Role::Knight, 300), (Role::Bishop, 300), (Role::Rook, 500), (Role::Queen, 900)];
    values
        .iter()
        .map(|&(role, value)| {
            let pieces = board.by_role(role);
            value * ((pieces & board.white()).count() as i32 - (pieces & board.black()).count() as i32)
        })
        .sum()
}

/// Random games whose positions are labelled with their material balance.
fn write_material_games(path: &std::path::Path, games: u64) -> Vec<Position> {
    let mut writer = RecordWriter::create(path).unwrap();
    let mut positions = Vec::new();
    for game in 0..games {
        let mut rng = Rng::for_item(99, game);
        let mut pos = Position::default();
        for ply in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures half the time, so material swings.
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_game_move(m);
            let score = material(&pos);
            let label = SearchLabel {
                white_score: score,
                mate: false,
                best_is_capture: false,
                best_is_promotion: false,
            };
            let result = match score {
                s if s > 150 => DataResult::WhiteWins,
                s if s < -150 => DataResult::BlackWins,
                _ => DataResult::Draw,
            };
            let place = GamePlace { ply, game_start: ply == 0, result };
            writer.write(&PackedPosition::pack(pos.chess(), label, place).unwrap()).unwrap();
            positions.push(pos.clone());
        }
    }
    writer.finish().unwrap();
    positions
}

/// The settings of the tests' runs, for a net of `arch` with `hidden` neurons.
fn request(dir: &std::path::Path, arch: Architecture, hidden: usize) -> TrainRequest {
    TrainRequest {
        selection: DataSelection {
            data: vec![dir.join("material.bin")],
            filter: Filter::TRAINING,
            duplicates: Duplicates::Keep,
            validation_fraction: 0.1,
            limit: None,
            games: None,
        },
        out: dir.join("net.nnue"),
        hidden,
        output_buckets: arch.buckets(),
        mirror_inputs: arch.is_mirrored(),
        epochs: 12,
        batch: 256,
        learning_rate: 0.005,
        schedule: LrSchedule::Cosine { final_lr: None },
        weight_decay: 0.0,
        lambda: 0.0,
        lambda_end: None,
        save_every: None,
        wdl_scale: WdlScale::Centipawns(400.0),
        threads: 2,
        seed: 3,
        mirror: false,
        init: None,
        keep: Keep::Best,
    }
}

#[test]
fn fits_a_small_data_set_and_the_quantised_net_agrees_with_the_float_one() {
    fit_and_compare(Architecture::Perspective, HIDDEN, |_| {});
}

#[test]
fn an_output_bucketed_net_fits_and_quantises_too() {
    fit_and_compare(Architecture::OutputBuckets, HIDDEN, |_| {});
}

/// Architecture 3 at 256 neurons, with a step schedule and `mirror` asked for: mirrored
/// inputs make the mirrored copies the same positions, so each epoch trains on each once.
#[test]
fn a_mirrored_net_of_256_fits_and_quantises_too() {
    let request = fit_and_compare(Architecture::Mirrored, 256, |request| {
        request.schedule = LrSchedule::Drops(vec![9]);
        request.mirror = true;
        request.save_every = Some(4);
    });
    assert_eq!(request.copies(), 1);
}

/// A long run's settings: a cosine to a given final rate, the result weight ramped in.
#[test]
fn a_cosine_to_a_final_rate_with_a_lambda_ramp_fits_too() {
    // Its own architecture and size: fit_and_compare's folder is named by them.
    let request = fit_and_compare(Architecture::Mirrored, HIDDEN, |request| {
        request.schedule = LrSchedule::Cosine { final_lr: Some(1e-5) };
        request.lambda_end = Some(0.1);
    });
    let total = 1000;
    assert_eq!(request.lambda_at(0, total), 0.0);
    assert!((request.lambda_at(500, total) - 0.05).abs() < 1e-6);
    assert!((request.lambda_at(total, total) - 0.1).abs() < 1e-6);
    assert_eq!(request.final_lambda(), 0.1);
    let plain = TrainRequest { lambda: 0.3, lambda_end: None, ..request.clone() };
    assert_eq!((plain.lambda_at(0, total), plain.lambda_at(total, total)), (0.3, 0.3));
    assert_eq!(request.epoch_path(7), request.out.with_file_name("net-e7.nnue"));
}

#[test]
fn requests_the_engine_could_not_play_are_refused() {
    let dir = std::env::temp_dir();
    let mut odd = request(&dir, Architecture::Mirrored, 200);
    let error = run(&odd, |_| {}).unwrap_err();
    assert!(matches!(error, TrainError::HiddenSize(200)));
    assert!(error.to_string().contains("--hidden 200 (the engine plays 128, 256, 384, 512)"), "{error}");
    odd.hidden = 256;
    odd.output_buckets = 1;
    let error = run(&odd, |_| {}).unwrap_err();
    assert!(error.to_string().contains("--mirror-inputs needs --output-buckets 8"), "{error}");
    odd.output_buckets = 8;
    odd.schedule = LrSchedule::Drops(vec![0]);
    assert!(matches!(run(&odd, |_| {}), Err(TrainError::LrDropAtZero)));
}

/// A run cut by `--games` is another run: it does not resume the checkpoint of a run cut
/// elsewhere or not at all.
#[test]
fn games_is_part_of_a_runs_fingerprint() {
    let plain = request(&std::env::temp_dir(), Architecture::OutputBuckets, HIDDEN);
    let data = dataset::TrainingData::default();
    let start = FloatNet::random(HIDDEN, Architecture::OutputBuckets, 1);
    let fingerprint = |games| {
        let mut cut = plain.clone();
        cut.selection.games = games;
        request::fingerprint(&cut, &data, 400.0, &start)
    };
    let (none, two, three) = (fingerprint(None), fingerprint(Some(2)), fingerprint(Some(3)));
    assert!(none != two && two != three && none != three);
    assert_eq!(fingerprint(Some(2)), two);
}

/// Trains on material-labelled games with `request`'s settings as `adjust` leaves them, checks
/// that the losses fell, that the engine's integer net agrees with the float one, and that a
/// rerun resumes from the finished checkpoint.
fn fit_and_compare(arch: Architecture, hidden: usize, adjust: impl Fn(&mut TrainRequest)) -> TrainRequest {
    let name = format!("patina-train-{}-{}-{hidden}", std::process::id(), arch.id());
    let dir = std::env::temp_dir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let positions = write_material_games(&dir.join("material.bin"), 150);
    let mut request = request(&dir, arch, hidden);
    adjust(&mut request);
    let out = request.out.clone();
    let (mut losses, mut rates, mut train) = (Vec::new(), Vec::new(), 0);
    run(&request, |event| match event {
        TrainEvent::Epoch { train_loss, validation_loss, lr, .. } => {
            losses.push((train_loss, validation_loss));
            rates.push(lr);
        }
        TrainEvent::Loaded { train: positions, .. } => train = positions,
        _ => {}
    })
    .unwrap();
    let (first, last) = (losses[0], losses[losses.len() - 1]);
    assert!(last.0 < first.0 / 4.0, "training loss fell only from {} to {}", first.0, last.0);
    assert!(last.1 < first.1 / 2.0, "validation loss fell only from {} to {}", first.1, last.1);

    // The engine's integer evaluation of the written net against the float net it came from.
    let engine = Network::load(&out).unwrap();
    assert_eq!((engine.arch(), engine.hidden()), (arch, hidden));
    let checkpoint = Checkpoint::load(&checkpoint::path_for(&out), 0).err();
    assert!(checkpoint.is_some(), "a checkpoint from another run is refused");
    let stored = std::fs::read(checkpoint::path_for(&out)).unwrap();
    let fingerprint = u64::from_le_bytes(stored[8..16].try_into().unwrap());
    let state = Checkpoint::load(&checkpoint::path_for(&out), fingerprint).unwrap().unwrap();
    let steps_per_epoch = (train * request.copies()).div_ceil(request.batch) as u64;
    assert_eq!(state.optimizer.steps, u64::from(request.epochs) * steps_per_epoch);
    for (epoch, &lr) in (1u64..).zip(&rates) {
        let step = epoch * steps_per_epoch - 1;
        let total = u64::from(request.epochs) * steps_per_epoch;
        assert_eq!(
            lr,
            request.schedule.lr(request.learning_rate, step, steps_per_epoch, total),
            "epoch {epoch}"
        );
    }
    let float = state.best;
    let (mut worst, mut total, mut count) = (0.0f32, 0.0f32, 0);
    for pos in positions.iter().step_by(7) {
        let record = crate::data::test_support::pack_position(pos);
        let float_cp = float.centipawns(&Features::of(&record, arch));
        let engine_cp = engine.evaluate_board(pos.chess().board(), pos.turn()) as f32;
        worst = worst.max((float_cp - engine_cp).abs());
        total += (float_cp - engine_cp).abs();
        count += 1;
    }
    let mean = total / count as f32;
    assert!(
        mean <= 2.0 && worst <= 8.0,
        "quantised and float differ by {mean} cp on average, {worst} at most"
    );

    // A rerun with the same settings resumes from the finished checkpoint: no epoch runs,
    // and the same net is written.
    let mut epochs_run = 0;
    run(&request, |event| epochs_run += matches!(event, TrainEvent::Epoch { .. }) as u32).unwrap();
    assert_eq!(epochs_run, 0);
    assert_eq!(Network::load(&out).unwrap(), engine);

    // Rerun asking for the last epoch instead: still no training, and the net written is the
    // checkpoint's final weights, reported as the last epoch's.
    let last = TrainRequest { keep: Keep::Last, ..request.clone() };
    let (mut epochs_run, mut written_epoch) = (0, None);
    run(&last, |event| match event {
        TrainEvent::Epoch { .. } => epochs_run += 1,
        TrainEvent::Written { epoch, .. } => written_epoch = Some(epoch),
        _ => {}
    })
    .unwrap();
    assert_eq!((epochs_run, written_epoch), (0, Some(request.epochs)));
    assert_eq!(Network::load(&out).unwrap(), state.net.quantise().unwrap());
    if let Some(every) = request.save_every {
        let saved: Vec<u32> =
            (1..=request.epochs).filter(|epoch| request.epoch_path(*epoch).exists()).collect();
        let wanted: Vec<u32> = (1..=request.epochs).filter(|epoch| epoch % every == 0).collect();
        assert_eq!(saved, wanted, "--save-every {every}");
        for epoch in saved {
            let net = Network::load(&request.epoch_path(epoch)).unwrap();
            assert_eq!((net.arch(), net.hidden()), (arch, hidden));
            if epoch == request.epochs {
                assert_eq!(net, state.net.quantise().unwrap(), "the last epoch saved is the last weights");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    request
}

#[test]
fn fine_tuning_starts_from_the_given_net_and_never_writes_a_worse_one() {
    let dir = std::env::temp_dir().join(format!("patina-train-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    write_material_games(&dir.join("material.bin"), 150);
    let mut first = request(&dir, Architecture::OutputBuckets, HIDDEN);
    first.epochs = 6;
    let mut first_losses = Vec::new();
    run(&first, |event| {
        if let TrainEvent::Epoch { validation_loss, .. } = event {
            first_losses.push(validation_loss);
        }
    })
    .unwrap();

    let mut second = request(&dir, Architecture::OutputBuckets, HIDDEN);
    second.init = Some(first.out.clone());
    second.out = dir.join("tuned.nnue");
    second.epochs = 2;
    second.learning_rate = 0.001;
    let (mut started, mut written) = (None, None);
    run(&second, |event| match event {
        TrainEvent::Started { validation_loss } => started = Some(validation_loss),
        TrainEvent::Written { validation_loss, .. } => written = Some(validation_loss),
        _ => {}
    })
    .unwrap();
    let (started, written) = (started.unwrap(), written.unwrap());
    let best_first = first_losses.iter().copied().fold(f64::INFINITY, f64::min);
    // The starting loss is the first run's best, but for quantisation's rounding, and far below
    // what random weights begin with.
    assert!((started - best_first).abs() < best_first * 0.05 + 1e-5, "{started} against {best_first}");
    assert!(started < first_losses[0] / 2.0, "{started} against the first epoch's {}", first_losses[0]);
    assert!(written <= started, "wrote {written}, worse than the starting {started}");

    // `patina-learn net-loss` scores finished nets on the same held-out positions: the first net
    // exactly as the second run's start did, the second near what that run wrote (the written
    // loss is the float net's, before quantisation).
    let scoring = evaluate::LossRequest {
        nets: vec![first.out.clone(), second.out.clone()],
        selection: second.selection.clone(),
        lambda: second.lambda,
        wdl_scale: second.wdl_scale,
        threads: second.threads,
    };
    let report = evaluate::held_out_losses(&scoring).unwrap();
    assert_eq!(report.losses.len(), 2);
    assert_eq!(report.losses[0].loss, started);
    assert_eq!(report.losses[0].hash, Network::load(&first.out).unwrap().hash());
    // Material-labelled games swing by hundreds of centipawns, and a fitted net follows them.
    assert!(report.losses.iter().all(|net| net.mean_abs_cp > 50.0), "{:?}", report.losses);
    assert!(report.label_mean_abs_cp > 50.0, "{}", report.label_mean_abs_cp);
    let tuned = report.losses[1].loss;
    assert!((tuned - written).abs() < written * 0.05 + 1e-5, "{tuned} against {written}");
    let missing = evaluate::LossRequest { nets: vec![dir.join("absent.nnue")], ..scoring.clone() };
    let error = evaluate::held_out_losses(&missing).unwrap_err();
    assert!(matches!(&error, TrainError::Net { path, .. } if path.ends_with("absent.nnue")), "{error}");
    let mut all_held_out = scoring;
    all_held_out.selection.validation_fraction = 1.0;
    let error = evaluate::held_out_losses(&all_held_out).unwrap_err().to_string();
    assert!(error.contains("--validation-fraction 1"), "{error}");

    // A net the run's shape would lose knowledge from is refused before any data is read.
    let mut wrong = request(&dir, Architecture::Perspective, HIDDEN);
    wrong.init = Some(first.out.clone());
    wrong.selection.data = vec![dir.join("missing.bin")];
    let error = run(&wrong, |_| {}).unwrap_err();
    assert!(
        matches!(error, TrainError::Widen { reason: WidenError::Buckets { from: 8, to: 1 }, .. }),
        "{error}"
    );
    let error = error.to_string();
    assert!(error.contains("--init") && error.contains("8 output buckets cannot become 1"), "{error}");

    // A wider, mirrored run starts from the net, widened to its shape.
    let mut wider = request(&dir, Architecture::Mirrored, 256);
    wider.init = Some(first.out.clone());
    wider.out = dir.join("wider.nnue");
    wider.epochs = 1;
    let mut widened = None;
    run(&wider, |event| {
        if let TrainEvent::Widened { from_arch, from_hidden, to_arch, to_hidden } = event {
            widened = Some((from_arch, from_hidden, to_arch, to_hidden));
        }
    })
    .unwrap();
    assert_eq!(widened, Some((2, HIDDEN, 3, 256)));
    let net = Network::load(&wider.out).unwrap();
    assert_eq!((net.arch(), net.hidden()), (Architecture::Mirrored, 256));
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The `patina-learn datagen`, `patina-learn data`, `patina-learn train`, `patina-learn net-loss` and `patina
//! average-nets` subcommands `main.rs` offers: clap definitions and the thin glue that runs
//! `crate::datagen`, `crate::data::tools`, `crate::train` and
//! `crate::soup` and prints what they report.

use crate::data::{tools, Checkpoint, Filter};
use crate::datagen::{DatagenEvent, DatagenRequest};
use crate::train::{DataSelection, Duplicates, Keep, LossRequest, LrSchedule, TrainRequest, WdlScale};
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `patina-learn datagen`'s arguments.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// Games the output file should hold at the end (games already in it count).
    #[arg(long)]
    games: u64,
    /// Nodes searched per move at most [default: 8 x --soft-nodes if given, else 5000; or
    /// the value recorded in FILE.progress].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Soft node limit: a move's search ends after the first iteration that finishes past N
    /// nodes (--nodes still caps it) [default: none, every search runs to --nodes; or the value
    /// recorded in FILE.progress].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    soft_nodes: Option<u64>,
    /// Random plies every opening adds to the usual ones (two after a book line, 8 or 9 from
    /// the start position), still kept only if a short search finds them balanced [default:
    /// 0, or the value recorded in FILE.progress].
    #[arg(long, value_name = "N")]
    random_plies: Option<u32>,
    /// Percent of games (0-100) that start from a random Double Fischer Random position (each
    /// side's back rank drawn from the 960) with 8 or 9 random plies, instead of the book
    /// [default: 0, or the value recorded in FILE.progress].
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u32).range(0..=100))]
    dfrc: Option<u32>,
    /// With --syzygy: play a game that reaches a table position on for up to PLIES more plies
    /// instead of ending it there, each of those positions labelled with its own table result
    /// (a table draw scores 0, a table win at least the resignation score), so that the net
    /// learns the endings it otherwise never sees [default: 0, or the value recorded in
    /// FILE.progress].
    #[arg(long, value_name = "PLIES")]
    table_playout: Option<u32>,
    /// Worker threads, each playing whole games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// The data file; FILE.progress beside it records what it holds.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Random seed of the openings [default: the recorded one, else drawn from the clock].
    #[arg(long)]
    seed: Option<u64>,
    /// EPD opening book (random lines plus two random plies) instead of random openings.
    #[arg(long, value_name = "FILE.epd")]
    book: Option<PathBuf>,
    /// Syzygy folders (as the SyzygyPath option): a game reaching a table position ends
    /// with the table's result [default: the recorded one, else none].
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,
}

/// `patina-learn data VERB`.
#[derive(Subcommand)]
pub enum DataCommand {
    /// Converts `FEN | score | result` text files (the older datagen format) into records.
    Convert {
        /// Text files, in order.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Counts positions, games, results, score and piece-count histograms.
    Stats {
        /// Record files, in order.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// What to drop while reading: none, or a list of check, noisy, mate, early=N.
        #[arg(long, default_value = "none")]
        filter: Filter,
    },
    /// How games ended, by material and score: `level` (draw rate of positions scored within
    /// 30 cp of 0) or `big` (results for the side ahead of positions scored 1000 cp or more).
    Results {
        /// Record files, in order.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Which table to print.
        #[arg(long, value_enum)]
        report: ResultsReport,
        /// What to drop while reading (the training filter unless told otherwise).
        #[arg(long, default_value = "check,noisy,mate")]
        filter: Filter,
    },
    /// Writes the positions of record files as `FEN | score | result` lines (White's
    /// centipawns and points; castling rights and en passant are not in records).
    Export {
        /// Record files, in order.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The text file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// What to drop while reading (the training filter unless told otherwise, which keeps
        /// the quiet positions `datagen --out FILE.txt` writes).
        #[arg(long, default_value = "check,noisy,mate")]
        filter: Filter,
    },
    /// Writes the positions of all inputs in a random order (each becomes its own game).
    Shuffle(MixArgs),
    /// Merges whole games of several files in a random order.
    Interleave(MixArgs),
}

/// The arguments `patina-learn data shuffle` and `patina-learn data interleave` share.
#[derive(clap::Args)]
pub struct MixArgs {
    /// Record files, in order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// What to drop while reading: none, or a list of check, noisy, mate, early=N.
    #[arg(long, default_value = "none")]
    filter: Filter,
}

/// Which table `patina-learn data results` prints.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ResultsReport {
    /// Draws per mille of positions scored within 30 cp of 0, by material in bands of 8.
    Level,
    /// Win, draw and loss per mille for the side ahead of positions scored 1000 cp or more, by
    /// material (capped at 20) and score band.
    Big,
}

/// `patina-learn average-nets`' arguments.
#[derive(clap::Args)]
pub struct AverageArgs {
    /// Net files of one architecture and size, fine-tuned from one starting net (one net with
    /// --output-scale rescales it).
    #[arg(required = true, num_args = 1..)]
    nets: Vec<PathBuf>,
    /// The net file to write.
    #[arg(long, value_name = "FILE.nnue")]
    out: PathBuf,
    /// One weight per net, in the order given (divided by their total; none negative): `A B
    /// --weights 0.7 0.3` goes 30% of the way from A to B. Equal weights when left out.
    #[arg(long, value_name = "W", num_args = 1.., value_delimiter = ',', allow_negative_numbers = true)]
    weights: Option<Vec<f64>>,
    /// Multiply the result's output layer, and so every evaluation, by F: brings a fine-tune
    /// back to its start's scale (the mean |cp| `net-loss` prints; s19 x 0.93 is net 7's).
    #[arg(long, value_name = "F", default_value_t = 1.0, allow_negative_numbers = true)]
    output_scale: f64,
}

/// Runs `patina-learn average-nets`.
pub fn average_nets(args: AverageArgs) -> ExitCode {
    let outcome =
        crate::soup::average_files(&args.nets, args.weights.as_deref(), args.output_scale, &args.out).map(
            |report| {
                let scaled = if args.output_scale == 1.0 {
                    String::new()
                } else {
                    format!(", output layer x {}", args.output_scale)
                };
                let verb = if report.nets == 1 {
                    "scaled 1 net".to_string()
                } else {
                    format!("averaged {} nets", report.nets)
                };
                show(&format!("{verb} into {}{scaled} (hash {:016x})\n", args.out.display(), report.hash))
            },
        );
    finish("average-nets", outcome)
}

/// The positions `train` learns from (and holds out) and the target it fits: `net-loss` takes
/// the same flags, so a net is scored exactly as `train` scores its epochs.
#[derive(clap::Args)]
pub struct DataTargetArgs {
    /// A record file from `patina-learn datagen` or `patina-learn data`; repeat for several.
    #[arg(long, value_name = "FILE", required = true)]
    data: Vec<PathBuf>,
    /// Share of the games held out for validation (`net-loss` scores the nets on them).
    #[arg(long, value_name = "F", default_value_t = 0.05)]
    validation_fraction: f64,
    /// What to drop while reading.
    #[arg(long, default_value = "check,noisy,mate")]
    filter: Filter,
    /// A position read again (the same pieces and side to move) is dropped, so that common
    /// opening positions weigh once; `keep` reads every record, as runs before this did.
    #[arg(long, value_enum, default_value = "drop")]
    duplicates: Duplicates,
    /// Target = LAMBDA * result + (1 - LAMBDA) * sigmoid(score / scale). 0 (the search score
    /// alone) keeps the net on the scale the search's margins were tuned for; results pulled
    /// the first small nets' scores toward 0 (docs/tests.md).
    #[arg(long, default_value_t = 0.0)]
    lambda: f32,
    /// Centipawns per logit of the target's sigmoid, or `fit` for the scale at which the
    /// training games' scores best predict their results. 400 is the one every shipped net used.
    #[arg(long, value_name = "CP|fit", default_value = "400", value_parser = WdlScale::parse)]
    wdl_scale: WdlScale,
    /// Worker threads for the gradient and the loss.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// Stop reading once this many positions are kept (after the filter and the duplicates;
    /// whole games, the first ones). It does not fix a cut of a file that is still growing:
    /// --games does.
    #[arg(long, value_name = "POSITIONS")]
    limit: Option<usize>,
    /// Read only the first N games of the --data files (whole games, counted across the files
    /// in the order given, those the filter empties included): a fixed cut of a file datagen
    /// is still writing. With --limit too, reading stops at whichever comes first; fewer games
    /// in the files than N is an error unless --limit stopped first.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
}

impl DataTargetArgs {
    /// The positions these flags select.
    fn selection(&self) -> DataSelection {
        DataSelection {
            data: self.data.clone(),
            filter: self.filter,
            duplicates: self.duplicates,
            validation_fraction: self.validation_fraction,
            limit: self.limit,
            games: self.games,
        }
    }
}

/// `patina-learn net-loss`' arguments.
#[derive(clap::Args)]
pub struct NetLossArgs {
    /// Net files to score (any architecture the engine plays).
    #[arg(required = true)]
    nets: Vec<PathBuf>,
    #[command(flatten)]
    data: DataTargetArgs,
}

/// Runs `patina-learn net-loss`: one line per net, in the order given.
pub fn net_loss(args: NetLossArgs) -> ExitCode {
    let request = LossRequest {
        nets: args.nets,
        selection: args.data.selection(),
        lambda: args.data.lambda,
        wdl_scale: args.data.wdl_scale,
        threads: args.data.threads as usize,
    };
    let outcome = crate::train::held_out_losses(&request).map(|report| {
        show(&format!(
            "held-out positions: {} (of {} games read), their labels' mean |cp| {:.1}\n",
            report.positions, report.games, report.label_mean_abs_cp
        ));
        show("loss      mean |cp|  hash              net\n");
        for net in &report.losses {
            show(&format!(
                "{:.6}  {:9.1}  {:016x}  {}\n",
                net.loss,
                net.mean_abs_cp,
                net.hash,
                net.path.display()
            ));
        }
    });
    finish("net-loss", outcome)
}

/// `patina-learn train`'s arguments.
#[derive(clap::Args)]
pub struct TrainArgs {
    #[command(flatten)]
    data: DataTargetArgs,
    /// The net file to write; OUT.ckpt beside it is the checkpoint a rerun resumes from.
    #[arg(long, value_name = "FILE.nnue")]
    out: PathBuf,
    /// Hidden neurons per perspective: 128 (nets 1-3), 256, 384 or 512 (the engine plays each).
    #[arg(long, default_value_t = patina::nnue::HIDDEN)]
    hidden: usize,
    /// Output buckets by the number of pieces on the board: 8 (architecture 2, net 2's; see
    /// src/nnue/mod.rs) or 1 (architecture 1).
    #[arg(long, default_value_t = patina::nnue::OUTPUT_BUCKETS)]
    output_buckets: usize,
    /// Architecture 3: each side sees the board mirrored left to right when its king is on
    /// files e-h (needs 8 output buckets; makes --mirror moot).
    #[arg(long)]
    mirror_inputs: bool,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// AdamW's starting learning rate (a cosine schedule takes it to 1% by the end, unless
    /// --lr-drop is given).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Instead of the cosine: keep --lr, and multiply it by 0.1 from this epoch (counted from
    /// 1) on; repeat for several drops.
    #[arg(long, value_name = "EPOCH", conflicts_with = "final_lr")]
    lr_drop: Vec<u32>,
    /// The cosine schedule's last rate [default: 1% of --lr]; long runs from random weights
    /// go down to about 1e-6.
    #[arg(long, value_name = "LR", value_parser = positive_rate)]
    final_lr: Option<f32>,
    /// Ramp the target's result weight linearly from --lambda at the first step to this at the
    /// last (validation losses are scored at this one, the weight the run ends at).
    #[arg(long, value_name = "LAMBDA", value_parser = unit_fraction)]
    lambda_end: Option<f32>,
    /// Also write the net after every N-th epoch, as OUT with `-eEPOCH` before its extension
    /// (net-e10.nnue), so the epoch that plays best can be chosen by a match.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    save_every: Option<u32>,
    /// AdamW's decoupled weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Seed of the starting weights and of the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also train on every position mirrored left to right (twice the data per epoch; on 600k
    /// positions it lowered the validation loss from 0.0439 to 0.0387). Ignored with
    /// --mirror-inputs, whose net sees a position and its mirror alike.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    mirror: bool,
    /// Start from this net's weights instead of random ones (fine-tuning an earlier net on new
    /// data). A smaller net, or one without mirrored inputs, is widened to the size and
    /// architecture asked for: the extra neurons start silent (zero output weights), so the
    /// start evaluates as the given net (mirroring: as near as that net is left-right
    /// symmetric). Written as it was (epoch 0) unless an epoch lowers its validation loss.
    #[arg(long, value_name = "NET.nnue")]
    init: Option<PathBuf>,
    /// Which epoch's weights to write: `best`, the lowest validation loss; or `last`, the
    /// final epoch's, the whole step of a long fine-tune (net 8's recipe: docs/nets.md). A
    /// finished run rerun with the other choice writes it from the checkpoint without training.
    #[arg(long, value_enum, default_value_t = Keep::Best)]
    keep: Keep,
}

/// A flag's value outside what the flag takes, as clap reports it after the flag's name.
#[derive(Debug)]
struct OutOfRange {
    text: String,
    wanted: &'static str,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not {}", self.text, self.wanted)
    }
}

impl std::error::Error for OutOfRange {}

/// Parses a number and keeps it only if `accept` does, else names what was `wanted`.
fn number_in_range(text: &str, wanted: &'static str, accept: fn(f32) -> bool) -> Result<f32, OutOfRange> {
    match text.parse::<f32>() {
        Ok(value) if accept(value) => Ok(value),
        _ => Err(OutOfRange { text: text.to_string(), wanted }),
    }
}

/// `--final-lr`: a positive, finite rate.
fn positive_rate(text: &str) -> Result<f32, OutOfRange> {
    number_in_range(text, "a positive learning rate", |rate| rate.is_finite() && rate > 0.0)
}

/// `--lambda-end`: a weight from 0 to 1.
fn unit_fraction(text: &str) -> Result<f32, OutOfRange> {
    number_in_range(text, "a weight from 0 to 1", |weight| (0.0..=1.0).contains(&weight))
}

/// Runs datagen with Ctrl-C (and SIGTERM) wired to a clean stop; progress goes to stderr.
pub fn datagen(args: DatagenArgs) -> ExitCode {
    let request = DatagenRequest {
        out: args.out,
        games: args.games,
        threads: args.threads as usize,
        seed: args.seed,
        nodes: args.nodes,
        soft_nodes: args.soft_nodes,
        random_plies: args.random_plies,
        dfrc_percent: args.dfrc,
        table_playout: args.table_playout,
        book: args.book,
        syzygy: args.syzygy,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = Arc::clone(&stop);
    let installed = ctrlc::set_handler(move || {
        if handler_stop.swap(true, Ordering::Relaxed) {
            eprintln!("datagen: second interrupt, exiting now; the unfinished games are replayed on resume");
            std::process::exit(130);
        }
        eprintln!("datagen: interrupt, finishing the games in progress (interrupt again to quit at once)");
    });
    if let Err(error) = installed {
        eprintln!("datagen: cannot catch Ctrl-C ({error}); an interrupt loses only unfinished games");
    }
    let outcome = crate::datagen::run(&request, &stop, |event| match event {
        DatagenEvent::Started { recipe, games } => {
            eprintln!(
                "datagen: {}, games {}..{games} into {}",
                recipe_text(&recipe),
                recipe.games,
                request.out.display()
            )
        }
        DatagenEvent::Progress(progress) => eprintln!("datagen: {progress}"),
        DatagenEvent::TablebaseMiss { game, miss } => eprintln!(
            "datagen: warning: game {game}: {miss}; the game is played on without the table's \
             result (further misses are counted on the progress line)"
        ),
    });
    match outcome {
        Ok(progress) if progress.run_games == 0 && progress.games_done >= progress.games_total => {
            eprintln!("datagen: {} already holds {} games", request.out.display(), progress.games_done);
            ExitCode::SUCCESS
        }
        Ok(progress) => {
            eprintln!(
                "datagen: {progress}  ({} games this run in {:.1} s)",
                progress.run_games,
                progress.elapsed.as_secs_f64()
            );
            if stop.load(Ordering::Relaxed) && progress.games_done < progress.games_total {
                eprintln!("datagen: stopped; run the same command again to continue");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("patina-learn: datagen: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Prints to stdout, ignoring a closed pipe (`patina-learn data stats FILE | head`).
fn show(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// The exit code of a verb's outcome, its error (whatever type: each names what is at fault)
/// on stderr after `patina: VERB:`.
fn finish<E: std::fmt::Display>(verb: &str, outcome: Result<(), E>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("patina-learn: {verb}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a `patina-learn data` verb.
pub fn data(command: DataCommand) -> ExitCode {
    match command {
        DataCommand::Convert { inputs, out } => finish(
            "data convert",
            tools::convert(&inputs, &out).map(|report| {
                show(&format!(
                    "{} lines -> {} records in {} games; {} bad lines\n",
                    report.lines, report.records, report.games, report.bad_lines
                ));
                report.first_errors.iter().for_each(|error| eprintln!("  {error}"));
            }),
        ),
        DataCommand::Stats { inputs, filter } => {
            finish("data stats", tools::stats(&inputs, filter).map(|stats| show(&stats.to_string())))
        }
        DataCommand::Results { inputs, report, filter } => finish(
            "data results",
            tools::results(&inputs, filter).map(|(level, big)| match report {
                ResultsReport::Level => show(&level.to_string()),
                ResultsReport::Big => show(&big.to_string()),
            }),
        ),
        DataCommand::Export { inputs, out, filter } => finish(
            "data export",
            tools::export(&inputs, &out, filter)
                .map(|n| show(&format!("{n} positions -> {}\n", out.display()))),
        ),
        DataCommand::Shuffle(MixArgs { inputs, out, seed, filter }) => finish(
            "data shuffle",
            tools::shuffle(&inputs, &out, seed, filter)
                .map(|n| show(&format!("{n} records -> {}\n", out.display()))),
        ),
        DataCommand::Interleave(MixArgs { inputs, out, seed, filter }) => finish(
            "data interleave",
            tools::interleave(&inputs, &out, seed, filter)
                .map(|n| show(&format!("{n} records -> {}\n", out.display()))),
        ),
    }
}

/// Runs `patina-learn train`; progress overwrites one line of stderr, epochs get a line each.
pub fn train(args: TrainArgs) -> ExitCode {
    let request = TrainRequest {
        selection: args.data.selection(),
        out: args.out,
        hidden: args.hidden,
        output_buckets: args.output_buckets,
        mirror_inputs: args.mirror_inputs,
        epochs: args.epochs,
        batch: args.batch as usize,
        learning_rate: args.lr,
        schedule: if args.lr_drop.is_empty() {
            LrSchedule::Cosine { final_lr: args.final_lr }
        } else {
            LrSchedule::Drops(args.lr_drop)
        },
        lambda_end: args.lambda_end,
        save_every: args.save_every,
        weight_decay: args.weight_decay,
        lambda: args.data.lambda,
        wdl_scale: args.data.wdl_scale,
        threads: args.data.threads as usize,
        seed: args.seed,
        mirror: args.mirror,
        init: args.init,
        keep: args.keep,
    };
    let outcome = crate::train::run(&request, |event| match event {
        crate::train::TrainEvent::Progress { .. } => eprint!("\rtrain: {event}   "),
        _ => eprintln!("\rtrain: {event}"),
    });
    finish("train", outcome.map(|_| ()))
}

/// A run's settings as the start line shows them: the seed and node limit, then every other
/// setting the sidecar records, by its flag's name (those at their defaults left out).
fn recipe_text(recipe: &Checkpoint) -> String {
    let named: String = recipe.settings().map(|(flag, value)| format!(", {flag} {value}")).collect();
    format!("seed {}, {} nodes per move{named}", recipe.seed, recipe.nodes)
}

#[cfg(test)]
mod tests {
    use super::{positive_rate, unit_fraction, NetLossArgs, TrainArgs};
    use clap::Parser;

    /// `patina-learn train`'s arguments, as a command of their own.
    #[derive(Parser)]
    struct Train {
        #[command(flatten)]
        args: TrainArgs,
    }

    /// `patina-learn net-loss`'s.
    #[derive(Parser)]
    struct NetLoss {
        #[command(flatten)]
        args: NetLossArgs,
    }

    #[test]
    fn games_reaches_the_selection_of_train_and_net_loss_and_refuses_zero() {
        let train = |extra: &[&str]| {
            let base = ["train", "--data", "a.bin", "--data", "b.bin", "--out", "net.nnue"];
            Train::try_parse_from(base.iter().chain(extra)).map(|parsed| parsed.args.data.selection())
        };
        let cut = train(&["--games", "46908", "--limit", "1000"]).unwrap();
        assert_eq!((cut.games, cut.limit, cut.data.len()), (Some(46908), Some(1000), 2));
        assert_eq!(train(&[]).unwrap().games, None);
        let error = train(&["--games", "0"]).err().unwrap().to_string();
        assert!(error.contains("--games <N>"), "{error}");
        let scored =
            NetLoss::try_parse_from(["net-loss", "n.nnue", "--data", "a.bin", "--games", "7"]).unwrap();
        assert_eq!(scored.args.data.selection().games, Some(7));
    }

    #[test]
    fn rate_and_weight_flags_take_only_their_range_and_name_what_was_wrong() {
        assert_eq!(positive_rate("1e-6").unwrap(), 1e-6);
        assert_eq!(positive_rate("0").unwrap_err().to_string(), "`0` is not a positive learning rate");
        assert!(
            positive_rate("inf").is_err() && positive_rate("-0.1").is_err() && positive_rate("x").is_err()
        );
        assert_eq!(unit_fraction("0.35").unwrap(), 0.35);
        assert!(unit_fraction("0").is_ok() && unit_fraction("1").is_ok());
        assert_eq!(unit_fraction("1.5").unwrap_err().to_string(), "`1.5` is not a weight from 0 to 1");
        assert!(unit_fraction("NaN").is_err());
    }
}

//! `patina-learn`: the learning tools' command line. Self-play data generation (`datagen`), the
//! data tools (`data`), the network trainer (`train`, `net-loss`, `average-nets`), the
//! evaluation tuner (`tune`) and the win/draw/loss model's fit (`wdl-fit`). The engine itself
//! is the `patina` binary of the package above; this one stands on its library.

use clap::{Parser, Subcommand};
use patina_learn::cli;
use patina_learn::tune::TuneRequest;
use patina_learn::wdl_fit::FitRequest;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "patina-learn", version, about = "Patina's learning tools: self-play data, training, fits")]
struct Cli {
    #[command(subcommand)]
    command: LearnCommand,
}

#[derive(Subcommand)]
enum LearnCommand {
    /// Self-play games for the network and tuning: appends 32-byte records of every searched
    /// position to --out (`FEN | score | result` lines of the quiet ones when it ends in .txt)
    /// and resumes from FILE.progress when run again.
    Datagen(cli::DatagenArgs),
    /// Texel tuning: fits the evaluation weights to `patina-learn datagen` data and writes them as a
    /// generated Rust file (the engine keeps its own weights until switched to it).
    Tune {
        /// A data file of `FEN | score | result` lines; repeat for several.
        #[arg(long, value_name = "FILE", required = true)]
        data: Vec<PathBuf>,
        /// Where to write the generated weights (e.g. src/eval/tuned.rs).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Start from the weights of an earlier generated file instead of the engine's.
        #[arg(long, value_name = "FILE")]
        init: Option<PathBuf>,
        /// Passes over the data.
        #[arg(long, default_value_t = 100)]
        epochs: usize,
        /// Adam's learning rate, in centipawns per step.
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Positions per Adam step (the whole data set when larger).
        #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
        batch: u64,
        /// Threads for tracing and for the gradient.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: u16,
        /// Load at most this many positions in all.
        #[arg(long, value_name = "POSITIONS")]
        limit: Option<usize>,
        /// Target = LAMBDA * result + (1 - LAMBDA) * sigmoid(search score); 1 uses results only.
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        /// L2 pull toward the starting weights: each weight adds L2 * (its distance from its
        /// start in pawns)^2 to the loss, so weights few positions see stay near their start
        /// (0: none).
        #[arg(long, default_value_t = patina_learn::tune::DEFAULT_L2)]
        l2: f64,
        /// Share of the games held out to measure the fit each epoch; the epoch with the
        /// lowest validation loss is the one written (0: none, the last epoch is written).
        #[arg(long, value_name = "F", default_value_t = patina_learn::tune::DEFAULT_VALIDATION_FRACTION)]
        validation_fraction: f64,
        /// Blocks of src/eval/params.rs that keep their starting weights, comma-separated
        /// (e.g. material,psqt).
        #[arg(long, value_name = "BLOCKS", value_delimiter = ',')]
        freeze: Vec<String>,
    },
    /// Fits the win/draw/loss model (score and material to win, draw and loss rates) to
    /// `patina-learn datagen` data and writes it as a generated Rust file (src/wdl/fitted.rs).
    WdlFit {
        /// A datagen record file, or `FEN | score | result` lines when named `*.txt`; repeat
        /// for several.
        #[arg(long, value_name = "FILE", required = true)]
        data: Vec<PathBuf>,
        /// Where to write the generated model (e.g. src/wdl/fitted.rs).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Read at most this many positions in all, the first ones.
        #[arg(long, value_name = "POSITIONS")]
        limit: Option<usize>,
    },
    /// Training data tools: convert, export, stats, results, shuffle, interleave.
    #[command(subcommand)]
    Data(cli::DataCommand),
    /// Trains the evaluation network on datagen records and writes a net file.
    Train(cli::TrainArgs),
    /// Scores net files on the positions `train` would hold out of the given data (the
    /// loss `train --init NET` starts from), reading the data once for all of them.
    NetLoss(cli::NetLossArgs),
    /// Averages nets fine-tuned from one starting net, weight by weight, into one net file
    /// (a "model soup": docs/nets.md, net 7), or rescales one net's output (--output-scale).
    AverageNets(cli::AverageArgs),
}

/// The command line as typed, for the generated file's header (`patina-learn` for the program).
fn command_line() -> String {
    let quote = |arg: String| if arg.contains(char::is_whitespace) { format!("'{arg}'") } else { arg };
    std::iter::once("patina-learn".to_string())
        .chain(std::env::args().skip(1).map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

fn tune(request: TuneRequest) -> ExitCode {
    match patina_learn::tune::run(&request, |event| eprintln!("tune: {event}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("patina-learn: tune: {error}");
            ExitCode::FAILURE
        }
    }
}

fn wdl_fit(request: FitRequest) -> ExitCode {
    match patina_learn::wdl_fit::run(&request, |event| eprintln!("wdl-fit: {event}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("patina-learn: wdl-fit: {error}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    match Cli::parse().command {
        LearnCommand::Datagen(args) => cli::datagen(args),
        LearnCommand::Tune {
            data,
            out,
            init,
            epochs,
            lr,
            batch,
            threads,
            limit,
            lambda,
            l2,
            validation_fraction,
            freeze,
        } => tune(TuneRequest {
            data,
            out,
            init,
            epochs,
            learning_rate: lr,
            batch: batch as usize,
            threads: threads as usize,
            limit,
            lambda,
            l2,
            validation_fraction,
            freeze,
            command_line: command_line(),
        }),
        LearnCommand::WdlFit { data, out, limit } => {
            wdl_fit(FitRequest { data, out, limit, command_line: command_line() })
        }
        LearnCommand::Data(command) => cli::data(command),
        LearnCommand::Train(args) => cli::train(args),
        LearnCommand::NetLoss(args) => cli::net_loss(args),
        LearnCommand::AverageNets(args) => cli::average_nets(args),
    }
}

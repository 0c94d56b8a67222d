//! `patina-learn`: the learning tools' command line. Self-play data generation (`datagen`), the
//! data tools (`data`), the network trainer (`train`, `net-loss`, `average-nets`) and the
//! win/draw/loss model's fit (`wdl-fit`). The engine itself
//! is the `patina` binary of the package above; this one stands on its library.

use clap::{Parser, Subcommand};
use patina_learn::cli;
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
        LearnCommand::WdlFit { data, out, limit } => wdl_fit(FitRequest { data, out, limit }),
        LearnCommand::Data(command) => cli::data(command),
        LearnCommand::Train(args) => cli::train(args),
        LearnCommand::NetLoss(args) => cli::net_loss(args),
        LearnCommand::AverageNets(args) => cli::average_nets(args),
    }
}

//! `patina`: the command-line shell over the library. With no subcommand it speaks UCI on
//! stdin/stdout; subcommands run the benchmark, perft and the game-result judge.

use clap::{Parser, Subcommand};
use patina::options::EngineOptions;
use patina::position::Position;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "patina", version, about = "Patina, a UCI chess engine")]
struct Cli {
    /// Read option defaults from this engine.toml instead of the built-in one.
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<CliCommand>,
}

#[derive(Subcommand)]
enum CliCommand {
    /// Search the fixed bench positions; ends with `<nodes> nodes <nps> nps`.
    Bench {
        /// Search depth per position.
        #[arg(default_value_t = patina::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
        depth: i32,
    },
    /// Count leaf nodes of the legal move tree (`move: count` per root move, then the total).
    Perft {
        depth: u32,
        /// Start from this FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Read the FEN's castling rights and write castling moves as Chess960 (king takes rook).
        #[arg(long)]
        chess960: bool,
    },
    /// Judge a game under the FIDE rules: prints `info string result ...`.
    Result {
        #[arg(long)]
        fen: Option<String>,
        /// Moves in UCI notation, space separated, played from the start position or --fen.
        #[arg(long, default_value = "")]
        moves: String,
        #[arg(long)]
        chess960: bool,
    },
}

fn load_options(path: Option<&std::path::Path>) -> Result<EngineOptions, String> {
    match path {
        None => Ok(EngineOptions::builtin()),
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            EngineOptions::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))
        }
    }
}

fn setup(fen: Option<&str>, moves: &str, chess960: bool) -> Result<Position, String> {
    let base = match fen {
        Some(fen) => Position::from_fen(fen, chess960).map_err(|e| e.to_string())?,
        None if chess960 => Position::startpos(shakmaty::CastlingMode::Chess960),
        None => Position::default(),
    };
    base.play_uci_moves(moves.split_whitespace()).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = match load_options(cli.config.as_deref()) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("patina: {message}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        None => {
            let code =
                patina::uci::run(options, std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            ExitCode::from(code as u8)
        }
        Some(CliCommand::Bench { depth }) => {
            let result = patina::bench::run(depth, |index, fen, nodes| {
                eprintln!("position {:2}: {nodes:>10} nodes  {fen}", index + 1);
            });
            println!("{} nodes {} nps", result.nodes, result.nps());
            ExitCode::SUCCESS
        }
        Some(CliCommand::Perft { depth, fen, chess960 }) => match setup(fen.as_deref(), "", chess960) {
            Ok(mut pos) => {
                let start = std::time::Instant::now();
                let mut total = 0;
                for (m, nodes) in patina::perft::divide(&mut pos, depth) {
                    println!("{}: {nodes}", pos.uci(m));
                    total += nodes;
                }
                let elapsed = start.elapsed();
                println!("\nNodes searched: {total}");
                let nps = total as u128 * 1_000_000 / elapsed.as_micros().max(1);
                eprintln!("{} ms, {nps} nps", elapsed.as_millis());
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("patina: {message}");
                ExitCode::FAILURE
            }
        },
        Some(CliCommand::Result { fen, moves, chess960 }) => match setup(fen.as_deref(), &moves, chess960) {
            Ok(pos) => {
                println!("info string result {}", patina::rules::judge(&pos));
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("patina: {message}");
                ExitCode::FAILURE
            }
        },
    }
}

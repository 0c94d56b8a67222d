//! `patina`: the command-line shell over the library. With no arguments it speaks UCI on
//! stdin/stdout; subcommands run the benchmark, perft, the game-result judge, analysis of a
//! position or of PGN games, self-play data generation, evaluation tuning and the win/draw/loss
//! model's fit. Any other arguments are UCI commands, one per argument, run in order before the
//! program exits (OpenBench runs `patina "genfens N seed S book B" "quit"`).

use patina::learn::cli as cli_learning;

use clap::{Parser, Subcommand};
use patina::analyze::AnalyzeError;
use patina::learn::tune::TuneRequest;
use patina::learn::wdl_fit::FitRequest;
use patina::options::{EngineOptions, OptionError};
use patina::position::{Position, PositionError};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "patina",
    version,
    about = "Patina, a UCI chess engine",
    after_help = "Without a command it speaks UCI on stdin/stdout. Arguments that are not commands \
                  are UCI command lines, run in order before exiting:\n  \
                  patina \"genfens 10 seed 1 book None\" \"quit\""
)]
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
        #[arg(default_value_t = patina::engine::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
        depth: i32,
        /// Search threads; above 1 this measures time-to-depth and the node count varies.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Hash table size in MiB, cleared before each position; other than 16 gives another
        /// node count (for measuring a large table's speed, e.g. with huge pages).
        #[arg(long, value_name = "MIB", default_value_t = patina::engine::bench::DEFAULT_HASH_MIB as u64,
              value_parser = clap::value_parser!(u64).range(1..=262_144))]
        hash: u64,
    },
    /// Print the search's tunables as OpenBench's SPSA input (`NAME, int, default, min, max,
    /// c_end, r_end`); a `--features tune` build takes them as UCI options.
    Spsa,
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
    /// Self-play games for the network and tuning: appends 32-byte records of every searched
    /// position to --out (`FEN | score | result` lines of the quiet ones when it ends in .txt)
    /// and resumes from FILE.progress when run again.
    Datagen(cli_learning::DatagenArgs),
    /// Texel tuning: fits the evaluation weights to `patina datagen` data and writes them as a
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
        #[arg(long, default_value_t = patina::learn::tune::DEFAULT_L2)]
        l2: f64,
        /// Share of the games held out to measure the fit each epoch; the epoch with the
        /// lowest validation loss is the one written (0: none, the last epoch is written).
        #[arg(long, value_name = "F", default_value_t = patina::learn::tune::DEFAULT_VALIDATION_FRACTION)]
        validation_fraction: f64,
        /// Blocks of src/eval/params.rs that keep their starting weights, comma-separated
        /// (e.g. material,psqt).
        #[arg(long, value_name = "BLOCKS", value_delimiter = ',')]
        freeze: Vec<String>,
    },
    /// Fits the win/draw/loss model (score and material to win, draw and loss rates) to
    /// `patina datagen` data and writes it as a generated Rust file (src/wdl/fitted.rs).
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
    Data(cli_learning::DataCommand),
    /// Trains the evaluation network on datagen records and writes a net file.
    Train(cli_learning::TrainArgs),
    /// Scores net files on the positions `train` would hold out of the given data (the
    /// loss `train --init NET` starts from), reading the data once for all of them.
    NetLoss(cli_learning::NetLossArgs),
    /// Averages nets fine-tuned from one starting net, weight by weight, into one net file
    /// (a "model soup": docs/nets.md, net 7), or rescales one net's output (--output-scale).
    AverageNets(cli_learning::AverageArgs),
    /// Analyse a position (board, lines as the search deepens) or every game of a PGN file
    /// (annotated PGN, evaluation graph, a summary per game).
    Analyze(AnalyzeArgs),
    /// Not a subcommand: each argument is a UCI command, run in order, then the program exits.
    #[command(external_subcommand)]
    UciLines(Vec<String>),
}

#[derive(clap::Args)]
#[command(after_help = "Without --pgn it analyses --fen (default: the start position) after --moves. \
                  Default limits: depth 20 or 10 s for a position, depth 10 per position of a game.")]
struct AnalyzeArgs {
    /// The position to analyse [default: the start position].
    #[arg(long, conflicts_with = "pgn")]
    fen: Option<String>,
    /// Moves played from the start position or --fen, in SAN or UCI (`"1. e4 e5 2. Nf3"`).
    #[arg(long, conflicts_with = "pgn", allow_hyphen_values = true)]
    moves: Option<String>,
    /// Analyse every game of this PGN file instead of one position.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Search depth of each position.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: Option<i32>,
    /// Milliseconds per position.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Lines shown per depth (position mode).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    multipv: u16,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Transposition table size.
    #[arg(long, value_name = "MiB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=262144))]
    hash: u64,
    /// Folders of Syzygy tables (`:`-separated; `;` on Windows) [default: `syzygy_path` of
    /// --config]. A table position searches only the moves that keep the tables' result.
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,
    /// Write the annotated PGN here (with --pgn).
    #[arg(long, value_name = "FILE", requires = "pgn")]
    out: Option<PathBuf>,
    /// Write the evaluation graph here as SVG, one chart per game (with --pgn).
    #[arg(long, value_name = "FILE.svg", requires = "pgn")]
    graph: Option<PathBuf>,
}

/// Runs `patina analyze`: a position's report or a PGN's analysis on stdout. `options` (from
/// `--config`) give the tables' defaults.
fn analyze(args: AnalyzeArgs, options: &EngineOptions) -> ExitCode {
    let limits = patina::analyze::AnalysisLimits {
        depth: args.depth,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        nodes: args.nodes,
        multipv: args.multipv as usize,
        threads: args.threads as usize,
        hash_mib: args.hash as usize,
        tablebases: patina::analyze::TablebaseSettings::from_options(options, args.syzygy.as_deref()),
    };
    let outcome = match args.pgn {
        Some(pgn) => analyze_games(pgn, limits.or_game_default(), args.out, args.graph),
        None => analyze_position(args.fen.as_deref(), args.moves.as_deref(), limits.or_position_default()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("patina: analyze: {error}");
            ExitCode::FAILURE
        }
    }
}

fn analyze_position(
    fen: Option<&str>,
    moves: Option<&str>,
    limits: patina::analyze::AnalysisLimits,
) -> Result<(), ShellError> {
    use patina::analyze::position_report;
    let start = setup(fen, "", false)?;
    let moves = moves.unwrap_or("").split_whitespace();
    let pos = position_report::play_moves(&start, moves)?;
    Ok(position_report::run(&pos, &limits, &mut std::io::stdout())?)
}

fn analyze_games(
    pgn: PathBuf,
    limits: patina::analyze::AnalysisLimits,
    out: Option<PathBuf>,
    graph: Option<PathBuf>,
) -> Result<(), ShellError> {
    let request = patina::analyze::PgnRequest { pgn, limits, out, graph };
    let start = std::time::Instant::now();
    let outcome = patina::analyze::run_pgn(&request, &mut std::io::stdout())?;
    eprintln!(
        "analyze: {} games ({} cut short by a bad move or FEN) in {:.1} s",
        outcome.games,
        outcome.broken_games,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Why a command of this shell could not run; each names the file, FEN or move at fault.
#[derive(Debug)]
enum ShellError {
    /// The `--config` file could not be read.
    ConfigRead { path: PathBuf, error: std::io::Error },
    /// The `--config` file sets an option wrongly.
    Config { path: PathBuf, error: OptionError },
    /// A `--fen` or a move of `--moves` is not valid.
    Position(PositionError),
    /// An analysis could not run or finish.
    Analyze(AnalyzeError),
}

impl std::fmt::Display for ShellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShellError::ConfigRead { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            ShellError::Config { path, error } => write!(f, "{}: {error}", path.display()),
            ShellError::Position(error) => write!(f, "{error}"),
            ShellError::Analyze(error) => write!(f, "{error}"),
        }
    }
}

impl From<PositionError> for ShellError {
    fn from(error: PositionError) -> ShellError {
        ShellError::Position(error)
    }
}

impl From<AnalyzeError> for ShellError {
    fn from(error: AnalyzeError) -> ShellError {
        ShellError::Analyze(error)
    }
}

fn load_options(path: Option<&std::path::Path>) -> Result<EngineOptions, ShellError> {
    let Some(path) = path else { return Ok(EngineOptions::builtin()) };
    let text = std::fs::read_to_string(path)
        .map_err(|error| ShellError::ConfigRead { path: path.to_path_buf(), error })?;
    EngineOptions::from_toml(&text).map_err(|error| ShellError::Config { path: path.to_path_buf(), error })
}

fn setup(fen: Option<&str>, moves: &str, chess960: bool) -> Result<Position, ShellError> {
    let base = match fen {
        Some(fen) => Position::from_fen(fen, chess960)?,
        None if chess960 => Position::startpos(shakmaty::CastlingMode::Chess960),
        None => Position::default(),
    };
    Ok(base.play_uci_moves(moves.split_whitespace())?)
}

/// The command line as typed, for the generated file's header (`patina` for the program).
fn command_line() -> String {
    let quote = |arg: String| if arg.contains(char::is_whitespace) { format!("'{arg}'") } else { arg };
    std::iter::once("patina".to_string())
        .chain(std::env::args().skip(1).map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

fn tune(request: TuneRequest) -> ExitCode {
    match patina::learn::tune::run(&request, |event| eprintln!("tune: {event}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("patina: tune: {error}");
            ExitCode::FAILURE
        }
    }
}

fn wdl_fit(request: FitRequest) -> ExitCode {
    match patina::learn::wdl_fit::run(&request, |event| eprintln!("wdl-fit: {event}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("patina: wdl-fit: {error}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = match load_options(cli.config.as_deref()) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("patina: {error}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        None => {
            let code =
                patina::uci::run(options, std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            ExitCode::from(code as u8)
        }
        Some(CliCommand::UciLines(lines)) => {
            ExitCode::from(patina::uci::run_lines(options, &lines, std::io::stdout()) as u8)
        }
        Some(CliCommand::Datagen(args)) => cli_learning::datagen(args),
        Some(CliCommand::Tune {
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
        }) => tune(TuneRequest {
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
        Some(CliCommand::WdlFit { data, out, limit }) => wdl_fit(FitRequest { data, out, limit }),
        Some(CliCommand::Analyze(args)) => analyze(args, &options),
        Some(CliCommand::Data(command)) => cli_learning::data(command),
        Some(CliCommand::Train(args)) => cli_learning::train(args),
        Some(CliCommand::NetLoss(args)) => cli_learning::net_loss(args),
        Some(CliCommand::AverageNets(args)) => cli_learning::average_nets(args),
        Some(CliCommand::Spsa) => {
            for tunable in patina::search::TUNABLES {
                println!("{}", tunable.spsa_line());
            }
            ExitCode::SUCCESS
        }
        Some(CliCommand::Bench { depth, threads, hash }) => {
            // `--config` may choose another evaluation (EvalFile, UseNNUE = false).
            let evaluator = match patina::engine::evaluator_for(&options) {
                Ok(evaluator) => evaluator,
                Err(error) => {
                    eprintln!("patina: bench: {error}");
                    return ExitCode::FAILURE;
                }
            };
            let result = patina::engine::bench::run(
                depth,
                threads.into(),
                hash as usize,
                evaluator,
                |index, fen, position| {
                    let ms = position.elapsed.as_secs_f64() * 1000.0;
                    eprintln!("position {:2}: {:>10} nodes {ms:>9.1} ms  {fen}", index + 1, position.nodes);
                },
            );
            let result = match result {
                Ok(result) => result,
                Err(error) => {
                    eprintln!("patina: bench: {error}");
                    return ExitCode::FAILURE;
                }
            };
            eprintln!("search time {:.3} s", result.elapsed.as_secs_f64());
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
            Err(error) => {
                eprintln!("patina: {error}");
                ExitCode::FAILURE
            }
        },
        Some(CliCommand::Result { fen, moves, chess960 }) => match setup(fen.as_deref(), &moves, chess960) {
            Ok(pos) => {
                println!("info string result {}", patina::rules::judge(&pos));
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("patina: {error}");
                ExitCode::FAILURE
            }
        },
    }
}

//! `patina`: the command-line shell over the library. With no arguments it speaks UCI on
//! stdin/stdout; subcommands run the benchmark, perft, the game-result judge and analysis of a
//! position or of PGN games (the learning tools are `patina-learn`, in `learn/`). Any other
//! arguments are UCI commands, one per argument, run in order before the program exits
//! (OpenBench runs `patina "genfens N seed S book B" "quit"`); it exits 1 when one was refused,
//! and a first argument that is neither a subcommand nor a UCI command is a usage error (exit
//! 2) naming the nearest of them.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use patina::analyze::AnalyzeError;
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
    /// c_end, r_end`), all but those only several threads read; a `--features tune` build takes
    /// every tunable as a UCI option.
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
        /// Moves played from the start position or --fen, in SAN or UCI (`"1. e4 e5 2. Nf3"`).
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        #[arg(long)]
        chess960: bool,
    },
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
    let pos = setup(fen, moves.unwrap_or(""), false)?;
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
        "analyze: {} ({} cut short by a bad move or FEN) in {:.1} s",
        patina::analyze::notation::counted(outcome.games, "game", "games"),
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

/// `fen` (or the start position) after `moves`, in SAN or UCI with or without move numbers.
fn setup(fen: Option<&str>, moves: &str, chess960: bool) -> Result<Position, ShellError> {
    let base = match fen {
        Some(fen) => Position::from_fen(fen, chess960)?,
        None if chess960 => Position::startpos(shakmaty::CastlingMode::Chess960),
        None => Position::default(),
    };
    Ok(patina::analyze::position_report::play_moves(&base, moves.split_whitespace())?)
}

/// Parses the command line; `--version` also names the commit and the net's vector width.
fn parse_command_line() -> Cli {
    let version = format!("{} (net loops: {})", patina::engine::VERSION, patina::engine::vector_width());
    let matches = Cli::command().version(version).get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}

/// A usage error (exit status 2) when the first argument is neither a subcommand nor a UCI
/// command (`patina analyse`), suggesting the nearest name.
fn unknown_first_command(lines: &[String]) -> Option<clap::Error> {
    use patina::uci::command::{is_command, nearest_name, COMMAND_NAMES};
    let word = lines.first()?.split_whitespace().next()?;
    if is_command(word) {
        return None;
    }
    let mut cli = Cli::command();
    let subcommands: Vec<String> = cli.get_subcommands().map(|c| c.get_name().to_string()).collect();
    let names = subcommands.iter().map(String::as_str).chain(COMMAND_NAMES);
    let hint = nearest_name(word, names).map(|name| format!("; did you mean '{name}'?")).unwrap_or_default();
    let message = format!("'{word}' is neither a subcommand nor a UCI command{hint}");
    Some(cli.error(clap::error::ErrorKind::InvalidSubcommand, message))
}

fn main() -> ExitCode {
    let cli = parse_command_line();
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
        Some(CliCommand::UciLines(lines)) => match unknown_first_command(&lines) {
            Some(error) => {
                let _ = error.print();
                ExitCode::from(2)
            }
            None => ExitCode::from(patina::uci::run_lines(options, &lines, std::io::stdout()) as u8),
        },
        Some(CliCommand::Analyze(args)) => analyze(args, &options),
        Some(CliCommand::Spsa) => {
            for tunable in patina::search::TUNABLES.iter().filter(|t| t.one_thread) {
                println!("{}", tunable.spsa_line());
            }
            ExitCode::SUCCESS
        }
        Some(CliCommand::Bench { depth, threads, hash }) => {
            // `--config` may choose another net (eval_file).
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
                let mut total = u64::from(depth == 0); // perft(0) = 1: the position itself
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

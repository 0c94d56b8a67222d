//! Parsing UCI input lines into `Command`s. Pure: no engine state, no output.
//!
//! Every error is a `ParseError` naming the command, the offending token and what is accepted,
//! e.g. `go: 'wtime' must be an integer, got 'abc'` (`error.rs`). `go`, the command with the
//! most parameters, has its own file (`go.rs`); the others are parsed here.

mod error;
mod go;
mod names;

pub use error::ParseError;
pub use go::GoParams;
pub use names::{is_command, nearest_name, COMMAND_NAMES};

use go::parse_go;

/// Where a `position` command starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`: the standard starting position.
    StartPos,
    /// `fen <FEN>`: the FEN's fields joined by single spaces, not yet validated.
    Fen(String),
}

/// `genfens N seed S book <None|FILE>`: OpenBench asks for N opening FENs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenfensParams {
    /// `N`: how many opening FENs to print.
    pub count: u64,
    /// `seed S` (0 when absent): the same seed gives the same openings.
    pub seed: u64,
    /// The EPD book, or `None` for random openings (OpenBench sends `book None`).
    pub book: Option<String>,
}

/// One UCI (or Stockfish-style debugging) command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify the engine and list its options, then `uciok`.
    Uci,
    /// `debug on|off` (a bare `debug` is on): extra `info string` output.
    Debug(bool),
    /// `isready`: answer `readyok` once earlier commands are done.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name, its words joined by single spaces.
        name: String,
        /// Everything after `value`, joined by single spaces; `None` for a button.
        value: Option<String>,
    },
    /// `register`: accepted and ignored (nothing to register).
    Register,
    /// `ucinewgame`: the next search belongs to a new game; the table and histories are emptied.
    UciNewGame,
    /// `position startpos|fen <FEN> [moves ...]`.
    Position {
        /// Where the game starts.
        start: PositionStart,
        /// The moves after `moves`, in UCI notation, not yet checked for legality.
        moves: Vec<String>,
    },
    /// `go ...`: search (or count, with `perft`) the current position.
    Go(GoParams),
    /// `stop`: end the search or job now and report its result.
    Stop,
    /// `ponderhit`: the opponent played the pondered move; the ponder search goes on the clock.
    PonderHit,
    /// `quit`: end the session.
    Quit,
    /// `d`: show the board.
    Display,
    /// `eval`: show the static evaluation term by term, and the network's score.
    Eval,
    /// `bench [DEPTH]`: search the bench positions, to `DEPTH` (1..=64) or the default depth.
    Bench(Option<i32>),
    /// `result`: print the game result of the current position (`*` while it goes on).
    Result,
    /// OpenBench's `genfens`.
    Genfens(GenfensParams),
    /// A blank line: nothing to do.
    Empty,
}

/// `genfens`'s usage, what its errors say is accepted.
const GENFENS_USAGE: &str = "'genfens N [seed S] [book <None|FILE>]'";
/// `setoption`'s form.
const SETOPTION_USAGE: &str = "'name <option> [value <value>]'";

/// Parses one input line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    match first {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "register" => Ok(Command::Register),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "result" => Ok(Command::Result),
        "debug" => match rest.first() {
            Some(&"on") | None => Ok(Command::Debug(true)),
            Some(&"off") => Ok(Command::Debug(false)),
            Some(other) => Err(ParseError::BadValue {
                command: "debug",
                parameter: "",
                token: other.to_string(),
                accepted: "'on' or 'off'",
            }),
        },
        "bench" => match rest.first() {
            None => Ok(Command::Bench(None)),
            Some(token) => match token.parse::<i32>() {
                Ok(depth) if (1..=64).contains(&depth) => Ok(Command::Bench(Some(depth))),
                _ => Err(ParseError::BadValue {
                    command: "bench",
                    parameter: "depth",
                    token: token.to_string(),
                    accepted: "an integer 1..64",
                }),
            },
        },
        "genfens" => parse_genfens(rest).map(Command::Genfens),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(Command::Go),
        other => Err(ParseError::UnknownCommand { token: other.to_string() }),
    }
}

fn parse_genfens(tokens: &[&str]) -> Result<GenfensParams, ParseError> {
    let integer = |parameter, token: &str| ParseError::BadValue {
        command: "genfens",
        parameter,
        token: token.to_string(),
        accepted: "an integer",
    };
    let Some((count, mut rest)) = tokens.split_first() else {
        return Err(ParseError::Incomplete { command: "genfens", accepted: GENFENS_USAGE });
    };
    let count = count.parse().map_err(|_| integer("N", count))?;
    let mut params = GenfensParams { count, seed: 0, book: None };
    while let Some((&key, after)) = rest.split_first() {
        if !matches!(key, "seed" | "book") {
            let token = key.to_string();
            return Err(ParseError::Unexpected { command: "genfens", token, accepted: GENFENS_USAGE });
        }
        let Some((&value, after)) = after.split_first() else {
            let parameter = key.to_string();
            return Err(ParseError::MissingValue { command: "genfens", parameter, accepted: "a value" });
        };
        match key {
            "seed" => params.seed = value.parse().map_err(|_| integer("seed", value))?,
            _ => params.book = (!value.eq_ignore_ascii_case("none")).then(|| value.to_string()),
        }
        rest = after;
    }
    Ok(params)
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, ParseError> {
    match tokens.first() {
        Some(&"name") => {}
        Some(other) => {
            let token = other.to_string();
            return Err(ParseError::Unexpected { command: "setoption", token, accepted: SETOPTION_USAGE });
        }
        None => return Err(ParseError::Incomplete { command: "setoption", accepted: SETOPTION_USAGE }),
    }
    let body = &tokens[1..];
    let value_at = body.iter().position(|&t| t == "value");
    let (name_tokens, value) = match value_at {
        Some(index) => (&body[..index], Some(body[index + 1..].join(" "))),
        None => (body, None),
    };
    if name_tokens.is_empty() {
        return Err(ParseError::MissingValue {
            command: "setoption",
            parameter: "name".to_string(),
            accepted: "an option name",
        });
    }
    Ok(Command::SetOption { name: name_tokens.join(" "), value })
}

fn parse_position(tokens: &[&str]) -> Result<Command, ParseError> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(index) => (&tokens[..index], tokens[index + 1..].iter().map(|s| s.to_string()).collect()),
        None => (tokens, Vec::new()),
    };
    let start = match setup.split_first() {
        Some((&"startpos", [])) => PositionStart::StartPos,
        Some((&"startpos", extra)) => {
            return Err(ParseError::Unexpected {
                command: "position",
                token: extra[0].to_string(),
                accepted: "'moves' after 'startpos'",
            })
        }
        Some((&"fen", fields)) if !fields.is_empty() => PositionStart::Fen(fields.join(" ")),
        Some((&"fen", _)) => {
            let parameter = "fen".to_string();
            return Err(ParseError::MissingValue { command: "position", parameter, accepted: "a FEN" });
        }
        Some((other, _)) => {
            return Err(ParseError::Unexpected {
                command: "position",
                token: other.to_string(),
                accepted: "'startpos' or 'fen <FEN>'",
            })
        }
        None => {
            return Err(ParseError::Incomplete { command: "position", accepted: "'startpos' or 'fen <FEN>'" })
        }
    };
    Ok(Command::Position { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_position_commands() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5").unwrap(),
            Command::Position { start: PositionStart::StartPos, moves: vec!["e2e4".into(), "e7e5".into()] }
        );
        let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
        assert_eq!(
            parse(&format!("position fen {fen}")).unwrap(),
            Command::Position { start: PositionStart::Fen(fen.into()), moves: vec![] }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos e2e4").unwrap_err().to_string().contains("'e2e4'"));
    }

    #[test]
    fn parses_setoption_names_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100").unwrap(),
            Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()) }
        );
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Command::SetOption { name: "Clear Hash".into(), value: None }
        );
        assert!(parse("setoption Hash 3").is_err());
    }

    #[test]
    fn parses_genfens_as_openbench_sends_it() {
        assert_eq!(
            parse("genfens 10 seed 42 book None").unwrap(),
            Command::Genfens(GenfensParams { count: 10, seed: 42, book: None })
        );
        assert_eq!(
            parse("genfens 3 book books/a.epd seed 1").unwrap(),
            Command::Genfens(GenfensParams { count: 3, seed: 1, book: Some("books/a.epd".into()) })
        );
        assert!(parse("genfens ten").unwrap_err().to_string().contains("'ten'"));
        assert!(parse("genfens 5 seed -x").unwrap_err().to_string().contains("'-x'"));
        assert!(parse("genfens 5 seed").unwrap_err().to_string().contains("'seed' needs a value"));
        assert!(parse("genfens 5 colour red").unwrap_err().to_string().contains("'colour'"));
    }

    #[test]
    fn errors_name_the_command_the_token_and_what_is_accepted() {
        assert_eq!(
            parse("go depth abc"),
            Err(ParseError::BadValue {
                command: "go",
                parameter: "depth",
                token: "abc".into(),
                accepted: "an integer"
            })
        );
        assert_eq!(
            parse("go depth abc").unwrap_err().to_string(),
            "go: 'depth' must be an integer, got 'abc'"
        );
        assert_eq!(parse("go wtime").unwrap_err().to_string(), "go: 'wtime' needs a value");
        assert_eq!(parse("position fen").unwrap_err().to_string(), "position: 'fen' needs a FEN");
        assert_eq!(
            parse("debug maybe").unwrap_err().to_string(),
            "debug: expected 'on' or 'off', got 'maybe'"
        );
        assert_eq!(parse("go sideways").unwrap_err().command(), Some("go"));
        assert_eq!(parse("fly").unwrap_err(), ParseError::UnknownCommand { token: "fly".into() });
        assert_eq!(parse("fly").unwrap_err().command(), None);
    }

    #[test]
    fn unknown_and_empty_lines() {
        assert_eq!(parse("   ").unwrap(), Command::Empty);
        assert!(parse("fly").unwrap_err().to_string().contains("'fly'"));
    }
}

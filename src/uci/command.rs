//! Parsing UCI input lines into `Command`s. Pure: no engine state, no output.
//!
//! Every error names the offending token and what was expected, e.g.
//! `go: 'wtime' needs an integer, got 'abc'`.

use std::fmt;

/// Where a `position` command starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    Fen(String),
}

/// Parameters of `go`, as sent (times in milliseconds).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub mate: Option<i32>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// `go perft N`: count moves instead of searching.
    pub perft: Option<u32>,
}

/// `genfens N seed S book <None|FILE>`: OpenBench asks for N opening FENs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenfensParams {
    pub count: u64,
    pub seed: u64,
    /// The EPD book, or `None` for random openings (OpenBench sends `book None`).
    pub book: Option<String>,
}

/// One UCI (or Stockfish-style debugging) command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the board.
    Display,
    Eval,
    Bench(Option<i32>),
    Result,
    Genfens(GenfensParams),
    /// A blank line: nothing to do.
    Empty,
}

/// A line that could not be understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn error<T>(message: String) -> Result<T, ParseError> {
    Err(ParseError(message))
}

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
            Some(other) => error(format!("debug: expected 'on' or 'off', got '{other}'")),
        },
        "bench" => match rest.first() {
            None => Ok(Command::Bench(None)),
            Some(token) => match token.parse::<i32>() {
                Ok(depth) if (1..=64).contains(&depth) => Ok(Command::Bench(Some(depth))),
                _ => error(format!("bench: depth must be an integer 1..64, got '{token}'")),
            },
        },
        "genfens" => parse_genfens(rest).map(Command::Genfens),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(Command::Go),
        other => error(format!("unknown command '{other}'")),
    }
}

fn parse_genfens(tokens: &[&str]) -> Result<GenfensParams, ParseError> {
    let usage = "genfens N [seed S] [book <None|FILE>]";
    let Some((count, mut rest)) = tokens.split_first() else {
        return error(format!("genfens: missing the number of FENs; expected '{usage}'"));
    };
    let count =
        count.parse().map_err(|_| ParseError(format!("genfens: N must be an integer, got '{count}'")))?;
    let mut params = GenfensParams { count, seed: 0, book: None };
    while let Some((&key, after)) = rest.split_first() {
        let Some((&value, after)) = after.split_first() else {
            return error(format!("genfens: '{key}' needs a value; expected '{usage}'"));
        };
        match key {
            "seed" => {
                params.seed = value
                    .parse()
                    .map_err(|_| ParseError(format!("genfens: seed must be an integer, got '{value}'")))?
            }
            "book" => params.book = (!value.eq_ignore_ascii_case("none")).then(|| value.to_string()),
            other => return error(format!("genfens: unknown parameter '{other}'; expected '{usage}'")),
        }
        rest = after;
    }
    Ok(params)
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, ParseError> {
    if tokens.first() != Some(&"name") {
        return error("setoption: expected 'name <option> [value <value>]'".to_string());
    }
    let body = &tokens[1..];
    let value_at = body.iter().position(|&t| t == "value");
    let (name_tokens, value) = match value_at {
        Some(index) => (&body[..index], Some(body[index + 1..].join(" "))),
        None => (body, None),
    };
    if name_tokens.is_empty() {
        return error("setoption: missing option name".to_string());
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
            return error(format!("position: unexpected '{}' after 'startpos'", extra[0]))
        }
        Some((&"fen", fields)) if !fields.is_empty() => PositionStart::Fen(fields.join(" ")),
        Some((&"fen", _)) => return error("position: 'fen' needs a FEN".to_string()),
        Some((other, _)) => return error(format!("position: expected 'startpos' or 'fen', got '{other}'")),
        None => return error("position: expected 'startpos' or 'fen <FEN>'".to_string()),
    };
    Ok(Command::Position { start, moves })
}

fn number<T: std::str::FromStr>(name: &str, token: Option<&&str>) -> Result<T, ParseError> {
    match token {
        Some(raw) => {
            raw.parse().map_err(|_| ParseError(format!("go: '{name}' needs an integer, got '{raw}'")))
        }
        None => error(format!("go: '{name}' needs a value")),
    }
}

const GO_KEYWORDS: [&str; 14] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "",
];

fn parse_go(tokens: &[&str]) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1);
        let mut consumed = 2;
        match key {
            "wtime" => go.wtime = Some(number(key, value)?),
            "btime" => go.btime = Some(number(key, value)?),
            "winc" => go.winc = Some(number(key, value)?),
            "binc" => go.binc = Some(number(key, value)?),
            "movestogo" => go.movestogo = Some(number(key, value)?),
            "depth" => go.depth = Some(number(key, value)?),
            "nodes" => go.nodes = Some(number(key, value)?),
            "mate" => go.mate = Some(number(key, value)?),
            "movetime" => go.movetime = Some(number(key, value)?),
            "perft" => go.perft = Some(number(key, value)?),
            "infinite" => {
                go.infinite = true;
                consumed = 1;
            }
            "ponder" => {
                go.ponder = true;
                consumed = 1;
            }
            "searchmoves" => {
                let moves: Vec<String> = tokens[i + 1..]
                    .iter()
                    .take_while(|t| !GO_KEYWORDS.contains(t))
                    .map(|s| s.to_string())
                    .collect();
                consumed = 1 + moves.len();
                go.searchmoves = moves;
            }
            other => return error(format!("go: unknown parameter '{other}'")),
        }
        i += consumed;
    }
    if let Some(depth) = go.depth {
        if depth < 0 {
            return error(format!("go: 'depth' must not be negative, got '{depth}'"));
        }
    }
    if let Some(mate) = go.mate {
        if mate <= 0 {
            return error(format!("go: 'mate' must be positive, got '{mate}'"));
        }
    }
    Ok(go)
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
        assert!(parse("position startpos e2e4").unwrap_err().0.contains("'e2e4'"));
    }

    #[test]
    fn parses_go_in_every_form() {
        let go = match parse("go wtime -50 btime 1000 winc 10 binc 10 movestogo 5 depth 3 nodes 99").unwrap()
        {
            Command::Go(go) => go,
            other => panic!("{other:?}"),
        };
        assert_eq!(go.wtime, Some(-50));
        assert_eq!((go.movestogo, go.depth, go.nodes), (Some(5), Some(3), Some(99)));
        let go = match parse("go infinite searchmoves e2e4 d2d4 ponder").unwrap() {
            Command::Go(go) => go,
            other => panic!("{other:?}"),
        };
        assert!(go.infinite && go.ponder);
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(parse("go depth abc").unwrap_err().0.contains("'abc'"));
        assert!(parse("go wtime").is_err());
        assert!(parse("go sideways").unwrap_err().0.contains("'sideways'"));
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
        assert!(parse("genfens ten").unwrap_err().0.contains("'ten'"));
        assert!(parse("genfens 5 seed -x").unwrap_err().0.contains("'-x'"));
        assert!(parse("genfens 5 seed").unwrap_err().0.contains("'seed' needs a value"));
        assert!(parse("genfens 5 colour red").unwrap_err().0.contains("'colour'"));
    }

    #[test]
    fn unknown_and_empty_lines() {
        assert_eq!(parse("   ").unwrap(), Command::Empty);
        assert!(parse("fly").unwrap_err().0.contains("'fly'"));
    }
}

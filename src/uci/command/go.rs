//! `go` and its parameters: the clocks, the limits (`depth`, `nodes`, `mate`), `infinite`,
//! `ponder`, `searchmoves` and `perft`. Values are checked for form only (integers, `depth`
//! not negative, `mate` positive); the engine decides what they mean.

use super::ParseError;
use crate::engine::GoLimits;

/// Parameters of `go`, as sent (times in milliseconds). The limits go to the engine as they
/// are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    /// The clocks, `depth` (never negative), `nodes`, `mate` (always positive), `infinite` and
    /// `ponder`.
    pub limits: GoLimits,
    /// `searchmoves`: the root moves to consider, in UCI notation, not yet checked for legality.
    pub search_moves: Vec<String>,
    /// `go perft N`: count moves instead of searching.
    pub perft: Option<u32>,
}

/// The words `go` takes, for its errors.
const GO_ACCEPTED: &str = "one of wtime, btime, winc, binc, movestogo, depth, nodes, mate, movetime, \
                           infinite, ponder, searchmoves, perft";

/// The integer after `go`'s `parameter`.
fn number<T: std::str::FromStr>(parameter: &'static str, token: Option<&&str>) -> Result<T, ParseError> {
    match token {
        Some(raw) => raw.parse().map_err(|_| ParseError::BadValue {
            command: "go",
            parameter,
            token: raw.to_string(),
            accepted: "an integer",
        }),
        None => {
            let parameter = parameter.to_string();
            Err(ParseError::MissingValue { command: "go", parameter, accepted: "a value" })
        }
    }
}

/// The words `go` takes: a `searchmoves` list ends at the first of them.
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

pub(super) fn parse_go(tokens: &[&str]) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1);
        let mut consumed = 2;
        match key {
            "wtime" => go.limits.clocks.wtime = Some(number("wtime", value)?),
            "btime" => go.limits.clocks.btime = Some(number("btime", value)?),
            "winc" => go.limits.clocks.winc = Some(number("winc", value)?),
            "binc" => go.limits.clocks.binc = Some(number("binc", value)?),
            "movestogo" => go.limits.clocks.movestogo = Some(number("movestogo", value)?),
            "depth" => go.limits.depth = Some(number("depth", value)?),
            "nodes" => go.limits.nodes = Some(number("nodes", value)?),
            "mate" => go.limits.mate_in_moves = Some(number("mate", value)?),
            "movetime" => go.limits.clocks.movetime = Some(number("movetime", value)?),
            "perft" => go.perft = Some(number("perft", value)?),
            "infinite" => {
                go.limits.infinite = true;
                consumed = 1;
            }
            "ponder" => {
                go.limits.ponder = true;
                consumed = 1;
            }
            "searchmoves" => {
                let moves: Vec<String> = tokens[i + 1..]
                    .iter()
                    .take_while(|t| !GO_KEYWORDS.contains(t))
                    .map(|s| s.to_string())
                    .collect();
                consumed = 1 + moves.len();
                go.search_moves = moves;
            }
            other => {
                let token = other.to_string();
                return Err(ParseError::Unexpected { command: "go", token, accepted: GO_ACCEPTED });
            }
        }
        i += consumed;
    }
    if let Some(depth) = go.limits.depth {
        if depth < 0 {
            let token = depth.to_string();
            let accepted = "a non-negative integer";
            return Err(ParseError::BadValue { command: "go", parameter: "depth", token, accepted });
        }
    }
    if let Some(mate) = go.limits.mate_in_moves {
        if mate <= 0 {
            let token = mate.to_string();
            let accepted = "a positive integer";
            return Err(ParseError::BadValue { command: "go", parameter: "mate", token, accepted });
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Command};

    #[test]
    fn parses_go_in_every_form() {
        let go = match parse("go wtime -50 btime 1000 winc 10 binc 10 movestogo 5 depth 3 nodes 99").unwrap()
        {
            Command::Go(go) => go,
            other => panic!("{other:?}"),
        };
        assert_eq!(go.limits.clocks.wtime, Some(-50));
        assert_eq!(
            (go.limits.clocks.movestogo, go.limits.depth, go.limits.nodes),
            (Some(5), Some(3), Some(99))
        );
        let go = match parse("go infinite searchmoves e2e4 d2d4 ponder").unwrap() {
            Command::Go(go) => go,
            other => panic!("{other:?}"),
        };
        assert!(go.limits.infinite && go.limits.ponder);
        assert_eq!(go.search_moves, vec!["e2e4", "d2d4"]);
        assert!(parse("go depth abc").unwrap_err().to_string().contains("'abc'"));
        assert!(parse("go wtime").is_err());
        assert!(parse("go sideways").unwrap_err().to_string().contains("'sideways'"));
    }
}

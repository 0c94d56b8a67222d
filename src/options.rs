//! Engine options, declared once: `OPTIONS` holds each option's UCI name, `engine.toml` key,
//! kind, range, default and a one-line description. Everything else follows from it: the
//! `uci` option lines (`uci::output::handshake`), `setoption` validation (`parse_change`),
//! `engine.toml` loading (`EngineOptions::from_toml`) and the fallback defaults
//! (`EngineOptions::default`); a test checks that the shipped `engine.toml` and the README's
//! options table list exactly these options, in this order, with these defaults.
//!
//! `setoption` is all-or-nothing: a value is parsed and range-checked before anything changes,
//! and a rejected one leaves the old value in place with an `OptionError` naming the option,
//! the token and what is accepted. What a change does beyond recording the value (resizing the
//! table, loading tables or a net, opening the log) is the UCI session's business.

use crate::strength;
use std::fmt;

/// The defaults shipped in the repository's `engine.toml`.
pub const BUILTIN_CONFIG: &str = include_str!("../engine.toml");

/// Values of every engine option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOptions {
    /// `Hash`: transposition table size in MiB.
    pub hash_mib: usize,
    /// `Threads`: search threads.
    pub threads: usize,
    /// `MultiPV`: lines reported per iteration.
    pub multipv: usize,
    /// `Ponder`: the GUI may send `go ponder`.
    pub ponder: bool,
    /// `Move Overhead`: milliseconds kept back from every move's time.
    pub move_overhead_ms: i64,
    /// `UCI_Chess960`: castling written king-takes-rook, Shredder and X-FEN accepted.
    pub chess960: bool,
    /// `UCI_ShowWDL`: info lines carry `wdl W D L` after the score.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`: play at `UCI_Elo` rather than full strength.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength played when `limit_strength` is on (see `strength.rs`).
    pub elo: i64,
    /// Where `Debug Log File` records the conversation; empty when off.
    pub debug_log_file: String,
    /// Folders of Syzygy tables; empty when none.
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`: probe inside the search only with this much depth left.
    pub syzygy_probe_depth: i32,
    /// `SyzygyProbeLimit`: probe only positions with at most this many pieces.
    pub syzygy_probe_limit: usize,
    /// `Syzygy50MoveRule`: wins and losses the fifty-move rule spoils count as draws.
    pub syzygy_50_move_rule: bool,
    /// `EvalFile`: a net file to evaluate with; empty for the one compiled in.
    pub eval_file: String,
}

/// How a UCI option is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// `true` or `false`.
    Check,
    /// No value: pressing it acts.
    Button,
    /// A free-form string (`type string`); `<empty>` stands for the empty string.
    Text,
}

impl fmt::Display for OptionKind {
    /// What a value of this kind must be, as error messages say it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Spin { min, max } => write!(f, "an integer {min}..{max}"),
            OptionKind::Check => f.write_str("value true or false"),
            OptionKind::Button => f.write_str("no value"),
            OptionKind::Text => f.write_str("a string"),
        }
    }
}

/// A valid option value, of its option's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A button press.
    Press,
    /// A check box.
    Flag(bool),
    /// A spin value, range-checked.
    Number(i64),
    /// A string (`<empty>` already turned into the empty string).
    Text(String),
}

impl Value {
    /// The number of a spin value (0 for any other kind: `parse_value` never pairs them).
    fn number(&self) -> i64 {
        match self {
            Value::Number(n) => *n,
            _ => 0,
        }
    }

    /// The state of a check value (false for any other kind).
    fn flag(&self) -> bool {
        matches!(self, Value::Flag(true))
    }

    /// The text of a string value (empty for any other kind).
    fn text(self) -> String {
        match self {
            Value::Text(text) => text,
            _ => String::new(),
        }
    }

    /// The value as `uci` prints it after `default`.
    pub fn to_uci(&self) -> String {
        match self {
            Value::Press => String::new(),
            Value::Flag(on) => on.to_string(),
            Value::Number(n) => n.to_string(),
            Value::Text(text) if text.is_empty() => EMPTY_TEXT.to_string(),
            Value::Text(text) => text.clone(),
        }
    }
}

/// An option's built-in default (a `const`-friendly `Value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultValue {
    /// A button has none.
    None,
    /// A check box's state.
    Flag(bool),
    /// A spin value.
    Number(i64),
    /// A string.
    Text(&'static str),
}

impl DefaultValue {
    /// The default as a `Value`, if the option has one.
    pub fn value(self) -> Option<Value> {
        match self {
            DefaultValue::None => None,
            DefaultValue::Flag(on) => Some(Value::Flag(on)),
            DefaultValue::Number(n) => Some(Value::Number(n)),
            DefaultValue::Text(text) => Some(Value::Text(text.to_string())),
        }
    }
}

/// One option: everything the protocol, the config file and the README say about it.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    /// The UCI name (`setoption` matches it case-insensitively).
    pub name: &'static str,
    /// The `engine.toml` key; `None` for a button, which has no value to configure.
    pub key: Option<&'static str>,
    /// Its kind and range.
    pub kind: OptionKind,
    /// The built-in default (what the shipped `engine.toml` also says).
    pub default: DefaultValue,
    /// One line on what it does.
    pub doc: &'static str,
    /// The change a valid value makes.
    change: fn(Value) -> OptionChange,
    /// The current value.
    current: fn(&EngineOptions) -> Value,
}

impl OptionSpec {
    /// The option's current value in `options` (`Press` for a button).
    pub fn current(&self, options: &EngineOptions) -> Value {
        (self.current)(options)
    }
}

/// Every option, in the order `uci` lists them, `engine.toml` and the README show them.
pub const OPTIONS: [OptionSpec; 16] = [
    OptionSpec {
        name: "Hash",
        key: Some("hash_mib"),
        kind: OptionKind::Spin { min: 1, max: 262_144 },
        default: DefaultValue::Number(16),
        doc: "transposition table size in MiB; resizing clears it",
        change: |v| OptionChange::Hash(v.number() as usize),
        current: |o| Value::Number(o.hash_mib as i64),
    },
    OptionSpec {
        name: "Threads",
        key: Some("threads"),
        kind: OptionKind::Spin { min: 1, max: 256 },
        default: DefaultValue::Number(1),
        doc: "search threads (Lazy SMP)",
        change: |v| OptionChange::Threads(v.number() as usize),
        current: |o| Value::Number(o.threads as i64),
    },
    OptionSpec {
        name: "MultiPV",
        key: Some("multipv"),
        kind: OptionKind::Spin { min: 1, max: 256 },
        default: DefaultValue::Number(1),
        doc: "lines reported per iteration",
        change: |v| OptionChange::MultiPv(v.number() as usize),
        current: |o| Value::Number(o.multipv as i64),
    },
    OptionSpec {
        name: "Ponder",
        key: Some("ponder"),
        kind: OptionKind::Check,
        default: DefaultValue::Flag(false),
        doc: "lets the GUI send `go ponder`",
        change: |v| OptionChange::Ponder(v.flag()),
        current: |o| Value::Flag(o.ponder),
    },
    OptionSpec {
        name: "Move Overhead",
        key: Some("move_overhead_ms"),
        kind: OptionKind::Spin { min: 0, max: 5000 },
        default: DefaultValue::Number(10),
        doc: "milliseconds kept back per move for GUI and pipe latency",
        change: |v| OptionChange::MoveOverhead(v.number()),
        current: |o| Value::Number(o.move_overhead_ms),
    },
    OptionSpec {
        name: "Clear Hash",
        key: None,
        kind: OptionKind::Button,
        default: DefaultValue::None,
        doc: "empties the transposition table",
        change: |_| OptionChange::ClearHash,
        current: |_| Value::Press,
    },
    OptionSpec {
        name: "UCI_Chess960",
        key: Some("chess960"),
        kind: OptionKind::Check,
        default: DefaultValue::Flag(false),
        doc: "Chess960: castling written king-takes-rook, X-FEN and Shredder-FEN accepted",
        change: |v| OptionChange::Chess960(v.flag()),
        current: |o| Value::Flag(o.chess960),
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        key: Some("show_wdl"),
        kind: OptionKind::Check,
        default: DefaultValue::Flag(false),
        doc: "adds `wdl W D L` (per mille) after the score",
        change: |v| OptionChange::ShowWdl(v.flag()),
        current: |o| Value::Flag(o.show_wdl),
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        key: Some("limit_strength"),
        kind: OptionKind::Check,
        default: DefaultValue::Flag(false),
        doc: "play at UCI_Elo instead of full strength",
        change: |v| OptionChange::LimitStrength(v.flag()),
        current: |o| Value::Flag(o.limit_strength),
    },
    OptionSpec {
        name: "UCI_Elo",
        key: Some("elo"),
        kind: OptionKind::Spin { min: strength::MIN_ELO, max: strength::MAX_ELO },
        default: DefaultValue::Number(strength::DEFAULT_ELO),
        doc: "the strength UCI_LimitStrength plays at",
        change: |v| OptionChange::Elo(v.number()),
        current: |o| Value::Number(o.elo),
    },
    OptionSpec {
        name: "Debug Log File",
        key: Some("debug_log_file"),
        kind: OptionKind::Text,
        default: DefaultValue::Text(""),
        doc: "a file that records every line in and out; empty is off",
        change: |v| OptionChange::DebugLogFile(v.text()),
        current: |o| Value::Text(o.debug_log_file.clone()),
    },
    OptionSpec {
        name: "SyzygyPath",
        key: Some("syzygy_path"),
        kind: OptionKind::Text,
        default: DefaultValue::Text(""),
        doc: "folders of Syzygy tables; empty uses none",
        change: |v| OptionChange::SyzygyPath(v.text()),
        current: |o| Value::Text(o.syzygy_path.clone()),
    },
    OptionSpec {
        name: "SyzygyProbeDepth",
        key: Some("syzygy_probe_depth"),
        kind: OptionKind::Spin { min: 1, max: 100 },
        default: DefaultValue::Number(1),
        doc: "probe inside the search only with at least this much depth left",
        change: |v| OptionChange::SyzygyProbeDepth(v.number() as i32),
        current: |o| Value::Number(i64::from(o.syzygy_probe_depth)),
    },
    OptionSpec {
        name: "SyzygyProbeLimit",
        key: Some("syzygy_probe_limit"),
        kind: OptionKind::Spin { min: 0, max: 7 },
        default: DefaultValue::Number(7),
        doc: "probe only positions with at most this many pieces (0: off)",
        change: |v| OptionChange::SyzygyProbeLimit(v.number() as usize),
        current: |o| Value::Number(o.syzygy_probe_limit as i64),
    },
    OptionSpec {
        name: "Syzygy50MoveRule",
        key: Some("syzygy_50_move_rule"),
        kind: OptionKind::Check,
        default: DefaultValue::Flag(true),
        doc: "count wins and losses spoiled by the fifty-move rule as draws",
        change: |v| OptionChange::Syzygy50MoveRule(v.flag()),
        current: |o| Value::Flag(o.syzygy_50_move_rule),
    },
    OptionSpec {
        name: "EvalFile",
        key: Some("eval_file"),
        kind: OptionKind::Text,
        default: DefaultValue::Text(""),
        doc: "a net file to evaluate with; empty is the build's default",
        change: |v| OptionChange::EvalFile(v.text()),
        current: |o| Value::Text(o.eval_file.clone()),
    },
];

/// How GUIs write an empty string option's value.
const EMPTY_TEXT: &str = "<empty>";

/// A validated `setoption`, ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // Each variant is the option of the same name in `OPTIONS`.
pub enum OptionChange {
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    Ponder(bool),
    MoveOverhead(i64),
    ClearHash,
    Chess960(bool),
    ShowWdl(bool),
    LimitStrength(bool),
    Elo(i64),
    /// A path, or empty to stop logging.
    DebugLogFile(String),
    /// Folders of tables, or empty for none.
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    SyzygyProbeLimit(usize),
    Syzygy50MoveRule(bool),
    /// A net file, or empty for the compiled-in net.
    EvalFile(String),
}

/// Why a `setoption` or an `engine.toml` entry was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// `setoption` named no declared option.
    UnknownOption {
        /// The name as sent.
        name: String,
    },
    /// The value is not of the option's kind (`abc` for a spin, `maybe` for a check).
    BadValue {
        /// The option's UCI name.
        option: &'static str,
        /// The value as sent.
        token: String,
        /// What the option accepts.
        accepted: OptionKind,
    },
    /// A number outside the option's range.
    OutOfRange {
        /// The option's UCI name.
        option: &'static str,
        /// The number sent.
        value: i64,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// An `engine.toml` key that names no option.
    UnknownKey {
        /// The key as written.
        key: String,
    },
    /// An `engine.toml` value of the wrong type (a string for a number, say).
    BadConfigValue {
        /// The key as written.
        key: &'static str,
        /// The value as TOML writes it.
        token: String,
        /// What the option accepts.
        accepted: OptionKind,
    },
    /// `engine.toml` is not valid TOML.
    Syntax {
        /// The TOML parser's message.
        reason: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownOption { name } => write!(f, "unknown option '{name}'"),
            OptionError::BadValue { option, token, accepted } => {
                write!(f, "option '{option}' needs {accepted}, got '{token}'")
            }
            OptionError::OutOfRange { option, value, min, max } => {
                write!(f, "option '{option}' value {value} is out of range {min}..{max}")
            }
            OptionError::UnknownKey { key } => {
                let keys: Vec<&str> = OPTIONS.iter().filter_map(|spec| spec.key).collect();
                write!(f, "unknown key '{key}'; expected one of {}", keys.join(", "))
            }
            OptionError::BadConfigValue { key, token, accepted } => {
                write!(f, "{key} needs {accepted}, got {token}")
            }
            OptionError::Syntax { reason } => f.write_str(reason.trim_end()),
        }
    }
}

impl std::error::Error for OptionError {}

impl Default for EngineOptions {
    /// Every option at its `OPTIONS` default (the shipped `engine.toml` says the same; a test
    /// checks).
    fn default() -> Self {
        // Placeholders, each overwritten from the table below.
        let mut options = EngineOptions {
            hash_mib: 0,
            threads: 0,
            multipv: 0,
            ponder: false,
            move_overhead_ms: 0,
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: 0,
            debug_log_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_probe_limit: 0,
            syzygy_50_move_rule: false,
            eval_file: String::new(),
        };
        for spec in &OPTIONS {
            if let Some(value) = spec.default.value() {
                options.apply(&(spec.change)(value));
            }
        }
        options
    }
}

impl EngineOptions {
    /// Parses an `engine.toml`: every key optional, unknown keys, wrong types and out-of-range
    /// values refused with the same checks as `setoption`.
    pub fn from_toml(text: &str) -> Result<EngineOptions, OptionError> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| OptionError::Syntax { reason: e.to_string() })?;
        let mut options = EngineOptions::default();
        for (key, entry) in &table {
            let spec = OPTIONS
                .iter()
                .find(|spec| spec.key == Some(key.as_str()))
                .ok_or_else(|| OptionError::UnknownKey { key: key.clone() })?;
            let token = match (spec.kind, entry) {
                (OptionKind::Spin { .. }, toml::Value::Integer(n)) => n.to_string(),
                (OptionKind::Check, toml::Value::Boolean(on)) => on.to_string(),
                (OptionKind::Text, toml::Value::String(text)) => text.clone(),
                _ => {
                    return Err(OptionError::BadConfigValue {
                        key: spec.key.unwrap_or(spec.name),
                        token: entry.to_string(),
                        accepted: spec.kind,
                    })
                }
            };
            options.apply(&(spec.change)(parse_value(spec, Some(&token))?));
        }
        Ok(options)
    }

    /// The defaults shipped in the binary.
    pub fn builtin() -> EngineOptions {
        EngineOptions::from_toml(BUILTIN_CONFIG).unwrap_or_default()
    }

    /// Records a validated change (the table-related ones are the engine's business).
    pub fn apply(&mut self, change: &OptionChange) {
        match *change {
            OptionChange::Hash(mib) => self.hash_mib = mib,
            OptionChange::Threads(n) => self.threads = n,
            OptionChange::MultiPv(n) => self.multipv = n,
            OptionChange::Ponder(on) => self.ponder = on,
            OptionChange::MoveOverhead(ms) => self.move_overhead_ms = ms,
            OptionChange::Chess960(on) => self.chess960 = on,
            OptionChange::ShowWdl(on) => self.show_wdl = on,
            OptionChange::LimitStrength(on) => self.limit_strength = on,
            OptionChange::Elo(elo) => self.elo = elo,
            OptionChange::DebugLogFile(ref path) => self.debug_log_file = path.clone(),
            OptionChange::SyzygyPath(ref path) => self.syzygy_path = path.clone(),
            OptionChange::SyzygyProbeDepth(depth) => self.syzygy_probe_depth = depth,
            OptionChange::SyzygyProbeLimit(pieces) => self.syzygy_probe_limit = pieces,
            OptionChange::Syzygy50MoveRule(on) => self.syzygy_50_move_rule = on,
            OptionChange::EvalFile(ref path) => self.eval_file = path.clone(),
            OptionChange::ClearHash => {}
        }
    }
}

/// Validates `setoption name <name> [value <value>]`; names match case-insensitively.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    let spec = OPTIONS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::UnknownOption { name: name.to_string() })?;
    Ok((spec.change)(parse_value(spec, value.map(str::trim))?))
}

/// Reads `value` as `spec`'s kind, range-checked.
fn parse_value(spec: &OptionSpec, value: Option<&str>) -> Result<Value, OptionError> {
    let bad_value = |token: &str| OptionError::BadValue {
        option: spec.name,
        token: token.to_string(),
        accepted: spec.kind,
    };
    match spec.kind {
        OptionKind::Button => Ok(Value::Press),
        OptionKind::Text => {
            let text = value.unwrap_or("");
            Ok(Value::Text(if text == EMPTY_TEXT { String::new() } else { text.to_string() }))
        }
        OptionKind::Check => match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Ok(Value::Flag(true)),
            Some("false") => Ok(Value::Flag(false)),
            _ => Err(bad_value(value.unwrap_or(""))),
        },
        OptionKind::Spin { min, max } => {
            let raw = value.unwrap_or("");
            let number: i64 = raw.parse().map_err(|_| bad_value(raw))?;
            if !(min..=max).contains(&number) {
                return Err(OptionError::OutOfRange { option: spec.name, value: number, min, max });
            }
            Ok(Value::Number(number))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_engine_toml_matches_fallback_defaults() {
        assert_eq!(EngineOptions::from_toml(BUILTIN_CONFIG).unwrap(), EngineOptions::default());
    }

    #[test]
    fn parses_and_validates_values() {
        assert_eq!(parse_change("hash", Some("64")), Ok(OptionChange::Hash(64)));
        assert_eq!(parse_change("Move Overhead", Some("30")), Ok(OptionChange::MoveOverhead(30)));
        assert_eq!(parse_change("UCI_Chess960", Some("TRUE")), Ok(OptionChange::Chess960(true)));
        assert_eq!(parse_change("uci_showwdl", Some("true")), Ok(OptionChange::ShowWdl(true)));
        assert_eq!(parse_change("UCI_LimitStrength", Some("true")), Ok(OptionChange::LimitStrength(true)));
        assert_eq!(parse_change("uci_elo", Some("1300")), Ok(OptionChange::Elo(1300)));
        let message = |name, value| parse_change(name, value).unwrap_err().to_string();
        assert!(message("UCI_Elo", Some("1299")).contains("out of range 1300.."));
        assert!(message("UCI_Elo", Some("9999")).contains("'UCI_Elo'"));
        assert_eq!(parse_change("Clear Hash", None), Ok(OptionChange::ClearHash));
        assert_eq!(
            parse_change("debug log file", Some("/tmp/my log.txt")),
            Ok(OptionChange::DebugLogFile("/tmp/my log.txt".into()))
        );
        assert_eq!(
            parse_change("Debug Log File", Some("<empty>")),
            Ok(OptionChange::DebugLogFile(String::new()))
        );
        assert!(message("Hash", Some("0")).contains("out of range"));
        assert!(message("Threads", Some("many")).contains("'many'"));
        assert!(parse_change("Ponder", Some("maybe")).is_err());
        assert!(message("Nonsense", Some("1")).contains("unknown option 'Nonsense'"));
    }

    #[test]
    fn errors_name_the_option_the_token_and_what_is_accepted() {
        assert_eq!(
            parse_change("threads", Some("many")),
            Err(OptionError::BadValue {
                option: "Threads",
                token: "many".into(),
                accepted: OptionKind::Spin { min: 1, max: 256 }
            })
        );
        assert_eq!(
            parse_change("Ponder", Some("maybe")).unwrap_err().to_string(),
            "option 'Ponder' needs value true or false, got 'maybe'"
        );
        assert_eq!(
            parse_change("Hash", Some("0")),
            Err(OptionError::OutOfRange { option: "Hash", value: 0, min: 1, max: 262_144 })
        );
    }

    #[test]
    fn every_declared_option_round_trips() {
        for spec in OPTIONS {
            let value = match spec.kind {
                OptionKind::Spin { min, .. } => Some(min.to_string()),
                OptionKind::Check => Some("true".to_string()),
                OptionKind::Text => Some("a path".to_string()),
                OptionKind::Button => None,
            };
            let change = parse_change(spec.name, value.as_deref()).unwrap();
            let mut options = EngineOptions::default();
            options.apply(&change);
            if let Some(value) = value {
                assert_eq!(spec.current(&options).to_uci(), value, "{}", spec.name);
            }
        }
    }

    #[test]
    fn config_rejects_unknown_keys_wrong_types_and_bad_ranges() {
        assert!(EngineOptions::from_toml("hash = 3").is_err());
        assert!(EngineOptions::from_toml("threads = 0").unwrap_err().to_string().contains("out of range"));
        assert!(EngineOptions::from_toml("threads = \"two\"").is_err());
        assert!(EngineOptions::from_toml("threads = [").is_err());
        assert_eq!(EngineOptions::from_toml("threads = 2").unwrap().threads, 2);
        assert!(EngineOptions::from_toml("elo = 100").is_err());
        assert_eq!(EngineOptions::from_toml("elo = 1500").unwrap().elo, 1500);
        assert_eq!(EngineOptions::from_toml("").unwrap(), EngineOptions::default());
    }

    /// The README's options table: (name, type, default) per row, in order.
    fn readme_rows() -> Vec<(String, String, String)> {
        let readme = include_str!("../README.md");
        let table = readme.split("| option | type | default | meaning |").nth(1).expect("the options table");
        table
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                (cells[1].trim_matches('`').to_string(), cells[2].to_string(), cells[3].to_string())
            })
            .collect()
    }

    #[test]
    fn the_readme_table_lists_exactly_these_options_with_these_defaults() {
        let expected: Vec<(String, String, String)> = OPTIONS
            .iter()
            .map(|spec| {
                let kind = match spec.kind {
                    OptionKind::Spin { min, max } => format!("spin {min}..{max}"),
                    OptionKind::Check => "check".into(),
                    OptionKind::Button => "button".into(),
                    OptionKind::Text => "string".into(),
                };
                let default = match spec.default.value() {
                    Some(Value::Text(text)) if text.is_empty() => format!("`{EMPTY_TEXT}`"),
                    Some(value) => value.to_uci(),
                    None => String::new(),
                };
                (spec.name.to_string(), kind, default)
            })
            .collect();
        assert_eq!(readme_rows(), expected);
    }

    #[test]
    fn engine_toml_lists_exactly_these_options_in_order() {
        // Each key follows a comment naming its UCI option in brackets: `# [Hash] ...`.
        let mut listed = Vec::new();
        let mut bracketed = None;
        for line in BUILTIN_CONFIG.lines() {
            if let Some(name) = line.strip_prefix("# [").and_then(|rest| rest.split(']').next()) {
                bracketed = Some(name.to_string());
            } else if let Some((key, _)) = line.split_once(" = ") {
                listed.push((key.to_string(), bracketed.take().unwrap_or_default()));
            }
        }
        let expected: Vec<(String, String)> =
            OPTIONS.iter().filter_map(|spec| Some((spec.key?.to_string(), spec.name.to_string()))).collect();
        assert_eq!(listed, expected);
        let defaults = EngineOptions::from_toml(BUILTIN_CONFIG).unwrap();
        for spec in &OPTIONS {
            if let Some(value) = spec.default.value() {
                assert_eq!(spec.current(&defaults), value, "{}", spec.name);
            }
        }
    }
}

//! Engine options, declared once: `OPTIONS` (`table.rs`) holds each option's UCI name,
//! `engine.toml` key, kind, range, default and a one-line description. Everything else follows from it: the
//! `uci` option lines (`uci::output::handshake`), `setoption` validation (`parse_change`),
//! `engine.toml` loading (`EngineOptions::from_toml`) and the fallback defaults
//! (`EngineOptions::default`); a test checks that the shipped `engine.toml` and the README's
//! options table list exactly these options, in this order, with these defaults (`tests.rs`).
//!
//! Adding an option is one field of `EngineOptions` and one entry in `OPTIONS` (plus its line in
//! `engine.toml` and the README, which the tests hold to the table); an option that does more
//! than record its value names an `Effect`, which the engine (`Engine::apply`) or, for the
//! debug log, the UCI session carries out.
//!
//! `setoption` is all-or-nothing: a value is parsed and range-checked before anything changes,
//! and a rejected one leaves the old value in place with an `OptionError` naming the option,
//! the token and what is accepted.

mod table;

pub use table::OPTIONS;

use std::fmt;

/// The defaults shipped in the repository's `engine.toml`.
pub const BUILTIN_CONFIG: &str = include_str!("../../engine.toml");

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
    pub fn number(&self) -> i64 {
        match self {
            Value::Number(n) => *n,
            _ => 0,
        }
    }

    /// The state of a check value (false for any other kind).
    pub fn flag(&self) -> bool {
        matches!(self, Value::Flag(true))
    }

    /// The text of a string value (empty for any other kind).
    pub fn text(&self) -> &str {
        match self {
            Value::Text(text) => text,
            _ => "",
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
    /// What setting it does beyond recording the value.
    pub effect: Effect,
    /// Records a valid value in the options.
    record: fn(&mut EngineOptions, &Value),
    /// The current value.
    current: fn(&EngineOptions) -> Value,
}

impl OptionSpec {
    /// The option's current value in `options` (`Press` for a button).
    pub fn current(&self, options: &EngineOptions) -> Value {
        (self.current)(options)
    }
}

/// How GUIs write an empty string option's value.
const EMPTY_TEXT: &str = "<empty>";

/// What setting an option does beyond recording its value, and who does it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Nothing: searches read the value when they start.
    None,
    /// The engine replaces the transposition table (`Hash`).
    ResizeTable,
    /// The engine empties the table and the histories (`Clear Hash`).
    ClearTable,
    /// The engine loads the Syzygy tables of the path, off the UCI thread (`SyzygyPath`).
    LoadTables,
    /// The engine loads the net of the file (`EvalFile`).
    LoadNet,
    /// The UCI session opens or closes its log (`Debug Log File`).
    OpenLog,
}

/// A validated `setoption`: the option and its new value, ready to apply.
#[derive(Debug, Clone)]
pub struct OptionChange {
    /// The option.
    pub spec: &'static OptionSpec,
    /// Its new value, of the option's kind and in its range.
    pub value: Value,
}

impl OptionChange {
    /// The option's UCI name.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// What applying it does beyond recording the value.
    pub fn effect(&self) -> Effect {
        self.spec.effect
    }
}

impl PartialEq for OptionChange {
    fn eq(&self, other: &OptionChange) -> bool {
        self.spec.name == other.spec.name && self.value == other.value
    }
}

impl Eq for OptionChange {}

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
                options.apply(&OptionChange { spec, value });
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
            options.apply(&OptionChange { spec, value: parse_value(spec, Some(&token))? });
        }
        Ok(options)
    }

    /// The defaults shipped in the binary.
    pub fn builtin() -> EngineOptions {
        EngineOptions::from_toml(BUILTIN_CONFIG).unwrap_or_default()
    }

    /// Records a validated change (what else it does is the engine's business: `Effect`).
    pub fn apply(&mut self, change: &OptionChange) {
        (change.spec.record)(self, &change.value);
    }
}

/// Validates `setoption name <name> [value <value>]`; names match case-insensitively.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    let spec = OPTIONS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::UnknownOption { name: name.to_string() })?;
    Ok(OptionChange { spec, value: parse_value(spec, value.map(str::trim))? })
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
        OptionKind::Spin { min, max } => parse_spin(spec.name, min, max, value).map(Value::Number),
    }
}

/// Reads `value` as an integer of `option` in `min..=max` (a spin option's value, or a search
/// tunable's in a tuning build).
pub fn parse_spin(option: &'static str, min: i64, max: i64, value: Option<&str>) -> Result<i64, OptionError> {
    let raw = value.unwrap_or("");
    let number: i64 = raw.parse().map_err(|_| OptionError::BadValue {
        option,
        token: raw.to_string(),
        accepted: OptionKind::Spin { min, max },
    })?;
    if !(min..=max).contains(&number) {
        return Err(OptionError::OutOfRange { option, value: number, min, max });
    }
    Ok(number)
}

#[cfg(test)]
mod tests;

//! Engine options: their UCI declarations, their defaults (from `engine.toml`), and the
//! validation of `setoption` values.
//!
//! `setoption` is all-or-nothing: a value is parsed and range-checked before anything changes,
//! and a rejected one leaves the old value in place with an error naming the token.

use crate::strength;
use serde::Deserialize;
use std::fmt;

/// The defaults shipped in the repository's `engine.toml`.
pub const BUILTIN_CONFIG: &str = include_str!("../engine.toml");

/// Values of every engine option.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineOptions {
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: i64,
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
    pub syzygy_probe_depth: i32,
    pub syzygy_probe_limit: usize,
    pub syzygy_50_move_rule: bool,
    /// `EvalFile`: a net file to evaluate with; empty for the one compiled in.
    pub eval_file: String,
}

impl Default for EngineOptions {
    /// Fallback values, identical to the shipped `engine.toml` (a test checks this).
    fn default() -> Self {
        EngineOptions {
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 10,
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: strength::DEFAULT_ELO,
            debug_log_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            syzygy_50_move_rule: true,
            eval_file: String::new(),
        }
    }
}

/// How a UCI option is declared.
#[derive(Debug, Clone, Copy)]
pub enum OptionKind {
    Spin {
        min: i64,
        max: i64,
    },
    Check,
    Button,
    /// A free-form string (`type string`); `<empty>` stands for the empty string.
    Text,
}

/// One UCI option's name and kind.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

pub const HASH: OptionSpec = OptionSpec { name: "Hash", kind: OptionKind::Spin { min: 1, max: 262_144 } };
pub const THREADS: OptionSpec = OptionSpec { name: "Threads", kind: OptionKind::Spin { min: 1, max: 256 } };
pub const MULTIPV: OptionSpec = OptionSpec { name: "MultiPV", kind: OptionKind::Spin { min: 1, max: 256 } };
pub const PONDER: OptionSpec = OptionSpec { name: "Ponder", kind: OptionKind::Check };
pub const MOVE_OVERHEAD: OptionSpec =
    OptionSpec { name: "Move Overhead", kind: OptionKind::Spin { min: 0, max: 5000 } };
pub const CLEAR_HASH: OptionSpec = OptionSpec { name: "Clear Hash", kind: OptionKind::Button };
pub const CHESS960: OptionSpec = OptionSpec { name: "UCI_Chess960", kind: OptionKind::Check };
pub const SHOW_WDL: OptionSpec = OptionSpec { name: "UCI_ShowWDL", kind: OptionKind::Check };
pub const LIMIT_STRENGTH: OptionSpec = OptionSpec { name: "UCI_LimitStrength", kind: OptionKind::Check };
pub const ELO: OptionSpec =
    OptionSpec { name: "UCI_Elo", kind: OptionKind::Spin { min: strength::MIN_ELO, max: strength::MAX_ELO } };
pub const DEBUG_LOG_FILE: OptionSpec = OptionSpec { name: "Debug Log File", kind: OptionKind::Text };
pub const SYZYGY_PATH: OptionSpec = OptionSpec { name: "SyzygyPath", kind: OptionKind::Text };
pub const SYZYGY_PROBE_DEPTH: OptionSpec =
    OptionSpec { name: "SyzygyProbeDepth", kind: OptionKind::Spin { min: 1, max: 100 } };
pub const SYZYGY_PROBE_LIMIT: OptionSpec =
    OptionSpec { name: "SyzygyProbeLimit", kind: OptionKind::Spin { min: 0, max: 7 } };
pub const SYZYGY_50_MOVE_RULE: OptionSpec = OptionSpec { name: "Syzygy50MoveRule", kind: OptionKind::Check };
pub const EVAL_FILE: OptionSpec = OptionSpec { name: "EvalFile", kind: OptionKind::Text };

/// Every option, in the order `uci` lists them.
pub const ALL: [OptionSpec; 16] = [
    HASH,
    THREADS,
    MULTIPV,
    PONDER,
    MOVE_OVERHEAD,
    CLEAR_HASH,
    CHESS960,
    SHOW_WDL,
    LIMIT_STRENGTH,
    ELO,
    DEBUG_LOG_FILE,
    SYZYGY_PATH,
    SYZYGY_PROBE_DEPTH,
    SYZYGY_PROBE_LIMIT,
    SYZYGY_50_MOVE_RULE,
    EVAL_FILE,
];

/// How GUIs write an empty string option's value.
const EMPTY_TEXT: &str = "<empty>";

/// A validated `setoption`, ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Why a `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError(pub String);

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl EngineOptions {
    /// Parses an `engine.toml`; unknown keys and out-of-range values are errors.
    pub fn from_toml(text: &str) -> Result<EngineOptions, String> {
        let options: EngineOptions = toml::from_str(text).map_err(|e| e.to_string())?;
        for (spec, value) in [
            (HASH, options.hash_mib as i64),
            (THREADS, options.threads as i64),
            (MULTIPV, options.multipv as i64),
            (MOVE_OVERHEAD, options.move_overhead_ms),
            (ELO, options.elo),
            (SYZYGY_PROBE_DEPTH, options.syzygy_probe_depth as i64),
            (SYZYGY_PROBE_LIMIT, options.syzygy_probe_limit as i64),
        ] {
            if let OptionKind::Spin { min, max } = spec.kind {
                if !(min..=max).contains(&value) {
                    return Err(format!("{} = {value} is out of range {min}..={max}", spec.name));
                }
            }
        }
        Ok(options)
    }

    /// The defaults shipped in the binary.
    pub fn builtin() -> EngineOptions {
        EngineOptions::from_toml(BUILTIN_CONFIG).unwrap_or_default()
    }

    /// The current value of an option as `uci` prints it as default.
    pub fn value_of(&self, spec: &OptionSpec) -> String {
        match spec.name {
            "Hash" => self.hash_mib.to_string(),
            "Threads" => self.threads.to_string(),
            "MultiPV" => self.multipv.to_string(),
            "Ponder" => self.ponder.to_string(),
            "Move Overhead" => self.move_overhead_ms.to_string(),
            "UCI_Chess960" => self.chess960.to_string(),
            "UCI_ShowWDL" => self.show_wdl.to_string(),
            "UCI_LimitStrength" => self.limit_strength.to_string(),
            "UCI_Elo" => self.elo.to_string(),
            "Debug Log File" if self.debug_log_file.is_empty() => EMPTY_TEXT.to_string(),
            "Debug Log File" => self.debug_log_file.clone(),
            "SyzygyPath" if self.syzygy_path.is_empty() => EMPTY_TEXT.to_string(),
            "SyzygyPath" => self.syzygy_path.clone(),
            "SyzygyProbeDepth" => self.syzygy_probe_depth.to_string(),
            "SyzygyProbeLimit" => self.syzygy_probe_limit.to_string(),
            "Syzygy50MoveRule" => self.syzygy_50_move_rule.to_string(),
            "EvalFile" if self.eval_file.is_empty() => EMPTY_TEXT.to_string(),
            "EvalFile" => self.eval_file.clone(),
            _ => String::new(),
        }
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
    let spec = ALL
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError(format!("unknown option '{name}'")))?;
    Ok(match (spec.name, parse_value(spec, value.map(str::trim))?) {
        ("Hash", Value::Number(n)) => OptionChange::Hash(n as usize),
        ("Threads", Value::Number(n)) => OptionChange::Threads(n as usize),
        ("MultiPV", Value::Number(n)) => OptionChange::MultiPv(n as usize),
        ("Move Overhead", Value::Number(ms)) => OptionChange::MoveOverhead(ms),
        ("SyzygyProbeDepth", Value::Number(depth)) => OptionChange::SyzygyProbeDepth(depth as i32),
        ("SyzygyProbeLimit", Value::Number(pieces)) => OptionChange::SyzygyProbeLimit(pieces as usize),
        ("UCI_Elo", Value::Number(elo)) => OptionChange::Elo(elo),
        ("Ponder", Value::Flag(on)) => OptionChange::Ponder(on),
        ("UCI_Chess960", Value::Flag(on)) => OptionChange::Chess960(on),
        ("UCI_ShowWDL", Value::Flag(on)) => OptionChange::ShowWdl(on),
        ("UCI_LimitStrength", Value::Flag(on)) => OptionChange::LimitStrength(on),
        ("Syzygy50MoveRule", Value::Flag(on)) => OptionChange::Syzygy50MoveRule(on),
        ("Debug Log File", Value::Text(path)) => OptionChange::DebugLogFile(path),
        ("SyzygyPath", Value::Text(path)) => OptionChange::SyzygyPath(path),
        ("EvalFile", Value::Text(path)) => OptionChange::EvalFile(path),
        ("Clear Hash", Value::Press) => OptionChange::ClearHash,
        // Only a declared option missing here reaches this; a test runs every declaration.
        (declared, _) => return Err(OptionError(format!("option '{declared}' is not handled"))),
    })
}

/// A `setoption` value read as its option's kind.
enum Value {
    Press,
    Flag(bool),
    Number(i64),
    Text(String),
}

fn parse_value(spec: &OptionSpec, value: Option<&str>) -> Result<Value, OptionError> {
    match spec.kind {
        OptionKind::Button => Ok(Value::Press),
        OptionKind::Text => {
            let text = value.unwrap_or("");
            Ok(Value::Text(if text == EMPTY_TEXT { String::new() } else { text.to_string() }))
        }
        OptionKind::Check => match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Ok(Value::Flag(true)),
            Some("false") => Ok(Value::Flag(false)),
            other => Err(OptionError(format!(
                "option '{}' needs value true or false, got '{}'",
                spec.name,
                other.unwrap_or("")
            ))),
        },
        OptionKind::Spin { min, max } => {
            let raw = value.unwrap_or("");
            let number: i64 = raw.parse().map_err(|_| {
                OptionError(format!("option '{}' needs an integer {min}..{max}, got '{raw}'", spec.name))
            })?;
            if !(min..=max).contains(&number) {
                return Err(OptionError(format!(
                    "option '{}' value {number} is out of range {min}..{max}",
                    spec.name
                )));
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
        assert!(parse_change("UCI_Elo", Some("1299")).unwrap_err().0.contains("out of range 1300.."));
        assert!(parse_change("UCI_Elo", Some("9999")).unwrap_err().0.contains("'UCI_Elo'"));
        assert_eq!(parse_change("Clear Hash", None), Ok(OptionChange::ClearHash));
        assert_eq!(
            parse_change("debug log file", Some("/tmp/my log.txt")),
            Ok(OptionChange::DebugLogFile("/tmp/my log.txt".into()))
        );
        assert_eq!(
            parse_change("Debug Log File", Some("<empty>")),
            Ok(OptionChange::DebugLogFile(String::new()))
        );
        assert!(parse_change("Hash", Some("0")).unwrap_err().0.contains("out of range"));
        assert!(parse_change("Threads", Some("many")).unwrap_err().0.contains("'many'"));
        assert!(parse_change("Ponder", Some("maybe")).is_err());
        assert!(parse_change("Nonsense", Some("1")).unwrap_err().0.contains("unknown option 'Nonsense'"));
    }

    #[test]
    fn every_declared_option_has_a_handler() {
        for spec in ALL {
            let value = match spec.kind {
                OptionKind::Spin { min, .. } => Some(min.to_string()),
                OptionKind::Check => Some("true".to_string()),
                OptionKind::Text => Some("<empty>".to_string()),
                OptionKind::Button => None,
            };
            assert!(parse_change(spec.name, value.as_deref()).is_ok(), "{} is not handled", spec.name);
        }
    }

    #[test]
    fn config_rejects_unknown_keys_and_bad_ranges() {
        assert!(EngineOptions::from_toml("hash = 3").is_err());
        assert!(EngineOptions::from_toml("threads = 0").is_err());
        assert_eq!(EngineOptions::from_toml("threads = 2").unwrap().threads, 2);
        assert!(EngineOptions::from_toml("elo = 100").is_err());
        assert_eq!(EngineOptions::from_toml("elo = 1500").unwrap().elo, 1500);
    }
}

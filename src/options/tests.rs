//! The option table against its uses: setoption parsing, engine.toml, the README.

use super::*;

#[test]
fn shipped_engine_toml_matches_fallback_defaults() {
    assert_eq!(EngineOptions::from_toml(BUILTIN_CONFIG).unwrap(), EngineOptions::default());
}

/// The option's name and the value of a valid `setoption`.
fn change(name: &str, value: Option<&str>) -> (&'static str, Value) {
    let change = parse_change(name, value).expect("a valid setoption");
    (change.name(), change.value)
}

#[test]
fn parses_and_validates_values() {
    assert_eq!(change("hash", Some("64")), ("Hash", Value::Number(64)));
    assert_eq!(change("Move Overhead", Some("30")), ("Move Overhead", Value::Number(30)));
    assert_eq!(change("UCI_Chess960", Some("TRUE")), ("UCI_Chess960", Value::Flag(true)));
    assert_eq!(change("uci_showwdl", Some("true")), ("UCI_ShowWDL", Value::Flag(true)));
    assert_eq!(change("UCI_LimitStrength", Some("true")), ("UCI_LimitStrength", Value::Flag(true)));
    assert_eq!(change("uci_elo", Some("1300")), ("UCI_Elo", Value::Number(1300)));
    let message = |name, value| parse_change(name, value).unwrap_err().to_string();
    assert!(message("UCI_Elo", Some("1299")).contains("out of range 1300.."));
    assert!(message("UCI_Elo", Some("9999")).contains("'UCI_Elo'"));
    assert_eq!(change("Clear Hash", None), ("Clear Hash", Value::Press));
    assert_eq!(parse_change("Clear Hash", None).map(|c| c.effect()), Ok(Effect::ClearTable));
    assert_eq!(
        change("debug log file", Some("/tmp/my log.txt")),
        ("Debug Log File", Value::Text("/tmp/my log.txt".into()))
    );
    assert_eq!(change("Debug Log File", Some("<empty>")), ("Debug Log File", Value::Text(String::new())));
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
    let readme = include_str!("../../README.md");
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

//! The `FILE.progress` sidecar beside a `patina-learn datagen` data file: how many games, positions
//! and bytes the file holds, and the settings that made them (seed, node limits, extra random
//! plies, book, tablebases).
//!
//! Datagen writes it after every game and reads it back to resume (`datagen/progress.rs`);
//! consumers such as `patina-learn wdl-fit` read it to say how their data was made. It lives here,
//! beside the records, so that neither depends on the other.
//!
//! The text is one `key value` entry a line after a `#` comment; the order does not matter,
//! unknown keys are refused, and the settings that have a default are written only when set.

use std::fmt;
use std::path::{Path, PathBuf};

/// What the sidecar records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// Whole games the data file holds.
    pub games: u64,
    /// Positions (records or text lines) those games take.
    pub positions: u64,
    /// Bytes those games take; anything after them is cut off on resuming.
    pub bytes: u64,
    /// Seed of the openings.
    pub seed: u64,
    /// Nodes searched per move at most (the hard limit).
    pub nodes: u64,
    /// The soft node limit (`--soft-nodes`), if any: no iteration starts after one that
    /// passed it. Written only when set.
    pub soft_nodes: Option<u64>,
    /// Random plies added to every opening (`--random-plies`). Written only when not 0.
    pub random_plies: u32,
    /// Percent of openings from DFRC starts (`--dfrc`). Written only when not 0.
    pub dfrc_percent: u32,
    /// Plies a game that reaches a table position is played on (`--table-playout`), each
    /// position labelled by its own probe. Written only when not 0.
    pub table_playout: u32,
    /// The `--book` argument as given, if any.
    pub book: Option<String>,
    /// The `--syzygy` argument as given, if any.
    pub syzygy: Option<String>,
}

/// Why a sidecar's text could not be read: each names the entry at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SidecarError {
    /// A line whose key is none the sidecar has.
    UnknownEntry(String),
    /// A numeric entry whose value is not an unsigned integer.
    NotANumber {
        /// The entry's key.
        key: String,
        /// The value as written.
        value: String,
    },
    /// A required entry is absent.
    MissingEntry(&'static str),
}

impl fmt::Display for SidecarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SidecarError::UnknownEntry(key) => write!(f, "unknown entry '{key}'"),
            SidecarError::NotANumber { key, value } => write!(f, "'{key}' needs an integer, got '{value}'"),
            SidecarError::MissingEntry(key) => write!(f, "missing entry '{key}'"),
        }
    }
}

impl std::error::Error for SidecarError {}

/// The numeric entries every sidecar has, in the order `Checkpoint` lists them.
const NUMBER_KEYS: [&str; 5] = ["games", "positions", "bytes", "seed", "nodes"];

impl Checkpoint {
    /// How the games are played, for the settings not at their defaults: each as its sidecar
    /// key (also its `patina-learn datagen` flag) and value.
    pub fn play_settings(&self) -> Vec<(&'static str, String)> {
        let counts = [
            ("random-plies", self.random_plies),
            ("dfrc", self.dfrc_percent),
            ("table-playout", self.table_playout),
        ];
        let soft = self.soft_nodes.map(|soft| ("soft-nodes", soft.to_string()));
        let set_counts =
            counts.into_iter().filter(|&(_, count)| count > 0).map(|(key, count)| (key, count.to_string()));
        soft.into_iter().chain(set_counts).collect()
    }

    /// Where the openings and table results come from, for those given: key (and flag) and path.
    pub fn source_settings(&self) -> Vec<(&'static str, String)> {
        [("book", &self.book), ("syzygy", &self.syzygy)]
            .into_iter()
            .filter_map(|(key, path)| path.as_ref().map(|path| (key, path.clone())))
            .collect()
    }

    /// Every optional setting that is set, in the sidecar's order: how the games are played,
    /// then where their openings and table results come from.
    pub fn settings(&self) -> impl Iterator<Item = (&'static str, String)> {
        self.play_settings().into_iter().chain(self.source_settings())
    }

    /// The sidecar's text.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "# patina-learn datagen progress: what the data file beside it holds; do not edit\ngames {}\n\
             positions {}\nbytes {}\nseed {}\nnodes {}\n",
            self.games, self.positions, self.bytes, self.seed, self.nodes
        );
        for (key, value) in self.settings() {
            text.push_str(&format!("{key} {value}\n"));
        }
        text
    }

    /// Reads back what `to_text` wrote.
    pub fn parse(text: &str) -> Result<Checkpoint, SidecarError> {
        let mut values: [Option<u64>; 5] = [None; 5];
        let (mut book, mut syzygy, mut soft_nodes) = (None, None, None);
        let (mut random_plies, mut dfrc_percent, mut table_playout) = (0, 0, 0);
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "soft-nodes" => soft_nodes = Some(number(key, value)?),
                "random-plies" => random_plies = number(key, value)?,
                "dfrc" => dfrc_percent = number(key, value)?,
                "table-playout" => table_playout = number(key, value)?,
                "book" => book = Some(value.trim().to_string()),
                "syzygy" => syzygy = Some(value.trim().to_string()),
                _ => {
                    let slot = NUMBER_KEYS
                        .iter()
                        .position(|&k| k == key)
                        .ok_or_else(|| SidecarError::UnknownEntry(key.to_string()))?;
                    values[slot] = Some(number(key, value)?);
                }
            }
        }
        let get = |slot: usize| values[slot].ok_or(SidecarError::MissingEntry(NUMBER_KEYS[slot]));
        Ok(Checkpoint {
            games: get(0)?,
            positions: get(1)?,
            bytes: get(2)?,
            seed: get(3)?,
            nodes: get(4)?,
            soft_nodes,
            random_plies,
            dfrc_percent,
            table_playout,
            book,
            syzygy,
        })
    }
}

/// The value of the numeric entry `key`.
fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, SidecarError> {
    value
        .trim()
        .parse()
        .map_err(|_| SidecarError::NotANumber { key: key.to_string(), value: value.to_string() })
}

/// `FILE.progress` beside `FILE`.
pub fn sidecar_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// What the sidecar beside the data file `out` records, if it has a readable one: which seed,
/// node budget, book and tablebases made the data (`patina-learn wdl-fit` names them in its output).
pub fn recorded_checkpoint(out: &Path) -> Option<Checkpoint> {
    let text = std::fs::read_to_string(sidecar_path(out)).ok()?;
    Checkpoint::parse(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_text_round_trips() {
        let checkpoint = Checkpoint {
            games: 3,
            positions: 250,
            bytes: 9000,
            seed: 7,
            nodes: 5000,
            soft_nodes: None,
            random_plies: 0,
            dfrc_percent: 0,
            table_playout: 0,
            book: Some("a b.epd".into()),
            syzygy: Some("/tables/345:/tables/6".into()),
        };
        let text = checkpoint.to_text();
        assert!(!text.contains("soft-nodes") && !text.contains("random-plies"), "defaults are not written");
        assert_eq!(Checkpoint::parse(&text).unwrap(), checkpoint);
        assert!(!text.contains("table-playout"), "{text}");
        let deeper = Checkpoint {
            soft_nodes: Some(2000),
            random_plies: 4,
            dfrc_percent: 15,
            table_playout: 60,
            ..checkpoint
        };
        let text = deeper.to_text();
        assert!(text.contains("soft-nodes 2000\n") && text.contains("random-plies 4\n"), "{text}");
        assert!(text.contains("dfrc 15\n") && text.contains("table-playout 60\n"), "{text}");
        assert_eq!(Checkpoint::parse(&text).unwrap(), deeper);
        let error = Checkpoint::parse("random-plies -1\n").unwrap_err();
        assert_eq!(error.to_string(), "'random-plies' needs an integer, got '-1'");
        assert_eq!(Checkpoint::parse("games 1\n").unwrap_err(), SidecarError::MissingEntry("positions"));
        assert!(Checkpoint::parse("games x\n").unwrap_err().to_string().contains("'x'"));
        assert_eq!(Checkpoint::parse("colour blue\n").unwrap_err().to_string(), "unknown entry 'colour'");
    }
}

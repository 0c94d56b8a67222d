//! Which records a reader passes on: the positions whose label means something for the use at
//! hand. A static evaluation learns nothing true from a position in check, one whose best move
//! wins material (the score is the exchange's, not the position's) or a mate score; the first
//! plies after a book line are close to the book's own choices.
//!
//! Written on the command line as a comma list of what to drop: `check`, `noisy` (best move a
//! capture or promotion), `mate`, `early=N` (fewer than N plies after the opening), or `none`.

use super::PackedPosition;
use std::fmt;
use std::str::FromStr;

/// What to drop when reading.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Filter {
    /// Drop records whose side to move is in check (`check`).
    pub drop_in_check: bool,
    /// Drop records whose best move is a capture or promotion (`noisy`).
    pub drop_noisy: bool,
    /// Drop records with a mate score (`mate`).
    pub drop_mates: bool,
    /// Drop records fewer than this many plies after the opening.
    pub min_ply: u8,
}

impl Filter {
    /// Passes everything.
    pub const NONE: Filter =
        Filter { drop_in_check: false, drop_noisy: false, drop_mates: false, min_ply: 0 };
    /// What `patina-learn train` drops unless told otherwise: check, noisy and mate positions.
    pub const TRAINING: Filter =
        Filter { drop_in_check: true, drop_noisy: true, drop_mates: true, min_ply: 0 };

    /// True when `record` survives every drop this filter asks for.
    pub fn accepts(&self, record: &PackedPosition) -> bool {
        !(self.drop_in_check && record.in_check()
            || self.drop_noisy && (record.best_is_capture() || record.best_is_promotion())
            || self.drop_mates && record.is_mate_score()
            || record.ply() < self.min_ply)
    }
}

/// A filter list item that is not one of the accepted ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterError {
    /// A word that names no filter.
    Unknown(String),
    /// `early=N` whose `N` is not a ply count 0..255; the whole item.
    BadPlies(String),
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterError::Unknown(item) => {
                write!(f, "unknown filter '{item}' (accepted: none, check, noisy, mate, early=N)")
            }
            FilterError::BadPlies(item) => {
                write!(f, "filter '{item}': N must be a number of plies from 0 to 255")
            }
        }
    }
}

impl std::error::Error for FilterError {}

impl FromStr for Filter {
    type Err = FilterError;
    fn from_str(text: &str) -> Result<Filter, FilterError> {
        let mut filter = Filter::NONE;
        for item in text.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            match item {
                "none" => {}
                "check" => filter.drop_in_check = true,
                "noisy" => filter.drop_noisy = true,
                "mate" => filter.drop_mates = true,
                _ => {
                    let plies =
                        item.strip_prefix("early=").ok_or_else(|| FilterError::Unknown(item.to_string()))?;
                    filter.min_ply = plies.parse().map_err(|_| FilterError::BadPlies(item.to_string()))?;
                }
            }
        }
        Ok(filter)
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        let named = [(self.drop_in_check, "check"), (self.drop_noisy, "noisy"), (self.drop_mates, "mate")];
        parts.extend(named.iter().filter(|(on, _)| *on).map(|(_, name)| name.to_string()));
        if self.min_ply > 0 {
            parts.push(format!("early={}", self.min_ply));
        }
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_list() {
        let filter: Filter = "check, mate,early=8".parse().unwrap();
        assert_eq!(filter, Filter { drop_in_check: true, drop_noisy: false, drop_mates: true, min_ply: 8 });
        assert_eq!(filter.to_string(), "check,mate,early=8");
        assert_eq!("none".parse::<Filter>().unwrap(), Filter::NONE);
        assert_eq!(Filter::TRAINING.to_string(), "check,noisy,mate");
        assert!("checks".parse::<Filter>().unwrap_err().to_string().contains("unknown filter 'checks'"));
        assert_eq!("early=x".parse::<Filter>(), Err(FilterError::BadPlies("early=x".into())));
    }
}

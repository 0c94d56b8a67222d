//! Patina: a UCI chess engine on shakmaty's move generator.
//!
//! The engine side, bottom up: `position` (shakmaty plus undo, hashing, repetitions), `rules`
//! (game results), `nnue` (the evaluation network), `attacks`, `tt`, `movepick`, `see`, `time` (how
//! long a `go` may think, and the clock it is measured by), `search` (the recipe and Lazy SMP),
//! `engine` (a non-blocking API over the search, owning the option values in force, the table,
//! the Syzygy tables, the net and the long jobs: `engine::bench`, `engine::jobs`,
//! `engine::openings` for `genfens` and datagen), and `uci` (the protocol: parsing, formatting,
//! the loop). Beside them: `options` (every UCI option declared once), `perft`, `tablebase`, `strength`
//! (`UCI_Elo`), `wdl` (scores as win/draw/loss expectations), `rng`, `utc`, `system_memory`
//! (how much RAM a table may take), and `analyze`, the analyst for people.
//!
//! The learning tools (datagen, the trainer, the WDL fitter and the data they share) are the
//! `patina-learn` crate in `learn/`, which stands on this library; nothing here imports it.
//! `main.rs` is a thin clap shell over this crate.

// Every public item says its contract: a new undocumented one is a warning.
#![warn(missing_docs)]

pub mod analyze;
pub mod attacks;
pub mod engine;
pub mod movepick;
pub mod nnue;
pub mod options;
pub mod perft;
pub mod position;
pub mod rng;
pub mod rules;
pub mod search;
pub mod see;
pub mod strength;
pub mod system_memory;
pub mod tablebase;
pub mod time;
pub mod tt;
pub mod uci;
pub mod utc;
pub mod wdl;

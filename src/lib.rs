//! Patina: a UCI chess engine on shakmaty's move generator.
//!
//! Layers, bottom up: `position` (shakmaty plus undo, hashing, repetitions), `rules` (game
//! results), `eval`, `tt`, `movepick`, `time`, `search` (the recipe and Lazy SMP), `engine` (a
//! non-blocking API over the search), `jobs` (the long commands that are not searches, off the
//! UCI thread), and `uci` (the protocol: parsing, formatting, the loop).
//! `memory` tells how much RAM a table may take. `bench` and `perft` serve the CLI and tests;
//! `datagen` plays self-play games for tuning data and generates OpenBench's `genfens` openings;
//! `tune` fits the evaluation weights to that data; `wdl` turns scores into win/draw/loss
//! expectations, with a model `wdl::fit` fits to the same data. `strength` maps `UCI_Elo` to a
//! node budget and a sometimes-imperfect move choice; `rng` is the seeded generator datagen and
//! `strength` draw from; `utc` dates the debug log and generated files. `analyze` is the
//! analyst for people: a position's lines, or every game of a PGN annotated, graphed and
//! summarised.
//! `main.rs` is a thin clap shell over this crate.

// Every public item says its contract: a new undocumented one is a warning.
#![warn(missing_docs)]

pub mod analyze;
pub mod bench;
pub mod data;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod jobs;
pub mod memory;
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
pub mod tablebase;
pub mod time;
pub mod train;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod utc;
pub mod wdl;

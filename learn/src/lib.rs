//! Patina's learning tools: everything that makes or reads training data rather than plays.
//! They stand on the engine's library (`patina`: positions, the search to a node budget, the
//! net's file format, the tables, the WDL model); the engine never depends on this crate.
//!
//! `datagen` plays self-play games into `data`'s 32-byte records, `train` fits a network to
//! them, `wdl_fit` fits the win/draw/loss model, `soup` averages nets of one lineage into one,
//! and `cli` holds the command-line definitions `main.rs` (the `patina-learn` binary) offers.

pub mod cli;
pub mod data;
pub mod datagen;
pub mod soup;
pub mod train;
pub mod wdl_fit;

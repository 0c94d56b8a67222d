//! The learning tools: everything that makes or reads training data rather than plays. The
//! engine side (`engine`, `search`, `uci` and what they stand on) never imports this folder;
//! these tools stand on the engine (they play and search with it).
//!
//! `datagen` plays self-play games into `data`'s 32-byte records, `train` fits a network to
//! them, `tune` fits the hand-written evaluation's weights, `wdl_fit` fits the win/draw/loss
//! model, `soup` averages nets of one lineage into one, and `cli` holds their command-line definitions for `main.rs`.

pub mod cli;
pub mod data;
pub mod datagen;
pub mod soup;
pub mod train;
pub mod tune;
pub mod wdl_fit;

//! Setting an option: `Engine::apply` records a validated `setoption` and does what it takes to
//! put it in force (resize or clear the table, load a net, switch evaluations, start loading
//! Syzygy tables), applied whole or not at all. A table load runs off the caller's thread: the
//! option keeps its old value until the load's `JobEvent::TablesLoaded` is handed back to
//! `tables_loaded`, and `is_settling` says whether one is under way (`isready` waits for it).

use super::jobs::JobError;
use super::{Engine, Tablebases};
use crate::nnue::{self, NetError, Network};
use crate::options::{self, Effect, OptionChange, OptionError};
use crate::search::{SharedParams, Tunable, TUNABLES};
use crate::tt::{AllocationError, TranspositionTable};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A search tunable as `uci` lists it in a tuning build: a spin option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TunableOption {
    /// The option's name.
    pub name: &'static str,
    /// Its value in force.
    pub value: i64,
    /// The smallest value taken.
    pub min: i64,
    /// The largest value taken.
    pub max: i64,
}

/// What applying an option did, for the caller to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// Recorded and in force.
    Done,
    /// The Syzygy tables of the path are loading; the option takes the path once they are in
    /// (`Engine::tables_loaded`).
    LoadingTables,
    /// `SyzygyPath` was emptied: no tables any more.
    TablesDropped,
    /// `EvalFile`: the net with this hash is chosen and plays from the next search.
    NetChosen {
        /// The net's hash.
        hash: u64,
    },
}

/// Why an option could not be put in force; the old value stays.
#[derive(Debug)]
pub enum ApplyError {
    /// The new table could not be allocated.
    Table {
        /// Why.
        error: AllocationError,
        /// The size kept, in MiB.
        kept_mib: usize,
    },
    /// The net file could not be loaded.
    Net(NetError),
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::Table { error, kept_mib } => write!(f, "{error}; keeping {kept_mib} MiB"),
            ApplyError::Net(error) => write!(f, "EvalFile: {error}; the net is unchanged"),
        }
    }
}

impl std::error::Error for ApplyError {}

/// A finished table load, as the engine took it.
#[derive(Debug)]
pub enum TablesInForce {
    /// An older load than the latest `SyzygyPath`: ignored.
    Stale,
    /// The tables are in force: files registered and the largest piece count.
    Loaded {
        /// Table files found.
        files: usize,
        /// The most pieces any table covers.
        max_pieces: usize,
    },
    /// The load failed; the tables in force before stay.
    Failed(JobError),
}

impl Engine {
    /// The search's tunables as `uci` lists them in a `--features tune` build (name, value,
    /// min, max); none in a normal build, so users see a clean option list.
    pub fn tunables(&self) -> Vec<TunableOption> {
        if !cfg!(feature = "tune") {
            return Vec::new();
        }
        let option =
            |t: &Tunable| TunableOption { name: t.name, value: t.get(&self.params), min: t.min, max: t.max };
        TUNABLES.iter().map(option).collect()
    }

    /// `setoption` of a search tunable in a `--features tune` build: `None` when `name` is no
    /// tunable (or this is a normal build), else whether `value` was taken (an integer in the
    /// tunable's range). Searches started afterwards use it.
    pub fn set_tunable(&mut self, name: &str, value: Option<&str>) -> Option<Result<(), OptionError>> {
        if !cfg!(feature = "tune") {
            return None;
        }
        let tunable = Tunable::named(name)?;
        let value = match options::parse_spin(tunable.name, tunable.min, tunable.max, value.map(str::trim)) {
            Ok(value) => value,
            Err(error) => return Some(Err(error)),
        };
        let mut params = (*self.params.0).clone();
        tunable.set_in(&mut params, value);
        self.params = SharedParams(Arc::new(params));
        Some(Ok(()))
    }

    /// Puts `change` in force (see the module comment). A running search is stopped and waited
    /// for before the table is replaced; other settings reach the next search.
    pub fn apply(&mut self, change: &OptionChange) -> Result<Applied, ApplyError> {
        let applied = match change.effect() {
            Effect::None | Effect::OpenLog => Applied::Done,
            Effect::ResizeTable => {
                let mib = change.value.number() as usize;
                self.stop();
                self.wait();
                let kept_mib = self.options.hash_mib;
                let table =
                    TranspositionTable::new(mib).map_err(|error| ApplyError::Table { error, kept_mib })?;
                self.tt = Arc::new(table);
                Applied::Done
            }
            Effect::ClearTable => {
                self.clear_hash();
                Applied::Done
            }
            Effect::LoadTables => {
                let path = change.value.text();
                if !path.is_empty() {
                    // Opening every file takes a while on a large set: the caller keeps
                    // answering, and the option takes the path once the tables are in.
                    self.jobs.load_tables(path.to_string());
                    return Ok(Applied::LoadingTables);
                }
                self.jobs.forget_tables();
                self.tablebases = None;
                Applied::TablesDropped
            }
            Effect::LoadNet => {
                let net = match change.value.text() {
                    "" => nnue::default_network(),
                    path => Arc::new(Network::load(Path::new(path)).map_err(ApplyError::Net)?),
                };
                let hash = net.hash();
                self.net = net;
                Applied::NetChosen { hash }
            }
        };
        self.options.apply(change);
        Ok(applied)
    }

    /// A table load has ended (its `JobEvent::TablesLoaded`): the latest load's tables replace
    /// the old ones and `SyzygyPath` takes its path; an older load's result is dropped.
    pub fn tables_loaded(
        &mut self,
        generation: u64,
        path: String,
        result: Result<Tablebases, JobError>,
    ) -> TablesInForce {
        if !self.jobs.tables_loaded(generation) {
            return TablesInForce::Stale;
        }
        match result {
            Ok(tables) => {
                let loaded = TablesInForce::Loaded { files: tables.files(), max_pieces: tables.max_pieces() };
                self.tablebases = Some(Arc::new(tables));
                self.options.syzygy_path = path;
                loaded
            }
            Err(error) => TablesInForce::Failed(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::EngineOptions;

    #[test]
    fn tunables_are_options_only_in_a_tuning_build() {
        let (mut engine, _channels) = Engine::new(EngineOptions::default()).expect("an engine");
        let taken = engine.set_tunable("RFP_MARGIN", Some("100"));
        if cfg!(feature = "tune") {
            assert!(matches!(taken, Some(Ok(()))));
            assert_eq!(engine.params.rfp_margin, 100);
            assert!(matches!(
                engine.set_tunable("rfp_margin", Some("5")),
                Some(Err(OptionError::OutOfRange { .. }))
            ));
            assert!(matches!(
                engine.set_tunable("RFP_MARGIN", Some("x")),
                Some(Err(OptionError::BadValue { .. }))
            ));
            assert_eq!(engine.params.rfp_margin, 100, "a refused value changes nothing");
            assert_eq!(engine.tunables().len(), TUNABLES.len());
        } else {
            assert!(taken.is_none());
            assert!(engine.tunables().is_empty());
        }
    }
}

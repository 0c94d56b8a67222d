//! The session's long commands (`bench`, `go perft`, `genfens`) and Syzygy table loads: started
//! off the UCI thread through `Jobs`, one at a time, their events printed as they come.

use super::{Flow, Session};
use crate::engine::{Job, JobEvent, Tablebases};
use crate::options::OptionChange;
use crate::uci::command::GenfensParams;
use std::io::Write;
use std::sync::Arc;

impl<W: Write> Session<W> {
    /// OpenBench's `genfens`: one `info string genfens <FEN>` line per opening, printed as each
    /// is found (the client waits on every line).
    pub(super) fn genfens(&mut self, params: GenfensParams) {
        let GenfensParams { count, seed, book } = params;
        self.start_job(Job::Genfens { count, seed, book, chess960: self.options.chess960 });
    }

    /// Runs a long command off this thread, after ending whatever search or job was running
    /// (one long task at a time, as one search at a time).
    pub(super) fn start_job(&mut self, job: Job) {
        self.settle_search();
        self.end_job();
        if let Job::Perft { pos, .. } = &job {
            self.job_mode = pos.castling_mode();
        }
        self.jobs.start(job);
    }

    /// Stops the running job, if any, and prints what it has before going on.
    pub(super) fn end_job(&mut self) {
        if !self.jobs.is_running() {
            return;
        }
        self.jobs.stop();
        while self.jobs.is_running() {
            match self.job_events.recv() {
                Ok(event) => {
                    self.handle_job_event(event);
                }
                Err(_) => break,
            }
        }
    }

    /// Whether a job or a table load is under way (a script waits for them between lines).
    pub fn is_busy(&self) -> bool {
        self.jobs.is_running() || self.jobs.is_loading_tables()
    }

    /// A job reported: print it.
    pub fn handle_job_event(&mut self, event: JobEvent) -> Flow {
        if event.is_end() {
            self.jobs.ended();
        }
        match event {
            JobEvent::PerftMove { mv, nodes } => {
                let line = format!("{}: {nodes}", mv.to_uci(self.job_mode));
                self.say(&line);
            }
            JobEvent::PerftDone { nodes, elapsed, counted, root_moves, complete } => {
                if complete {
                    self.say(&format!("\nNodes searched: {nodes}"));
                } else {
                    self.say(&format!(
                        "info string perft stopped: {counted} of {root_moves} root moves counted, \
                         {nodes} nodes; the count is incomplete"
                    ));
                }
                if self.debug {
                    let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
                    self.say(&format!("info string perft {} ms {nps} nps", elapsed.as_millis()));
                }
            }
            JobEvent::BenchDone(Some(result)) => {
                self.say(&format!("{} nodes {} nps", result.nodes, result.nps()));
            }
            JobEvent::BenchDone(None) => self.say("info string bench stopped; no node count"),
            JobEvent::Genfen(fen) => self.say(&format!("info string genfens {fen}")),
            JobEvent::GenfensDone { emitted, requested, error } => match error {
                Some(error) => self.error(&format!("genfens: {error}")),
                None if emitted < requested => {
                    self.say(&format!("info string genfens stopped after {emitted} of {requested} openings"))
                }
                None => {}
            },
            JobEvent::TablesLoaded { generation, path, result } => {
                if self.jobs.tables_loaded(generation) {
                    self.tables_loaded(path, result);
                }
            }
        }
        self.flow()
    }

    /// The latest `SyzygyPath` load has ended: the new tables replace the old, or the old stay.
    pub(super) fn tables_loaded(&mut self, path: String, result: Result<Tablebases, String>) {
        match result {
            Ok(tables) => {
                let line = format!(
                    "info string SyzygyPath: {} table files, up to {} pieces",
                    tables.files(),
                    tables.max_pieces()
                );
                self.tablebases = Some(Arc::new(tables));
                self.options.apply(&OptionChange::SyzygyPath(path));
                self.say(&line);
            }
            Err(error) => self.error(&format!("SyzygyPath: {error}; tables unchanged")),
        }
    }
}

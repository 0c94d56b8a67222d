//! The session's long commands (`bench`, `go perft`, `genfens`) and Syzygy table loads: started
//! off the UCI thread through `Jobs`, one at a time, their events printed as they come.

use super::{output, Flow, Session};
use crate::engine::{BenchEnd, Job, JobEvent, TablesInForce};
use crate::uci::command::GenfensParams;
use std::io::Write;

impl<W: Write> Session<W> {
    /// OpenBench's `genfens`: one `info string genfens <FEN>` line per opening, printed as each
    /// is found (the client waits on every line).
    pub(super) fn genfens(&mut self, params: GenfensParams) {
        let GenfensParams { count, seed, book } = params;
        self.start_job(Job::Genfens { count, seed, book, chess960: self.engine.options().chess960 });
    }

    /// Runs a long command off this thread, after ending whatever search or job was running
    /// (one long task at a time, as one search at a time).
    pub(super) fn start_job(&mut self, job: Job) {
        self.settle_search();
        self.end_job();
        if let Job::Perft { pos, .. } = &job {
            self.job_mode = pos.castling_mode();
        }
        self.engine.start_job(job);
    }

    /// Stops the running job, if any, and prints what it has before going on.
    pub(super) fn end_job(&mut self) {
        if !self.engine.is_job_running() {
            return;
        }
        self.engine.stop_job();
        while self.engine.is_job_running() {
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
        self.engine.is_job_running() || self.engine.is_settling()
    }

    /// A job reported: print it.
    pub fn handle_job_event(&mut self, event: JobEvent) -> Flow {
        if event.is_end() {
            self.engine.job_ended();
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
                    let root_moves = output::counted(root_moves as u64, "root move", "root moves");
                    self.say(&format!(
                        "info string perft stopped: {counted} of {root_moves} counted, {nodes} nodes; \
                         the count is incomplete"
                    ));
                }
                if self.debug {
                    let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
                    self.say(&format!("info string perft {} ms {nps} nps", elapsed.as_millis()));
                }
            }
            JobEvent::BenchDone(Ok(result)) => {
                self.say(&format!("{} nodes {} nps", result.nodes, result.nps()));
            }
            JobEvent::BenchDone(Err(BenchEnd::Stopped)) => {
                self.say("info string bench stopped; no node count")
            }
            JobEvent::BenchDone(Err(BenchEnd::Failed(error))) => self.error(&format!("bench: {error}")),
            JobEvent::Genfen(fen) => self.say(&format!("info string genfens {fen}")),
            JobEvent::GenfensDone { emitted, requested, error } => match error {
                Some(error) => self.error(&format!("genfens: {error}")),
                None if emitted < requested => {
                    let requested = output::counted(requested, "opening", "openings");
                    self.say(&format!("info string genfens stopped after {emitted} of {requested}"))
                }
                None => {}
            },
            JobEvent::TablesLoaded { generation, path, result } => {
                match self.engine.tables_loaded(generation, path, result) {
                    TablesInForce::Stale => {}
                    TablesInForce::Loaded { files, max_pieces } => self.say(&format!(
                        "info string SyzygyPath: {}, up to {max_pieces} pieces",
                        output::counted(files as u64, "table file", "table files")
                    )),
                    TablesInForce::Failed(error) => {
                        self.error(&format!("SyzygyPath: {error}; tables unchanged"))
                    }
                }
                self.answer_owed_readyok();
            }
        }
        self.flow()
    }
}

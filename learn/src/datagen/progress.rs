//! The output file and its `FILE.progress` sidecar, which make a run resumable and crash-safe.
//!
//! The data file holds nothing but data lines. The sidecar (its text: `learn::data::sidecar`)
//! records how many games the file holds,
//! how many bytes and positions they take, and the settings that produced them (seed, nodes,
//! book, tablebases). Each finished game is appended with a single write, synced, and only then
//! recorded in the sidecar (written to `FILE.progress.tmp` and renamed over the old one, so it is
//! never half written). On start the data file is cut back to the recorded length, which drops anything an
//! interrupted run wrote after its last recorded game, and the run continues with the next game
//! index. Since game `i` depends only on `(seed, i)`, the resumed file is byte-identical to one
//! written in a single run.

use super::{DatagenError, DatagenRequest, DEFAULT_NODES, HARD_NODES_PER_SOFT};
use crate::data::{sidecar_path, Checkpoint};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The data file, open for appending, and its checkpoint.
pub struct Output {
    file: File,
    out: PathBuf,
    sidecar: PathBuf,
    checkpoint: Checkpoint,
}

fn io_error<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(std::io::Error) -> DatagenError + 'a {
    move |error| DatagenError::Io { path: path.to_path_buf(), action, error }
}

impl Output {
    /// Opens (or creates) the request's output, reconciles it with its sidecar and cuts off any
    /// unrecorded tail. The checkpoint says where the run continues.
    pub fn open(request: &DatagenRequest) -> Result<Output, DatagenError> {
        let out = request.out.clone();
        let sidecar = sidecar_path(&out);
        let stored = match std::fs::read_to_string(&sidecar) {
            Ok(text) => Some(
                Checkpoint::parse(&text)
                    .map_err(|reason| DatagenError::Progress { path: sidecar.clone(), reason })?,
            ),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(io_error(&sidecar, "read the progress file")(error)),
        };
        let file = OpenOptions::new().create(true).append(true).open(&out).map_err(io_error(&out, "open"))?;
        let length = file.metadata().map_err(io_error(&out, "inspect"))?.len();
        let checkpoint = resolve(request, stored, length, &sidecar)?;
        if length > checkpoint.bytes {
            file.set_len(checkpoint.bytes).map_err(io_error(&out, "cut the unfinished tail off"))?;
        }
        let output = Output { file, out, sidecar, checkpoint };
        output.save_checkpoint()?;
        Ok(output)
    }

    pub fn checkpoint(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// Appends one whole game (`positions` lines or records in `bytes`) and records it in the
    /// sidecar.
    pub fn append_game(&mut self, bytes: &[u8], positions: u64) -> Result<(), DatagenError> {
        self.file.write_all(bytes).map_err(io_error(&self.out, "write"))?;
        self.file.flush().map_err(io_error(&self.out, "write"))?;
        self.file.sync_data().map_err(io_error(&self.out, "sync"))?;
        self.checkpoint.games += 1;
        self.checkpoint.positions += positions;
        self.checkpoint.bytes += bytes.len() as u64;
        self.save_checkpoint()
    }

    fn save_checkpoint(&self) -> Result<(), DatagenError> {
        let mut temporary = self.sidecar.clone().into_os_string();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, self.checkpoint.to_text())
            .map_err(io_error(&temporary, "write the progress file"))?;
        std::fs::rename(&temporary, &self.sidecar)
            .map_err(io_error(&self.sidecar, "replace the progress file"))
    }
}

/// The checkpoint to continue from: the stored one if the given settings agree with it, else a
/// fresh one (refused when the file already holds data nobody recorded).
fn resolve(
    request: &DatagenRequest,
    stored: Option<Checkpoint>,
    length: u64,
    sidecar: &Path,
) -> Result<Checkpoint, DatagenError> {
    let given_book = request.book.as_ref().map(|path| path.to_string_lossy().into_owned());
    // The given settings, else those of `defaults`; the counts start at 0.
    let fresh = |defaults: Checkpoint| {
        let hard_for_soft = request.soft_nodes.map(|soft| soft.saturating_mul(HARD_NODES_PER_SOFT));
        Checkpoint {
            games: 0,
            positions: 0,
            bytes: 0,
            seed: request.seed.unwrap_or(defaults.seed),
            nodes: request.nodes.or(hard_for_soft).unwrap_or(defaults.nodes),
            soft_nodes: request.soft_nodes.or(defaults.soft_nodes),
            random_plies: request.random_plies.unwrap_or(defaults.random_plies),
            dfrc_percent: request.dfrc_percent.unwrap_or(defaults.dfrc_percent),
            table_playout: request.table_playout.unwrap_or(defaults.table_playout),
            book: given_book.clone().or(defaults.book),
            syzygy: request.syzygy.clone().or(defaults.syzygy),
        }
    };
    let checkpoint = match stored {
        None if length > 0 => return Err(DatagenError::UnrecordedData(request.out.clone())),
        None => fresh(new_run_defaults()),
        // No game recorded yet: nothing to protect, so the given settings win, and whatever the
        // file holds is a torn first game.
        Some(stored) if stored.games == 0 => fresh(stored),
        Some(stored) => agree(request, given_book, stored, length, sidecar)?,
    };
    if checkpoint.table_playout > 0 && checkpoint.syzygy.is_none() {
        return Err(DatagenError::PlayoutWithoutTables(checkpoint.table_playout));
    }
    match checkpoint.soft_nodes {
        Some(soft_nodes) if soft_nodes > checkpoint.nodes => {
            Err(DatagenError::SoftAboveHard { soft_nodes, nodes: checkpoint.nodes })
        }
        _ => Ok(checkpoint),
    }
}

/// The settings of a new run that gives none: a seed from the clock, `DEFAULT_NODES`, no soft
/// limit, no extra random plies, no book, no tables.
fn new_run_defaults() -> Checkpoint {
    Checkpoint {
        games: 0,
        positions: 0,
        bytes: 0,
        seed: clock_seed(),
        nodes: DEFAULT_NODES,
        soft_nodes: None,
        random_plies: 0,
        dfrc_percent: 0,
        table_playout: 0,
        book: None,
        syzygy: None,
    }
}

/// The stored checkpoint, if every given setting matches it and the file is long enough.
fn agree(
    request: &DatagenRequest,
    given_book: Option<String>,
    stored: Checkpoint,
    length: u64,
    sidecar: &Path,
) -> Result<Checkpoint, DatagenError> {
    let shown = |value: Option<u64>| value.map(|value| value.to_string());
    // (setting, what the sidecar records, what was given), `None` for none.
    let settings = [
        ("seed", shown(Some(stored.seed)), shown(request.seed)),
        ("nodes", shown(Some(stored.nodes)), shown(request.nodes)),
        ("soft-nodes", shown(stored.soft_nodes), shown(request.soft_nodes)),
        ("random-plies", shown(Some(stored.random_plies.into())), shown(request.random_plies.map(u64::from))),
        ("dfrc", shown(Some(stored.dfrc_percent.into())), shown(request.dfrc_percent.map(u64::from))),
        (
            "table-playout",
            shown(Some(stored.table_playout.into())),
            shown(request.table_playout.map(u64::from)),
        ),
        ("book", stored.book.clone(), given_book),
        ("syzygy", stored.syzygy.clone(), request.syzygy.clone()),
    ];
    for (field, recorded, given) in settings {
        match given {
            Some(given) if Some(&given) != recorded.as_ref() => {
                return Err(DatagenError::Mismatch {
                    path: sidecar.to_path_buf(),
                    field,
                    stored: recorded.unwrap_or_else(|| "none".into()),
                    given,
                })
            }
            _ => {}
        }
    }
    if length < stored.bytes {
        return Err(DatagenError::ShortData {
            sidecar: sidecar.to_path_buf(),
            recorded: stored.bytes,
            out: request.out.clone(),
            length,
        });
    }
    Ok(stored)
}

/// A seed for a run that names none: the clock's nanoseconds, recorded in the sidecar.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |elapsed| elapsed.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh, empty folder of its own for the test named `tag`.
    fn empty_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("patina-progress-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn request(out: &Path, seed: Option<u64>) -> DatagenRequest {
        DatagenRequest {
            out: out.to_path_buf(),
            games: 4,
            threads: 1,
            seed,
            nodes: Some(100),
            soft_nodes: None,
            random_plies: None,
            dfrc_percent: None,
            table_playout: None,
            book: None,
            syzygy: None,
        }
    }

    #[test]
    fn resume_checks_settings_and_cuts_the_tail() {
        let dir = empty_dir("resume");
        let out = dir.join("data.txt");
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(sidecar_path(&out));

        let mut output = Output::open(&request(&out, Some(7))).unwrap();
        output.append_game(b"a | 1 | 0.5\n", 1).unwrap();
        drop(output);
        std::fs::OpenOptions::new().append(true).open(&out).unwrap().write_all(b"half a li").unwrap();

        let error = Output::open(&request(&out, Some(8))).err().unwrap().to_string();
        assert!(error.contains("seed") && error.contains("'7'") && error.contains("'8'"), "{error}");
        let with_tables = DatagenRequest { syzygy: Some("/tables".into()), ..request(&out, None) };
        let error = Output::open(&with_tables).err().unwrap().to_string();
        assert!(
            error.contains("syzygy") && error.contains("'none'") && error.contains("'/tables'"),
            "{error}"
        );
        let output = Output::open(&request(&out, None)).unwrap();
        assert_eq!((output.checkpoint().games, output.checkpoint().seed), (1, 7));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "a | 1 | 0.5\n");

        std::fs::remove_file(sidecar_path(&out)).unwrap();
        let error = Output::open(&request(&out, Some(7))).err().unwrap().to_string();
        assert!(error.contains("progress"), "{error}");

        // Killed during its first game: the torn tail goes, and other settings are welcome.
        std::fs::write(&out, "").unwrap();
        drop(Output::open(&request(&out, Some(7))).unwrap());
        std::fs::write(&out, "torn").unwrap();
        let output = Output::open(&request(&out, Some(8))).unwrap();
        assert_eq!((output.checkpoint().games, output.checkpoint().seed), (0, 8));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn resume_keeps_the_soft_limit_and_the_random_plies() {
        let dir = empty_dir("soft");
        let out = dir.join("data.bin");
        let deeper = |soft_nodes, random_plies| DatagenRequest {
            nodes: None,
            soft_nodes,
            random_plies,
            ..request(&out, Some(7))
        };
        let mut output = Output::open(&deeper(Some(50), Some(3))).unwrap();
        let made = output.checkpoint().clone();
        assert_eq!((made.nodes, made.soft_nodes, made.random_plies), (400, Some(50), 3), "hard = 8 x soft");
        output.append_game(&[0; 32], 1).unwrap();
        drop(output);
        let sidecar = std::fs::read_to_string(sidecar_path(&out)).unwrap();
        assert!(sidecar.contains("soft-nodes 50\n") && sidecar.contains("random-plies 3\n"), "{sidecar}");

        // Left out, they come back from the sidecar; given, they must agree with it.
        let resumed = Output::open(&deeper(None, None)).unwrap();
        assert_eq!(resumed.checkpoint(), &Checkpoint { games: 1, positions: 1, bytes: 32, ..made });
        drop(resumed);
        assert!(Output::open(&DatagenRequest { nodes: Some(400), ..deeper(Some(50), Some(3)) }).is_ok());
        let error = Output::open(&deeper(Some(60), None)).err().unwrap().to_string();
        assert!(error.contains("records soft-nodes '50' but '60' was given"), "{error}");
        let error = Output::open(&deeper(None, Some(0))).err().unwrap().to_string();
        assert!(error.contains("records random-plies '3' but '0' was given"), "{error}");
        let error = Output::open(&DatagenRequest { dfrc_percent: Some(10), ..deeper(None, None) })
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("records dfrc '0' but '10' was given"), "{error}");

        // A run made without them refuses them too.
        let plain = dir.join("plain.bin");
        let mut output = Output::open(&request(&plain, Some(7))).unwrap();
        output.append_game(&[0; 32], 1).unwrap();
        drop(output);
        let error = Output::open(&DatagenRequest { soft_nodes: Some(50), ..request(&plain, None) })
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("records soft-nodes 'none' but '50' was given"), "{error}");

        // A soft limit above the hard one could never end a search.
        let fresh = dir.join("fresh.bin");
        let error = Output::open(&DatagenRequest { soft_nodes: Some(500), ..request(&fresh, Some(7)) })
            .err()
            .unwrap();
        assert!(matches!(error, DatagenError::SoftAboveHard { soft_nodes: 500, nodes: 100 }), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_table_playout_needs_tables_and_is_kept_on_resume() {
        let dir = empty_dir("playout");
        let out = dir.join("data.bin");
        let playout = |plies| DatagenRequest { table_playout: plies, ..request(&out, Some(7)) };
        let error = Output::open(&playout(Some(40))).err().unwrap();
        assert!(matches!(error, DatagenError::PlayoutWithoutTables(40)), "{error}");
        assert!(error.to_string().contains("--syzygy"), "{error}");
        assert!(!sidecar_path(&out).exists(), "a refused run writes no sidecar");

        let with_tables = |plies| DatagenRequest { syzygy: Some("/tables".into()), ..playout(plies) };
        let mut output = Output::open(&with_tables(Some(40))).unwrap();
        output.append_game(&[0; 32], 1).unwrap();
        drop(output);
        let sidecar = std::fs::read_to_string(sidecar_path(&out)).unwrap();
        assert!(sidecar.contains("table-playout 40\n"), "{sidecar}");
        assert_eq!(Output::open(&with_tables(None)).unwrap().checkpoint().table_playout, 40);
        let error = Output::open(&with_tables(Some(0))).err().unwrap().to_string();
        assert!(error.contains("records table-playout '40' but '0' was given"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

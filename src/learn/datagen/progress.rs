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

use super::{DatagenError, DatagenRequest, DEFAULT_NODES};
use crate::learn::data::{sidecar_path, Checkpoint};
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
    let fresh = |seed: u64, nodes: u64, book: Option<String>, syzygy: Option<String>| Checkpoint {
        games: 0,
        positions: 0,
        bytes: 0,
        seed: request.seed.unwrap_or(seed),
        nodes: request.nodes.unwrap_or(nodes),
        book: given_book.clone().or(book),
        syzygy: request.syzygy.clone().or(syzygy),
    };
    match stored {
        None if length > 0 => Err(DatagenError::UnrecordedData(request.out.clone())),
        None => Ok(fresh(clock_seed(), DEFAULT_NODES, None, None)),
        // No game recorded yet: nothing to protect, so the given settings win, and whatever the
        // file holds is a torn first game.
        Some(stored) if stored.games == 0 => Ok(fresh(stored.seed, stored.nodes, stored.book, stored.syzygy)),
        Some(stored) => agree(request, given_book, stored, length, sidecar),
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
    let mismatch = |field: &'static str, stored: String, given: String| DatagenError::Mismatch {
        path: sidecar.to_path_buf(),
        field,
        stored,
        given,
    };
    match (request.seed, request.nodes, given_book, &request.syzygy) {
        (Some(seed), _, _, _) if seed != stored.seed => {
            Err(mismatch("seed", stored.seed.to_string(), seed.to_string()))
        }
        (_, Some(nodes), _, _) if nodes != stored.nodes => {
            Err(mismatch("nodes", stored.nodes.to_string(), nodes.to_string()))
        }
        (_, _, Some(book), _) if Some(&book) != stored.book.as_ref() => {
            Err(mismatch("book", stored.book.clone().unwrap_or_else(|| "none".into()), book))
        }
        (_, _, _, Some(syzygy)) if Some(syzygy) != stored.syzygy.as_ref() => {
            Err(mismatch("syzygy", stored.syzygy.clone().unwrap_or_else(|| "none".into()), syzygy.clone()))
        }
        _ if length < stored.bytes => Err(DatagenError::ShortData {
            sidecar: sidecar.to_path_buf(),
            recorded: stored.bytes,
            out: request.out.clone(),
            length,
        }),
        _ => Ok(stored),
    }
}

/// A seed for a run that names none: the clock's nanoseconds, recorded in the sidecar.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |elapsed| elapsed.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(out: &Path, seed: Option<u64>) -> DatagenRequest {
        DatagenRequest {
            out: out.to_path_buf(),
            games: 4,
            threads: 1,
            seed,
            nodes: Some(100),
            book: None,
            syzygy: None,
        }
    }

    #[test]
    fn resume_checks_settings_and_cuts_the_tail() {
        let dir = std::env::temp_dir().join(format!("patina-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
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
}

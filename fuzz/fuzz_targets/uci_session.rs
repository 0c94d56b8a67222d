//! Whole UCI sessions against the real engine loop (`patina::uci::run`).
//!
//! The fuzz input is decoded into a script of commands (real ones with small, mostly sensible
//! parameters, plus raw garbage lines), each followed by `isready`, ending with `ucinewgame` and
//! `isready` (which settle any search still running) and then end of input. A model of the
//! session, fed the same lines through the engine's own parser, predicts how many `readyok`
//! and `bestmove` lines must come back and what each `bestmove` may be:
//!
//! * one `readyok` per `isready`;
//! * one `bestmove` per `go`, in order, except a `go ponder` abandoned by a later `position` or
//!   `go` before any `stop`/`ponderhit` (see `abandon_ponder` in src/uci/session.rs), and
//!   `go perft`, which prints counts instead;
//! * `bestmove 0000` when there is no valid position or the `go` is malformed, `bestmove (none)`
//!   on checkmate/stalemate, else a legal move (and a legal ponder move after it) written in
//!   the position's castling convention.
//!
//! An input starting with `#uci\n` is instead read as a literal session, one command a line
//! (`#sleep N` pauses N ms); the seeds in fuzz/seeds/uci_session/ use that form.
//!
//! With `PATINA_FUZZ_PRINT=1` in the environment the script is printed to stderr first (in the
//! text-mode form), which turns a crash into a plain UCI session for a regression test.
//!
//! Lines that would make an iteration slow or touch the machine are left out of the script:
//! `bench`, `genfens`, `quit`, `go perft` deeper than 2, `Hash` over 64 MiB, `Threads` over 8,
//! and `Debug Log File` with any value but `/dev/null`, `<empty>` or an unopenable path.
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use patina::options::{self, Effect, EngineOptions};
use patina::position::Position;
use patina::rules::{self, Reason};
use patina::uci::command::{self, Command, PositionStart};
use shakmaty::CastlingMode;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};
use std::rc::Rc;
use std::time::Duration;

/// Standard-chess FENs: openings, tactics, and positions at the edges of the rules.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // En passant square set but the capture is illegal (pinned pawn).
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
    // Checkmated, stalemated, and mate in one.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    // Fifty- and seventy-five-move counters at the edge.
    "8/8/4k3/8/8/4K3/4R3/8 w - - 99 120",
    "8/8/4k3/8/8/4K3/4R3/8 b - - 149 150",
    "8/8/4k3/8/8/4K3/4R3/8 w - - 150 150",
    // Dead and insufficient material.
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    "8/8/4k3/8/8/4K3/4N3/8 b - - 0 1",
    "8/8/4kb2/8/8/4KB2/8/8 w - - 0 1",
    // Promotions everywhere.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    // Only kings and pawns (no null move), deep checks.
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "r1bqkbnr/pppp1Qpp/2n5/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
];

/// Chess960 positions (Shredder-FEN castling).
const FENS_960: &[&str] = &[
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
    "rkrnbnqb/pppppppp/8/8/8/8/PPPPPPPP/RKRNBNQB w CAca - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
];

/// Move-ish tokens that are interesting whatever the position.
const ODD_MOVES: &[&str] = &[
    "0000", "e1g1", "e1h1", "e1c1", "e1a1", "e8g8", "e8h8", "e8c8", "e8a8", "a7a8q", "a7a8n", "b7b8k",
    "b7b8p", "e2e4", "E2E4", "e2e4q", "e2e9", "i1a1", "e2", "e2e4e5", "P@e4", "O-O", "Nf3", "--",
];

/// One script step: a line for the engine, or a pause before the next one.
enum Item {
    Line(Vec<u8>),
    Sleep(u64),
}

/// The engine's input: the script's lines, pausing where it says so (so searches get time).
struct Script {
    items: VecDeque<Item>,
    current: Vec<u8>,
    offset: usize,
}

impl Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Script {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.offset >= self.current.len() {
            match self.items.pop_front() {
                None => return Ok(&[]),
                Some(Item::Sleep(ms)) => std::thread::sleep(Duration::from_millis(ms)),
                Some(Item::Line(line)) => {
                    self.current = line;
                    self.offset = 0;
                }
            }
        }
        Ok(&self.current[self.offset..])
    }
    fn consume(&mut self, amount: usize) {
        self.offset += amount;
    }
}

/// The engine's output, readable after `run` returns.
#[derive(Clone, Default)]
struct Output(Rc<RefCell<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What one `go` must be answered with.
#[derive(Clone)]
enum Expect {
    /// `bestmove 0000`: no valid position, or a malformed `go`.
    Null,
    /// `bestmove (none)`: checkmate or stalemate.
    NoMove,
    /// A legal move in this position.
    Legal(Position),
}

/// The session as the engine should see it, fed the same lines.
struct Model {
    position: Option<Position>,
    chess960: bool,
    isready: usize,
    answers: Vec<Expect>,
    /// The last `go` was `go ponder` and has had no `stop`/`ponderhit` or settling command
    /// since: a new `position` or `go` drops it without a `bestmove`.
    ponder_pending: bool,
    gos: usize,
}

fn startpos(chess960: bool) -> Position {
    Position::startpos(if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard })
}

fn first_token(line: &str) -> Option<&str> {
    line.split_whitespace().next()
}

impl Model {
    fn new(options: &EngineOptions) -> Model {
        Model {
            position: Some(startpos(options.chess960)), chess960: options.chess960, isready: 0, answers: Vec::new(), ponder_pending: false, gos: 0 }
    }

    /// Lines the script must not send (see the module comment).
    fn refuses(line: &str) -> bool {
        match command::parse(line) {
            Ok(Command::Bench(_) | Command::Genfens(_) | Command::Quit) => true,
            Ok(Command::Go(params)) => {
                params.perft.is_some_and(|depth| depth > 2)
            }
            Ok(Command::SetOption { name, value }) => {
                if name.eq_ignore_ascii_case("debug log file") {
                    let value = value.as_deref().map(str::trim).unwrap_or("");
                    return !matches!(value, "/dev/null" | "<empty>" | "/nonexistent-patina-dir/log.txt");
                }
                match options::parse_change(&name, value.as_deref()) {
                    Ok(change) if change.name() == "Hash" => change.value.number() > 64,
                    Ok(change) if change.name() == "Threads" => change.value.number() > 8,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    fn abandon_ponder(&mut self) {
        if self.ponder_pending {
            self.answers.pop();
            self.ponder_pending = false;
        }
    }

    /// Any command that settles the search: the pending `go` is answered.
    fn settle(&mut self) {
        self.ponder_pending = false;
    }

    fn feed(&mut self, line: &str) {
        match command::parse(line) {
            Ok(Command::IsReady) => self.isready += 1,
            Ok(Command::UciNewGame) => self.settle(),
            Ok(Command::Stop | Command::PonderHit) => self.ponder_pending = false,
            Ok(Command::SetOption { name, value }) => match options::parse_change(&name, value.as_deref()) {
                Ok(change) if change.name() == "UCI_Chess960" => self.chess960 = change.value.flag(),
                Ok(change) if change.effect() == Effect::ResizeTable => self.settle(),
                _ => {}
            },
            Ok(Command::Position { start, moves }) => {
                self.abandon_ponder();
                let base = match start {
                    PositionStart::StartPos => Ok(startpos(self.chess960)),
                    PositionStart::Fen(fen) => Position::from_fen(&fen, self.chess960),
                };
                self.position = base.and_then(|pos| pos.play_uci_moves(moves.iter().map(String::as_str))).ok();
            }
            Ok(Command::Go(params)) => {
                self.gos += 1;
                self.abandon_ponder();
                self.settle();
                let Some(pos) = &self.position else { return self.answers.push(Expect::Null) };
                if params.perft.is_some() {
                    return;
                }
                let verdict = rules::judge(pos);
                self.answers.push(match verdict.reason {
                    Reason::Checkmate | Reason::Stalemate => Expect::NoMove,
                    _ => Expect::Legal(pos.clone()),
                });
                self.ponder_pending = params.limits.ponder;
            }
            Ok(_) => {}
            Err(_) => match first_token(line) {
                Some("go") => {
                    self.gos += 1;
                    self.settle();
                    self.answers.push(Expect::Null);
                }
                Some("position") => self.position = None,
                _ => {}
            },
        }
    }
}

/// Builds the script from the fuzz input, feeding the model as it goes.
struct Generator<'a> {
    u: Unstructured<'a>,
    items: Vec<Item>,
    model: Model,
    sleep_left: u64,
}

impl<'a> Generator<'a> {
    fn line(&mut self, text: impl Into<Vec<u8>>) {
        let mut bytes: Vec<u8> = text.into();
        for byte in bytes.iter_mut() {
            if *byte == b'\n' {
                *byte = b' ';
            }
        }
        // The engine reads up to '\n' and decodes lossily; the model must see the same text.
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if Model::refuses(&text) {
            return;
        }
        self.model.feed(&text);
        bytes.push(b'\n');
        self.items.push(Item::Line(bytes));
    }

    fn sleep(&mut self, ms: u64) {
        let ms = ms.min(self.sleep_left);
        self.sleep_left -= ms;
        if ms > 0 {
            self.items.push(Item::Sleep(ms));
        }
    }

    fn pick<T: Copy>(&mut self, choices: &[T]) -> Result<T> {
        Ok(*self.u.choose(choices)?)
    }

    fn garbage(&mut self, max: usize) -> Result<Vec<u8>> {
        let len = self.u.int_in_range(0..=max)?;
        let bytes = self.u.bytes(len.min(self.u.len()))?;
        Ok(bytes.to_vec())
    }

    /// A FEN to send: a real one, one reached by random moves, a damaged one, or garbage.
    fn fen(&mut self) -> Result<String> {
        let from_list = |g: &mut Self| -> Result<&'static str> {
            if g.model.chess960 && g.u.ratio(1, 2)? {
                g.pick(FENS_960)
            } else {
                g.pick(FENS)
            }
        };
        Ok(match self.u.int_in_range(0..=9)? {
            0..=4 => from_list(self)?.to_string(),
            5 | 6 => {
                let fen = from_list(self)?;
                let Ok(mut pos) = Position::from_fen(fen, self.model.chess960) else { return Ok(fen.to_string()) };
                for _ in 0..self.u.int_in_range(0..=40)? {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[self.u.choose_index(moves.len())?];
                    pos.play_game_move(m);
                }
                pos.fen()
            }
            7 | 8 => {
                // Damage a real FEN: overwrite bytes, drop or repeat fields.
                let fen = from_list(self)?;
                let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
                match self.u.int_in_range(0..=3)? {
                    0 => {
                        let keep = self.u.int_in_range(0..=fields.len())?;
                        fields.truncate(keep);
                    }
                    1 => {
                        let i = self.u.choose_index(fields.len())?;
                        let copy = fields[i].clone();
                        fields.insert(i, copy);
                    }
                    2 => {
                        let i = self.u.choose_index(fields.len())?;
                        fields[i] = self.pick(&["-", "0", "-1", "99999999999", "KQkq", "x", "e3", "w", "b", ""])?.to_string();
                    }
                    _ => {}
                }
                let mut bytes = fields.join(" ").into_bytes();
                for _ in 0..self.u.int_in_range(0..=3)? {
                    if bytes.is_empty() {
                        break;
                    }
                    let i = self.u.choose_index(bytes.len())?;
                    bytes[i] = self.pick(b"pnbrqkPNBRQK12345678/ -wbKQkqA0")?;
                }
                String::from_utf8_lossy(&bytes).into_owned()
            }
            _ => String::from_utf8_lossy(&self.garbage(100)?).into_owned(),
        })
    }

    /// Move tokens after `moves`: mostly legal ones from `from`, some illegal or garbage.
    fn moves(&mut self, from: Option<Position>) -> Result<Vec<String>> {
        let mut pos = from;
        let mut tokens = Vec::new();
        for _ in 0..self.u.int_in_range(0..=12)? {
            let token = match (self.u.int_in_range(0..=11)?, &pos) {
                (0..=8, Some(p)) if !p.legal_moves().is_empty() => {
                    let moves = p.legal_moves();
                    let m = moves[self.u.choose_index(moves.len())?];
                    // Castling in either convention: the engine accepts both.
                    if self.u.ratio(1, 8)? {
                        let mode = if self.u.ratio(1, 2)? {
                            CastlingMode::Chess960
                        } else {
                            CastlingMode::Standard
                        };
                        m.to_uci(mode).to_string()
                    } else {
                        p.uci(m)
                    }
                }
                (9, _) => {
                    let files = b"abcdefgh";
                    let ranks = b"12345678";
                    let mut t = String::new();
                    for _ in 0..2 {
                        t.push(self.pick(files)? as char);
                        t.push(self.pick(ranks)? as char);
                    }
                    if self.u.ratio(1, 4)? {
                        t.push(self.pick(b"qrbnkp")? as char);
                    }
                    t
                }
                (10, _) => self.pick(ODD_MOVES)?.to_string(),
                _ => String::from_utf8_lossy(&self.garbage(12)?).into_owned(),
            };
            pos = pos.and_then(|p| p.play_uci_moves([token.as_str()]).ok());
            tokens.push(token);
        }
        Ok(tokens)
    }

    fn position(&mut self) -> Result<()> {
        let from_startpos = self.u.ratio(1, 2)?;
        let (mut text, base) = if from_startpos {
            ("position startpos".to_string(), Some(startpos(self.model.chess960)))
        } else {
            let fen = self.fen()?;
            let base = Position::from_fen(&fen, self.model.chess960).ok();
            (format!("position fen {fen}"), base)
        };
        if self.u.ratio(3, 4)? {
            let moves = self.moves(base)?;
            text.push_str(" moves");
            for m in moves {
                text.push(' ');
                text.push_str(&m);
            }
        }
        self.line(text);
        Ok(())
    }

    /// A clock value: usually small, sometimes at the edges of what parses.
    fn time_value(&mut self) -> Result<i64> {
        Ok(match self.u.int_in_range(0..=15)? {
            0 => self.pick(&[0, -1, -1000, i64::MAX, i64::MIN, i64::MAX / 2, u32::MAX as i64])?,
            _ => self.u.int_in_range(-50..=300)?,
        })
    }

    fn go(&mut self) -> Result<()> {
        let text = match self.u.int_in_range(0..=9)? {
            0 => format!("go nodes {}", self.u.int_in_range(0..=2999u64)?),
            1 => format!("go depth {}", self.u.int_in_range(0..=5)?),
            2 => format!("go movetime {}", self.u.int_in_range(0..=20)?),
            3 => {
                let mut t = String::from("go");
                if self.u.ratio(7, 8)? {
                    t += &format!(" wtime {}", self.time_value()?);
                }
                if self.u.ratio(7, 8)? {
                    t += &format!(" btime {}", self.time_value()?);
                }
                if self.u.ratio(1, 2)? {
                    t += &format!(" winc {}", self.time_value()?);
                }
                if self.u.ratio(1, 2)? {
                    t += &format!(" binc {}", self.time_value()?);
                }
                if self.u.ratio(1, 3)? {
                    t += &format!(" movestogo {}", self.pick(&[0u32, 1, 2, 40, 61, u32::MAX])?);
                }
                t
            }
            4 => format!("go mate {}", self.u.int_in_range(1..=3)?),
            5 => {
                // Rare extremes: they search until the next settling command.
                let rare = [
                    "go depth 2147483647",
                    "go depth 200",
                    "go nodes 18446744073709551615",
                    "go movetime 9223372036854775807",
                    "go movetime -9223372036854775808",
                    "go movetime 0 wtime 0 btime 0",
                    "go mate 2147483647",
                    "go",
                    "go perft 0",
                    "go perft 1",
                    "go perft 2",
                ];
                self.pick(&rare)?.to_string()
            }
            6 => {
                // searchmoves with legal, illegal and garbage tokens.
                let moves = self.moves(self.model.position.clone())?;
                let limit = self.pick(&["depth 2", "nodes 500", "movetime 5", ""])?;
                format!("go {limit} searchmoves {}", moves.join(" "))
            }
            7 => {
                // Malformed: still owed a bestmove 0000.
                self.pick(&[
                    "go depth",
                    "go depth -1",
                    "go nodes abc",
                    "go sideways",
                    "go mate 0",
                    "go wtime",
                    "go movetime 1.5",
                    "go depth 99999999999",
                    "go perft -1",
                ])?
                .to_string()
            }
            8 => {
                // go infinite / ponder, always followed by stop or ponderhit.
                let ponder = self.u.ratio(1, 2)?;
                let mut t = String::from(if ponder { "go ponder" } else { "go infinite" });
                if ponder && self.u.ratio(1, 2)? {
                    t += &format!(" wtime {} btime {}", self.u.int_in_range(0..=200)?, self.u.int_in_range(0..=200)?);
                }
                if self.u.ratio(1, 8)? {
                    t += if ponder { " infinite" } else { " ponder" };
                }
                self.line(t);
                self.line("isready");
                let pause = self.u.int_in_range(0..=10)?;
                self.sleep(pause);
                let end = if self.u.ratio(1, 2)? { "stop" } else { "ponderhit" };
                self.line(end);
                if end == "ponderhit" && self.u.ratio(1, 2)? {
                    self.line("stop");
                }
                return Ok(());
            }
            _ => {
                let mut t = String::from("go");
                for _ in 0..self.u.int_in_range(1..=3)? {
                    let part = match self.u.int_in_range(0..=4)? {
                        0 => format!(" nodes {}", self.u.int_in_range(1..=2999u64)?),
                        1 => format!(" depth {}", self.u.int_in_range(1..=5)?),
                        2 => format!(" movetime {}", self.u.int_in_range(1..=20)?),
                        3 => format!(" wtime {} winc {}", self.time_value()?, self.time_value()?),
                        _ => format!(" btime {} binc {}", self.time_value()?, self.time_value()?),
                    };
                    t += &part;
                }
                t
            }
        };
        self.line(text);
        Ok(())
    }

    fn setoption(&mut self) -> Result<()> {
        let (name, values): (&str, &[&str]) = match self.u.int_in_range(0..=9)? {
            0 => (
                self.pick(&["Hash", "hash", "HASH"])?,
                &["0", "-1", "99999999999", "262145", "18446744073709551616", "abc", "", "1e3", " 8 ", "+4"],
            ),
            1 => (self.pick(&["Threads", "threads"])?, &["0", "-1", "257", "99999999999", "x", ""]),
            2 => ("MultiPV", &["0", "-3", "257", "many", ""]),
            3 => (self.pick(&["Move Overhead", "move overhead"])?, &["-1", "5000", "5001", "x", "", "1000000"]),
            4 => ("Clear Hash", &["", "now", "true"]),
            5 => (self.pick(&["UCI_Chess960", "uci_chess960"])?, &["true", "false", "TRUE", "yes", "1", ""]),
            6 => ("Ponder", &["true", "false", "maybe"]),
            7 => ("Debug Log File", &["/dev/null", "<empty>", "/nonexistent-patina-dir/log.txt"]),
            8 => (self.pick(&["Nonsense", "Hash Size", "UCI_AnalyseMode", "Threads value", "value", "name"])?, &["1", ""]),
            _ => {
                let malformed = ["setoption Hash 3", "setoption name", "setoption name value 3", "setoption", "setoption value"];
                let line = self.pick(&malformed)?;
                self.line(line);
                return Ok(());
            }
        };
        // Mostly values the option accepts; now and then one it must refuse.
        let value = if self.u.ratio(1, 3)? {
            self.pick(values)?.to_string()
        } else {
            match name.to_ascii_lowercase().as_str() {
                "hash" => self.pick(&[1, 1, 2, 4, 8, 16, 32])?.to_string(),
                "threads" => self.u.int_in_range(1..=4)?.to_string(),
                "multipv" => self.u.int_in_range(1..=4)?.to_string(),
                "move overhead" => self.u.int_in_range(0..=100)?.to_string(),
                _ => self.pick(values)?.to_string(),
            }
        };
        let text = if self.u.ratio(1, 10)? { format!("setoption name {name}") } else { format!("setoption name {name} value {value}") };
        self.line(text);
        Ok(())
    }

    fn step(&mut self) -> Result<()> {
        match self.u.int_in_range(0..=19)? {
            0 => self.line("uci"),
            1 => self.line("ucinewgame"),
            2..=4 => self.position()?,
            5..=8 => self.go()?,
            9 => self.line("stop"),
            10 => self.line("ponderhit"),
            11 | 12 => self.setoption()?,
            13 => {
                let command = self.pick(&["d", "eval", "result"])?;
                self.line(command);
            }
            14 => {
                let command = self.pick(&["debug on", "debug off", "debug", "debug maybe", "register", "", "   ", "\t"])?;
                self.line(command);
            }
            15 => {
                let ms = self.u.int_in_range(0..=15)?;
                self.sleep(ms);
            }
            16 => {
                // A keyword with garbage after it.
                let prefix = self.pick(&["go ", "position fen ", "position startpos moves ", "setoption name ", "position ", ""])?;
                let mut bytes = prefix.as_bytes().to_vec();
                bytes.extend(self.garbage(80)?);
                self.line(bytes);
            }
            17 => {
                // A very long line.
                let chunk = self.garbage(16)?;
                let times = self.u.int_in_range(1..=20_000)?;
                let line = if chunk.is_empty() { vec![b'x'; times] } else { chunk.repeat(times.min(100_000 / chunk.len())) };
                self.line(line);
            }
            _ => {
                let bytes = self.garbage(64)?;
                self.line(bytes);
            }
        }
        self.line("isready");
        Ok(())
    }
}

fn check_output(output: &str, model: &Model) {
    let lines: Vec<&str> = output.lines().collect();
    let readyok = lines.iter().filter(|l| **l == "readyok").count();
    assert_eq!(readyok, model.isready, "readyok lines vs isready sent\n{output}");
    let bestmoves: Vec<&str> = lines.iter().copied().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(
        bestmoves.len(),
        model.answers.len(),
        "bestmove lines vs go commands owed one ({} go sent)\n{output}",
        model.gos
    );
    for (line, expect) in bestmoves.iter().zip(&model.answers) {
        let tokens: Vec<&str> = line.split(' ').collect();
        match expect {
            Expect::Null => assert_eq!(*line, "bestmove 0000", "go without a position\n{output}"),
            Expect::NoMove => assert_eq!(*line, "bestmove (none)", "go on a finished game\n{output}"),
            Expect::Legal(pos) => {
                assert!(tokens.len() == 2 || (tokens.len() == 4 && tokens[2] == "ponder"), "malformed '{line}'");
                let best = pos
                    .parse_uci_move(tokens[1])
                    .unwrap_or_else(|e| panic!("'{line}': {e} in {}\n{output}", pos.fen()));
                assert_eq!(pos.uci(best), tokens[1], "'{line}' not in the position's castling notation");
                if let Some(&ponder) = tokens.get(3) {
                    let mut after = pos.clone();
                    after.play_game_move(best);
                    let reply = after
                        .parse_uci_move(ponder)
                        .unwrap_or_else(|e| panic!("'{line}': ponder move {e} after the best move in {}", pos.fen()));
                    assert_eq!(after.uci(reply), ponder, "'{line}': ponder move not in castling notation");
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // A 1 MiB table instead of the shipped 16 MiB keeps each run short; `setoption name Hash`
    // still resizes it.
    let options = EngineOptions { hash_mib: 1, ..EngineOptions::builtin() };
    let mut generator =
        Generator { u: Unstructured::new(data), items: Vec::new(), model: Model::new(&options), sleep_left: 40 };
    if let Some(text) = data.strip_prefix(b"#uci\n") {
        // Text mode (the seed sessions): one UCI line per input line, `#sleep N` pauses.
        for line in text.split(|&b| b == b'\n').take(64) {
            match std::str::from_utf8(line).ok().and_then(|l| l.strip_prefix("#sleep ")) {
                Some(ms) => generator.sleep(ms.trim().parse().unwrap_or(0)),
                None => {
                    generator.line(line);
                    generator.line("isready");
                }
            }
        }
    } else {
        let mut steps = 0;
        while !generator.u.is_empty() && steps < 48 {
            if generator.step().is_err() {
                break;
            }
            steps += 1;
        }
    }
    // Settle whatever still runs or is held, so every owed bestmove is printed.
    generator.line("ucinewgame");
    generator.line("isready");
    let Generator { items, model, .. } = generator;
    if std::env::var_os("PATINA_FUZZ_PRINT").is_some() {
        // Show the script (for turning a crash into a test): lines as the engine reads them.
        for item in &items {
            match item {
                Item::Line(line) => eprint!("{}", String::from_utf8_lossy(line)),
                Item::Sleep(ms) => eprintln!("#sleep {ms}"),
            }
        }
    }

    let output = Output::default();
    let script = Script { items: items.into(), current: Vec::new(), offset: 0 };
    let code = patina::uci::run(options, script, output.clone());
    assert_eq!(code, 0);
    let bytes = output.0.borrow();
    check_output(&String::from_utf8_lossy(&bytes), &model);
});

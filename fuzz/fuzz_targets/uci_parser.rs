//! Every input line goes through the UCI command parser, which must answer Ok or Err and
//! never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patina::uci::command::{self, Command};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The engine's reader splits on '\n' only; try the whole input as one line too.
    for line in text.split('\n').chain(std::iter::once(text.as_ref())) {
        match command::parse(line) {
            Ok(Command::Empty) => assert!(line.split_whitespace().next().is_none()),
            Ok(_) => {}
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
});

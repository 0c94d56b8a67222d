//! `ParseError`: why a UCI line could not be understood, naming the command, the offending
//! token and what is accepted there.

use std::fmt;

/// A line that could not be understood: which command, which token, and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The first word names no command.
    UnknownCommand {
        /// The word.
        token: String,
    },
    /// A parameter's value is not what it accepts (`go depth abc`, `go mate 0`).
    BadValue {
        /// The command (`go`).
        command: &'static str,
        /// The parameter (`depth`); empty when the command takes the value directly (`debug`).
        parameter: &'static str,
        /// The value as sent.
        token: String,
        /// What the parameter accepts (`an integer`).
        accepted: &'static str,
    },
    /// A parameter came without its value (`go wtime` at the end of the line).
    MissingValue {
        /// The command.
        command: &'static str,
        /// The parameter.
        parameter: String,
        /// What should have followed it (`a value`, `a FEN`).
        accepted: &'static str,
    },
    /// A word the command does not take where it stands (`go sideways`).
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        token: String,
        /// What the command accepts there.
        accepted: &'static str,
    },
    /// The line ended before the command was complete (`position`).
    Incomplete {
        /// The command.
        command: &'static str,
        /// What is missing.
        accepted: &'static str,
    },
}

impl ParseError {
    /// The command the line started with, when it named one: a malformed `go` still owes a
    /// `bestmove`, a malformed `position` leaves no position.
    pub fn command(&self) -> Option<&'static str> {
        match self {
            ParseError::UnknownCommand { .. } => None,
            ParseError::BadValue { command, .. }
            | ParseError::MissingValue { command, .. }
            | ParseError::Unexpected { command, .. }
            | ParseError::Incomplete { command, .. } => Some(command),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand { token } => write!(f, "unknown command '{token}'"),
            ParseError::BadValue { command, parameter: "", token, accepted } => {
                write!(f, "{command}: expected {accepted}, got '{token}'")
            }
            ParseError::BadValue { command, parameter, token, accepted } => {
                write!(f, "{command}: '{parameter}' must be {accepted}, got '{token}'")
            }
            ParseError::MissingValue { command, parameter, accepted } => {
                write!(f, "{command}: '{parameter}' needs {accepted}")
            }
            ParseError::Unexpected { command, token, accepted } => {
                write!(f, "{command}: unexpected '{token}'; expected {accepted}")
            }
            ParseError::Incomplete { command, accepted } => write!(f, "{command}: expected {accepted}"),
        }
    }
}

impl std::error::Error for ParseError {}

//! Where the `bestmove` a `go` is owed stands: one state where there were a release condition,
//! an answer slot and a stopped-ponder flag. The transitions are pure functions of the state,
//! the command or event, and the time (passed in, so tests need no clock); `go.rs` applies
//! them and prints the `bestmove` once `is_due` says so.

use crate::engine::Answer;
use std::time::Instant;

/// The owed `bestmove`: what holds it back, and the engine's answer once it is in.
#[derive(Debug)]
pub(super) enum Owed {
    /// `go ponder` before its `ponderhit` or `stop`: the answer, once in, is held.
    Pondering(Option<Answer>),
    /// `go infinite` before `stop`: the answer, once in, is held.
    Infinite(Option<Answer>),
    /// The search runs; its answer goes out when it arrives, but not before `not_before` (a
    /// limited level's shortest think time).
    Searching { not_before: Option<Instant> },
    /// A ponder search that `stop` ended before any `ponderhit`, its answer not in yet: it goes
    /// out when it arrives, and a new `position` or `go` still waits for it as for the ponder
    /// search it was (`is_ponder`).
    StoppedPonder,
    /// The answer is in, due at `not_before` (at once when `None`).
    Answered { answer: Answer, not_before: Option<Instant> },
}

impl Owed {
    /// A new `go`'s state: held for `ponderhit` or `stop`, or due once answered, not before
    /// `not_before`.
    pub(super) fn new(ponder: bool, infinite: bool, not_before: Option<Instant>) -> Owed {
        if ponder {
            Owed::Pondering(None)
        } else if infinite {
            Owed::Infinite(None)
        } else {
            Owed::Searching { not_before }
        }
    }

    /// The engine's answer has arrived.
    pub(super) fn answered(self, answer: Answer) -> Owed {
        match self {
            Owed::Pondering(_) => Owed::Pondering(Some(answer)),
            Owed::Infinite(_) => Owed::Infinite(Some(answer)),
            Owed::Searching { not_before } => Owed::Answered { answer, not_before },
            Owed::StoppedPonder => Owed::Answered { answer, not_before: None },
            // One answer per `go`: a second cannot come.
            answered @ Owed::Answered { .. } => answered,
        }
    }

    /// `stop`: nothing holds the answer back any longer.
    pub(super) fn stopped(self) -> Owed {
        match self {
            Owed::Pondering(None) | Owed::StoppedPonder => Owed::StoppedPonder,
            Owed::Infinite(None) | Owed::Searching { .. } => Owed::Searching { not_before: None },
            Owed::Pondering(Some(answer)) | Owed::Infinite(Some(answer)) | Owed::Answered { answer, .. } => {
                Owed::Answered { answer, not_before: None }
            }
        }
    }

    /// `ponderhit`: the clock starts now; the answer is due at once, or not before
    /// `not_before` (a limited level's think time counted from now).
    pub(super) fn ponderhit(self, not_before: Option<Instant>) -> Owed {
        match self {
            Owed::Pondering(Some(answer)) | Owed::Infinite(Some(answer)) | Owed::Answered { answer, .. } => {
                Owed::Answered { answer, not_before }
            }
            Owed::Pondering(None) | Owed::Infinite(None) | Owed::Searching { .. } | Owed::StoppedPonder => {
                Owed::Searching { not_before }
            }
        }
    }

    /// Whether the engine's answer is in.
    pub(super) fn has_answer(&self) -> bool {
        matches!(self, Owed::Pondering(Some(_)) | Owed::Infinite(Some(_)) | Owed::Answered { .. })
    }

    /// Whether the answer waits for `stop` or `ponderhit` whenever it comes (`go infinite`, `go
    /// ponder`): such a search has no end of its own for a new `go` to wait for.
    pub(super) fn is_held_for_release(&self) -> bool {
        matches!(self, Owed::Pondering(_) | Owed::Infinite(_))
    }

    /// Whether this is a ponder search the GUI has not released with `ponderhit`.
    pub(super) fn is_ponder(&self) -> bool {
        matches!(self, Owed::Pondering(_) | Owed::StoppedPonder)
    }

    /// When the held answer falls due, if a time is all that holds it.
    pub(super) fn due_at(&self) -> Option<Instant> {
        match self {
            Owed::Answered { not_before, .. } => *not_before,
            _ => None,
        }
    }

    /// Whether the answer is in and due at `now`.
    pub(super) fn is_due(&self, now: Instant) -> bool {
        matches!(self, Owed::Answered { not_before, .. } if not_before.is_none_or(|time| now >= time))
    }

    /// The answer, once it is in.
    pub(super) fn into_answer(self) -> Option<Answer> {
        match self {
            Owed::Pondering(answer) | Owed::Infinite(answer) => answer,
            Owed::Answered { answer, .. } => Some(answer),
            Owed::Searching { .. } | Owed::StoppedPonder => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;
    use std::time::Duration;

    fn answer() -> Answer {
        Answer::NoMove { score: Score::Mate(0), wdl: None }
    }

    #[test]
    fn a_plain_go_is_due_as_soon_as_answered() {
        let now = Instant::now();
        let owed = Owed::new(false, false, None);
        assert!(!owed.has_answer());
        assert!(owed.answered(answer()).is_due(now));
    }

    #[test]
    fn ponder_and_infinite_hold_the_answer_until_released() {
        let now = Instant::now();
        for (ponder, infinite) in [(true, false), (false, true)] {
            let held = Owed::new(ponder, infinite, None).answered(answer());
            assert!(!held.is_due(now) && held.has_answer() && held.due_at().is_none());
            assert!(held.stopped().is_due(now), "stop releases it");
        }
        let held = Owed::new(true, false, None).answered(answer());
        assert!(held.ponderhit(None).is_due(now), "ponderhit releases it");
    }

    #[test]
    fn a_ponder_search_stopped_before_its_answer_stays_a_ponder_search() {
        let stopped = Owed::new(true, false, None).stopped();
        assert!(stopped.is_ponder() && !stopped.has_answer());
        let stopped = stopped.stopped();
        assert!(stopped.is_ponder(), "a second stop changes nothing");
        assert!(stopped.answered(answer()).is_due(Instant::now()));
        assert!(!Owed::new(true, false, None).ponderhit(None).is_ponder());
    }

    #[test]
    fn a_think_time_holds_the_answer_until_it_passes_or_stop() {
        let start = Instant::now();
        let think = Duration::from_millis(500);
        let owed = Owed::new(false, false, Some(start + think)).answered(answer());
        assert_eq!(owed.due_at(), Some(start + think));
        assert!(!owed.is_due(start + think / 2), "not yet");
        assert!(owed.is_due(start + think));
        assert!(matches!(owed.into_answer(), Some(Answer::NoMove { .. })));
        let owed = Owed::new(false, false, Some(start + think)).answered(answer());
        assert!(owed.stopped().is_due(start), "stop does not wait");
    }

    #[test]
    fn ponderhit_counts_the_think_time_from_itself() {
        let start = Instant::now();
        let think = Duration::from_millis(500);
        let owed = Owed::new(true, false, None).answered(answer()).ponderhit(Some(start + think));
        assert!(!owed.is_due(start), "waits after ponderhit");
        assert!(owed.is_due(start + think));
    }
}

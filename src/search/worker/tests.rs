//! The recipe's own tests: singular extensions on hand-made nodes.

use super::*;

/// Runs `test` on a one-thread worker set up on `fen`, with its own fresh table.
fn with_worker(fen: &str, test: impl FnOnce(&mut Worker, &TranspositionTable)) {
    let tt = TranspositionTable::new(1).unwrap();
    let control = SearchControl::new(false);
    let limits = SearchLimits { threads: 1, multipv: 1, ..SearchLimits::default() };
    let node_counts = [AtomicU64::new(0)];
    let root = RootFacts::default();
    let shared = Shared {
        tt: &tt,
        control: &control,
        limits: &limits,
        root: &root,
        node_counts: &node_counts,
        report: &|_| {},
    };
    let pos = Position::from_fen(fen, false).unwrap();
    let root_moves = pos.legal_moves().to_vec();
    let mut worker = Worker::new(0, &shared, pos, root_moves, ThreadMemory::default());
    worker.root_depth = 8;
    test(&mut worker, &tt);
}

fn parse_move(worker: &Worker, uci: &str) -> Move {
    worker.pos.parse_uci_move(uci).unwrap()
}

#[test]
fn a_singular_test_searches_without_its_move_and_leaves_the_entry_alone() {
    // Ra8 is the only mate; with it excluded, White has nothing close to a mate.
    with_worker("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", |worker, tt| {
        let key = worker.pos.key();
        let mate = parse_move(worker, "a1a8");
        worker.excluded[1] = Some(mate);
        let without = worker.negamax(4, -INFINITY, INFINITY, 1, false);
        worker.excluded[1] = None;
        assert!(without < MATE_BOUND, "the excluded mate was searched: {without}");
        assert!(tt.probe(key).is_none(), "the singular test wrote its node's entry");
        let with = worker.negamax(4, -INFINITY, INFINITY, 1, false);
        assert_eq!(with, MATE - 2, "the full node finds mate in one");
        let entry = tt.probe(key).expect("the full node stores its result");
        assert_eq!(decode_move(entry.packed_move, &worker.pos.legal_moves()), Some(mate));
    });
}

#[test]
fn a_singular_test_without_other_moves_fails_low_instead_of_scoring_mate() {
    // Kxb2 is White's only legal move.
    with_worker("k7/8/8/8/8/8/1r6/K6r w - - 0 1", |worker, _| {
        assert_eq!(worker.pos.legal_moves().len(), 1);
        worker.excluded[1] = Some(parse_move(worker, "a1b2"));
        assert_eq!(worker.negamax(8, -100, -99, 1, true), -100);
    });
}

//! Criterion benches: perft (move generation through Patina's `Position`) and fixed-depth search.
//! Throughput is reported in elements (nodes) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use patina::position::Position;
use patina::search::{self, SearchControl, SearchLimits};
use patina::tt::TranspositionTable;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in [
        ("startpos_d5", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4_865_609u64),
        ("kiwipete_d4", KIWIPETE, 4, 4_085_603),
    ] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            let mut pos = Position::from_fen(fen, false).expect("valid fen");
            b.iter(|| assert_eq!(patina::perft::perft(&mut pos, depth), nodes));
        });
    }
    group.finish();
}

fn search_fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let pos = Position::from_fen(KIWIPETE, false).expect("valid fen");
    let limits = SearchLimits { depth: Some(8), multipv: 1, threads: 1, ..SearchLimits::default() };
    let run = || {
        let tt = TranspositionTable::new(16).expect("16 MiB table");
        let control = SearchControl::new(false);
        search::run(&pos, &limits, &tt, &control, &|_| {}).nodes
    };
    group.throughput(Throughput::Elements(run()));
    group.bench_function("kiwipete_depth8", |b| b.iter(run));
    group.finish();
}

criterion_group!(benches, perft, search_fixed_depth);
criterion_main!(benches);

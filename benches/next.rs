//! What a `next` call costs, piece by piece: loading the lists and the shipped tree
//! (decoding and validating it), verifying it again by the reference replay, looking a move up (the < 1 microsecond target), the whole on-tree
//! advice, and an off-tree state after one guess (the < 1 s target). Run with
//! `cargo bench --features criterion --bench next`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wordle_tree::players::play::{self, Guide, Step};
use wordle_tree::tree::file;
use wordle_tree::{FeedbackTable, Game, ListSource};

const TREE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/trees/salet.normal.wordle.tree"
);

fn steps(game: &Game, s: &str) -> Vec<Step> {
    s.split_whitespace()
        .map(|t| play::parse_step(game, t).unwrap())
        .collect()
}

fn next(c: &mut Criterion) {
    let source = ListSource::Named("wordle".into());
    c.bench_function("load lists", |b| {
        b.iter(|| Game::load(black_box(&source)).unwrap())
    });
    let game = Game::load(&source).unwrap();
    let bytes = std::fs::read(TREE).unwrap();
    c.bench_function("decode and validate tree file", |b| {
        b.iter(|| file::decode(black_box(&bytes), Path::new(TREE), &game).unwrap())
    });
    let tree = file::load(Path::new(TREE), &game).unwrap();
    c.bench_function("verify tree", |b| b.iter(|| tree.verify(black_box(&game))));
    let history = steps(&game, "salet:BBBBB courd:BBBBY");
    c.bench_function("lookup: follow 2 steps", |b| {
        b.iter(|| play::follow(black_box(&tree), black_box(&history)))
    });
    c.bench_function("replay 2 steps (candidates)", |b| {
        b.iter(|| play::replay(&game, black_box(&history), false).unwrap())
    });
    let stop = AtomicBool::new(false);
    for h in ["", "salet:BBBBB courd:BBBBY"] {
        let st = steps(&game, h);
        c.bench_function(&format!("advise on tree [{h}]"), |b| {
            b.iter(|| play::advise(&game, Guide::Tree(&tree), black_box(&st), &stop, None).unwrap())
        });
    }
    let mut group = c.benchmark_group("off tree");
    group.sample_size(10);
    for h in ["crane:BBYBB", "audio:BBBBB", "crane:BBBBB"] {
        let st = steps(&game, h);
        group.bench_function(format!("advise [{h}]"), |b| {
            b.iter(|| play::advise(&game, Guide::Tree(&tree), black_box(&st), &stop, None).unwrap())
        });
    }
    group.bench_function("feedback table build", |b| {
        b.iter(|| FeedbackTable::build(&game))
    });
    group.finish();
}

criterion_group!(benches, next);
criterion_main!(benches);

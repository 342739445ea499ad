//! Criterion benches of the foundation on the default lists (12972 guesses x 2315
//! answers): building the feedback table, ranking every guess by all five metrics,
//! and the entropy player over every answer. Run with
//! `cargo bench --features criterion --bench core`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use wordle_tree::analysis::{self, Metric};
use wordle_tree::game::AnswerId;
use wordle_tree::{FeedbackTable, Game, ListSource};

fn default_game() -> Game {
    Game::load(&ListSource::Named("wordle".into())).expect("shipped lists load")
}

fn table_build(c: &mut Criterion) {
    let game = default_game();
    let mut group = c.benchmark_group("table");
    group.throughput(Throughput::Elements(
        (game.n_guesses() * game.n_answers()) as u64,
    ));
    group.bench_function("build 12972x2315", |b| {
        b.iter(|| FeedbackTable::build(black_box(&game)))
    });
    group.finish();
}

fn rank_all_metrics(c: &mut Criterion) {
    let game = default_game();
    let table = FeedbackTable::build(&game);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut group = c.benchmark_group("rank");
    // One run is about 0.3 s (five scans of 12972 guesses).
    group.sample_size(20);
    group.throughput(Throughput::Elements(game.n_guesses() as u64 * 5));
    group.bench_function("all five metrics", |b| {
        b.iter(|| {
            for metric in [
                Metric::Worst,
                Metric::Expected,
                Metric::Entropy,
                Metric::Buckets,
                Metric::Frequency,
            ] {
                black_box(analysis::rank(&game, &table, &ids, metric));
            }
        })
    });
    group.finish();
}

fn simulate_entropy(c: &mut Criterion) {
    let game = default_game();
    let table = FeedbackTable::build(&game);
    let mut group = c.benchmark_group("simulate");
    // One run is about a second; ten samples keep the bench under a minute.
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(game.n_answers() as u64));
    group.bench_function("entropy player, all answers", |b| {
        b.iter(|| analysis::simulate(&game, &table, Metric::Entropy, None, false))
    });
    group.finish();
}

criterion_group!(benches, table_build, rank_all_metrics, simulate_entropy);
criterion_main!(benches);

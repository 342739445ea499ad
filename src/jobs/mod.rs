//! The long jobs built on the search: depth claims ([`check`]), the fewest answers
//! over D over every opener ([`min_over`]), exact ranking of many openers
//! ([`openers`], and best-first over them for the K best: [`best_first`]), one
//! opener's proof as units ([`proof`]), and the best fixed two-word start
//! ([`pairs`]); each resumable and shardable through a results directory, all but
//! best-first run by one [`driver`] (worker pool, resume, sharding, interruption;
//! min-over and pairs through its one-solver shape, [`driver::solver_sweep`]; shards sharing a
//! directory take over each other's unstarted units: [`driver::balance`]);
//! best-first keeps its own frontier, with the same records, resume and interrupt
//! convention.

pub mod best_first;
pub mod check;
pub mod driver;
pub mod min_over;
pub mod openers;
pub mod pairs;
pub mod proof;

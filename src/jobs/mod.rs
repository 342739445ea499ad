//! The long jobs built on the search: depth claims ([`check`]), the fewest answers
//! over D over every opener ([`min_over`]), exact ranking of many openers
//! ([`openers`]), and one opener's proof as units ([`proof`]); each resumable and
//! shardable through a results directory, all four run by one [`driver`] (worker
//! pool, resume, sharding, interruption).

pub mod check;
pub mod driver;
pub mod min_over;
pub mod openers;
pub mod proof;

//! What is kept on disk between runs: result files and results directories with their
//! atomic writes ([`results`]), and opener tables ([`opener_table`]).

pub mod opener_table;
pub mod pack;
pub mod results;

//! What is kept on disk between runs, floor by floor: entries, their atomic writes and
//! seals ([`entry`]); packs of sealed entries ([`pack`]); result files and results
//! directories, which read packs too ([`results`]); and opener tables
//! ([`opener_table`]).

pub mod entry;
pub mod opener_table;
pub mod pack;
pub mod results;

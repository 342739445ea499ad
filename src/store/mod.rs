//! What is kept on disk between runs, floor by floor: entries, their atomic writes and
//! seals ([`entry`]); claims of units in progress, which balance shards sharing a
//! directory and are never results ([`claim`]); packs of sealed entries ([`pack`]); result files and results
//! directories, which read packs too ([`results`]); and opener tables
//! ([`opener_table`]).

pub mod claim;
pub mod entry;
pub mod opener_table;
pub mod pack;
pub mod results;

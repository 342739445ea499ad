//! Reading and writing trees: the binary tree file ([`file`]) and text exports
//! ([`text`]). Files are written with [`crate::results::write_atomic`], like every
//! output file.

pub mod file;
pub mod text;

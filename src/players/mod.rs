//! What a player uses: histories and next-guess advice ([`play`]), the exact review of
//! a played game ([`review`]), and the local web page and JSON API (`serve`, with the
//! `serve` feature).

pub mod play;
pub mod review;
#[cfg(feature = "serve")]
pub mod serve;

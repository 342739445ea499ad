//! What a player uses: histories and next-guess advice ([`play`]), the exact review of
//! a played game ([`review`]), and the local web page and JSON API (`serve`, with the
//! `serve` feature).

pub mod play;
pub mod review;
#[cfg(feature = "serve")]
pub mod serve;

/// The opener of the shipped trees of a list: `tarse` for nyt2023 (the published best
/// opener of that list), `lants` for the big game wordle-all (the published tree's
/// opener, proved optimal from it: trees/README.md), `salet` for the others.
pub fn shipped_opener(list: &str) -> &'static str {
    match list {
        "nyt2023" => "tarse",
        "wordle-all" => "lants",
        _ => "salet",
    }
}

/// The file name of a list's shipped tree: `<opener>.<normal|hard>.<list>.tree`.
pub fn shipped_tree_name(list: &str, hard: bool) -> String {
    format!(
        "{}.{}.{list}.tree",
        shipped_opener(list),
        if hard { "hard" } else { "normal" }
    )
}

/// What each shipped list is, for people choosing one (the page, `--help`).
pub fn list_about(list: &str) -> &'static str {
    match list {
        "nyt2023" => "the New York Times answers since 2023 (3158 answers): today's NYT puzzle",
        "nyt" => {
            "the New York Times list of 2022 (2309 answers): lacks words later NYT puzzles use"
        }
        "wordle" => "the original Wordle of 2021 (2315 answers): the list most write-ups study",
        "wordle-all" => "every allowed word may be the answer (12972): the big game",
        "nyt-all" => "every NYT allowed word may be the answer (14855)",
        "sowpods" => "the Scrabble list's five-letter words, all of them answers",
        _ => "custom lists",
    }
}

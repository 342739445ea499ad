//! The data built into the library: the shipped trees (`trees/*.tree`) and opener
//! tables (`tables/*.csv`), so `next`, `review`, `rank --exact` and `serve` work from
//! any directory with nothing beside the binary, and a library user gets a next move
//! without locating a file. (The word lists are built in by [`crate::game`].)
//!
//! Owns: which tree is the shipped one of a list and mode ([`tree_name`]), the
//! embedded bytes, and the lookup order of [`find_tree`] and [`find_table`]: the
//! given directories first (the CLI's `--data DIR` / `WORDLE_TREE_DATA`), then the
//! built-in copy. There is no other search: not the current directory, not beside
//! the executable, not the source checkout.
//!
//! Invariants: built-in data goes through the same decoders and checks as a file
//! ([`crate::tree::file::decode`], [`OpenerTable::decode`] and
//! [`OpenerTable::check_game`]), so a table or tree for other lists is refused the
//! same way; a built-in item is named `<built-in>/trees/NAME` or
//! `<built-in>/tables/NAME` in messages. The build script (`build.rs`) embeds every
//! file of `trees/*.tree` as is and every `tables/*.csv` zlib-compressed: the tables
//! are 1.44 MB of text and 0.30 MB compressed, and inflating the largest takes about
//! a millisecond (measured: docs/guide/formats.md), so compressing them pays; the
//! tree files compress by only about 26%, so they are kept as they are.
//!
//! ```
//! use wordle_tree::game::{Game, ListSource};
//! use wordle_tree::shipped;
//!
//! let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
//! let tree = shipped::tree(&game, false).unwrap().expect("wordle has a shipped tree");
//! assert_eq!(game.guesses[tree.root().guess.index()].to_string(), "salet");
//! let table = shipped::table(&game, false).unwrap().expect("and an opener table");
//! assert!(table.is_complete());
//! ```

use crate::game::{mode_name, Game};
use crate::store::opener_table::{self, OpenerTable, TableError};
use crate::tree::file::{self, FileError};
use crate::tree::Tree;
use std::path::{Path, PathBuf};

mod data {
    include!(concat!(env!("OUT_DIR"), "/shipped.rs"));
}

/// The prefix naming built-in data in messages: `<built-in>/tables/wordle.normal.csv`.
pub const BUILT_IN: &str = "<built-in>";

/// The opener of the shipped tree of a named list: `tarse` for nyt2023 (the published
/// best opener of that list), `lants` for wordle-all (the published tree's opener,
/// proved optimal from it: trees/README.md) and nyt-all (the same opener, proved on
/// the NYT big game: 61190), `salet` for the others.
pub fn opener(list: &str) -> &'static str {
    match list {
        "nyt2023" => "tarse",
        "wordle-all" | "nyt-all" => "lants",
        _ => "salet",
    }
}

/// The file name of the shipped tree of a list and mode:
/// `<opener>.<normal|hard>.<list>.tree` (it may not exist: see [`tree_bytes`]).
pub fn tree_name(list: &str, hard: bool) -> String {
    format!("{}.{}.{list}.tree", opener(list), mode_name(hard))
}

/// The built-in bytes of a shipped tree file (by file name, e.g.
/// `salet.normal.wordle.tree`), if there is one.
pub fn tree_bytes(name: &str) -> Option<&'static [u8]> {
    data::TREES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b)
}

/// The file names of the built-in trees, sorted.
pub fn tree_names() -> impl Iterator<Item = &'static str> {
    data::TREES.iter().map(|(n, _)| *n)
}

/// The file names of the built-in opener tables, sorted.
pub fn table_names() -> impl Iterator<Item = &'static str> {
    data::TABLES.iter().map(|(n, _, _)| *n)
}

/// The text of a built-in opener table (by file name, e.g. `wordle.normal.csv`),
/// inflated, if there is one. `Err` only if the embedded bytes are damaged.
pub fn table_text(name: &str) -> Option<Result<String, TableError>> {
    let (_, packed, len) = data::TABLES.iter().find(|(n, _, _)| *n == name)?;
    let path = built_in_path("tables", name);
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(packed, *len)
        .map_err(|e| bad_table(&path, format!("cannot inflate the built-in copy: {e}")));
    Some(bytes.and_then(|b| String::from_utf8(b).map_err(|_| bad_table(&path, "not UTF-8".into()))))
}

fn bad_table(path: &Path, why: String) -> TableError {
    TableError::Bad {
        file: path.to_path_buf(),
        line: 0,
        why,
    }
}

/// The name of built-in data in messages: `<built-in>/<dir>/<name>`.
pub fn built_in_path(dir: &str, name: &str) -> PathBuf {
    Path::new(BUILT_IN).join(dir).join(name)
}

/// The built-in tree of a game's lists and mode, checked against the game
/// ([`file::decode`]): `Ok(None)` for lists with no shipped tree in that mode (custom
/// lists, sowpods, the big games in hard mode).
pub fn tree(game: &Game, hard: bool) -> Result<Option<Tree>, FileError> {
    Ok(find_tree(&[], game, hard)?.map(|(t, _)| t))
}

/// The built-in opener table of a game's lists and mode (at most 6 guesses), checked
/// against the game: `Ok(None)` when none is shipped.
pub fn table(game: &Game, hard: bool) -> Result<Option<OpenerTable>, TableError> {
    Ok(find_table(&[], game, hard)?.map(|(t, _)| t))
}

/// The shipped tree of a game's lists and mode, with where it came from: the first
/// `dirs/<tree_name>` that exists, else the built-in copy (named
/// `<built-in>/trees/<tree_name>`); `Ok(None)` when neither exists. The tree is
/// checked as [`file::load`] checks a file, and its mode against `hard`.
pub fn find_tree(
    dirs: &[PathBuf],
    game: &Game,
    hard: bool,
) -> Result<Option<(Tree, PathBuf)>, FileError> {
    let name = tree_name(&game.name, hard);
    let (tree, path) = if let Some(p) = dirs.iter().map(|d| d.join(&name)).find(|p| p.is_file()) {
        (file::load(&p, game)?, p)
    } else if let Some(bytes) = tree_bytes(&name).filter(|_| game.name != "custom") {
        let p = built_in_path("trees", &name);
        (file::decode(bytes, &p, game)?, p)
    } else {
        return Ok(None);
    };
    if tree.hard() != hard {
        return Err(FileError::Decode(
            path,
            format!(
                "a {} mode tree where a {} mode one belongs",
                mode_name(tree.hard()),
                mode_name(hard)
            ),
        ));
    }
    Ok(Some((tree, path)))
}

/// The shipped opener table of a game's lists and mode (at most 6 guesses), with where
/// it came from: the first `dirs/<list>.<mode>.csv` that exists
/// ([`opener_table::find_shipped`]), else the built-in copy; `Ok(None)` when neither
/// exists. Either is checked against the game ([`OpenerTable::check_game`]).
pub fn find_table(
    dirs: &[PathBuf],
    game: &Game,
    hard: bool,
) -> Result<Option<(OpenerTable, PathBuf)>, TableError> {
    if let Some(found) = opener_table::find_shipped(dirs, game, hard)? {
        return Ok(Some(found));
    }
    let name = opener_table::shipped_name(game, hard);
    let Some(text) = table_text(&name) else {
        return Ok(None);
    };
    let path = built_in_path("tables", &name);
    let t = OpenerTable::decode(&text?, &path)?;
    t.check_game(&path, game, hard, crate::game::GAME_LIMIT)?;
    Ok(Some((t, path)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ListSource;

    fn game(list: &str) -> Game {
        Game::load(&ListSource::Named(list.into())).unwrap()
    }

    /// Every built-in tree and table decodes and fits its lists; the names the
    /// lookups use are all there.
    #[test]
    fn every_built_in_item_loads() {
        assert!(tree_names().count() >= 8);
        assert_eq!(table_names().count(), 6);
        for (list, hard) in [
            ("wordle", false),
            ("wordle", true),
            ("nyt", false),
            ("nyt", true),
            ("nyt2023", false),
            ("nyt2023", true),
            ("wordle-all", false),
            ("nyt-all", false),
        ] {
            let g = game(list);
            let t = tree(&g, hard).unwrap().unwrap();
            assert_eq!(t.hard(), hard);
            assert_eq!(g.guesses[t.root().guess.index()].to_string(), opener(list));
        }
        for (list, hard) in [
            ("wordle", false),
            ("wordle", true),
            ("nyt", false),
            ("nyt", true),
            ("nyt2023", false),
            ("nyt2023", true),
        ] {
            let t = table(&game(list), hard).unwrap().unwrap();
            assert_eq!(t.hard, hard);
        }
        assert!(tree(&game("sowpods"), false).unwrap().is_none());
        assert!(table(&game("sowpods"), false).unwrap().is_none());
    }

    /// The built-in copies are byte for byte the files of the checkout.
    #[test]
    fn built_in_copies_equal_the_files() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for name in tree_names() {
            let file = std::fs::read(root.join("trees").join(name)).unwrap();
            assert_eq!(tree_bytes(name).unwrap(), &file[..], "{name}");
        }
        for name in table_names() {
            let file = std::fs::read_to_string(root.join("tables").join(name)).unwrap();
            assert_eq!(table_text(name).unwrap().unwrap(), file, "{name}");
        }
    }

    /// A directory given first wins over the built-in copy, and a damaged file there
    /// is refused by name, not skipped.
    #[test]
    fn a_data_directory_overrides_the_built_in_copy() {
        let g = game("wordle");
        let dir = tempfile::tempdir().unwrap();
        let dirs = vec![dir.path().to_path_buf()];
        let (_, p) = find_table(&dirs, &g, false).unwrap().unwrap();
        assert_eq!(p, built_in_path("tables", "wordle.normal.csv"));
        let name = opener_table::shipped_name(&g, false);
        std::fs::write(dir.path().join(&name), "# damaged\n").unwrap();
        let e = find_table(&dirs, &g, false).unwrap_err().to_string();
        assert!(e.contains(&name), "{e}");
        let tree_file = dir.path().join(tree_name("wordle", false));
        std::fs::write(&tree_file, tree_bytes("salet.hard.wordle.tree").unwrap()).unwrap();
        let e = find_tree(&dirs, &g, false).unwrap_err().to_string();
        assert!(
            e.contains("a hard mode tree where a normal mode one belongs"),
            "{e}"
        );
    }
}

//! Hostile and damaged tree files (issue 14, points 3, 4, 9 and 16): files with sound
//! checksums whose content is wrong are refused when loading, with a message naming
//! the file and what is wrong, by the library and by every command that reads a tree
//! (`verify`, `export`, `next --tree`, `path`, `play`, `simulate --strategy tree:`);
//! nothing panics, overflows its stack or allocates what the file merely declares.

use crate::common;

use assert_cmd::Command;
use common::{craft_tree_file, wrap_tree_body};
use std::path::{Path, PathBuf};
use wordle_tree::game::candidates::partition;
use wordle_tree::game::feedback::Feedback;
use wordle_tree::game::AnswerId;
use wordle_tree::game::GuessId;
use wordle_tree::tree::file::{self, FileError};
use wordle_tree::tree::{Node, Tree};
use wordle_tree::{FeedbackTable, Game, ListSource};

const NORMAL: &str = "trees/salet.normal.wordle.tree";

fn wordle() -> Game {
    Game::load(&ListSource::Named("wordle".into())).unwrap()
}

/// The shipped normal-mode tree's root, to damage.
fn shipped_root(game: &Game) -> Node {
    file::load(Path::new(NORMAL), game).unwrap().root().clone()
}

/// Decodes crafted bytes for `game`: the error's message (the load must fail).
fn refused(bytes: &[u8], game: &Game) -> String {
    match file::decode(bytes, Path::new("crafted.tree"), game) {
        Ok(_) => panic!("a crafted tree was accepted"),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("crafted.tree: "), "{msg}");
            assert!(!msg.contains('\n') && msg.len() < 400, "{msg}");
            msg
        }
    }
}

fn crafted(game: &Game, hard: bool, max: u8, root: &Node) -> Vec<u8> {
    craft_tree_file(hard, max, game.checksum, "wordle", root)
}

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

/// Runs the binary; it must exit 2 with nothing on stdout but what `verify` reports,
/// and a one-line message on stderr containing `needle` (stdout for `verify`).
fn exits_2(args: &[&str], needle: &str) {
    let out = cli().args(args).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout} {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(
        stderr.contains(needle) || (args.contains(&"verify") && stdout.contains(needle)),
        "{args:?}: stdout {stdout} stderr {stderr}"
    );
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Every command that reads a tree refuses `path` with `needle` in its message.
fn every_reader_refuses(path: &Path, needle: &str) {
    let p = path.to_str().unwrap();
    let strategy = format!("tree:{p}");
    for args in [
        vec!["verify", p],
        vec!["export", p],
        vec!["export", "--format", "json", p],
        vec!["export", "--format", "selby", p],
        vec!["next", "--tree", p],
        vec!["next", "--tree", p, "salet:BBBBB"],
        vec!["path", "--tree", p, "--answer", "whiff"],
        vec!["play", "--tree", p, "--answer", "whiff"],
        vec!["simulate", "--strategy", &strategy],
    ] {
        exits_2(&args, needle);
    }
}

#[test]
fn a_guess_id_out_of_range_is_refused_at_load() {
    let game = wordle();
    let mut root = shipped_root(&game);
    root.guess = GuessId(60000);
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(
        msg.contains("at the root, guess id 60000 is not one of the 12972 allowed guesses"),
        "{msg}"
    );
    let mut root = shipped_root(&game);
    root.branches[3].1.branches[0].1.guess = GuessId(12972);
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(
        msg.contains("guess id 12972 is not one of the 12972 allowed guesses")
            && msg.contains("after 'salet:"),
        "{msg}"
    );
    // Through the binary: every reader exits 2 with the message (it used to abort
    // with an index out of bounds in export, next --tree and simulate).
    let dir = tempfile::tempdir().unwrap();
    let mut root = shipped_root(&game);
    root.guess = GuessId(60000);
    let p = write(dir.path(), "id.tree", &crafted(&game, false, 6, &root));
    every_reader_refuses(&p, "guess id 60000 is not one of the 12972 allowed guesses");
}

#[test]
fn a_missing_branch_is_refused_at_load() {
    let game = wordle();
    let mut root = shipped_root(&game);
    let (f, _) = root.branches.remove(5);
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(
        msg.contains(&format!("at the root, 'salet' has no branch for {}", f)),
        "{msg}"
    );
    // `export` printed 2094 of 2315 lines and exited 0; now it refuses.
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "pruned.tree", &crafted(&game, false, 6, &root));
    every_reader_refuses(&p, "has no branch for");
}

#[test]
fn unsorted_duplicate_and_green_branches_are_refused() {
    let game = wordle();
    let mut root = shipped_root(&game);
    root.branches.swap(0, 1);
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(msg.contains("are not sorted and distinct"), "{msg}");
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "unsorted.tree",
        &crafted(&game, false, 6, &root),
    );
    every_reader_refuses(&p, "are not sorted and distinct");

    let mut root = shipped_root(&game);
    let twin = root.branches[0].clone();
    root.branches.insert(0, twin);
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(msg.contains("are not sorted and distinct"), "{msg}");

    let mut root = shipped_root(&game);
    root.branches.push((
        Feedback::ALL_GREEN,
        Node {
            guess: GuessId(0),
            branches: vec![],
        },
    ));
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(msg.contains("'salet' has a branch for GGGGG"), "{msg}");

    let mut root = shipped_root(&game);
    root.branches[0].0 = Feedback(250);
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(msg.contains("not a feedback value"), "{msg}");
}

#[test]
fn a_branch_no_answer_reaches_is_refused() {
    let game = wordle();
    let table = FeedbackTable::build(&game);
    let mut root = shipped_root(&game);
    let ids: Vec<AnswerId> = (0..game.n_answers()).map(AnswerId::new).collect();
    let given: Vec<Feedback> = partition(&table, root.guess, &ids)
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    let empty = (0..242u8)
        .map(Feedback)
        .find(|f| !given.contains(f))
        .unwrap();
    let at = root.branches.partition_point(|(f, _)| *f < empty);
    let leaf = Node {
        guess: GuessId(0),
        branches: vec![],
    };
    root.branches.insert(at, (empty, leaf));
    let msg = refused(&crafted(&game, false, 6, &root), &game);
    assert!(
        msg.contains(&format!(
            "'salet' has a branch for {}, which no answer reaching it gives",
            empty
        )),
        "{msg}"
    );
}

#[test]
fn answers_beyond_the_guess_limit_and_hard_mode_breaks_are_refused() {
    let game = wordle();
    let root = shipped_root(&game);
    // The shipped tree needs 5 guesses for some answers: with a limit of 4 its nodes
    // nest too deep for the file, and a tree built in code is refused as well.
    let msg = refused(&crafted(&game, false, 4, &root), &game);
    assert!(
        msg.contains("nested deeper than the guess limit of 4"),
        "{msg}"
    );
    let e = Tree::new(&game, false, 4, root.clone()).unwrap_err();
    assert!(
        e.to_string()
            .contains("not found within the limit of 4 guesses"),
        "{e}"
    );
    for max in [0u8, 33, 255] {
        let msg = refused(&crafted(&game, false, max, &root), &game);
        assert!(
            msg.contains(&format!("guess limit {max} is not from 1 to 32")),
            "{msg}"
        );
    }
    // The normal tree in a hard-mode file breaks hard mode somewhere.
    let msg = refused(&crafted(&game, true, 6, &root), &game);
    assert!(msg.contains("breaks hard mode"), "{msg}");
    // The same tree is valid where it belongs.
    assert!(Tree::new(&game, false, 6, root).is_ok());
}

/// Bincode 2 (standard config) varint of `v`, to write bodies by hand.
fn varint(v: u64, out: &mut Vec<u8>) {
    match v {
        0..=250 => out.push(v as u8),
        251..=0xffff => {
            out.push(251);
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(252);
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        _ => {
            out.push(253);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// A body of `depth` nodes, each the only branch (feedback 0) of the one above.
fn nested_body(game: &Game, depth: usize) -> Vec<u8> {
    let mut body = vec![0, 6];
    varint(game.checksum, &mut body);
    varint(6, &mut body);
    body.extend_from_slice(b"wordle");
    for _ in 1..depth {
        body.extend_from_slice(&[0, 1, 0]); // guess 0, one branch, feedback 0
    }
    body.extend_from_slice(&[0, 0]); // guess 0, no branches
    body
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let game = wordle();
    // The hand-written encoding is the real one.
    let three = Node {
        guess: GuessId(0),
        branches: vec![(
            Feedback(0),
            Node {
                guess: GuessId(0),
                branches: vec![(
                    Feedback(0),
                    Node {
                        guess: GuessId(0),
                        branches: vec![],
                    },
                )],
            },
        )],
    };
    assert_eq!(
        wrap_tree_body(0, 6, game.checksum, &nested_body(&game, 3)),
        craft_tree_file(false, 6, game.checksum, "wordle", &three)
    );
    let bytes = wrap_tree_body(0, 6, game.checksum, &nested_body(&game, 50_000));
    let msg = refused(&bytes, &game);
    assert!(
        msg.contains("nested deeper than the guess limit of 6"),
        "{msg}"
    );
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "deep.tree", &bytes);
    for cmd in [vec!["verify"], vec!["export"], vec!["next", "--tree"]] {
        let mut args = cmd.clone();
        args.push(p.to_str().unwrap());
        exits_2(&args, "nested deeper than the guess limit of 6");
    }
}

#[test]
fn declared_lengths_are_not_allocated() {
    let game = wordle();
    // A 2^62-byte list name in a 50-byte file.
    let mut body = vec![0, 6, 0];
    varint(1 << 62, &mut body);
    let bytes = wrap_tree_body(0, 6, 0, &body);
    assert!(bytes.len() <= 50);
    let msg = refused(&bytes, &game);
    assert!(msg.contains("corrupted"), "{msg}");
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "name.tree", &bytes);
    exits_2(&["verify", p.to_str().unwrap()], "corrupted");
    exits_2(&["export", p.to_str().unwrap()], "corrupted");
    // A node declaring 2^62 branches.
    let mut body = vec![0, 6];
    varint(game.checksum, &mut body);
    varint(6, &mut body);
    body.extend_from_slice(b"wordle");
    body.push(0);
    varint(1 << 62, &mut body);
    let msg = refused(&wrap_tree_body(0, 6, game.checksum, &body), &game);
    assert!(msg.contains("branches (at most 242)"), "{msg}");
    // A long name, all there, is still refused.
    let root = shipped_root(&game);
    let long = "x".repeat(300);
    let msg = refused(
        &craft_tree_file(false, 6, game.checksum, &long, &root),
        &game,
    );
    assert!(msg.contains("a list name of 300 bytes"), "{msg}");
}

/// An endless file is not read whole: at most the largest tree file (64 MiB and a
/// header) is read, then it is refused.
#[cfg(unix)]
#[test]
fn an_endless_file_is_refused_without_reading_it_all() {
    let game = wordle();
    let e = file::load(Path::new("/dev/zero"), &game).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/dev/zero: corrupted (larger than the 67108902 bytes"),
        "{e}"
    );
}

#[test]
fn verify_escapes_the_list_name_read_from_the_file() {
    let game = wordle();
    let root = shipped_root(&game);
    let name = "evil\x1b[2J\x07\u{202e}name";
    let bytes = craft_tree_file(false, 6, 12345, name, &root);
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "name.tree", &bytes);
    let out = cli().arg("verify").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("INVALID: 1 problem(s)"), "{stdout}");
    assert!(
        stdout.contains("built on other word lists (evil\\u{1b}[2J\\u{7}\\u{202e}name"),
        "{stdout}"
    );
    assert!(
        !stdout.contains('\x1b') && !stdout.contains('\x07') && !stdout.contains('\u{202e}'),
        "{stdout}"
    );
    let out = cli().arg("export").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("evil\\u{1b}[2J"), "{stderr}");
    assert!(!stderr.contains('\x1b'), "{stderr}");
}

#[test]
fn the_shipped_and_solved_trees_still_load() {
    let game = wordle();
    for path in [
        "trees/salet.normal.wordle.tree",
        "trees/salet.hard.wordle.tree",
    ] {
        let tree = file::load(Path::new(path), &game).unwrap();
        assert!(tree.verify(&game).is_valid(), "{path}");
        // A valid tree re-encodes to the same bytes.
        assert_eq!(file::encode(&tree), std::fs::read(path).unwrap(), "{path}");
    }
    // Trees of other lists are a Lists error, not an Invalid one.
    let nyt = Game::load(&ListSource::Named("nyt".into())).unwrap();
    assert!(matches!(
        file::load(Path::new(NORMAL), &nyt),
        Err(FileError::Lists { .. })
    ));
}

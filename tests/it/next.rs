//! The shipped trees, and the `next`, `path` and `play` commands end to end, bad input
//! included (exit status 2 and a message naming what is wrong).

use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::path::Path;
use wordle_tree::players::play;
use wordle_tree::tree::file;
use wordle_tree::{Game, ListSource};

/// (list, hard, file, total) as produced by `solve --opener salet` (tarse for nyt2023,
/// lants for wordle-all; trees/README.md).
const SHIPPED: &[(&str, bool, &str, u64)] = &[
    ("wordle", false, "trees/salet.normal.wordle.tree", 7920),
    ("wordle", true, "trees/salet.hard.wordle.tree", 8122),
    ("nyt", false, "trees/salet.normal.nyt.tree", 7894),
    ("nyt", true, "trees/salet.hard.nyt.tree", 8097),
    // The published optima of tarse on the 2023 list: 11219 normal, 11627 hard.
    ("nyt2023", false, "trees/tarse.normal.nyt2023.tree", 11219),
    ("nyt2023", true, "trees/tarse.hard.nyt2023.tree", 11627),
    // The big game (every allowed word an answer): lants, proved optimal at 52896,
    // the published tree's total (proofs/lants.normal.wordle-all).
    (
        "wordle-all",
        false,
        "trees/lants.normal.wordle-all.tree",
        52896,
    ),
    // The NYT big game (14855 x 14855) from lants, proved 61190
    // (proofs/lants.normal.nyt-all); no optimum is published for this game.
    ("nyt-all", false, "trees/lants.normal.nyt-all.tree", 61190),
];

#[test]
fn shipped_trees_load_verify_and_carry_the_lists_checksum() {
    for &(list, hard, path, total) in SHIPPED {
        let game = Game::load(&ListSource::Named(list.into())).unwrap();
        let tree = file::load(Path::new(path), &game).unwrap();
        assert_eq!(tree.list_checksum(), game.checksum, "{path}");
        assert_eq!(tree.hard(), hard, "{path}");
        assert_eq!(tree.max_guesses(), 6, "{path}");
        let opener = path.split(['/', '.']).nth(1).unwrap();
        assert_eq!(game.guesses[tree.root().guess.index()].to_string(), opener);
        let replay = tree.verify(&game);
        assert!(replay.is_valid(), "{path}: {:?}", replay.problems.first());
        assert_eq!(replay.total(), total, "{path}");
        // The `paths` text beside it has exactly the tree's path of every answer.
        let text = std::fs::read_to_string(path.replace(".tree", ".paths")).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        let mut want: Vec<String> = game
            .answer_ids()
            .map(|a| {
                let steps = play::path(&game, tree.root(), a).unwrap();
                steps
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        format!("{} {}{}", game.guesses[s.guess.index()], s.feedback, i + 1)
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        lines.sort_unstable();
        want.sort_unstable();
        assert_eq!(lines, want, "{path}");
    }
}

#[test]
fn the_wrong_lists_are_refused_when_loading() {
    let nyt = Game::load(&ListSource::Named("nyt".into())).unwrap();
    let e = file::load(Path::new(SHIPPED[0].2), &nyt).unwrap_err();
    assert!(e.to_string().contains("other word lists"), "{e}");
}

fn wt() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

/// What a successful command prints, given `input` on stdin.
fn output(args: &[&str], input: &str) -> String {
    let out = wt()
        .args(args)
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// The JSON a successful command prints.
fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&output(args, "")).unwrap()
}

#[test]
fn next_without_history_is_the_opener() {
    wt().arg("next")
        .assert()
        .success()
        .stdout(contains("next guess: salet").and(contains("candidates left: 2315")))
        .stdout(contains("3.4212"));
    wt().args(["next", "--hard", "--list", "nyt"])
        .assert()
        .success()
        .stdout(contains("next guess: salet").and(contains("candidates left: 2309")));
}

#[test]
fn next_follows_the_tree() {
    let out = output(&["next", "salet:BBBBB", "courd:BBBBY"], "");
    assert!(
        out.contains("candidates left: 6: biddy dingy dizzy dying giddy windy"),
        "{out}"
    );
    assert!(!out.contains("off the stored tree"), "{out}");
    // Lowercase, '.' for gray and digits are accepted too.
    wt().args(["next", "SALET:.....", "courd:00001"])
        .assert()
        .success()
        .stdout(contains("candidates left: 6"));
}

#[test]
fn next_json_is_for_programs() {
    let v = json(&["next", "--json", "salet:BBBBB", "courd:BBBBY"]);
    assert_eq!(v["candidates"], 6);
    assert_eq!(v["source"], "tree");
    assert_eq!(v["words"].as_array().unwrap().len(), 6);
    let e = v["expected_guesses"].as_f64().unwrap();
    assert!((e - v["cost"].as_f64().unwrap() / 6.0).abs() < 1e-9);
    let v = json(&[
        "next",
        "--json",
        "salet:BBBBB",
        "courd:BBBBB",
        "nymph:BBBBY",
        "whiff:GGGGG",
    ]);
    assert_eq!(v["found"], true);
    assert_eq!(v["answer"], "whiff");
    assert_eq!(v["guesses"], 4);
}

/// Issue 14.19: "solved" (the answer found) sat beside "proven_optimal" (the search
/// proved its value) and read as a contradiction. Now `found` says whether the answer
/// is found, `proven_optimal` only speaks of the search, and no field is "solved".
#[test]
fn next_json_names_found_apart_from_proven_optimal() {
    let v = json(&["next", "--json", "crane:BBYBB"]);
    assert_eq!(v["found"], false, "{v}");
    assert_eq!(v["proven_optimal"], true, "{v}");
    assert_eq!(v["source"], "search", "{v}");
    assert!(v.get("solved").is_none(), "{v}");
    let v = json(&["next", "--json", "salet:BBBBB"]);
    assert_eq!(v["found"], false, "{v}");
    assert_eq!(v["source"], "tree", "{v}");
    assert!(v.get("solved").is_none(), "{v}");
    let v = json(&["next", "--json", "whiff:GGGGG"]);
    assert_eq!(v["found"], true, "{v}");
    assert!(v.get("solved").is_none(), "{v}");
}

#[test]
fn off_the_tree_is_solved_exactly() {
    wt().args(["next", "crane:BBYBB"])
        .assert()
        .success()
        .stdout(contains("off the stored tree at step 1").and(contains("solved exactly")))
        .stdout(contains("candidates left: 134"));
    // A tree guess after the opener, then another word: leaves at step 2.
    wt().args(["--hard", "next", "salet:BBBBB", "crony:BBBBB"])
        .assert()
        .success()
        .stdout(contains("off the stored tree at step 2").and(contains("next guess:")));
}

/// With a time limit, a large state off the tree (435 candidates after `audio`, an
/// exact solve of seconds) gets the best guess found, marked as not proved, with a
/// plan that costs what it says and a proved lower bound below it.
#[test]
fn a_time_limit_settles_for_the_best_guess_found_and_says_so() {
    let v = json(&["next", "--json", "--time-limit", "0", "audio:YBBBB"]);
    assert_eq!(v["candidates"], 435);
    assert_eq!(v["source"], "search");
    assert_eq!(v["proven_optimal"], false, "{v}");
    let (cost, lower) = (
        v["cost"].as_u64().unwrap(),
        v["lower_bound"].as_u64().unwrap(),
    );
    // 1307 is the proved optimum (perst); the bound is what was proved by then.
    assert!(lower < 1307 && 1307 <= cost, "{v}");
    assert!(
        v["note"].as_str().unwrap().contains("NOT PROVEN OPTIMAL"),
        "{v}"
    );
    // Exact answers say so in JSON too; on the shipped tree below the root the move is
    // proved (the tree is optimal from its opener), as `serve` says (tests/it/serve.rs).
    let v = json(&["next", "--json", "--time-limit", "60", "crane:BBYBB"]);
    assert_eq!(v["proven_optimal"], true, "{v}");
    assert_eq!(v["lower_bound"], v["cost"], "{v}");
    let v = json(&["next", "--json", "salet:BBBBB"]);
    assert!(
        v["proven_optimal"] == true && v["lower_bound"] == v["cost"],
        "{v}"
    );
    // `play` takes the same limit.
    let out = output(&["play", "--time-limit", "0"], "audio YBBBB\nquit\n");
    assert!(
        out.contains("NOT PROVEN OPTIMAL") && out.contains("guess 2: "),
        "{out}"
    );
    fails(
        &["next", "--time-limit", "soon", "audio:YBBBB"],
        "'soon' is not a number of seconds",
    );
    fails(
        &["next", "--time-limit=-1", "audio:YBBBB"],
        "a time limit is a finite number of seconds, 0 or more",
    );
}

#[test]
fn path_shows_the_whole_path() {
    wt().args(["path", "--answer", "whiff"])
        .assert()
        .success()
        .stdout(contains(
            "salet BBBBB1 courd BBBBB2 nymph BBBBY3 whiff GGGGG4\n",
        ));
    wt().args(["path", "--answer", "salet"])
        .assert()
        .code(2)
        .stderr(contains("not a possible answer"));
}

#[test]
fn the_shipped_tree_is_found_from_another_directory() {
    let dir = tempfile::tempdir().unwrap();
    wt().current_dir(dir.path())
        .arg("next")
        .assert()
        .success()
        .stdout(contains("next guess: salet"));
}

fn fails(args: &[&str], message: &str) {
    wt().args(args)
        .assert()
        .code(2)
        .stderr(contains(message))
        .stdout(predicate::str::is_empty());
}

#[test]
fn bad_history_tokens_are_refused() {
    fails(&["next", "salet:BBGX"], "'salet:BBGX'");
    fails(&["next", "salet:BBGX"], "4 characters, expected 5");
    fails(&["next", "salet:BBGXQ"], "unknown character 'Q'");
    fails(
        &["next", "salet"],
        "the guess salet has no feedback: type salet:BYBBG",
    );
    fails(&["next", "sal:BBBBB"], "3 letters, expected 5");
    fails(
        &["next", "zzzzz:BBBBB"],
        "'zzzzz' is not in the allowed guesses",
    );
}

#[test]
fn impossible_histories_name_the_step() {
    fails(
        &["next", "crane:BBYBB", "salet:GGGGY"],
        "step 2: no answer is consistent with salet:GGGGY after crane:BBYBB",
    );
    fails(
        &["--hard", "next", "salet:BYBBB", "courd:BBBBB"],
        "step 2: courd:BBBBB breaks hard mode after salet:BYBBB: must contain 'a'",
    );
    fails(
        &["--hard", "next", "salet:BBBGB", "brake:BBBBB"],
        "position 4 must be 'e'",
    );
    fails(&["next", "whiff:GGGGG", "salet:BBBBB"], "step 2");
}

#[test]
fn trees_for_other_lists_or_mode_are_refused() {
    fails(
        &[
            "--list",
            "nyt",
            "next",
            "--tree",
            "trees/salet.normal.wordle.tree",
        ],
        "other word lists",
    );
    fails(
        &["--hard", "next", "--tree", "trees/salet.normal.wordle.tree"],
        "a normal mode tree, but hard mode is in use",
    );
    fails(
        &["--list", "sowpods", "next"],
        "no shipped tree salet.normal.sowpods.tree",
    );
    fails(
        &["next", "--tree", "no/such.tree"],
        "no/such.tree: cannot read",
    );
}

#[test]
fn damaged_tree_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(SHIPPED[0].2).unwrap();
    let cut = dir.path().join("cut.tree");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    fails(&["next", "--tree", cut.to_str().unwrap()], "truncated");
    let mut bad = bytes.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x55;
    let flipped = dir.path().join("flipped.tree");
    std::fs::write(&flipped, &bad).unwrap();
    fails(&["next", "--tree", flipped.to_str().unwrap()], "corrupted");
    let junk = dir.path().join("junk.tree");
    std::fs::write(&junk, b"salet BBBBB1 courd").unwrap();
    fails(
        &["play", "--tree", junk.to_str().unwrap()],
        "not a wordle-tree file",
    );
    // Sound checksums but a branch cut off: refused when loading.
    let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let tree = file::load(Path::new(SHIPPED[0].2), &game).unwrap();
    let mut root = tree.root().clone();
    root.branches.pop();
    let pruned = dir.path().join("pruned.tree");
    let bytes = common::craft_tree_file(false, 6, game.checksum, "wordle", &root);
    std::fs::write(&pruned, bytes).unwrap();
    fails(
        &["next", "--tree", pruned.to_str().unwrap()],
        "not a valid tree for these lists: at the root, 'salet' has no branch for",
    );
}

fn play(input: &str) -> String {
    output(&["play"], input)
}

#[test]
fn play_follows_the_feedback_and_forgives_typos() {
    let out = play("BBBBB\nBBBBQ\nhello\nBBBB\nBBBBB\nbbbby\nGGGGG\n");
    assert!(out.contains("guess 1: salet"), "{out}");
    assert!(out.contains("guess 2: courd"), "{out}");
    assert!(out.contains("unknown character 'Q'"), "{out}");
    assert!(out.contains("'hello' is not a feedback"), "{out}");
    assert!(out.contains("4 characters, expected 5"), "{out}");
    assert!(out.contains("guess 3: nymph"), "{out}");
    assert!(out.contains("guess 4: whiff"), "{out}");
    assert!(out.contains("solved: whiff in 4 guesses"), "{out}");
    assert!(
        out.contains("game: salet:BBBBB courd:BBBBB nymph:BBBBY whiff:GGGGG\nreview it: wordle-tree review salet:BBBBB courd:BBBBB nymph:BBBBY whiff:GGGGG"),
        "{out}"
    );
}

#[test]
fn play_keeps_solving_off_the_tree() {
    let out = play("crane BBYBB\nsalet:GGGGY\nzzzzz BBBBB\nundo\ncrane:BBYBB\n");
    assert!(out.contains("off the stored tree at step 1"), "{out}");
    assert!(
        out.contains("step 2: no answer is consistent with salet:GGGGY after crane:BBYBB"),
        "{out}"
    );
    assert!(
        out.contains("'zzzzz' is not in the allowed guesses"),
        "{out}"
    );
    assert!(out.contains("took back the last guess"), "{out}");
    assert!(out.contains("end of input"), "{out}");
}

#[test]
fn play_ends_cleanly_on_eof_and_on_impossible_feedback() {
    let out = play("");
    assert!(
        out.contains("guess 1: salet") && out.contains("end of input"),
        "{out}"
    );
    let out = play("GGGGY\n\n");
    assert!(
        out.contains("no answer is consistent with salet:GGGGY"),
        "{out}"
    );
    assert!(out.contains("empty line"), "{out}");
    // Not valid UTF-8: a message, not a crash.
    let out = wt()
        .arg("play")
        .write_stdin(vec![0xff, 0xfe, b'\n'])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&out).contains("type 'help'"));
}

#[test]
fn play_by_itself_shows_the_path() {
    wt().args(["play", "--answer", "whiff"])
        .assert()
        .success()
        .stdout(contains("guess 1: salet BBBBB").and(contains("solved: whiff in 4 guesses")))
        .stdout(contains(
            "game: salet:BBBBB courd:BBBBB nymph:BBBBY whiff:GGGGG",
        ));
    wt().args(["--hard", "play", "--answer", "whiff"])
        .assert()
        .success()
        .stdout(contains("solved: whiff in"));
}

#[test]
fn next_on_nyt2023_uses_the_shipped_tarse_trees() {
    for hard in [false, true] {
        let mut c = Command::cargo_bin("wordle-tree").unwrap();
        c.args(["--list", "nyt2023"]);
        if hard {
            c.arg("--hard");
        }
        c.arg("next")
            .assert()
            .code(0)
            .stdout(contains("next guess: tarse").and(contains("candidates left: 3158")));
    }
}

#[test]
fn the_big_game_reads_its_shipped_lants_tree() {
    let out = output(&["--list", "wordle-all", "next", "lants:BBBBG"], "");
    assert!(out.contains("next guess: pored"), "{out}");
    assert!(out.contains("candidates left: 1132"), "{out}");
}

//! Fuzzing the input boundaries (issue 14): arbitrary bytes, and valid tree files
//! mutated then re-checksummed (byte edits of the body, and edits of the tree's
//! structure), go to the tree decoder and, when it accepts them, through what `verify`,
//! `export` and `next --tree` do with a tree; arbitrary strings go to the history
//! parser and the list loader. Nothing may panic, every accepted tree must be sound,
//! and every error is one clear, short line naming the file.
//!
//! The default suite runs a few hundred cases per property (a few seconds). The long
//! run scales by `PROPTEST_CASES`:
//! `PROPTEST_CASES=100000 cargo test --release --test it fuzz::`.

use crate::common;

use common::{craft_tree_file, wrap_tree_body};
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::word::{Word, WordList};
use wordle_tree::game::{AnswerId, GuessId};
use wordle_tree::players::play::{self, Advice, Guide};
use wordle_tree::search::{Config, Solver};
use wordle_tree::tree::file::{self, HEADER_BYTES};
use wordle_tree::tree::text;
use wordle_tree::tree::{Node, Tree};
use wordle_tree::{Feedback, FeedbackTable, Game, ListSource};

fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A game, its feedback table, and valid tree files for it (normal and hard).
struct Fixture {
    game: Game,
    table: FeedbackTable,
    trees: Vec<(Tree, Vec<u8>)>,
}

/// The wordle lists with the shipped trees.
fn wordle() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
        let table = FeedbackTable::build(&game);
        let trees = [
            "trees/salet.normal.wordle.tree",
            "trees/salet.hard.wordle.tree",
        ]
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            (file::decode(&bytes, Path::new(p), &game).unwrap(), bytes)
        })
        .collect();
        Fixture { game, table, trees }
    })
}

/// A small game (40 answers, about 110 guesses) with solved trees, quick to check.
fn small() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
        let answers: Vec<Word> = full.answers.iter().step_by(58).copied().collect();
        let guesses: Vec<Word> = full.guesses.iter().step_by(120).copied().collect();
        let game = Game::from_words(&answers, &guesses);
        let table = FeedbackTable::build(&game);
        let ids: Vec<AnswerId> = (0..game.n_answers()).map(AnswerId::new).collect();
        let trees = [false, true]
            .iter()
            .map(|&hard| {
                let config = Config {
                    hard,
                    ..Config::default()
                };
                let root = Solver::new(&game, &table, config).build(&ids, 6, &Revealed::default());
                let tree = Tree::new(&game, hard, 6, root).unwrap();
                let bytes = file::encode(&tree);
                (tree, bytes)
            })
            .collect();
        Fixture { game, table, trees }
    })
}

/// What a caller may rely on from the decoder: a sound tree, or one clear line.
fn check_decoded(fx: &Fixture, bytes: &[u8]) -> Result<(), TestCaseError> {
    let path = Path::new("fuzzed.tree");
    match file::decode(bytes, path, &fx.game) {
        Err(e) => {
            let msg = e.to_string();
            prop_assert!(msg.starts_with("fuzzed.tree: "), "{}", msg);
            prop_assert!(msg.len() > "fuzzed.tree: ".len() + 5, "{}", msg);
            prop_assert!(msg.len() < 1000, "{} bytes: {}", msg.len(), &msg[..300]);
            prop_assert!(!msg.chars().any(|c| c.is_control()), "{:?}", msg);
        }
        Ok(tree) => exercise(fx, &tree)?,
    }
    Ok(())
}

/// Runs an accepted tree through `verify`, `export` and `next --tree`'s library calls.
fn exercise(fx: &Fixture, tree: &Tree) -> Result<(), TestCaseError> {
    let game = &fx.game;
    // verify: the reference replay agrees with the load-time validation.
    let replay = tree.verify(game);
    prop_assert!(replay.is_valid(), "{:?}", replay.problems.first());
    prop_assert!(replay.max_depth() <= tree.max_guesses() as u32);
    // export: one line per answer, each ending all green at its depth.
    let lines = text::paths(game, &fx.table, tree);
    prop_assert_eq!(lines.len(), game.n_answers());
    for line in &lines {
        let last = line.rsplit(' ').next().unwrap();
        prop_assert!(last.starts_with("GGGGG"), "{}", line);
    }
    prop_assert_eq!(text::selby(&lines).len(), lines.len());
    let json = text::json(game, &fx.table, tree);
    prop_assert!(json["guess"].is_string());
    // next --tree: the opener, then one step along the tree for a few answers.
    let stop = AtomicBool::new(false);
    let guide = Guide::Tree(tree);
    match play::advise(game, guide, &[], &stop, None) {
        Ok(Advice::Play(m)) => {
            prop_assert_eq!(m.guess, tree.root().guess);
            prop_assert_eq!(m.candidates.len(), game.n_answers());
            prop_assert_eq!(m.cost, replay.total());
        }
        other => prop_assert!(false, "{:?}", other.map(|_| ())),
    }
    for a in (0..game.n_answers()).map(AnswerId::new).step_by(97) {
        let steps = play::path(game, tree.root(), a).unwrap();
        prop_assert_eq!(steps.len() as u32, replay.depths[a.index()]);
        let advice = play::advise(game, guide, &steps[..1], &stop, None);
        prop_assert!(advice.is_ok(), "{:?}", advice.err());
    }
    Ok(())
}

/// The checks themselves accept every valid tree (so a case that passes them says
/// something).
#[test]
fn valid_trees_pass_every_check() {
    for fx in [small(), wordle()] {
        for (_, bytes) in &fx.trees {
            check_decoded(fx, bytes).unwrap();
        }
    }
}

/// A byte edit of a body.
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Xor(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        4 => (any::<usize>(), 1..=255u8).prop_map(|(i, b)| Edit::Xor(i, b)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
        2 => any::<usize>().prop_map(Edit::Remove),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

/// The body of `bytes` (a valid file) edited, in a file with a sound header and
/// checksum (the header's mode and limit kept, or set from `header`).
fn mutated(bytes: &[u8], edits: &[Edit], header: Option<(u8, u8)>) -> Vec<u8> {
    let mut body = bytes[HEADER_BYTES..bytes.len() - 8].to_vec();
    for e in edits {
        let n = body.len().max(1);
        match *e {
            Edit::Set(i, b) if !body.is_empty() => body[i % n] = b,
            Edit::Xor(i, b) if !body.is_empty() => body[i % n] ^= b,
            Edit::Insert(i, b) => body.insert(i % (body.len() + 1), b),
            Edit::Remove(i) if !body.is_empty() => {
                body.remove(i % n);
            }
            Edit::Truncate(i) => body.truncate(i % n),
            _ => {}
        }
    }
    let (hard, max) = header.unwrap_or((bytes[12], bytes[13]));
    let lists = u64::from_le_bytes(bytes[14..22].try_into().unwrap());
    wrap_tree_body(hard, max, lists, &body)
}

/// A structural edit of a tree, at the `at`-th node in depth-first order.
#[derive(Clone, Debug)]
enum Change {
    Guess(usize, u16),
    DropBranch(usize, usize),
    SwapBranches(usize, usize, usize),
    Feedback(usize, usize, u8),
    DuplicateBranch(usize, usize),
    Graft(usize, usize),
    Deepen(usize, u8),
}

fn change() -> impl Strategy<Value = Change> {
    let guess = prop_oneof![any::<u16>(), 0..200u16, 12900..13100u16];
    prop_oneof![
        (any::<usize>(), guess).prop_map(|(n, g)| Change::Guess(n, g)),
        (any::<usize>(), any::<usize>()).prop_map(|(n, b)| Change::DropBranch(n, b)),
        (any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(n, a, b)| Change::SwapBranches(n, a, b)),
        (any::<usize>(), any::<usize>(), any::<u8>())
            .prop_map(|(n, b, f)| Change::Feedback(n, b, f)),
        (any::<usize>(), any::<usize>()).prop_map(|(n, b)| Change::DuplicateBranch(n, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(n, m)| Change::Graft(n, m)),
        (any::<usize>(), any::<u8>()).prop_map(|(n, f)| Change::Deepen(n, f)),
    ]
}

/// The `k`-th node (depth-first, mod the node count) of `root`.
fn nth(root: &mut Node, k: usize) -> &mut Node {
    fn walk<'a>(node: &'a mut Node, k: &mut usize) -> Option<&'a mut Node> {
        if *k == 0 {
            return Some(node);
        }
        *k -= 1;
        for (_, child) in node.branches.iter_mut() {
            if let Some(found) = walk(child, k) {
                return Some(found);
            }
        }
        None
    }
    let mut k = k % root.size();
    walk(root, &mut k).expect("k is below the node count")
}

fn apply(root: &mut Node, change: &Change) {
    match *change {
        Change::Guess(n, g) => nth(root, n).guess = GuessId(g),
        Change::DropBranch(n, b) => {
            let node = nth(root, n);
            if !node.branches.is_empty() {
                let i = b % node.branches.len();
                node.branches.remove(i);
            }
        }
        Change::SwapBranches(n, a, b) => {
            let node = nth(root, n);
            let len = node.branches.len();
            if len > 0 {
                node.branches.swap(a % len, b % len);
            }
        }
        Change::Feedback(n, b, f) => {
            let node = nth(root, n);
            let len = node.branches.len();
            if len > 0 {
                node.branches[b % len].0 = Feedback(f);
            }
        }
        Change::DuplicateBranch(n, b) => {
            let node = nth(root, n);
            let len = node.branches.len();
            if len > 0 {
                let twin = node.branches[b % len].clone();
                node.branches.insert(b % len, twin);
            }
        }
        Change::Graft(n, m) => {
            let donor = nth(root, m).clone();
            let node = nth(root, n);
            let len = node.branches.len();
            if len > 0 {
                node.branches[m % len].1 = donor;
            }
        }
        Change::Deepen(n, f) => {
            let node = nth(root, n);
            let inner = std::mem::replace(
                node,
                Node {
                    guess: GuessId(0),
                    branches: vec![],
                },
            );
            *node = Node {
                guess: inner.guess,
                branches: vec![(Feedback(f), inner)],
            };
        }
    }
}

proptest! {
    #![proptest_config(cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic_the_decoder(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_decoded(small(), &bytes)?;
    }

    #[test]
    fn arbitrary_bodies_behind_a_sound_header_never_panic_the_decoder(
        hard in 0..3u8,
        max in prop_oneof![1..=8u8, any::<u8>()],
        body in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        let fx = small();
        check_decoded(fx, &wrap_tree_body(hard, max, fx.game.checksum, &body))?;
    }

    #[test]
    fn mutated_small_trees_are_sound_or_refused(
        which in 0..2usize,
        edits in prop::collection::vec(edit(), 1..6),
        header in prop::option::weighted(0.1, (0..3u8, any::<u8>())),
    ) {
        let fx = small();
        check_decoded(fx, &mutated(&fx.trees[which].1, &edits, header))?;
    }

    #[test]
    fn restructured_small_trees_are_sound_or_refused(
        which in 0..2usize,
        changes in prop::collection::vec(change(), 1..4),
        max in prop_oneof![8 => Just(6u8), 1 => 1..=10u8],
    ) {
        let fx = small();
        let (tree, _) = &fx.trees[which];
        let mut root = tree.root().clone();
        for c in &changes {
            apply(&mut root, c);
        }
        let bytes = craft_tree_file(tree.hard(), max, fx.game.checksum, "custom", &root);
        check_decoded(fx, &bytes)?;
    }

    #[test]
    fn arbitrary_histories_never_panic_the_history_parser(
        s in "([a-z]{5}|[GYBxw.0-2]{3,6}|[🟩🟨⬛⬜🟧🟦]{3,6}|Wordle|[0-9X],?[0-9]*/6\\*?|:|,| |\n|\\PC){0,30}",
        answer in proptest::option::of("[a-z]{5}|\\PC{0,8}"),
    ) {
        let fx = small();
        match play::parse_history(&fx.game, &[&s], answer.as_deref()) {
            Ok(steps) => {
                if let Err(e) = play::replay(&fx.game, &steps, false) {
                    prop_assert!(!e.to_string().is_empty());
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.len() < 600, "{}", msg);
                prop_assert!(!msg.chars().any(|c| c.is_control()), "{:?}", msg);
            }
        }
    }

    #[test]
    fn arbitrary_history_tokens_never_panic_the_parser(s in "\\PC{0,60}|[a-zA-Z:.\\-0-9]{0,20}|.{0,200}") {
        let fx = small();
        match play::parse_step(&fx.game, &s) {
            Ok(step) => {
                prop_assert!(((step.guess).index()) < fx.game.n_guesses());
                // A parsed step replays or is refused with a message.
                if let Err(e) = play::replay(&fx.game, &[step], false) {
                    prop_assert!(!e.to_string().is_empty());
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.len() < 400, "{}", msg);
                prop_assert!(!msg.chars().any(|c| c.is_control()), "{:?}", msg);
            }
        }
    }

    #[test]
    fn arbitrary_list_files_never_panic_the_loader(s in "\\PC{0,300}|([a-zA-Z]{0,7}[\\r\\n \\t\\u{feff}]{1,2}){0,30}|.{0,300}") {
        match WordList::parse(&s, Path::new("list.txt")) {
            Ok(list) => {
                prop_assert!(!list.words.is_empty());
                let mut words = list.words.clone();
                words.sort();
                words.dedup();
                prop_assert_eq!(words.len(), list.words.len());
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.starts_with("list.txt"), "{}", msg);
                prop_assert!(msg.len() < 300, "{}", msg);
                prop_assert!(!msg.chars().any(|c| c.is_control()), "{:?}", msg);
            }
        }
    }
}

proptest! {
    // The wordle trees: each case replays 2315 answers, so fewer cases by default.
    #![proptest_config(cases(40))]

    #[test]
    fn mutated_shipped_trees_are_sound_or_refused(
        which in 0..2usize,
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let fx = wordle();
        check_decoded(fx, &mutated(&fx.trees[which].1, &edits, None))?;
    }

    #[test]
    fn restructured_shipped_trees_are_sound_or_refused(
        which in 0..2usize,
        changes in prop::collection::vec(change(), 1..3),
    ) {
        let fx = wordle();
        let (tree, _) = &fx.trees[which];
        let mut root = tree.root().clone();
        for c in &changes {
            apply(&mut root, c);
        }
        let bytes = craft_tree_file(tree.hard(), 6, fx.game.checksum, "wordle", &root);
        check_decoded(fx, &bytes)?;
    }
}

/// The binary on re-checksummed random mutations of the shipped tree (19 of 120 such
/// files used to abort `export`): exit 0 with every answer's line, or exit 2 with one
/// line on stderr; never a panic or an abort.
#[test]
fn the_binary_survives_mutated_tree_files() {
    let fx = wordle();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = common::Rng(0x5eed_7e3e);
    let original = &fx.trees[0].1;
    let body = original.len() - HEADER_BYTES - 8;
    for i in 0..16 {
        let edits: Vec<Edit> = (0..1 + rng.below(3))
            .map(|_| Edit::Set(rng.below(body), rng.next() as u8))
            .collect();
        let path = dir.path().join(format!("m{i}.tree"));
        std::fs::write(&path, mutated(original, &edits, None)).unwrap();
        for args in [
            vec!["export"],
            vec!["export", "--format", "json"],
            vec!["next", "--tree"],
        ] {
            let out = assert_cmd::Command::cargo_bin("wordle-tree")
                .unwrap()
                .args(&args)
                .arg(&path)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) if args[0] == "export" && args.len() == 1 => {
                    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 2315)
                }
                Some(0) => {}
                Some(2) => assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}"),
                other => panic!("{args:?} {edits:?}: status {other:?}: {stderr}"),
            }
        }
    }
}

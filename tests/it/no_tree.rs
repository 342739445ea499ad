//! `next`, `play` and `path` with no tree (issue 14, point 18): on custom lists without
//! `--tree`, or with a chosen `--opener`, every state is solved exactly from the
//! history, the opener too; the values are the solver's exact optimum.

use assert_cmd::Command;
use std::path::PathBuf;
use wordle_tree::game::feedback::Feedback;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::word::Word;
use wordle_tree::game::{AnswerId, GuessId};
use wordle_tree::search::{Config, Solver};
use wordle_tree::{FeedbackTable, Game, ListSource};

/// A small custom game (every 46th answer, every 65th other guess) in files.
struct Custom {
    _dir: tempfile::TempDir,
    answers: PathBuf,
    guesses: PathBuf,
    game: Game,
}

fn custom() -> Custom {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let answers: Vec<Word> = full.answers.iter().step_by(46).copied().collect();
    let guesses: Vec<Word> = full.guesses[full.n_answers()..]
        .iter()
        .step_by(65)
        .copied()
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let text = |ws: &[Word]| ws.iter().map(|w| format!("{w}\n")).collect::<String>();
    let (a, g) = (dir.path().join("a.txt"), dir.path().join("g.txt"));
    std::fs::write(&a, text(&answers)).unwrap();
    std::fs::write(&g, text(&guesses)).unwrap();
    Custom {
        _dir: dir,
        answers: a,
        guesses: g,
        game: Game::from_words(&answers, &guesses),
    }
}

impl Custom {
    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("wordle-tree").unwrap();
        c.arg("--answers").arg(&self.answers);
        c.arg("--guesses").arg(&self.guesses);
        c
    }

    fn json(&self, args: &[&str]) -> serde_json::Value {
        let out = self.cmd().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

#[test]
fn next_on_custom_lists_without_a_tree_solves_the_opener_exactly() {
    let c = custom();
    let game = &c.game;
    let table = FeedbackTable::build(game);
    let solver = Solver::new(game, &table, Config::default());
    let all: Vec<AnswerId> = (0..game.n_answers()).map(AnswerId::new).collect();
    let optimum = solver.cost(&all, 6, &Revealed::default()).unwrap().unwrap() as u64;
    // It used to stop with "no shipped tree for custom word lists".
    let v = c.json(&["next", "--json"]);
    assert_eq!(v["cost"], optimum, "{v}");
    assert_eq!(v["proven_optimal"], true, "{v}");
    assert_eq!(v["source"], "search", "{v}");
    assert_eq!(v["found"], false, "{v}");
    assert_eq!(v["candidates"], game.n_answers());
    // The guess given is one whose own optimal tree costs the optimum.
    let guess = game
        .guess_id(Word::parse(v["guess"].as_str().unwrap()).unwrap())
        .unwrap();
    let (total, _) = solver.solve_opener(guess, &|_, _, _| {}).unwrap();
    assert_eq!(total, optimum);

    // After a history: the exact optimum of the state left.
    let word = game.guesses[game.n_guesses() - 1];
    let f = Feedback::compute(word, game.answers[7]);
    let token = format!("{word}:{f}");
    let v = c.json(&["next", "--json", &token]);
    let bucket: Vec<AnswerId> = all
        .iter()
        .copied()
        .filter(|&a| Feedback::compute(word, game.answers[a.index()]) == f)
        .collect();
    let want = solver
        .cost(&bucket, 5, &Revealed::default())
        .unwrap()
        .unwrap() as u64;
    assert_eq!(v["candidates"], bucket.len());
    assert_eq!(v["cost"], want, "{v}");
    assert_eq!(v["proven_optimal"], true, "{v}");
    // Plain text says where the advice came from.
    let out = c.cmd().arg("next").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no stored tree: solved exactly"), "{text}");
}

#[test]
fn a_chosen_opener_is_played_and_the_rest_solved_exactly() {
    let c = custom();
    let game = &c.game;
    let table = FeedbackTable::build(game);
    let solver = Solver::new(game, &table, Config::default());
    let opener = GuessId(3);
    let name = game.guesses[opener.index()].to_string();
    let (total, _) = solver.solve_opener(opener, &|_, _, _| {}).unwrap();
    let v = c.json(&["next", "--json", "--opener", &name]);
    assert_eq!(v["guess"], name.as_str(), "{v}");
    assert_eq!(v["cost"], total, "{v}");
    // Exact for this opener, but no claim that it is the best opener.
    assert_eq!(v["proven_optimal"], false, "{v}");
    assert!(v["lower_bound"].is_null(), "{v}");
    // --opener and --tree do not go together.
    let out = c
        .cmd()
        .args(["next", "--opener", &name, "--tree", "x.tree"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn path_and_play_on_custom_lists_without_a_tree() {
    let c = custom();
    let game = &c.game;
    for a in [0usize, 17, game.n_answers() - 1] {
        let answer = game.answers[a].to_string();
        let out = c
            .cmd()
            .args(["path", "--answer", &answer])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let first = text.lines().next().unwrap();
        assert!(
            first.ends_with(&format!("{answer} GGGGG{}", first.split(' ').count() / 2)),
            "{text}"
        );
        assert!(text.contains("by exact search (no stored tree)"), "{text}");
        let out = c
            .cmd()
            .args(["play", "--answer", &answer])
            .output()
            .unwrap();
        let played = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success());
        assert!(played.contains(&format!("solved: {answer} in")), "{played}");
        // play and path take the same route (play writes it as review reads it).
        let words: Vec<&str> = first.split(' ').collect();
        let tokens: Vec<String> = words
            .chunks(2)
            .map(|p| {
                format!(
                    "{}:{}",
                    p[0],
                    p[1].trim_end_matches(|c: char| c.is_ascii_digit())
                )
            })
            .collect();
        assert!(
            played.contains(&format!("game: {}", tokens.join(" "))),
            "{played}\n{first}"
        );
        assert!(played.contains(" --answers "), "{played}");
    }
}

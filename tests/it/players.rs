//! For players (issue 35): every notation and history form gives the same game in the
//! CLI; `review --answer` is the review with the feedback written out; `play` ends with
//! a review command that `review` takes back; bad share texts are one-line errors
//! naming the row; JSON output keeps its errors JSON; help texts are complete.

use assert_cmd::Command;
use std::sync::atomic::AtomicBool;
use wordle_tree::analysis::{choose, Metric};
use wordle_tree::game::feedback::Feedback;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::word::Word;
use wordle_tree::game::{AnswerId, Game, GuessId, ListSource};
use wordle_tree::players::play::{self, Step};
use wordle_tree::players::review::{self, Options};

fn wt() -> Command {
    let mut c = Command::cargo_bin("wordle-tree").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Runs the CLI: (exit code, stdout, stderr).
fn run(args: &[&str], input: &str) -> (i32, String, String) {
    let out = wt().args(args).write_stdin(input).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A review's JSON without the names of the best guesses: which of several tied
/// guesses the parallel search names can differ between runs (their values cannot).
fn without_best_names(mut v: serde_json::Value) -> serde_json::Value {
    for s in v["steps"].as_array_mut().into_iter().flatten() {
        s["best"]["guesses"] = serde_json::Value::Null;
    }
    if v["rest"].is_object() {
        v["rest"]["best"] = serde_json::Value::Null;
    }
    v
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args, "");
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// The entropy player's game against `answer` from `opener`.
fn heuristic_game(
    game: &Game,
    table: &FeedbackTable,
    opener: GuessId,
    answer: AnswerId,
) -> Vec<Step> {
    let mut ids: Vec<AnswerId> = game.all_answer_ids();
    let mut steps = Vec::new();
    let mut guess = opener;
    loop {
        let feedback = Feedback::compute(game.guesses[guess.index()], game.answers[answer.index()]);
        steps.push(Step { guess, feedback });
        if feedback.is_all_green() {
            return steps;
        }
        ids.retain(|&a| table.get(guess, a) == feedback);
        guess = choose(game, table, Metric::Entropy, &ids, None);
    }
}

#[test]
fn review_from_the_answer_is_the_review_with_the_feedback_written_out() {
    // A small game (every 23rd answer, every 41st guess) so that every answer from
    // three openers can be reviewed exactly without a tree.
    let all = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let answers: Vec<Word> = all.answers.iter().step_by(23).copied().collect();
    let guesses: Vec<Word> = all.guesses.iter().step_by(41).copied().collect();
    let game = Game::from_words(&answers, &guesses);
    let table = FeedbackTable::build(&game);
    let stop = AtomicBool::new(false);
    let openers = [
        GuessId::new(0),
        GuessId::new(game.n_guesses() / 2),
        choose(&game, &table, Metric::Entropy, &game.all_answer_ids(), None),
    ];
    let mut reviewed = 0;
    for opener in openers {
        for a in game.answer_ids() {
            let steps = heuristic_game(&game, &table, opener, a);
            let answer = game.answers[a.index()].to_string();
            let words: Vec<String> = steps
                .iter()
                .map(|s| game.guesses[s.guess.index()].to_string())
                .collect();
            let from_answer =
                play::parse_history(&game, &[&words.join(" ")], Some(&answer)).unwrap();
            let written = play::tokens(&game, &steps);
            let from_tokens = play::parse_history(&game, &[&written], None).unwrap();
            assert_eq!(from_answer, steps, "{answer}: {written}");
            assert_eq!(from_tokens, steps);
            let r = |st: &[Step]| {
                review::review(&game, None, false, 6, st, &stop, Options::default()).unwrap()
            };
            let (mut x, mut y) = (r(&from_answer), r(&from_tokens));
            // Which of several tied best guesses the parallel search names first can
            // differ from run to run (their values cannot): compared apart.
            for (a, b) in x.steps.iter_mut().zip(&mut y.steps) {
                assert!(!a.best.is_empty() && !b.best.is_empty());
                a.best.clear();
                b.best.clear();
            }
            assert_eq!(x, y, "{answer}: {written}");
            assert!(x.found);
            reviewed += 1;
        }
    }
    assert_eq!(reviewed, 3 * game.n_answers());
}

#[test]
fn review_answer_on_the_cli_equals_the_explicit_review() {
    // The full game, a few answers from two openers (one on the tree, one off it).
    let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    for opener in ["salet", "crane"] {
        let o = game.guess_id(Word::parse(opener).unwrap()).unwrap();
        for answer in ["quota", "adore", "lilac"] {
            let a = game.answer_id(Word::parse(answer).unwrap()).unwrap();
            let steps = heuristic_game(&game, &table, o, a);
            let tokens = play::tokens(&game, &steps);
            let words: Vec<String> = steps
                .iter()
                .map(|s| game.guesses[s.guess.index()].to_string())
                .collect();
            let mut with_answer = vec!["review", "--format", "json", "--answer", answer];
            with_answer.extend(words.iter().map(|s| s.as_str()));
            let mut explicit = vec!["review", "--json"];
            explicit.extend(tokens.split(' '));
            assert_eq!(
                without_best_names(json(&with_answer)),
                without_best_names(json(&explicit)),
                "{tokens}"
            );
        }
    }
}

#[test]
fn every_notation_gives_the_same_next_move() {
    // (The note says how long the solve took: left out of the comparison.)
    let next = |args: &[&str]| {
        let mut v = json(args);
        v.as_object_mut().unwrap().remove("note");
        v
    };
    let want = next(&["next", "--json", "salet:BYBBY", "tonic:YYBBB"]);
    let forms: &[&[&str]] = &[
        &["salet:BYBBY,tonic:YYBBB"],
        &["salet", "BYBBY", "tonic", "YYBBB"],
        &["salet BYBBY, tonic YYBBB"],
        &["salet:xyxxy", "tonic:yy---"],
        &["salet:.y..y", "tonic:yywww"],
        &["salet:01001", "tonic:11000"],
        &["salet:⬛🟨⬛⬛🟨", "tonic:🟨🟨⬛⬛⬛"],
        &["salet:⬜🟦⬜⬜🟦", "tonic:🟦🟦⬜⬜⬜"],
        &["salet", "tonic", "⬛🟨⬛⬛🟨\n🟨🟨⬛⬛⬛"],
    ];
    for form in forms {
        let mut args = vec!["next", "--format", "json"];
        args.extend_from_slice(form);
        assert_eq!(next(&args), want, "{form:?}");
    }
}

#[test]
fn a_pasted_share_text_reviews_the_game() {
    let share = "Wordle 1,234 3/6\n\n⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩\n";
    let review = |args: &[&str]| without_best_names(json(args));
    let want = review(&[
        "review",
        "--json",
        "salet:BYBBY",
        "tiara:YBBBG",
        "quota:GGGGG",
    ]);
    assert_eq!(
        review(&["review", "--json", share, "salet", "tiara", "quota"]),
        want
    );
    assert_eq!(
        review(&["review", "--json", "--answer", "quota", "salet", "tiara", "quota", share]),
        want
    );
}

#[test]
fn bad_share_texts_are_one_line_errors_naming_the_row() {
    for (args, msg) in [
        (
            vec!["review", "salet", "tiara", "quota", "⬛🟨⬛⬛🟨\n🟨⬛⬛⬛\n🟩🟩🟩🟩🟩"],
            "share row 2 '🟨⬛⬛⬛': feedback '🟨⬛⬛⬛' has 4 squares, expected 5",
        ),
        (
            vec!["review", "salet", "tiara", "quota", "⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩\n🟩🟩🟧🟩🟩"],
            "share row 3 '🟩🟩🟧🟩🟩': feedback '🟩🟩🟧🟩🟩' mixes squares and high-contrast squares",
        ),
        (
            vec!["review", "--answer", "quart", "salet", "tiara", "⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩"],
            "share row 1 ⬛🟨⬛⬛🟨: salet against the answer quart gives BYBBG, not BYBBY",
        ),
        (
            vec!["review", "salet", "tiara", "⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩"],
            "step 2: no answer is consistent with tiara:GGGGG after salet:BBBBB",
        ),
        (
            vec!["review", "Wordle 1,234 4/6\n⬛🟨⬛⬛🟨\n🟨⬛⬛⬛🟩", "salet", "tiara"],
            "the share text says 4/6 but its grid has 2 row(s)",
        ),
        (
            vec!["review", "salet:BYBBY", "tiara:YB🟨BG"],
            "step 2 'tiara:YB🟨BG': feedback 'YB🟨BG' mixes letters and squares",
        ),
        (
            vec!["next", "salet", "tiara:YBBBG"],
            "step 1: the guess salet has no feedback: type salet:BYBBG",
        ),
        (vec!["review"], "wordle-tree review --answer quota salet tiara quota"),
    ] {
        let (code, out, err) = run(&args, "");
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn under_json_output_errors_are_json_on_stdout() {
    for args in [
        vec!["next", "--json", "salet:BYBBQ"],
        vec!["next", "--format", "json", "zzzzz:BBBBB"],
        vec!["review", "--format=json"],
        vec!["review", "--json", "--no-such-option"],
        vec!["--list", "nope", "next", "--json"],
        vec!["rank", "--json", "--sort", "exact"],
    ] {
        let (code, out, err) = run(&args, "");
        assert_eq!(code, 2, "{args:?}");
        assert!(err.is_empty(), "{args:?}: {err}");
        let v: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
        assert_eq!(v["exit_code"], 2);
    }
    // Text output keeps its errors on stderr.
    let (code, out, err) = run(&["next", "salet:BYBBQ"], "");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error: "), "{err}");
}

#[test]
fn play_ends_with_the_review_command_and_review_takes_it() {
    let (code, out, err) = run(&["play", "--answer", "quota"], "");
    assert_eq!(code, 0, "{err}");
    let game_line = out.lines().find_map(|l| l.strip_prefix("game: ")).unwrap();
    let cmd = out
        .lines()
        .find_map(|l| l.strip_prefix("review it: "))
        .unwrap();
    assert_eq!(cmd, format!("wordle-tree review {game_line}"));
    let args: Vec<&str> = cmd.split(' ').skip(1).collect();
    let (code, text, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("summary: optimal from the start"), "{text}");
    // Interactively, with the player's own words and squares, then quit.
    let (code, out, err) = run(&["play"], "⬛🟨⬛⬛🟨\ntiara 🟨⬛⬛⬛🟩\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("game so far: salet:BYBBY tiara:YBBBG"),
        "{out}"
    );
    assert!(
        out.contains("review it: wordle-tree review salet:BYBBY tiara:YBBBG"),
        "{out}"
    );
    let (code, _, err) = run(
        &["--list", "nyt2023", "--hard", "play", "--answer", "adieu"],
        "",
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn rank_sorts_by_the_exact_total() {
    let (code, out, err) = run(
        &[
            "rank", "--exact", "--sort", "exact", "--top", "8", "--format", "csv",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let totals: Vec<u64> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(7).unwrap().parse().unwrap())
        .collect();
    assert_eq!(totals.len(), 8);
    assert_eq!(totals[0], 7920, "{out}");
    assert!(totals.windows(2).all(|w| w[0] <= w[1]), "{out}");
    assert!(out.lines().nth(1).unwrap().contains(",salet,"), "{out}");
    let (code, _, err) = run(&["rank", "--sort", "exact"], "");
    assert_eq!(code, 2);
    assert!(err.contains("add --exact"), "{err}");
    // `--format text` is the table.
    let (code, out, _) = run(&["rank", "--top", "2", "--format", "text"], "");
    assert_eq!(code, 0);
    assert!(out.contains("ranked by Entropy"), "{out}");
}

#[test]
fn help_puts_player_commands_first_and_shows_the_history_syntax() {
    let (_, out, _) = run(&["--help"], "");
    let commands: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take(4)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(commands, ["next", "play", "review", "serve"]);
    // Every command's examples: `cli_help::every_command_has_examples`.
    for cmd in ["next", "play", "review"] {
        let (_, out, _) = run(&[cmd, "--help"], "");
        assert!(
            out.contains(play::HISTORY_SYNTAX.trim_end()),
            "{cmd} --help lacks the syntax"
        );
    }
}

#[test]
fn serve_honours_list_and_hard_or_refuses_them() {
    let (code, _, err) = run(&["--list", "sowpods", "serve", "--port", "0"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("not 'sowpods'") && err.contains("--list nyt2023 serve"),
        "{err}"
    );
    for (args, opens) in [
        (
            vec!["--list", "wordle", "--hard", "serve", "--port", "0"],
            "wordle/hard",
        ),
        (vec!["serve", "--port", "0"], "nyt2023/normal"),
    ] {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wordle-tree"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert!(
            line.contains(&format!("the page opens on {opens}")),
            "{args:?}: {line}"
        );
    }
}

#[test]
fn the_guide_documents_the_one_history_syntax() {
    let guide = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide/players.md"),
    )
    .unwrap();
    assert!(
        guide.contains(play::HISTORY_SYNTAX.trim_end()),
        "docs/guide/players.md lacks the syntax"
    );
}

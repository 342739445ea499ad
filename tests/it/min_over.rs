//! `check --opener any --min-over D` (`wordle_tree::jobs::min_over`): the sweep against a
//! brute force over every opener of small random games; serial, sharded and resumed
//! sweeps agree; the command's verdicts and exit codes.

use crate::common;
use crate::common::{assert_refused, cli, lose_half};
use common::{brute, random_game, Rng};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wordle_tree::game::candidates::partition;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::{AnswerId, Game, GuessId};
use wordle_tree::jobs::min_over::{self, Outcome, OverDir, Ranking, Settings, Verdict};
use wordle_tree::jobs::openers::all_openers;
use wordle_tree::search::bound::{INFEASIBLE, OVER_PENALTY};
use wordle_tree::search::Objective;
use wordle_tree::store::results::Shard;
use wordle_tree::{FeedbackTable, Word};

static NEVER: AtomicBool = AtomicBool::new(false);

/// The least number of answers over `depth` from `opener`, by brute force under the
/// lexicographic objective of `check --opener W --min-over` (not the sweep's); `None`
/// when no tree finishes within six.
fn brute_over(
    game: &Game,
    table: &FeedbackTable,
    opener: GuessId,
    depth: u8,
    hard: bool,
) -> Option<u64> {
    let obj = Objective::min_over(depth, 6);
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let word = game.guesses[opener.index()];
    let mut cost = 0u64;
    for (f, b) in partition(table, opener, &ids) {
        cost += if f.is_all_green() {
            common::answer_cost(&obj, 6, b[0], 1)
        } else {
            let revealed = hard.then(|| Revealed::default().after(word, f));
            brute(game, table, &obj, 6, &b, 2, revealed)
        };
    }
    (cost < INFEASIBLE as u64).then_some(cost / OVER_PENALTY as u64)
}

fn settings(depth: u8, hard: bool, cutoff: Option<u64>) -> Settings {
    Settings {
        depth,
        hard,
        cutoff,
        threads: 2,
        memory_limit: 64 << 20,
    }
}

fn sweep_into(
    game: &Game,
    table: &FeedbackTable,
    dir: &Path,
    shard: Shard,
    s: &Settings,
) -> min_over::Summary {
    let all = all_openers(game);
    let mine = shard.select(&all);
    let over = OverDir::open(dir, game, s.hard, s.depth).unwrap();
    min_over::sweep(
        crate::common::at(game, table, &all, &mine, &over, &NEVER),
        s,
    )
    .unwrap()
}

fn records(game: &Game, dir: &Path, depth: u8, hard: bool) -> BTreeMap<GuessId, min_over::Record> {
    OverDir::open(dir, game, hard, depth)
        .unwrap()
        .scan()
        .unwrap()
        .0
}

/// The verdict the brute force gives: the minimum and every opener attaining it.
fn want_verdict(game: &Game, brute: &[Option<u64>]) -> Verdict {
    match brute.iter().flatten().min() {
        None => Verdict::NoneFinishes,
        Some(&m) => Verdict::Best {
            value: m,
            by: {
                let mut w: Vec<Word> = (0..game.n_guesses())
                    .filter(|&i| brute[i] == Some(m))
                    .map(|i| game.guesses[i])
                    .collect();
                w.sort();
                w
            },
        },
    }
}

#[test]
fn min_over_sweep_matches_brute_force_over_every_opener() {
    // Not vacuous: some games have a positive minimum and openers dismissed by it.
    let (mut positive, mut dismissed) = (0, 0);
    for seed in 1..=12u64 {
        let mut rng = Rng(seed * 7919);
        let game = random_game(&mut rng, 6 + (seed % 5) as usize, 10);
        let table = FeedbackTable::build(&game);
        let hard = seed % 3 == 0;
        for depth in 2..=3u8 {
            let brute: Vec<Option<u64>> = all_openers(&game)
                .into_iter()
                .map(|g| brute_over(&game, &table, g, depth, hard))
                .collect();
            let dir = tempfile::tempdir().unwrap();
            let s = settings(depth, hard, None);
            let summary = sweep_into(&game, &table, dir.path(), Shard::ALL, &s);
            let recs = records(&game, dir.path(), depth, hard);
            assert_eq!(recs.len(), game.n_guesses(), "seed {seed}");
            let at = |what: &str| format!("seed {seed} depth {depth} hard {hard}: {what}");
            for (g, r) in &recs {
                let want = brute[g.index()];
                match (r.outcome, want) {
                    (Outcome::Exact(v), Some(w)) => assert_eq!(v, w, "{}", at(r.opener.as_str())),
                    (Outcome::AtLeast(lb), Some(w)) => {
                        assert!(lb <= w, "{}", at("bound above the brute force"));
                        assert!(
                            r.cutoff.is_some_and(|c| lb >= c),
                            "{}",
                            at("bound below cutoff")
                        );
                    }
                    (Outcome::CannotFinish, None) => {}
                    (o, w) => panic!("{}: {o:?} vs brute {w:?}", at(r.opener.as_str())),
                }
            }
            let ranking = Ranking::new(&game, &all_openers(&game), &recs);
            assert_eq!(
                ranking.verdict(),
                want_verdict(&game, &brute),
                "{}",
                at("verdict")
            );
            positive +=
                matches!(ranking.verdict(), Verdict::Best { value, .. } if value > 0) as usize;
            dismissed += ranking.dismissed;
            assert!(summary.computed.len() + summary.reused >= game.n_guesses());
        }
    }
    assert!(positive > 0 && dismissed > 0, "{positive} {dismissed}");
}

#[test]
fn serial_sharded_and_resumed_sweeps_agree() {
    let mut rng = Rng(424242);
    let game = random_game(&mut rng, 14, 12);
    let table = FeedbackTable::build(&game);
    let all = all_openers(&game);
    let s = settings(2, false, None);
    let serial = tempfile::tempdir().unwrap();
    sweep_into(&game, &table, serial.path(), Shard::ALL, &s);
    let want = Ranking::new(&game, &all, &records(&game, serial.path(), 2, false)).verdict();
    assert!(matches!(want, Verdict::Best { .. }), "{want:?}");

    // Three shards into one directory (one at a time, each seeing the last's files).
    let sharded = tempfile::tempdir().unwrap();
    for i in 1..=3 {
        let shard = Shard { index: i, count: 3 };
        sweep_into(&game, &table, sharded.path(), shard, &s);
    }
    let recs = records(&game, sharded.path(), 2, false);
    assert_eq!(Ranking::new(&game, &all, &recs).verdict(), want);

    // Shards in separate directories, merged by copying the files together.
    let merged = tempfile::tempdir().unwrap();
    for i in 1..=3 {
        let apart = tempfile::tempdir().unwrap();
        sweep_into(
            &game,
            &table,
            apart.path(),
            Shard { index: i, count: 3 },
            &s,
        );
        let ranking = Ranking::new(&game, &all, &records(&game, apart.path(), 2, false));
        assert_eq!(ranking.verdict(), Verdict::Incomplete);
        for e in std::fs::read_dir(apart.path()).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), merged.path().join(e.file_name())).unwrap();
        }
    }
    let recs = records(&game, merged.path(), 2, false);
    assert_eq!(Ranking::new(&game, &all, &recs).verdict(), want);

    // Resumed: half the files gone, one replaced by a malformed file; the rerun
    // reuses the rest and ends with the same verdict.
    lose_half(serial.path(), "opener=oops\n");
    let summary = sweep_into(&game, &table, serial.path(), Shard::ALL, &s);
    assert!(summary.reused > 0 && !summary.computed.is_empty());
    assert!(
        summary.warnings.iter().any(|w| w.contains("malformed")),
        "{:?}",
        summary.warnings
    );
    let recs = records(&game, serial.path(), 2, false);
    assert_eq!(recs.len(), game.n_guesses());
    assert_eq!(Ranking::new(&game, &all, &recs).verdict(), want);
}

#[test]
fn a_seeded_cutoff_at_the_minimum_proves_only_a_lower_bound() {
    let mut rng = Rng(99991);
    let game = random_game(&mut rng, 14, 12);
    let table = FeedbackTable::build(&game);
    let all = all_openers(&game);
    let free = tempfile::tempdir().unwrap();
    sweep_into(
        &game,
        &table,
        free.path(),
        Shard::ALL,
        &settings(2, false, None),
    );
    let Verdict::Best { value: m, .. } =
        Ranking::new(&game, &all, &records(&game, free.path(), 2, false)).verdict()
    else {
        panic!("no minimum");
    };
    assert!(m > 0, "pick a seed whose minimum is above 0");
    let low = tempfile::tempdir().unwrap();
    sweep_into(
        &game,
        &table,
        low.path(),
        Shard::ALL,
        &settings(2, false, Some(m)),
    );
    let recs = records(&game, low.path(), 2, false);
    assert_eq!(
        Ranking::new(&game, &all, &recs).verdict(),
        Verdict::AtLeast(m)
    );
    // A later run without the seed reuses nothing below the new cutoff wrongly: the
    // bounds `>= m` do not settle openers under the cutoff `best + 1`, so the tied
    // openers are searched again and found.
    sweep_into(
        &game,
        &table,
        low.path(),
        Shard::ALL,
        &settings(2, false, None),
    );
    let recs = records(&game, low.path(), 2, false);
    assert!(matches!(
        Ranking::new(&game, &all, &recs).verdict(),
        Verdict::Best { value, .. } if value == m
    ));
}

/// A tiny custom game (the lists of the `check --opener any` test) through the binary.
fn tiny(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let answers = dir.join("a.txt");
    let guesses = dir.join("g.txt");
    std::fs::write(
        &answers,
        "cigar\nrebut\nsissy\nhumph\nawake\nblush\nfocal\nevade\nnaval\nserve\n",
    )
    .unwrap();
    std::fs::write(&guesses, "salet\ntrace\ncrane\n").unwrap();
    (answers, guesses)
}

#[test]
fn check_any_min_over_cli_proves_reruns_merges_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let (answers, guesses) = tiny(dir.path());
    let results = dir.path().join("r");
    // The sweep on the tiny game, results in `into`, with `extra` options.
    let sweep = |into: &Path, extra: &[&str]| {
        cli()
            .arg("--answers")
            .arg(&answers)
            .arg("--guesses")
            .arg(&guesses)
            .args(["--quiet", "check", "--opener", "any", "--min-over", "2"])
            .arg("--results")
            .arg(into)
            .args(extra)
            .output()
            .unwrap()
    };
    let run = |extra: &[&str]| {
        let out = sweep(&results, extra);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, first, err) = run(&[]);
    assert_eq!(code, Some(0), "{first}{err}");
    let verdict = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("PROVED:"))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    assert!(verdict(&first).contains("over all 13 openers"), "{first}");
    let files = std::fs::read_dir(&results).unwrap().count();
    assert_eq!(files, 13);
    let (code, again, _) = run(&[]);
    assert_eq!(code, Some(0));
    assert!(again.contains("0 openers searched, 13 reused"), "{again}");
    assert_eq!(verdict(&again), verdict(&first));
    let (code, merged, _) = run(&["--merge"]);
    assert_eq!(code, Some(0));
    assert_eq!(verdict(&merged), verdict(&first));

    // `--openers FILE`: only those openers are searched, and the verdict says so.
    let two: Vec<String> = std::fs::read_to_string(&guesses)
        .unwrap()
        .lines()
        .take(2)
        .map(str::to_string)
        .collect();
    let list = dir.path().join("two.txt");
    std::fs::write(&list, two.join("\n") + "\n").unwrap();
    let some = dir.path().join("some");
    let out = sweep(&some, &["--openers", list.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("over the 2 openers of"), "{text}");
    let mut stored: Vec<String> = std::fs::read_dir(&some)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    stored.sort();
    assert_eq!(stored.len(), 2, "{stored:?}");
    for w in &two {
        assert!(
            stored.iter().any(|f| f.starts_with(&format!("{w}."))),
            "{w}: {stored:?}"
        );
    }

    // A cutoff of 0 dismisses every opener: only "at least 0", so refuted-style.
    let low = dir.path().join("low");
    let out = sweep(&low, &["--cutoff", "0"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("REFUTED: over all 13 openers, no opener leaves fewer than "),
        "{text}"
    );

    for (args, needle) in [
        ("check --opener any --min-over 4", "needs --results"),
        (
            "check --opener salet --max-guesses 4 --cutoff 3",
            "--min-over",
        ),
        (
            "check --opener salet --min-over 4 --merge",
            "go with --opener any",
        ),
        (
            "check --opener any --min-over 4 --results x --sample 0",
            "--sample must be at least 1",
        ),
        (
            "check --opener salet --min-over 4 --except eater",
            "--except goes with --max-guesses",
        ),
        (
            "check --opener any --min-over 4 --results x --give-up 5",
            "--give-up goes with",
        ),
    ] {
        let args: Vec<&str> = args.split_whitespace().collect();
        assert_refused(&args, needle);
    }
}

/// The shipped trees that beat the published 18 answers needing a fifth guess (rance):
/// from raced and from tenor only 17 of the 2315 answers need more than 4 guesses
/// (trees/README.md; proved least for each opener by `check --opener W --min-over 4`).
#[test]
fn shipped_min_over4_trees_leave_17_answers_over_4() {
    let game = wordle_tree::Game::load(&wordle_tree::ListSource::Named("wordle".into())).unwrap();
    for (opener, path) in [
        ("raced", "trees/raced.min-over4.wordle.tree"),
        ("tenor", "trees/tenor.min-over4.wordle.tree"),
    ] {
        let tree = wordle_tree::tree::file::load(Path::new(path), &game).unwrap();
        assert_eq!(tree.list_checksum(), game.checksum, "{path}");
        assert!(!tree.hard(), "{path}");
        assert_eq!(game.guesses[tree.root().guess.index()].to_string(), opener);
        let replay = tree.verify(&game);
        assert!(replay.is_valid(), "{path}: {:?}", replay.problems.first());
        assert!(replay.max_depth() <= 6, "{path}");
        let over = replay.depths.iter().filter(|&&d| d > 4).count();
        assert_eq!(over, 17, "{path}");
    }
}

/// A min-over file as the build before the shared record head wrote it (fields
/// `opener, result, cutoff, seconds, cpu_seconds`) reads back and is written again
/// byte for byte: old results directories resume.
#[test]
fn min_over_files_of_the_earlier_layout_read_and_rewrite_unchanged() {
    let mut rng = Rng(36);
    let game = random_game(&mut rng, 12, 6);
    let stem = game.guesses[3].to_string();
    for (result, cutoff) in [
        ("exact 2", "none"),
        ("at-least 4", "3"),
        ("cannot-finish", "3"),
    ] {
        let fields = [
            ("opener", stem.as_str()),
            ("result", result),
            ("cutoff", cutoff),
            ("seconds", "1.250"),
            ("cpu_seconds", "1.004"),
        ];
        crate::common::stored_text_survives::<min_over::Record>(&game, false, 2, &stem, &fields);
    }
}

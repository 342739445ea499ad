//! Opener tables (`openers --exact`, `tables/<list>.<mode>.csv`): rows equal exact
//! solves on random small games (and a sample of the shipped tables' rows on the real
//! lists); tables round-trip; partial tables say so; damaged and foreign tables are
//! refused by file and line; `rank --exact`, `next`, `play`, `review` and the old
//! result files read them as documented.

use crate::common;
use assert_cmd::Command;
use common::Rng;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use wordle_tree::game::GuessId;
use wordle_tree::jobs::openers::{self, OpenersDir, Outcome, Record, Settings};
use wordle_tree::players::play::Step;
use wordle_tree::players::review::{self, Options};
use wordle_tree::search::{Config, SolveError, Solver};
use wordle_tree::store::opener_table::{self, Entry, OpenerTable, TableError};
use wordle_tree::tree::Tree;
use wordle_tree::{Feedback, FeedbackTable, Game, ListSource, Word};

/// 20-50 answers from the default answers; 100-250 allowed guesses.
fn random_game(seed: u64) -> Game {
    common::sampled_game(seed, 20..51, 100..251)
}

fn exact_settings(hard: bool, max_guesses: u8) -> Settings {
    Settings {
        hard,
        max_guesses,
        cutoff: None,
        top: 1,
        prepass: 4,
        threads: 2,
        memory_limit: 64 << 20,
        exact: true,
        feasibility_scans: wordle_tree::jobs::openers::FEASIBILITY_SCANS,
    }
}

/// `openers --exact` over every opener of `game`, into `dir`; the table of the result.
fn exact_table(game: &Game, hard: bool, max_guesses: u8, dir: &Path) -> OpenerTable {
    let table = FeedbackTable::build(game);
    let results = OpenersDir::open(dir, game, hard, max_guesses).unwrap();
    let all = openers::all_openers(game);
    let s = exact_settings(hard, max_guesses);
    openers::run(
        crate::common::at(game, &table, &all, &all, &results, &AtomicBool::new(false)),
        &s,
    )
    .unwrap();
    let scan = results.scan().unwrap();
    assert!(scan.warnings.is_empty(), "{:?}", scan.warnings);
    let (t, left_out) = OpenerTable::from_records(game, hard, max_guesses, &scan.records);
    assert_eq!(left_out, 0);
    t
}

/// The reference for one opener: the whole optimal tree by `solve_opener` (no
/// feasibility search, no cutoff), replayed: its total and max depth, or `None` when
/// no tree finishes in time.
fn reference(solver: &Solver, game: &Game, opener: GuessId) -> Option<(u64, u32)> {
    match solver.solve_opener(opener, &|_, _, _| {}) {
        Ok((total, root)) => {
            let c = solver.config();
            let replay = Tree::new(game, c.hard, c.max_guesses, root)
                .unwrap()
                .verify(game);
            assert_eq!(replay.total(), total);
            Some((total, replay.max_depth()))
        }
        Err(SolveError::Infeasible(_)) => None,
        Err(e) => panic!("{e}"),
    }
}

/// Every row of an exact table equals the reference solve of its opener; the max
/// depth recorded is a real optimal tree's (at least the least max depth any tree of
/// that total can have: checked against the reference tree's when both are optimal,
/// they may differ, so only the bounds are asserted), and every opener has a row.
fn check_rows_against_solves(hard: bool, max_guesses: u8, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let game = random_game(seed);
        let dir = tempfile::tempdir().unwrap();
        let t = exact_table(&game, hard, max_guesses, dir.path());
        assert!(t.is_complete(), "seed {seed}");
        let table = FeedbackTable::build(&game);
        let solver = Solver::new(
            &game,
            &table,
            Config {
                hard,
                max_guesses,
                ..Config::default()
            },
        );
        let mut totals = Vec::new();
        for g in openers::all_openers(&game) {
            let w = game.guesses[g.index()];
            let row = t
                .get(w)
                .unwrap_or_else(|| panic!("seed {seed}: no row for {w}"));
            match (row.entry, reference(&solver, &game, g)) {
                (Entry::Exact { total, max_depth }, Some((want, _))) => {
                    assert_eq!(total, want, "seed {seed} opener {w}");
                    assert!((1..=max_guesses).contains(&max_depth), "seed {seed} {w}");
                    // An answer found in d guesses costs d, so the deepest costs at
                    // least (total - (n - 1)) / 1 when all others take one guess.
                    assert!(
                        max_depth as u64 * game.n_answers() as u64 >= total,
                        "seed {seed} {w}: depth {max_depth} cannot give {total}"
                    );
                    totals.push(total);
                }
                (Entry::CannotFinish, None) => {}
                (e, r) => panic!("seed {seed} opener {w}: table {e:?}, reference {r:?}"),
            }
        }
        // Ranks: one more than the rows with a smaller total.
        for r in t.rows() {
            if let Entry::Exact { total, .. } = r.entry {
                let below = totals.iter().filter(|&&x| x < total).count();
                let same = totals.iter().filter(|&&x| x == total).count();
                assert_eq!(r.rank, Some(below + 1), "seed {seed} {}", r.opener);
                assert_eq!(r.tied, same);
            }
        }
    }
}

#[test]
fn table_rows_equal_exact_solves_normal() {
    check_rows_against_solves(false, 6, 1..4);
}

#[test]
fn table_rows_equal_exact_solves_hard_with_openers_that_cannot_finish() {
    // At most 3 guesses in hard mode: most openers cannot finish, some can.
    check_rows_against_solves(true, 3, 4..7);
    check_rows_against_solves(true, 6, 7..8);
}

#[test]
fn recorded_max_depth_is_achievable() {
    // The depth recorded is that of a real tree: `check` within that depth from the
    // opener succeeds.
    let game = random_game(11);
    let dir = tempfile::tempdir().unwrap();
    let t = exact_table(&game, false, 6, dir.path());
    let table = FeedbackTable::build(&game);
    for r in t.rows().iter().take(20) {
        let Entry::Exact { max_depth, .. } = r.entry else {
            continue;
        };
        let g = game.guess_id(r.opener).unwrap();
        let v = wordle_tree::jobs::check::within(
            &game,
            &table,
            g,
            max_depth,
            false,
            &[],
            &AtomicBool::new(false),
        )
        .unwrap();
        assert!(
            matches!(v, wordle_tree::jobs::check::Verdict::Proved(_)),
            "{}: no tree within its recorded max depth {max_depth}",
            r.opener
        );
    }
}

#[test]
fn table_round_trips_complete_and_partial() {
    let game = random_game(21);
    let dir = tempfile::tempdir().unwrap();
    let t = exact_table(&game, true, 4, dir.path());
    let text = t.encode();
    let back = OpenerTable::decode(&text, Path::new("x.csv")).unwrap();
    assert_eq!(back, t);
    assert_eq!(back.encode(), text);
    // A partial table: every third row.
    let some: Vec<(Word, Entry)> = t
        .rows()
        .iter()
        .step_by(3)
        .map(|r| (r.opener, r.entry))
        .collect();
    let p = OpenerTable::new(&game, true, 4, some.clone());
    assert!(!p.is_complete());
    assert!(p.encode().contains("# complete=no\n"));
    assert_eq!(
        OpenerTable::decode(&p.encode(), Path::new("p.csv")).unwrap(),
        p
    );
    // Saved atomically, loaded for the game.
    let file = dir.path().join("t.csv");
    p.save(&file).unwrap();
    assert_eq!(OpenerTable::load_for(&file, &game, true, 4).unwrap(), p);
}

#[test]
fn partial_tables_are_labelled_and_never_claim_a_proved_rank() {
    let game = random_game(31);
    let dir = tempfile::tempdir().unwrap();
    let full = exact_table(&game, false, 6, dir.path());
    let best = full.rows()[0];
    assert!(full.is_complete());
    let text = full.rank_text(&best);
    assert!(
        text.starts_with(&format!("rank 1 of {} openers", game.n_guesses())),
        "{text}"
    );
    // Only the rows from the middle on: the ranks are among those solved.
    let half: Vec<(Word, Entry)> = full.rows()[full.solved() / 2..]
        .iter()
        .map(|r| (r.opener, r.entry))
        .collect();
    let p = OpenerTable::new(&game, false, 6, half);
    let first = p.rows()[0];
    assert_eq!(first.rank, Some(1));
    let text = p.rank_text(&first);
    assert!(text.contains("among the"), "{text}");
    assert!(text.contains("solved so far"), "{text}");
    assert!(text.contains("not a proved rank"), "{text}");
    assert!(p.describe().contains("(partial)"), "{}", p.describe());
    assert!(
        full.describe().contains("(complete)"),
        "{}",
        full.describe()
    );
}

/// A small genuine table's text to damage.
fn sample_text() -> (Game, String) {
    let game = random_game(41);
    let dir = tempfile::tempdir().unwrap();
    let t = exact_table(&game, false, 3, dir.path());
    assert!(t.rows().iter().any(|r| r.entry == Entry::CannotFinish));
    assert!(t.rows().iter().filter(|r| r.rank.is_some()).count() >= 3);
    (game, t.encode())
}

#[test]
fn damaged_tables_are_refused_by_file_and_line() {
    let (_, text) = sample_text();
    let lines: Vec<&str> = text.lines().collect();
    let with = |i: usize, new: &str| {
        let mut l = lines.clone();
        l[i] = new;
        l.join("\n") + "\n"
    };
    let first_row = lines[10];
    let cells: Vec<&str> = first_row.split(',').collect();
    let second_row = lines[11];
    let last = lines.len();
    let cases: Vec<(String, usize, &str)> = vec![
        (
            "garbage\n".to_string(),
            1,
            "not an opener table: the first line must be",
        ),
        (
            with(0, "# format=wordle-tree-opener-table 3"),
            1,
            "format version 3",
        ),
        (
            with(0, "# format=wordle-tree-opener-table 1"),
            1,
            "format version 1 (this build reads version 2)",
        ),
        (with(3, "# mode=easy"), 4, "unknown mode 'easy'"),
        (with(2, "# checksum=xyz"), 3, "is not 16 hexadecimal digits"),
        (
            with(4, "# max_guesses=6 # list=wordle"),
            5,
            "'max_guesses' is not a whole number",
        ),
        (
            with(5, "# list=wordle"),
            6,
            "'list' appears twice (first on line 2)",
        ),
        (
            with(8, "# complete=maybe"),
            9,
            "complete must be 'yes' or 'no'",
        ),
        (with(9, "rank,opener,total"), 10, "expected the columns"),
        (
            with(10, "1,salet,7920"),
            11,
            "expected 5 comma-separated fields",
        ),
        (
            with(
                10,
                &format!("{},xx1yz,{},{},{}", cells[0], cells[2], cells[3], cells[4]),
            ),
            11,
            "opener 'xx1yz'",
        ),
        (
            with(
                10,
                &format!("{},{},{},9.9999,{}", cells[0], cells[1], cells[2], cells[4]),
            ),
            11,
            "average '9.9999'",
        ),
        (
            with(
                10,
                &format!("{},{},{},{},0", cells[0], cells[1], cells[2], cells[3]),
            ),
            11,
            "max_depth '0'",
        ),
        (
            with(
                10,
                &format!("7,{},{},{},{}", cells[1], cells[2], cells[3], cells[4]),
            ),
            11,
            "rank '7'",
        ),
        (with(10, second_row), 12, "appears twice (first on line 11)"),
        (
            with(
                10,
                &format!("{},{},abc,{},{}", cells[0], cells[1], cells[3], cells[4]),
            ),
            11,
            "is neither a whole number nor 'cannot finish within 3'",
        ),
        (
            lines[..last - 2].join("\n") + "\n" + lines[last - 1] + "\n",
            last - 1,
            "rows, but the header says solved=",
        ),
        // Truncated: the rows' checksum, the last line, is missing.
        (
            lines[..last - 1].join("\n") + "\n",
            last - 1,
            "the last line must be '# rows_checksum=",
        ),
        // Issue 38: an edit every derived column agrees with (here a max depth) is
        // caught by the rows' checksum alone, on its line, the last.
        (
            with(
                10,
                &format!(
                    "{},{},{},{},{}",
                    cells[0],
                    cells[1],
                    cells[2],
                    cells[3],
                    if cells[4] == "3" { "2" } else { "3" }
                ),
            ),
            last,
            "the rows do not match their checksum",
        ),
    ];
    for (text, line, why) in cases {
        let e = OpenerTable::decode(&text, Path::new("tables/x.csv")).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!("tables/x.csv:{line}: ")),
            "want line {line} for '{why}': {msg}"
        );
        assert!(msg.contains(why), "want '{why}': {msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
    }
    // Rows out of order: swap the first two ranked rows with different totals.
    let rows: Vec<&str> = lines[10..].to_vec();
    let (i, j) = (0..rows.len() - 1)
        .find(|&i| rows[i].split(',').nth(2) != rows[i + 1].split(',').nth(2))
        .map(|i| (i, i + 1))
        .unwrap();
    let mut l = lines.clone();
    l.swap(10 + i, 10 + j);
    let e = OpenerTable::decode(&(l.join("\n") + "\n"), Path::new("t.csv")).unwrap_err();
    assert!(e.to_string().contains("out of order"), "{e}");
}

#[test]
fn foreign_tables_are_refused_by_checksum_and_rules() {
    let (game, text) = sample_text();
    let t = OpenerTable::decode(&text, Path::new("t.csv")).unwrap();
    let other = random_game(42);
    let e = t
        .check_game(Path::new("t.csv"), &other, false, 3)
        .unwrap_err();
    assert!(matches!(e, TableError::OtherLists { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("t.csv: an opener table of other lists"),
        "{e}"
    );
    // Same name, other words: the checksum decides, not the name.
    let renamed = text.replace(&format!("# list={}", t.list), "# list=wordle");
    let t2 = OpenerTable::decode(&renamed, Path::new("t.csv")).unwrap();
    let wordle = Game::load(&ListSource::Named("wordle".into())).unwrap();
    assert!(t2
        .check_game(Path::new("t.csv"), &wordle, false, 3)
        .is_err());
    let e = t
        .check_game(Path::new("t.csv"), &game, true, 3)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("hard mode, at most 3 guesses is in use"),
        "{e}"
    );
    let e = t
        .check_game(Path::new("t.csv"), &game, false, 6)
        .unwrap_err();
    assert!(matches!(e, TableError::OtherRules { .. }), "{e}");
    t.check_game(Path::new("t.csv"), &game, false, 3).unwrap();
}

#[test]
fn old_result_files_are_completed_and_max_depth_is_checked() {
    let game = random_game(51);
    let dir = tempfile::tempdir().unwrap();
    let results = OpenersDir::open(dir.path(), &game, false, 6).unwrap();
    let table = FeedbackTable::build(&game);
    // A plain `openers` run (cutoff, no max depth) leaves files `--exact` must redo.
    let all = openers::all_openers(&game);
    let plain = Settings {
        exact: false,
        cutoff: Some(u64::MAX / 2),
        ..exact_settings(false, 6)
    };
    let stop = AtomicBool::new(false);
    openers::run(
        crate::common::at(&game, &table, &all, &all, &results, &stop),
        &plain,
    )
    .unwrap();
    let scan = results.scan().unwrap();
    assert!(scan.records.values().all(|r| r.max_depth.is_none()));
    let (t, left_out) = OpenerTable::from_records(&game, false, 6, &scan.records);
    assert_eq!((t.solved(), left_out), (0, all.len()));
    let s = openers::run(
        crate::common::at(&game, &table, &all, &all, &results, &stop),
        &exact_settings(false, 6),
    )
    .unwrap();
    assert_eq!((s.computed.len(), s.reused), (all.len(), 0));
    // A rerun reuses them all.
    let s = openers::run(
        crate::common::at(&game, &table, &all, &all, &results, &stop),
        &exact_settings(false, 6),
    )
    .unwrap();
    assert_eq!((s.computed.len(), s.reused), (0, all.len()));
    // The field round-trips; an impossible depth is refused with the file named.
    let r = results
        .scan()
        .unwrap()
        .records
        .into_values()
        .next()
        .unwrap();
    assert!(r.max_depth.is_some());
    let path = Path::new("r.max6");
    assert_eq!(Record::decode(&r.encode(), path).unwrap(), r);
    // Edited and sealed again (an edit alone fails the end checksum first).
    let body = wordle_tree::store::results::sealed_body(&r.encode())
        .unwrap()
        .to_string();
    let bad = wordle_tree::store::results::seal(body.replace(
        &format!("max_depth={}", r.max_depth.unwrap()),
        "max_depth=9",
    ));
    assert!(Record::decode(
        &r.encode().replace(
            &format!("max_depth={}", r.max_depth.unwrap()),
            "max_depth=9"
        ),
        path
    )
    .unwrap_err()
    .to_string()
    .contains("no valid end checksum"));
    let e = Record::decode(&bad, path).unwrap_err();
    assert!(
        e.to_string()
            .contains("r.max6: malformed result file: 'max_depth'"),
        "{e}"
    );
    let cannot = Record {
        outcome: Outcome::CannotFinish,
        ..r.clone()
    };
    let e = Record::decode(&cannot.encode(), path).unwrap_err();
    assert!(e.to_string().contains("without an exact result"), "{e}");
}

// ---- the shipped tables --------------------------------------------------------

fn shipped_tables() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "csv"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Issue 38: the shipped tables carry their rows' checksum, and the library writes
/// each back byte for byte (the values were not changed by adding it).
#[test]
fn shipped_tables_carry_their_rows_checksum() {
    for p in shipped_tables() {
        let text = std::fs::read_to_string(&p).unwrap();
        let t = OpenerTable::decode(&text, &p).unwrap();
        assert_eq!(t.encode(), text, "{}", p.display());
        assert!(text.lines().last().unwrap().starts_with("# rows_checksum="));
    }
}

/// Each shipped table belongs to its list and mode and is the one found for them, and
/// its two best rows equal solves from scratch, hard mode included: the nyt hard row
/// salet 8097 caught a bound wrong only in hard mode, which `bench --full` on the
/// wordle lists had not shown.
#[test]
fn shipped_tables_match_their_lists_and_a_sample_of_rows_solves() {
    let tables = shipped_tables();
    assert!(!tables.is_empty(), "no table in tables/");
    for path in tables {
        let t = OpenerTable::load(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let game = Game::load(&ListSource::Named(t.list.clone()))
            .unwrap_or_else(|e| panic!("{name}: list {}: {e}", t.list));
        assert_eq!(name, opener_table::shipped_name(&game, t.hard));
        let (found, _) =
            opener_table::find_shipped(&[path.parent().unwrap().to_path_buf()], &game, t.hard)
                .unwrap()
                .unwrap();
        assert_eq!(found, t);
        // The two best rows, solved again from scratch (fast: good openers).
        let table = FeedbackTable::build(&game);
        let solver = Solver::new(
            &game,
            &table,
            Config {
                hard: t.hard,
                max_guesses: t.max_guesses,
                ..Config::default()
            },
        );
        for r in t.rows().iter().take(2) {
            let g = game.guess_id(r.opener).unwrap();
            let Entry::Exact { total, .. } = r.entry else {
                panic!("{name}: best rows must be exact")
            };
            let (want, _) = reference(&solver, &game, g).unwrap();
            assert_eq!(total, want, "{name}: {}", r.opener);
        }
    }
}

// ---- the commands ---------------------------------------------------------------

fn cli() -> Command {
    Command::cargo_bin("wordle-tree").unwrap()
}

/// A small custom game as files, and its complete table (normal, 6 guesses).
struct Files {
    dir: tempfile::TempDir,
    game: Game,
    table: OpenerTable,
}

impl Files {
    fn new(seed: u64) -> Files {
        let game = random_game(seed);
        let dir = tempfile::tempdir().unwrap();
        let words = |w: &[Word]| w.iter().map(|w| format!("{w}\n")).collect::<String>();
        std::fs::write(dir.path().join("a.txt"), words(&game.answers)).unwrap();
        std::fs::write(dir.path().join("g.txt"), words(&game.guesses)).unwrap();
        let out = cli()
            .current_dir(dir.path())
            .args(["--answers", "a.txt", "--guesses", "g.txt", "--quiet"])
            .args([
                "openers",
                "--exact",
                "--results",
                "res",
                "--write-table",
                "t.csv",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("table written to t.csv (complete)"), "{text}");
        // Issue 38: the table written ends with its rows' checksum.
        let csv = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
        let last = csv.lines().last().unwrap();
        assert!(last.starts_with("# rows_checksum="), "{last}");
        let table = OpenerTable::load_for(&dir.path().join("t.csv"), &game, false, 6).unwrap();
        Files { dir, game, table }
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        common::run_on_lists(self.dir.path(), args)
    }
}

#[test]
fn cli_rank_exact_shows_totals_and_labels_partial_tables() {
    let f = Files::new(61);
    let (code, out, err) = f.run(&["--table", "t.csv", "rank", "--exact", "--top", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(complete)"), "{out}");
    for r in f.table.rows() {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(r.opener.as_str()))
            .unwrap_or_else(|| panic!("no line for {}", r.opener));
        if let Entry::Exact { total, max_depth } = r.entry {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let n = cells.len();
            assert_eq!(cells[n - 4], total.to_string(), "{line}");
            assert_eq!(cells[n - 2], max_depth.to_string(), "{line}");
            assert_eq!(cells[n - 1], r.rank.unwrap().to_string(), "{line}");
        }
    }
    // A partial table: ranks starred and explained; missing openers marked.
    let half: Vec<(Word, Entry)> = f.table.rows()[..f.table.solved() / 2]
        .iter()
        .map(|r| (r.opener, r.entry))
        .collect();
    OpenerTable::new(&f.game, false, 6, half)
        .save(&f.dir.path().join("p.csv"))
        .unwrap();
    let (code, out, _) = f.run(&["--table", "p.csv", "rank", "--exact", "--top", "0"]);
    assert_eq!(code, 0);
    assert!(out.contains("(partial)"), "{out}");
    assert!(out.contains("not a proved rank"), "{out}");
    assert!(out.lines().any(|l| l.ends_with("1*")), "{out}");
    assert!(out.lines().any(|l| l.ends_with('?')), "{out}");
    let (code, csv, _) = f.run(&["--table", "p.csv", "rank", "--exact", "--format", "csv"]);
    assert_eq!(code, 0);
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.ends_with(",no") || l.ends_with(",,,,,")),
        "{csv}"
    );
    // No table for these lists: a clear message, exit 2.
    let (code, _, err) = f.run(&["rank", "--exact"]);
    assert_eq!(code, 2);
    assert!(err.contains("no opener table for custom-"), "{err}");
    // A table of other lists or another mode, or a damaged one: named, exit 2.
    let (code, _, err) = f.run(&["--hard", "--table", "t.csv", "rank", "--exact"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: t.csv: an opener table for normal mode"),
        "{err}"
    );
    std::fs::write(
        f.dir.path().join("d.csv"),
        "# format=wordle-tree-opener-table 2\nx\n",
    )
    .unwrap();
    let (code, _, err) = f.run(&["--table", "d.csv", "rank", "--exact"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: d.csv:2: "), "{err}");
    let out = cli()
        .args(["--table", f.dir.path().join("t.csv").to_str().unwrap()])
        .args(["rank", "--exact"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("an opener table of other lists"));
}

#[test]
fn cli_next_and_play_print_the_own_openers_exact_value_and_rank() {
    let f = Files::new(71);
    let row = f.table.rows()[f.table.solved() / 3];
    let Entry::Exact { total, max_depth } = row.entry else {
        panic!("an exact row")
    };
    let w = row.opener.to_string();
    let want = format!(
        "opener {w}: exact total {total} ({} on average, at most {max_depth} guesses), rank {}",
        opener_table::average(total, f.game.n_answers()),
        row.rank.unwrap()
    );
    let (code, out, err) = f.run(&["--table", "t.csv", "next", "--opener", &w]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&want), "{out}");
    assert!(
        out.contains(&format!("of {} openers", f.game.n_guesses())),
        "{out}"
    );
    // The plan's own cost from the solver agrees with the table.
    let (code, json, _) = f.run(&["--table", "t.csv", "next", "--json", "--opener", &w]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["cost"], total);
    assert_eq!(v["opener_value"]["total"], total);
    assert_eq!(v["opener_value"]["rank"], row.rank.unwrap());
    assert_eq!(v["opener_value"]["complete"], true);
    // After the opener was played: the same line, and `play` prints it too.
    let a = f.game.answers[0];
    let fb = Feedback::compute(row.opener, a);
    let (code, out, _) = f.run(&[
        "--table",
        "t.csv",
        "next",
        "--opener",
        &w,
        &format!("{w}:{fb}"),
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with(&want), "{out}");
    let (code, out, _) = f.run(&[
        "--table",
        "t.csv",
        "play",
        "--opener",
        &w,
        "--answer",
        a.as_str(),
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with(&want), "{out}");
    // Without a table nothing is claimed.
    let (_, out, _) = f.run(&["next", "--opener", &w]);
    assert!(!out.contains("exact total"), "{out}");
}

#[test]
fn cli_next_on_the_shipped_tree_reads_the_shipped_table() {
    // The shipped wordle table holds crane; the tree's opener is salet.
    let t =
        OpenerTable::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/wordle.normal.csv"))
            .unwrap();
    let crane = t.get(Word::parse("crane").unwrap()).unwrap();
    let Entry::Exact { total, .. } = crane.entry else {
        panic!("crane is exact")
    };
    let out = cli().args(["next", "crane:BBYBB"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!("opener crane: exact total {total} (")),
        "{text}"
    );
    if !t.is_complete() {
        assert!(text.contains("solved so far"), "{text}");
    }
    // On the tree's own opener, no such line.
    let out = cli().args(["next", "salet:BBBBB"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("exact total"));
}

/// `review` with the table gives the same values as the solver-backed review.
#[test]
fn table_backed_review_equals_the_solver_backed_one() {
    for (seed, hard) in [(81, false), (82, true)] {
        let game = random_game(seed);
        let dir = tempfile::tempdir().unwrap();
        let t = exact_table(&game, hard, 6, dir.path());
        let table = FeedbackTable::build(&game);
        let solver = Solver::new(
            &game,
            &table,
            Config {
                hard,
                ..Config::default()
            },
        );
        let best = game.guess_id(t.rows()[0].opener).unwrap();
        let (_, root) = solver.solve_opener(best, &|_, _, _| {}).unwrap();
        let tree = Tree::new(&game, hard, 6, root).unwrap();
        let mut rng = Rng(seed | 1);
        for _ in 0..6 {
            // A game opened with a random other opener, then played by the tree's
            // advice from there (any steps will do: only step 1's value is at stake).
            let r = t.rows()[rng.below(t.solved())];
            let Entry::Exact { total, .. } = r.entry else {
                continue;
            };
            let opener = game.guess_id(r.opener).unwrap();
            let answer = game.answers[rng.below(game.n_answers())];
            let steps = vec![Step {
                guess: opener,
                feedback: Feedback::compute(r.opener, answer),
            }];
            let stop = AtomicBool::new(false);
            let by_solver = review::review(
                &game,
                Some(&tree),
                hard,
                6,
                &steps,
                &stop,
                Options {
                    tree_optimal: true,
                    ..Options::default()
                },
            )
            .unwrap();
            let by_table = review::review(
                &game,
                Some(&tree),
                hard,
                6,
                &steps,
                &stop,
                Options {
                    tree_optimal: true,
                    opener_table: Some(&t),
                    ..Options::default()
                },
            )
            .unwrap();
            // The complete table also proves the tree's opener best (issue 38): the
            // root's best is proved with it, not without; every value is the same.
            assert!(by_table.steps[0].best_proved, "seed {seed}");
            assert!(!by_solver.steps[0].best_proved, "seed {seed}");
            let mut unproved = by_table.steps.clone();
            unproved[0].best_proved = false;
            assert_eq!(unproved, by_solver.steps, "seed {seed} {}", r.opener);
            assert_eq!(by_table.rest, by_solver.rest);
            assert_eq!(
                by_table.steps[0].played,
                review::Value {
                    lo: total,
                    hi: total,
                    n: game.n_answers()
                }
            );
        }
    }
}

#[test]
fn review_ignores_a_table_of_other_rules() {
    let game = random_game(91);
    let dir = tempfile::tempdir().unwrap();
    // A table for 3 guesses must not feed a 6-guess review: the value differs.
    let t3 = exact_table(&game, false, 3, dir.path());
    let r = t3
        .rows()
        .iter()
        .find(|r| matches!(r.entry, Entry::Exact { .. }))
        .copied();
    let Some(r) = r else { return };
    let steps = vec![Step {
        guess: game.guess_id(r.opener).unwrap(),
        feedback: Feedback::compute(r.opener, game.answers[0]),
    }];
    let stop = AtomicBool::new(false);
    let a = review::review(&game, None, false, 6, &steps, &stop, Options::default()).unwrap();
    let b = review::review(
        &game,
        None,
        false,
        6,
        &steps,
        &stop,
        Options {
            opener_table: Some(&t3),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(a.steps, b.steps);
}

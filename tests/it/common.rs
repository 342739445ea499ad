//! Shared by the integration tests: a seeded generator, random small games, and the
//! brute-force reference (no bounds, no table, no pruning) for every objective.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use wordle_tree::game::candidates::partition;
use wordle_tree::game::hard::Revealed;
use wordle_tree::game::word::Word;
use wordle_tree::game::{AnswerId, Game, GuessId, ListSource};
use wordle_tree::search::bound::INFEASIBLE;
use wordle_tree::search::{Config, Objective, Solver};
use wordle_tree::FeedbackTable;

/// A small deterministic generator (xorshift64*), so failures reproduce from the seed
/// (which must not be 0).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }

    /// `k` distinct items of `items`, in their original order.
    pub fn subset<T: Copy>(&mut self, items: &[T], k: usize) -> Vec<T> {
        let mut picked = vec![false; items.len()];
        let mut left = k.min(items.len());
        while left > 0 {
            let i = self.below(items.len());
            if !picked[i] {
                picked[i] = true;
                left -= 1;
            }
        }
        items
            .iter()
            .zip(&picked)
            .filter(|(_, &p)| p)
            .map(|(&x, _)| x)
            .collect()
    }

    pub fn pick(&mut self, from: &[Word], k: usize) -> Vec<Word> {
        let mut pool = from.to_vec();
        (0..k)
            .map(|_| pool.swap_remove(self.below(pool.len())))
            .collect()
    }
}

pub fn random_game(rng: &mut Rng, answers: usize, extra_guesses: usize) -> Game {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    // Answers drawn from a small window of the list share more letters (harder games).
    let start = rng.below(full.n_answers() - 200);
    let mut a: Vec<_> = (0..answers)
        .map(|_| full.answers[start + rng.below(200)])
        .collect();
    a.sort();
    a.dedup();
    let mut g: Vec<_> = (0..extra_guesses)
        .map(|_| full.guesses[rng.below(full.n_guesses())])
        .collect();
    g.sort();
    g.dedup();
    Game::from_words(&a, &g)
}

/// A game of answers and extra guesses sampled from the default lists by `seed`:
/// `answers.start` up to `answers.end - 1` answers, and allowed guesses in all (answers
/// included) from `guesses.start` up to `guesses.end - 1`. The sweeps' tests
/// (openers, best-first, opener tables) draw their small random games here.
pub fn sampled_game(
    seed: u64,
    answers: std::ops::Range<usize>,
    guesses: std::ops::Range<usize>,
) -> Game {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = answers.start + rng.below(answers.len());
    let chosen = rng.pick(&full.answers, n);
    let extra = guesses.start + rng.below(guesses.len()) - n;
    let others = rng.pick(&full.guesses[full.n_answers()..], extra);
    Game::from_words(&chosen, &others)
}

/// The cost of one answer found at `depth` under the objective, from its definition.
pub fn answer_cost(obj: &Objective, max_guesses: u8, a: AnswerId, depth: u8) -> u64 {
    let over = obj.has_penalty() && depth > max_guesses - obj.over_left && obj.counts(a);
    obj.unit as u64 * depth as u64 + if over { obj.penalty as u64 } else { 0 }
}

/// The least cost over all trees, by trying every guess at every node.
///
/// A pure function of the node (its candidates, depth and, in hard mode, what the
/// history revealed), so each node's value is kept in a memo for the rest of the call:
/// the same candidates are reached by many orders of guesses, and without the memo the
/// brute-force tests took minutes (`analysis::opener_bounds_...` alone 291 s on 2
/// loaded cores). The memo changes how often a value is computed, not the value.
#[allow(clippy::too_many_arguments)]
pub fn brute(
    game: &Game,
    table: &FeedbackTable,
    obj: &Objective,
    max: u8,
    ids: &[AnswerId],
    depth: u8,
    revealed: Option<Revealed>,
) -> u64 {
    let mut memo = Memo::default();
    brute_node(game, table, obj, max, ids, depth, revealed, &mut memo)
}

/// [`brute`]'s values by node: candidates, depth, revealed.
type Memo = std::collections::HashMap<(Vec<AnswerId>, u8, Option<Revealed>), u64>;

#[allow(clippy::too_many_arguments)]
fn brute_node(
    game: &Game,
    table: &FeedbackTable,
    obj: &Objective,
    max: u8,
    ids: &[AnswerId],
    depth: u8,
    revealed: Option<Revealed>,
    memo: &mut Memo,
) -> u64 {
    if depth > max {
        return INFEASIBLE as u64;
    }
    let key = (ids.to_vec(), depth, revealed);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = INFEASIBLE as u64;
    for g in (0..game.n_guesses()).map(GuessId::new) {
        let word = game.guesses[g.index()];
        if revealed.is_some_and(|r| !r.allows(word)) {
            continue;
        }
        let buckets = partition(table, g, ids);
        if buckets.len() == 1 && !buckets[0].0.is_all_green() {
            continue; // learns nothing: never better than not playing it
        }
        let mut cost = 0u64;
        for (f, b) in &buckets {
            if f.is_all_green() {
                cost += answer_cost(obj, max, b[0], depth);
            } else {
                let next = revealed.map(|r| r.after(word, *f));
                cost += brute_node(game, table, obj, max, b, depth + 1, next, memo);
            }
            if cost >= best {
                break; // (only a shortcut of the sum: the minimum is unchanged)
            }
        }
        best = best.min(cost);
    }
    let best = best.min(INFEASIBLE as u64);
    memo.insert(key, best);
    best
}

/// The bytes of a tree file holding exactly these fields (`root` as is, valid or not)
/// with sound checksums: how a damaged or hostile tree file is made for the tests.
pub fn craft_tree_file(
    hard: bool,
    max_guesses: u8,
    lists: u64,
    name: &str,
    root: &wordle_tree::tree::Node,
) -> Vec<u8> {
    // The same fields in the same order as `Tree`, so the same encoding.
    #[derive(serde::Serialize)]
    struct Body<'a> {
        hard: bool,
        max_guesses: u8,
        list_checksum: u64,
        list_name: &'a str,
        root: &'a wordle_tree::tree::Node,
    }
    let body = Body {
        hard,
        max_guesses,
        list_checksum: lists,
        list_name: name,
        root,
    };
    let body = bincode::serde::encode_to_vec(&body, bincode::config::standard()).unwrap();
    wrap_tree_body(hard as u8, max_guesses, lists, &body)
}

/// A tree file around any `body` bytes: a header saying what it is told and the
/// body's checksum (so only the body's content is wrong, if anything).
pub fn wrap_tree_body(hard: u8, max_guesses: u8, lists: u64, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(wordle_tree::tree::file::MAGIC);
    out.extend_from_slice(&wordle_tree::tree::file::FORMAT_VERSION.to_le_bytes());
    out.push(hard);
    out.push(max_guesses);
    out.extend_from_slice(&lists.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    let mut check = wordle_tree::game::Fnv::new();
    check.bytes(body);
    out.extend_from_slice(&check.finish().to_le_bytes());
    out
}

/// Runs the binary in `dir` on the custom lists `a.txt` (answers) and `g.txt`
/// (guesses) there: its exit code, standard output and standard error.
pub fn run_on_lists(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("wordle-tree")
        .unwrap()
        .current_dir(dir)
        .args(["--answers", "a.txt", "--guesses", "g.txt"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// ---- shared by the proof, check-units, cluster and sweep tests ----

/// The scheduler variables `--shard auto` and claims read, cleared from every child's
/// environment by [`cli`] (the tests may themselves run inside a Slurm job).
pub const SCHEDULER_VARS: [&str; 9] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_JOB_ID",
    "SLURM_JOB_ID",
    "JOB_COMPLETION_INDEX",
    "JOB_COMPLETIONS",
];

/// The binary, with no scheduler variables in its environment.
pub fn cli() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("wordle-tree").unwrap();
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    c
}

/// [`cli`] on the lists `a` (answers) and `g` (guesses), quiet.
pub fn with_lists(a: &Path, g: &Path) -> assert_cmd::Command {
    let mut c = cli();
    c.arg("--answers")
        .arg(a)
        .arg("--guesses")
        .arg(g)
        .arg("--quiet");
    c
}

pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A small custom game on disk in `dir` (every 8th answer, every 12th guess-only
/// word of the `wordle` lists): from `aback`, every answer within 4 guesses is
/// proved, within 3 refuted. Returns the answers' and guesses' files.
pub fn small_lists(dir: &Path) -> (PathBuf, PathBuf) {
    let full = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let words = |ws: Vec<String>| ws.join("\n") + "\n";
    let a = dir.join("answers.txt");
    let g = dir.join("guesses.txt");
    let answers = full.answers.iter().step_by(8).map(|w| w.to_string());
    std::fs::write(&a, words(answers.collect())).unwrap();
    let guesses = full.guesses[full.n_answers()..]
        .iter()
        .step_by(12)
        .map(|w| w.to_string());
    std::fs::write(&g, words(guesses.collect())).unwrap();
    (a, g)
}

/// A random game from `seed`: `least` to `least + spread - 1` answers drawn, 150
/// extra guesses.
pub fn seeded_game(seed: u64, least: usize, spread: usize) -> Game {
    let mut rng = Rng(seed);
    let n = least + rng.below(spread);
    random_game(&mut rng, n, 150)
}

/// The guess with the most buckets over every answer (the opener with the most
/// proof units).
pub fn widest_opener(game: &Game, table: &FeedbackTable) -> GuessId {
    let ids = game.all_answer_ids();
    (0..game.n_guesses())
        .map(GuessId::new)
        .max_by_key(|&g| partition(table, g, &ids).len())
        .unwrap()
}

/// A solver for `config` with a 64 MiB memory limit (whatever `config` says), as a
/// test's own process would have.
pub fn small_solver<'a>(game: &'a Game, table: &'a FeedbackTable, config: Config) -> Solver<'a> {
    let config = Config {
        memory_limit: 64 << 20,
        ..config
    };
    Solver::new(game, table, config)
}

/// Runs the proof units of `shard` (index, count) with a fresh solver, as another
/// process would; with `take_over`, the other shards' units are its to take over (and
/// their large units' second guesses to split) once the directory shows them. Returns
/// how many units it solved.
pub fn proof_shard(
    game: &Game,
    table: &FeedbackTable,
    plan: &wordle_tree::jobs::proof::Plan,
    dir: &Path,
    (index, count): (usize, usize),
    take_over: bool,
) -> usize {
    use wordle_tree::jobs::proof;
    static NEVER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let config = Config {
        hard: plan.identity.hard,
        ..Config::default()
    };
    let s = small_solver(game, table, config);
    let mut scan = proof::scan_dir(game, table, plan, dir).unwrap();
    let before = scan.done.len();
    let todo = plan.shard(index, count);
    let others: Vec<usize> = (0..plan.units.len())
        .filter(|p| take_over && !todo.contains(p))
        .collect();
    proof::run_units(
        &s,
        table,
        plan,
        dir,
        &mut scan,
        &todo,
        &others,
        &NEVER,
        &|_| {},
    )
    .unwrap();
    scan.done.len() - before
}

/// Ten answers and three extra guesses in a temporary directory (answers, guesses).
pub fn tiny_game() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let answers = dir.path().join("a.txt");
    let guesses = dir.path().join("g.txt");
    std::fs::write(
        &answers,
        "cigar\nrebut\nsissy\nhumph\nawake\nblush\nfocal\nevade\nnaval\nserve\n",
    )
    .unwrap();
    std::fs::write(&guesses, "salet\ntrace\ncrane\n").unwrap();
    (dir, answers, guesses)
}

/// The total of a plain `solve --opener OPENER` on the lists `a` and `g` (its
/// `total T guesses` line).
pub fn solved_total(a: &Path, g: &Path, opener: &str) -> u64 {
    let out = with_lists(a, g)
        .args(["solve", "--opener", opener])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .find_map(|l| l.strip_prefix("total "))
        .and_then(|t| t.split(' ').next())
        .unwrap()
        .parse()
        .unwrap()
}

/// `args` are refused: exit 2, the error names `needle`, no panic.
pub fn assert_refused(args: &[&str], needle: &str) {
    let out = cli().args(args).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

/// A results directory half lost: every other file removed and the second one
/// replaced by `malformed` (for a resumed sweep).
pub fn lose_half(dir: &Path, malformed: &str) {
    let files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for p in files.iter().step_by(2) {
        std::fs::remove_file(p).unwrap();
    }
    std::fs::write(&files[1], malformed).unwrap();
}

/// A per-opener sweep's result file of `R`'s kind for `stem`, its fields as a build
/// before this one wrote them (`fields`, in the file's order): the directory reads
/// it as one record, no warning, and writing that record back gives the same bytes,
/// so directories written before a change of the record type still resume.
pub fn stored_text_survives<R: wordle_tree::jobs::driver::SweepRecord>(
    game: &Game,
    hard: bool,
    limit: u8,
    stem: &str,
    fields: &[(&str, &str)],
) {
    use wordle_tree::store::results::{Header, ResultFile};
    let tmp = tempfile::tempdir().unwrap();
    let dir =
        wordle_tree::jobs::driver::SweepDir::<R>::open(tmp.path(), game, hard, limit).unwrap();
    let mut f = ResultFile::new(Header::new(R::KIND, game, hard, limit));
    for (k, v) in fields {
        f.set(k, v);
    }
    let old = f.encode();
    let path = dir.dir.file(stem);
    std::fs::write(&path, &old).unwrap();
    let (records, warnings) = dir.scan().unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(records.len(), 1);
    std::fs::remove_file(&path).unwrap();
    dir.write(records.values().next().unwrap()).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
}

/// Where a per-opener sweep runs, without progress reports: `game`, `table`, the
/// openers `all` and this run's `mine`, the directory `dir` and the flag `stop`.
pub fn at<'a, D>(
    game: &'a Game,
    table: &'a FeedbackTable,
    all: &'a [GuessId],
    mine: &'a [GuessId],
    dir: &'a D,
    stop: &'a std::sync::atomic::AtomicBool,
) -> wordle_tree::jobs::driver::Place<'a, D> {
    wordle_tree::jobs::driver::Place {
        game,
        table,
        all,
        mine,
        dir,
        stop,
        progress: &|_| {},
    }
}

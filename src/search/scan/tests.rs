//! The scan against its plain forms: hard mode's own tables against the full table,
//! and the least-bound scan against the full scan.

use super::*;
use crate::game::hard::Revealed;
use crate::game::table::FeedbackTable;
use crate::game::{Game, ListSource};
use crate::search::bound::INFEASIBLE;
use crate::search::kernels::BLOCK_MAX;
use crate::search::state::Guesses;
use crate::search::Config;

/// Hard mode: a state whose own compact table is packed from its parent's (or
/// from the full table) scans to the same result, with the same guesses and
/// bounds to expand, as the same state scanning the full table one guess at a
/// time, on the buckets of second guesses at buckets of poor openers (full lists),
/// under no cutoff and under a tight one; and its pre-scan's least bound, read
/// through the parent's table by cap, is the scan's bound above its floor.
#[test]
fn hard_own_tables_scan_like_the_full_table() {
    let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let solver_with = |hard_own_min| {
        let config = Config {
            hard: true,
            hard_own_min,
            use_transpositions: false,
            ..Config::default()
        };
        Solver::new(&game, &table, config)
    };
    let (own, plain) = (solver_with(HARD_OWN_MIN), solver_with(usize::MAX));
    let all: Vec<AnswerId> = game.all_answer_ids();
    let (mut compared, mut least_bounds, mut least_pairs) = (0, 0, 0);
    for opener in ["fuzzy", "mamma", "civic"] {
        let word = crate::Word::parse(opener).unwrap();
        let g1 = game.guess_id(word).unwrap();
        let by = crate::game::candidates::partition(&table, g1, &all);
        let Some((f, ids)) = by
            .into_iter()
            .filter(|(_, b)| (40..=PRESENCE_MAX_N).contains(&b.len()))
            .max_by_key(|(_, b)| b.len())
        else {
            panic!("{opener}: a bucket of 40 to 255 candidates");
        };
        let revealed = Revealed::default().after(word, f);
        // Per scan: how it ended, its bound, and the (bound, guess) pairs to expand.
        type Seen = Vec<(u8, u32, Vec<(u32, u16)>)>;
        let mut seen: Vec<Seen> = Vec::new();
        for solver in [&own, &plain] {
            let top = State {
                ids: &ids,
                left: 5,
                revealed,
                handed: solver.everything(),
            };
            let mut sc = solver.pool.lend(5, solver.tt.scratch());
            let mut work = sc.work();
            let Scanned::Expand(_) = solver.scan(&top, INFEASIBLE, &mut work) else {
                panic!("{opener}: the bucket is settled by its scan");
            };
            let (level, mut below) = work.split();
            solver.classify(&top, level, below.classes);
            assert_eq!(level.own_ready, std::ptr::eq(solver, &own), "{opener}");
            assert!(level.kids_ready, "{opener}: a pre-scan table");
            let handed = Guesses {
                list: &level.allowed,
                bits: Some(&level.allowed_bits[..]),
                max_split: level.max_split,
                local: level.own_ready.then_some(&level.own),
                sorted: Some((&level.local, &level.kids)),
            };
            let mut results = Vec::new();
            for &g2 in level.allowed.iter().step_by(97) {
                let word2 = game.guesses[g2.index()];
                for (f2, b) in crate::game::candidates::partition(&table, g2, &ids) {
                    if b.len() < 3 {
                        continue;
                    }
                    let child = top.child(&b, revealed.after(word2, f2), handed);
                    for cutoff in [INFEASIBLE, 2 * b.len() as u32 + 3] {
                        let (kind, v) = match solver.scan(&child, cutoff, &mut below) {
                            Scanned::Done(v, _) => (0, v),
                            Scanned::Expand(p) => (1, p.lb),
                            Scanned::Below(v) => (2, v),
                        };
                        let (level, _) = below.level();
                        let mut order: Vec<(u32, u16)> = level
                            .order
                            .iter()
                            .map(|&p| ((p >> 64) as u32, (p & 0xffff) as u16))
                            .collect();
                        order.sort_unstable();
                        if kind == 1 && cutoff == INFEASIBLE {
                            // The least-bound scan keeps a subset of the plain scan's
                            // (bound, guess) pairs: the same guesses behind its lanes.
                            solver.least_bound(&child, cutoff, 0, &mut below);
                            let (level, _) = below.level();
                            for &p in &level.order {
                                let pair = ((p >> 64) as u32, (p & 0xffff) as u16);
                                assert!(
                                    order.binary_search(&pair).is_ok(),
                                    "{opener}: least-bound pair {pair:?}"
                                );
                                least_pairs += 1;
                            }
                        }
                        results.push((kind, v, if kind == 1 { order } else { Vec::new() }));
                        // The pre-scan's least bound, through the parent's table
                        // by cap: the scan's bound above its floor, never more.
                        for floor in [0, v.saturating_sub(3), v - 1, v] {
                            let least = solver.least_bound(&child, cutoff, floor, &mut below);
                            if v > floor {
                                assert_eq!(least, v, "{opener}: cutoff {cutoff}, floor {floor}");
                            } else {
                                assert!(least <= v, "{opener}: {least} > {v}");
                            }
                            least_bounds += 1;
                        }
                    }
                }
            }
            seen.push(results);
        }
        compared += seen[0].len();
        assert!(seen[0] == seen[1], "{opener}: the scans differ");
    }
    assert!(compared > 100, "{compared} scans compared");
    assert!(least_bounds > 400, "{least_bounds} least bounds");
    assert!(least_pairs > 1000, "{least_pairs} least-bound pairs");
}

/// [`Solver::least_bound`] under a parent's compact table (lanes in order of their
/// caps, early stops by cap and by the least bound so far) gives the plain scan's
/// bound whenever that is above the floor, and never more than it, on the buckets
/// of many second guesses at large buckets of poor openers (full lists).
#[test]
fn least_bound_is_the_scans_bound_above_its_floor() {
    let game = Game::load(&ListSource::Named("nyt".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let config = Config {
        use_transpositions: false,
        ..Config::default()
    };
    let solver = Solver::new(&game, &table, config);
    let all: Vec<AnswerId> = game.all_answer_ids();
    let (mut compared, mut above) = (0, 0);
    for opener in ["tutty", "jiggy", "faith"] {
        let g1 = game.guess_id(crate::Word::parse(opener).unwrap()).unwrap();
        // The opener's largest bucket, with five guesses left.
        let row = table.row(g1);
        let mut by: std::collections::HashMap<u8, Vec<AnswerId>> = Default::default();
        for &a in &all {
            by.entry(row[a.index()]).or_default().push(a);
        }
        let ids = by.into_values().max_by_key(|b| b.len()).unwrap();
        assert!(ids.len() >= solver.config.local_min, "{opener}");
        let top = State {
            ids: &ids,
            left: 5,
            revealed: Revealed::default(),
            handed: solver.everything(),
        };
        let mut sc = solver.pool.lend(5, solver.tt.scratch());
        let mut work = sc.work();
        let Scanned::Expand(p) = solver.scan(&top, INFEASIBLE, &mut work) else {
            panic!("{opener}: the bucket is settled by its scan");
        };
        // Again under a cutoff that drops the weaker guesses early (their caps
        // then come from the repeats that dropped them).
        let Scanned::Expand(_) = solver.scan(&top, p.lb + 25, &mut work) else {
            panic!("{opener}: the bucket is settled by its scan");
        };
        let (level, mut below) = work.split();
        solver.classify(&top, level, below.classes);
        assert!(level.has_local, "{opener}: a compact table");
        let caps = &level.local.caps;
        assert!(
            caps.windows(2).all(|w| w[0] >= w[1]),
            "{opener}: lanes by cap"
        );
        let handed = Guesses {
            list: &level.allowed,
            bits: Some(&level.allowed_bits[..]),
            max_split: level.max_split,
            local: Some(&level.local),
            sorted: None,
        };
        // Every 500th guess the parent hands down, as the second guess.
        for &g2 in level.allowed.iter().step_by(500) {
            let row = table.row(g2);
            let mut buckets: std::collections::HashMap<u8, Vec<AnswerId>> = Default::default();
            for &a in &ids {
                buckets.entry(row[a.index()]).or_default().push(a);
            }
            for b in buckets.into_values().filter(|b| b.len() >= 8) {
                // The caps hold on the subset: no guess makes more buckets (the
                // feedbacks seen, counted by stamping a table with the lane).
                let mut seen = [usize::MAX; 256];
                for (lane, &g) in level.local.guesses.iter().enumerate() {
                    let row = table.row(g);
                    let mut buckets = 0;
                    for a in &b {
                        let f = &mut seen[row[a.index()] as usize];
                        buckets += (*f != lane) as usize;
                        *f = lane;
                    }
                    assert!(buckets <= level.local.caps[lane] as usize, "{opener} {g:?}");
                }
                let child = top.child(&b, Revealed::default(), handed);
                let want = match solver.scan(&child, INFEASIBLE, &mut below) {
                    Scanned::Done(v, _) => v,
                    Scanned::Expand(p) => p.lb,
                    Scanned::Below(_) => unreachable!(),
                };
                for cutoff in [want.saturating_sub(2), want, want + 1, want + 7, INFEASIBLE] {
                    let plain = match solver.scan(&child, cutoff, &mut below) {
                        Scanned::Done(v, _) => v,
                        Scanned::Expand(p) => p.lb,
                        Scanned::Below(_) => unreachable!(),
                    };
                    for floor in [0, want.saturating_sub(9), want - 1, want] {
                        let got = solver.least_bound(&child, cutoff, floor, &mut below);
                        compared += 1;
                        if plain > floor {
                            above += 1;
                            assert_eq!(
                                got, plain,
                                "{opener} {g2:?}: cutoff {cutoff}, floor {floor}"
                            );
                        } else {
                            assert!(got <= plain, "{opener} {g2:?}: {got} > {plain}");
                        }
                    }
                }
            }
        }
    }
    assert!(above > 100 && above < compared, "{above} of {compared}");
}

/// A state with two guesses left: the first perfect split found 32 guesses at a time
/// ([`Solver::first_perfect`], and [`Solver::first_perfect_blocks`] for small normal
/// states) is the first guess by id, among those handed down and (hard mode) playable,
/// that gives every candidate its own feedback, found by partitioning with each guess
/// in turn; and the scanned pairs are `n` per such guess up to the one found. On the
/// buckets of a few openers, every guess handed down or a third of them.
#[test]
fn first_perfect_split_is_the_first_by_id() {
    let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let all: Vec<AnswerId> = game.all_answer_ids();
    let n_guesses = game.n_guesses();
    let mut subset = vec![0u64; n_guesses.div_ceil(64)];
    for g in (0..n_guesses).filter(|g| g % 3 != 1) {
        subset[g / 64] |= 1 << (g % 64);
    }
    let (mut found, mut none) = (0, 0);
    for hard in [false, true] {
        let config = Config {
            hard,
            ..Config::default()
        };
        let solver = Solver::new(&game, &table, config);
        for opener in ["fuzzy", "mamma", "salet", "civic"] {
            let word = crate::Word::parse(opener).unwrap();
            let g1 = game.guess_id(word).unwrap();
            let by = crate::game::candidates::partition(&table, g1, &all);
            for (f, ids) in by.into_iter().filter(|(_, b)| (2..=40).contains(&b.len())) {
                let revealed = match hard {
                    true => Revealed::default().after(word, f),
                    false => Revealed::default(),
                };
                let demand = revealed.demand();
                for bits in [None, Some(&subset[..])] {
                    let list: Vec<GuessId> = (0..n_guesses)
                        .filter(|&g| bits.is_none_or(|b| b[g / 64] >> (g % 64) & 1 == 1))
                        .map(GuessId::new)
                        .collect();
                    let handed = Guesses {
                        list: &list,
                        bits,
                        max_split: usize::MAX,
                        local: None,
                        sorted: None,
                    };
                    let st = State {
                        ids: &ids,
                        left: 2,
                        revealed,
                        handed,
                    };
                    // The plain form: each guess handed down, in id order.
                    let n = ids.len();
                    let (mut want, mut tested) = (None, 0u64);
                    for &g in &list {
                        if hard && !revealed.allows(game.guesses[g.index()]) {
                            continue;
                        }
                        tested += n as u64;
                        if crate::game::candidates::partition(&table, g, &ids).len() == n {
                            want = Some(g);
                            break;
                        }
                    }
                    let mut sc = solver.pool.lend(5, solver.tt.scratch());
                    let mut work = sc.work();
                    let (level, ctr) = work.level();
                    solver.rows.offsets(&ids, &mut level.offsets);
                    let before = ctr.scanned;
                    let got = solver.first_perfect(&st, hard.then_some(&demand), level, ctr);
                    assert_eq!(got, want, "{opener} {f:?} hard {hard}");
                    assert_eq!(ctr.scanned - before, tested, "{opener} {f:?} hard {hard}");
                    if !hard && n <= BLOCK_MAX {
                        let got = solver.first_perfect_blocks(handed, level, ctr);
                        assert_eq!(got, want, "{opener} {f:?}: blocks");
                    }
                    match want {
                        Some(_) => found += 1,
                        None => none += 1,
                    }
                }
            }
        }
    }
    assert!(found > 20 && none > 5, "found {found}, none {none}");
}

/// Hard mode hands its children one guess per class (`hard::class_of`): at the largest
/// buckets of poor openers (full lists, five guesses left) and at the buckets of some
/// of their second guesses (four left, down to a few candidates, where a letter held
/// by one candidate is common), every guess the scan allows that splits the state and
/// is not handed down has a handed guess that differs from it only in letters no
/// candidate holds, gives every candidate the same feedback, and leaves the same
/// history after it; and no two handed guesses are of one class.
#[test]
fn hard_classes_hand_one_guess_per_move() {
    let game = Game::load(&ListSource::Named("wordle".into())).unwrap();
    let table = FeedbackTable::build(&game);
    let solver = Solver::new(
        &game,
        &table,
        Config {
            hard: true,
            use_transpositions: false,
            ..Config::default()
        },
    );
    let all: Vec<AnswerId> = game.all_answer_ids();
    let (mut states, mut dropped, mut small) = (0, 0, 0);
    let mut check = |ids: &[AnswerId], revealed: Revealed, left: u8| {
        let top = State {
            ids,
            left,
            revealed,
            handed: solver.everything(),
        };
        let mut sc = solver.pool.lend(left, solver.tt.scratch());
        let mut work = sc.work();
        let Scanned::Expand(_) = solver.scan(&top, INFEASIBLE, &mut work) else {
            return; // settled by its scan: nothing handed down
        };
        let (level, below) = work.split();
        solver.classify(&top, level, below.classes);
        states += 1;
        small += (ids.len() <= 40) as usize;
        let present = ids
            .iter()
            .fold(0u32, |m, a| m | game.answers[a.index()].letter_mask());
        let class = |g: GuessId| crate::game::hard::class_of(game.guesses[g.index()], present);
        let mut by_class = std::collections::HashMap::new();
        for &h in &level.allowed {
            assert!(
                by_class.insert(class(h), h).is_none(),
                "two handed of one class"
            );
        }
        for gi in crate::search::bits::members(&level.scan_bits) {
            let g = GuessId::new(gi);
            if !solver.rows.splits(g, &level.offsets) {
                continue;
            }
            let h = *by_class
                .get(&class(g))
                .expect("a handed guess of its class");
            if h == g {
                continue;
            }
            dropped += 1;
            let (wg, wh) = (game.guesses[g.index()], game.guesses[h.index()]);
            for i in 0..5 {
                if wg.letter(i) != wh.letter(i) {
                    assert_eq!(present >> wg.letter(i) & 1, 0, "{wg} {wh}");
                    assert_eq!(present >> wh.letter(i) & 1, 0, "{wg} {wh}");
                }
            }
            for &a in ids {
                let (fg, fh) = (table.get(g, a), table.get(h, a));
                assert_eq!(fg, fh, "{wg} {wh}");
                assert_eq!(revealed.after(wg, fg), revealed.after(wh, fh), "{wg} {wh}");
            }
        }
    };
    for opener in ["fuzzy", "mamma", "civic"] {
        let word = crate::Word::parse(opener).unwrap();
        let g1 = game.guess_id(word).unwrap();
        let by = crate::game::candidates::partition(&table, g1, &all);
        let (f, ids) = by.into_iter().max_by_key(|(_, b)| b.len()).unwrap();
        let revealed = Revealed::default().after(word, f);
        check(&ids, revealed, 5);
        for second in ["slate", "crony", "pudgy", "whack"] {
            let w2 = crate::Word::parse(second).unwrap();
            if !revealed.allows(w2) {
                continue;
            }
            let g2 = game.guess_id(w2).unwrap();
            for (f2, b) in crate::game::candidates::partition(&table, g2, &ids) {
                if b.len() >= 3 {
                    check(&b, revealed.after(w2, f2), 4);
                }
            }
        }
    }
    assert!(states >= 10 && small >= 5, "{states} states, {small} small");
    assert!(dropped > 0, "the classes dropped no guess");
}

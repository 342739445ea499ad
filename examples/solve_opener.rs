//! The exact optimum from an opener: the tree of fewest total guesses, proved optimal,
//! replayed over every answer. `cargo run --release --example solve_opener -- trace`
//! (default salet; about a second in a release build).

use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::word::Word;
use wordle_tree::game::{Game, ListSource};
use wordle_tree::search::{Config, Solver};
use wordle_tree::tree::Tree;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let word = std::env::args().nth(1).unwrap_or_else(|| "salet".into());
    let game = Game::load(&ListSource::Named("wordle".into()))?;
    let opener = game
        .guess_id(Word::parse(&word)?)
        .ok_or("not an allowed guess")?;
    let table = FeedbackTable::build(&game);
    let config = Config {
        max_guesses: 6,
        ..Config::default()
    };
    let solver = Solver::new(&game, &table, config);
    let (total, root) = solver.solve_opener(opener, &|_, _, _| {})?;
    let tree = Tree::new(&game, false, 6, root)?;
    let replay = tree.verify(&game);
    assert!(replay.is_valid() && replay.total() == total);
    println!(
        "{word}: {total} guesses over {} answers ({:.4} on average), proved optimal; max depth {}",
        game.n_answers(),
        total as f64 / game.n_answers() as f64,
        replay.max_depth()
    );
    Ok(())
}

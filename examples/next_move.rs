//! The next guess after a history, from the shipped tree built into the library: no
//! file is read. `cargo run --example next_move -- salet:BYBBY` (any number of
//! GUESS:FEEDBACK tokens; `--hard` for hard mode).

use std::sync::atomic::AtomicBool;
use wordle_tree::game::{Game, ListSource};
use wordle_tree::players::play::{self, Advice, Guide};
use wordle_tree::shipped;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hard = args.iter().any(|a| a == "--hard");
    let game = Game::load(&ListSource::Named("wordle".into()))?;
    let tree = shipped::tree(&game, hard)?.ok_or("no shipped tree")?;
    let steps = args
        .iter()
        .filter(|a| *a != "--hard")
        .map(|t| play::parse_step(&game, t))
        .collect::<Result<Vec<_>, _>>()?;
    // No deadline: off the tree the state is solved exactly.
    let stop = AtomicBool::new(false);
    match play::advise(&game, Guide::Tree(&tree), &steps, &stop, None)? {
        Advice::Solved { answer, guesses } => {
            println!("solved: {} in {guesses}", game.answers[answer.index()])
        }
        Advice::Play(m) => println!(
            "next guess: {} ({} candidates left, {:.4} guesses expected, from the {})",
            game.guesses[m.guess.index()],
            m.candidates.len(),
            m.expected(),
            if m.source == play::Source::Tree {
                "shipped tree"
            } else {
                "exact search"
            }
        ),
    }
    Ok(())
}

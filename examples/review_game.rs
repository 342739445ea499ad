//! An exact review of a played game, with the shipped tree and opener table built
//! into the library. `cargo run --example review_game -- crane:BBYBB spilt:BBBGB`.

use std::sync::atomic::AtomicBool;
use wordle_tree::game::{Game, ListSource};
use wordle_tree::jobs::check::GAME_LIMIT;
use wordle_tree::players::play;
use wordle_tree::players::review::{self, Options};
use wordle_tree::shipped;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game = Game::load(&ListSource::Named("wordle".into()))?;
    let tree = shipped::tree(&game, false)?.ok_or("no shipped tree")?;
    let table = shipped::table(&game, false)?;
    let mut tokens: Vec<String> = std::env::args().skip(1).collect();
    if tokens.is_empty() {
        tokens = vec!["crane:BBYBB".into(), "spilt:BBBGB".into()];
    }
    let steps = tokens
        .iter()
        .map(|t| play::parse_step(&game, t))
        .collect::<Result<Vec<_>, _>>()?;
    let options = Options {
        tree_optimal: true, // a shipped tree is optimal from its opener
        opener_table: table.as_ref(),
        ..Options::default()
    };
    let stop = AtomicBool::new(false);
    let r = review::review(
        &game,
        Some(&tree),
        false,
        GAME_LIMIT,
        &steps,
        &stop,
        options,
    )?;
    for (i, s) in r.steps.iter().enumerate() {
        println!(
            "step {}: {} candidates, {:.4} guesses lost to the choice, luck {:.4}",
            i + 1,
            s.candidates.len(),
            s.lost().value,
            s.luck().value
        );
    }
    println!("{}", serde_json::to_string_pretty(&r.to_json(&game))?);
    Ok(())
}

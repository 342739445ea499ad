//! A depth claim, proved or refuted: "from OPENER every answer is found within D
//! guesses". `cargo run --release --example depth_claim -- salet 5` (PROVED, with a
//! witness tree) or `-- salet 4` (REFUTED, with the state that cannot be finished).

use std::sync::atomic::AtomicBool;
use wordle_tree::game::table::FeedbackTable;
use wordle_tree::game::word::Word;
use wordle_tree::game::{Game, ListSource};
use wordle_tree::jobs::check::{self, Verdict};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let word = args.next().unwrap_or_else(|| "salet".into());
    let depth: u8 = args.next().map_or(Ok(5), |d| d.parse())?;
    let game = Game::load(&ListSource::Named("wordle".into()))?;
    let opener = game
        .guess_id(Word::parse(&word)?)
        .ok_or("not an allowed guess")?;
    let table = FeedbackTable::build(&game);
    let stop = AtomicBool::new(false);
    match check::within(&game, &table, opener, depth, false, &[], &stop)? {
        Verdict::Proved(tree) => {
            let replay = tree.verify(&game);
            println!(
                "PROVED: from {word} every answer within {depth} (witness tree: total {}, max depth {})",
                replay.total(),
                replay.max_depth()
            );
        }
        Verdict::Refuted { evidence, .. } => {
            print!("REFUTED: from {word} not every answer within {depth}");
            if let Some(e) = evidence {
                print!(
                    "; after {word}:{} the {} candidates need more than {} further guesses",
                    e.feedback,
                    e.candidates.len(),
                    e.left
                );
            }
            println!();
        }
    }
    Ok(())
}

//! Text exports of a tree: `paths` (one line per answer with the whole path),
//! `selby` (the same with the prefix shared with the line above blanked) and nested
//! JSON. Lines are in tree order with branches sorted by feedback string (so `GGGGG`
//! sits among its siblings alphabetically). They take a [`Tree`], valid by
//! construction, so every answer gets its line and every id is in range.

use crate::game::table::FeedbackTable;
use crate::game::{AnswerId, Game};
use crate::tree::{Node, Tree};

/// One line per answer: `salet BBBBB1 courd BBBBB2 ... whiff GGGGG4`.
pub fn paths(game: &Game, table: &FeedbackTable, tree: &Tree) -> Vec<String> {
    let ids: Vec<AnswerId> = game.all_answer_ids();
    let mut out = Vec::with_capacity(ids.len());
    walk(
        game,
        table,
        tree.root(),
        &ids,
        1,
        &mut String::new(),
        &mut out,
    );
    out
}

fn walk(
    game: &Game,
    table: &FeedbackTable,
    node: &Node,
    ids: &[AnswerId],
    depth: usize,
    prefix: &mut String,
    out: &mut Vec<String>,
) {
    let guess = game.guesses[node.guess.index()];
    let mut buckets = crate::game::candidates::partition(table, node.guess, ids);
    buckets.sort_by_key(|(f, _)| f.to_string());
    for (f, bucket) in buckets {
        let len = prefix.len();
        prefix.push_str(&format!("{guess} {f}{depth}"));
        if f.is_all_green() {
            out.push(prefix.clone());
        } else if let Some(child) = node.child(f) {
            prefix.push(' ');
            walk(game, table, child, &bucket, depth + 1, prefix, out);
        }
        prefix.truncate(len);
    }
}

/// The `paths` lines with the prefix (whole steps) shared with the line above blanked.
pub fn selby(lines: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut above: Vec<&str> = Vec::new();
    for line in lines {
        let tokens: Vec<&str> = line.split(' ').collect();
        // Steps are (guess, feedback) token pairs; blank whole shared steps.
        let mut shared = 0;
        while shared + 1 < tokens.len().min(above.len())
            && tokens[shared] == above[shared]
            && tokens[shared + 1] == above[shared + 1]
        {
            shared += 2;
        }
        let blank: usize = tokens[..shared].iter().map(|t| t.len() + 1).sum();
        out.push(format!(
            "{}{}",
            " ".repeat(blank),
            tokens[shared..].join(" ")
        ));
        above = tokens;
    }
    out
}

/// Nested JSON: `{"guess":"salet","branches":{"BBBBB":{...},"GGGGG":null}}`.
pub fn json(game: &Game, table: &FeedbackTable, tree: &Tree) -> serde_json::Value {
    let ids: Vec<AnswerId> = game.all_answer_ids();
    json_node(game, table, tree.root(), &ids)
}

fn json_node(
    game: &Game,
    table: &FeedbackTable,
    node: &Node,
    ids: &[AnswerId],
) -> serde_json::Value {
    let mut branches = serde_json::Map::new();
    for (f, bucket) in crate::game::candidates::partition(table, node.guess, ids) {
        let value = match node.child(f) {
            Some(child) if !f.is_all_green() => json_node(game, table, child, &bucket),
            _ => serde_json::Value::Null,
        };
        branches.insert(f.to_string(), value);
    }
    serde_json::json!({
        "guess": game.guesses[node.guess.index()].to_string(),
        "branches": branches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selby_blanks_shared_steps() {
        let lines = vec![
            "salet BBBBB1 courd BBBBB2 nymph GGGGG3".to_string(),
            "salet BBBBB1 courd BBBBY2 dumpy GGGGG3".to_string(),
        ];
        let s = selby(&lines);
        assert_eq!(s[0], lines[0]);
        assert_eq!(s[1], "             courd BBBBY2 dumpy GGGGG3");
    }
}

//! The binary tree file.
//!
//! Layout (all integers little-endian):
//! ```text
//! magic        8 bytes  "WRDLTREE"
//! version      u32      FORMAT_VERSION
//! mode         u8       0 normal, 1 hard
//! max guesses  u8
//! lists        u64      Game::checksum of the answer and guess lists, in order
//! body length  u64
//! body         bincode 2 (serde, standard config) of `Tree`
//! body check   u64      FNV-1a 64 of the body
//! ```
//! Loading refuses a wrong magic, an unknown version, a truncated or corrupted body,
//! a header that disagrees with the body, lists other than the ones in use, and any
//! tree that is not valid for them ([`Tree::new`] checks every id, branch and depth):
//! [`decode`] and [`load`] return a valid [`Tree`] or an error, nothing in between.
//!
//! The body is decoded by hand-written serde seeds rather than a derived
//! `Deserialize`, so a hostile file cannot make decoding itself fail badly, whatever
//! its checksums say: nodes nest at most as deep as the header's guess limit (at most
//! [`MAX_LIMIT`]; a file of 50,000 nested nodes is refused at the limit, not by a
//! stack overflow), a node has at most 242 branches, and the list name is read in
//! place from the body and refused above [`MAX_NAME`] bytes before anything is
//! allocated for it (a 46-byte file declaring a 2^62-byte name is refused, not
//! allocated). Nothing is allocated beyond what the body's own bytes describe; the
//! bincode decode limit (the body's length bound, [`MAX_BODY`], 64 MiB) is set as
//! well, and [`load`] reads no more than the largest file that bound allows.

use crate::game::echo::echo;
use crate::game::feedback::{Feedback, FEEDBACKS};
use crate::game::{Fnv, Game, GuessId};
use crate::tree::{InvalidTree, Node, Tree, MAX_LIMIT};
use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use std::fmt;
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"WRDLTREE";
pub const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 1 + 1 + 8 + 8;
/// The header's length in bytes (the body follows it).
pub const HEADER_BYTES: usize = HEADER;
/// The longest list name a file may hold, in bytes.
pub const MAX_NAME: usize = 255;
/// The largest body a file may declare (a whole sowpods tree is well under 1 MiB).
pub const MAX_BODY: u64 = 64 << 20;

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{0}: cannot read: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("{0}: cannot write: {1}")]
    Write(PathBuf, std::io::Error),
    #[error("{0}: not a wordle-tree file (wrong magic bytes)")]
    Magic(PathBuf),
    #[error(
        "{0}: format version {1} is not supported (this build reads version {FORMAT_VERSION})"
    )]
    Version(PathBuf, u32),
    #[error("{0}: truncated ({1} bytes, expected {2})")]
    Truncated(PathBuf, usize, u64),
    #[error("{0}: corrupted (body checksum mismatch)")]
    Corrupt(PathBuf),
    #[error("{0}: corrupted ({1})")]
    Decode(PathBuf, String),
    #[error("{path}: built on other word lists ({}, checksum {tree:016x}) than the ones in use ({lists}, checksum {ours:016x}); pass the matching --list or --answers/--guesses", echo(.tree_lists))]
    Lists {
        path: PathBuf,
        tree_lists: String,
        tree: u64,
        lists: String,
        ours: u64,
    },
    #[error("{0}: not a valid tree for these lists: {1}")]
    Invalid(PathBuf, InvalidTree),
}

/// Encodes a tree as file bytes.
pub fn encode(tree: &Tree) -> Vec<u8> {
    let body = bincode::serde::encode_to_vec(tree, bincode::config::standard())
        .expect("trees always encode");
    let mut out = Vec::with_capacity(HEADER + body.len() + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(tree.hard() as u8);
    out.push(tree.max_guesses());
    out.extend_from_slice(&tree.list_checksum().to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    let mut check = Fnv::new();
    check.bytes(&body);
    out.extend_from_slice(&body);
    out.extend_from_slice(&check.finish().to_le_bytes());
    out
}

/// Decodes file bytes into a valid tree for `game`; `path` only names the file in
/// errors.
pub fn decode(bytes: &[u8], path: &Path, game: &Game) -> Result<Tree, FileError> {
    let p = || path.to_path_buf();
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(FileError::Magic(p()));
    }
    if bytes.len() < HEADER {
        return Err(FileError::Truncated(p(), bytes.len(), HEADER as u64));
    }
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(FileError::Version(p(), version));
    }
    let (hard, max_guesses, lists) = (bytes[12], bytes[13], u64_at(14));
    let body_len = u64_at(22);
    let want = (HEADER as u64).saturating_add(body_len).saturating_add(8);
    if (bytes.len() as u64) < want {
        return Err(FileError::Truncated(p(), bytes.len(), want));
    }
    if bytes.len() as u64 > want {
        return Err(FileError::Decode(
            p(),
            format!("{} trailing bytes", bytes.len() as u64 - want),
        ));
    }
    // `want` is at most the file's length here, so the body fits in memory.
    let body = &bytes[HEADER..HEADER + body_len as usize];
    let mut check = Fnv::new();
    check.bytes(body);
    if check.finish() != u64_at(HEADER + body_len as usize) {
        return Err(FileError::Corrupt(p()));
    }
    if hard > 1 {
        return Err(FileError::Decode(
            p(),
            format!("mode byte {hard} is not 0 or 1"),
        ));
    }
    if !(1..=MAX_LIMIT).contains(&max_guesses) {
        return Err(FileError::Decode(
            p(),
            format!("guess limit {max_guesses} is not from 1 to {MAX_LIMIT}"),
        ));
    }
    if body_len > MAX_BODY {
        return Err(FileError::Decode(
            p(),
            format!("a body of {body_len} bytes, above the {MAX_BODY} a tree may have"),
        ));
    }
    let config = bincode::config::standard().with_limit::<{ MAX_BODY as usize }>();
    let (raw, used) =
        bincode::serde::seed_decode_from_slice(TreeSeed { limit: max_guesses }, body, config)
            .map_err(|e| FileError::Decode(p(), body_error(e)))?;
    if used != body.len()
        || raw.hard as u8 != hard
        || raw.max_guesses != max_guesses
        || raw.list_checksum != lists
    {
        return Err(FileError::Decode(p(), "header and body disagree".into()));
    }
    if raw.list_checksum != game.checksum {
        return Err(FileError::Lists {
            path: p(),
            tree_lists: raw.list_name,
            tree: raw.list_checksum,
            lists: game.name.clone(),
            ours: game.checksum,
        });
    }
    let tree = Tree::new(game, raw.hard, raw.max_guesses, raw.root)
        .map_err(|e| FileError::Invalid(p(), e))?;
    Ok(tree)
}

/// What is wrong with a body, in words (bincode's own `Display` is its `Debug`).
fn body_error(e: bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as E;
    match e {
        E::OtherString(why) => why,
        E::UnexpectedEnd { .. } => "the body ends in the middle of a value".into(),
        E::LimitExceeded => format!("the body describes more than {MAX_BODY} bytes"),
        E::InvalidBooleanValue(b) => format!("mode {b} in the body is not 0 or 1"),
        E::Utf8 { .. } => "the list name is not UTF-8".into(),
        other => echo(&format!("{other}")),
    }
}

/// Writes a tree file atomically.
pub fn save(tree: &Tree, path: &Path) -> Result<(), FileError> {
    crate::store::results::write_atomic(path, &encode(tree))
        .map_err(|e| FileError::Write(path.to_path_buf(), e))
}

/// Reads a tree file: a valid tree for `game` (built on its lists), or an error. At
/// most the largest possible tree file is read, so a huge file (or `/dev/zero`) is
/// refused without being read whole.
pub fn load(path: &Path, game: &Game) -> Result<Tree, FileError> {
    use std::io::Read;
    let most = HEADER as u64 + MAX_BODY + 8;
    let io = |e| FileError::Io(path.to_path_buf(), e);
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(most + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > most {
        return Err(FileError::Decode(
            path.to_path_buf(),
            format!("larger than the {most} bytes a tree file may have"),
        ));
    }
    decode(&bytes, path, game)
}

/// The body's fields as read, before [`Tree::new`] checks them.
struct RawTree {
    hard: bool,
    max_guesses: u8,
    list_checksum: u64,
    list_name: String,
    root: Node,
}

/// Reads a `Tree` body whose nodes may nest `limit` deep.
struct TreeSeed {
    limit: u8,
}

const TREE_FIELDS: &[&str] = &["hard", "max_guesses", "list_checksum", "list_name", "root"];
const NODE_FIELDS: &[&str] = &["guess", "branches"];

fn next<'de, A: SeqAccess<'de>, T: serde::Deserialize<'de>>(
    seq: &mut A,
    what: &str,
) -> Result<T, A::Error> {
    seq.next_element()?
        .ok_or_else(|| de::Error::custom(format!("the body ends before the {what}")))
}

fn next_seed<'de, A: SeqAccess<'de>, S: DeserializeSeed<'de>>(
    seq: &mut A,
    seed: S,
    what: &str,
) -> Result<S::Value, A::Error> {
    seq.next_element_seed(seed)?
        .ok_or_else(|| de::Error::custom(format!("the body ends before the {what}")))
}

impl<'de> DeserializeSeed<'de> for TreeSeed {
    type Value = RawTree;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RawTree, D::Error> {
        d.deserialize_struct("Tree", TREE_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for TreeSeed {
    type Value = RawTree;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tree")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawTree, A::Error> {
        let hard = next(&mut seq, "mode")?;
        let max_guesses = next(&mut seq, "guess limit")?;
        let list_checksum = next(&mut seq, "lists checksum")?;
        let list_name = next_seed(&mut seq, NameSeed, "list name")?;
        let root = next_seed(
            &mut seq,
            NodeSeed {
                depth: 1,
                limit: self.limit,
            },
            "root",
        )?;
        Ok(RawTree {
            hard,
            max_guesses,
            list_checksum,
            list_name,
            root,
        })
    }
}

/// The list name: read in place, refused when longer than [`MAX_NAME`] bytes.
struct NameSeed;

impl<'de> DeserializeSeed<'de> for NameSeed {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for NameSeed {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a list name of at most {MAX_NAME} bytes")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        if v.len() > MAX_NAME {
            return Err(E::custom(format!(
                "a list name of {} bytes, above the {MAX_NAME} allowed",
                v.len()
            )));
        }
        Ok(v.to_string())
    }
}

/// A node at guess `depth` (the root is 1) of a tree whose nodes may nest `limit` deep.
#[derive(Clone, Copy)]
struct NodeSeed {
    depth: u8,
    limit: u8,
}

impl<'de> DeserializeSeed<'de> for NodeSeed {
    type Value = Node;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        if self.depth > self.limit {
            return Err(de::Error::custom(format!(
                "nodes nested deeper than the guess limit of {}",
                self.limit
            )));
        }
        d.deserialize_struct("Node", NODE_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for NodeSeed {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a node")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let guess: GuessId = next(&mut seq, "guess")?;
        let branches = next_seed(&mut seq, BranchesSeed(self), "branches")?;
        Ok(Node { guess, branches })
    }
}

/// A node's branches: at most one per non-green feedback, each child one level deeper.
struct BranchesSeed(NodeSeed);

impl<'de> DeserializeSeed<'de> for BranchesSeed {
    type Value = Vec<(Feedback, Node)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for BranchesSeed {
    type Value = Vec<(Feedback, Node)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a node's branches")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let most = FEEDBACKS - 1;
        if seq.size_hint().is_some_and(|n| n > most) {
            return Err(de::Error::custom(format!(
                "a node with {} branches (at most {most})",
                seq.size_hint().unwrap_or(0)
            )));
        }
        let child = NodeSeed {
            depth: self.0.depth.saturating_add(1),
            limit: self.0.limit,
        };
        let mut branches = Vec::new();
        while let Some(branch) = seq.next_element_seed(BranchSeed(child))? {
            if branches.len() == most {
                return Err(de::Error::custom(format!(
                    "a node with more than {most} branches"
                )));
            }
            branches.push(branch);
        }
        Ok(branches)
    }
}

/// One branch: `(feedback, child)`.
struct BranchSeed(NodeSeed);

impl<'de> DeserializeSeed<'de> for BranchSeed {
    type Value = (Feedback, Node);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for BranchSeed {
    type Value = (Feedback, Node);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a branch")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let feedback: Feedback = next(&mut seq, "branch's feedback")?;
        let child = next_seed(&mut seq, self.0, "branch's node")?;
        Ok((feedback, child))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::feedback::Feedback;
    use crate::game::word::Word;

    fn game() -> Game {
        let w = |s: &str| Word::parse(s).unwrap();
        Game::from_words(&[w("cigar"), w("rebut")], &[w("sissy")])
    }

    fn tree(game: &Game) -> Tree {
        let f = Feedback::compute(game.guesses[0], game.answers[1]);
        let root = Node {
            guess: GuessId(0),
            branches: vec![(
                f,
                Node {
                    guess: GuessId(1),
                    branches: vec![],
                },
            )],
        };
        Tree::new(game, true, 6, root).unwrap()
    }

    #[test]
    fn round_trip() {
        let g = game();
        let t = tree(&g);
        assert_eq!(decode(&encode(&t), Path::new("t"), &g).unwrap(), t);
    }

    #[test]
    fn damage_is_refused() {
        let g = game();
        let bytes = encode(&tree(&g));
        let p = Path::new("t");
        assert!(matches!(
            decode(&bytes[..bytes.len() - 3], p, &g),
            Err(FileError::Truncated(..))
        ));
        let mut bad = bytes.clone();
        bad[HEADER + 1] ^= 0xff;
        assert!(matches!(decode(&bad, p, &g), Err(FileError::Corrupt(..))));
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert!(matches!(decode(&bad, p, &g), Err(FileError::Version(_, 9))));
        assert!(matches!(
            decode(b"hello world, not a tree", p, &g),
            Err(FileError::Magic(..))
        ));
    }
}

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
//! a header that disagrees with the body, and lists other than the ones in use.

use crate::game::{Fnv, Game};
use crate::tree::Tree;
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"WRDLTREE";
pub const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 1 + 1 + 8 + 8;

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
    Truncated(PathBuf, usize, usize),
    #[error("{0}: corrupted (body checksum mismatch)")]
    Corrupt(PathBuf),
    #[error("{0}: corrupted ({1})")]
    Decode(PathBuf, String),
    #[error("{path}: built on other word lists ({tree_lists}, checksum {tree:016x}) than the ones in use ({lists}, checksum {ours:016x}); pass the matching --list or --answers/--guesses")]
    Lists {
        path: PathBuf,
        tree_lists: String,
        tree: u64,
        lists: String,
        ours: u64,
    },
}

/// Encodes a tree as file bytes.
pub fn encode(tree: &Tree) -> Vec<u8> {
    let body = bincode::serde::encode_to_vec(tree, bincode::config::standard())
        .expect("trees always encode");
    let mut out = Vec::with_capacity(HEADER + body.len() + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(tree.hard as u8);
    out.push(tree.max_guesses);
    out.extend_from_slice(&tree.list_checksum.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    let mut check = Fnv::new();
    check.bytes(&body);
    out.extend_from_slice(&body);
    out.extend_from_slice(&check.finish().to_le_bytes());
    out
}

/// Decodes file bytes; `path` only names the file in errors.
pub fn decode(bytes: &[u8], path: &Path) -> Result<Tree, FileError> {
    let p = || path.to_path_buf();
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(FileError::Magic(p()));
    }
    if bytes.len() < HEADER {
        return Err(FileError::Truncated(p(), bytes.len(), HEADER));
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
        return Err(FileError::Truncated(p(), bytes.len(), want as usize));
    }
    if bytes.len() as u64 > want {
        return Err(FileError::Decode(
            p(),
            format!("{} trailing bytes", bytes.len() as u64 - want),
        ));
    }
    let body = &bytes[HEADER..HEADER + body_len as usize];
    let mut check = Fnv::new();
    check.bytes(body);
    if check.finish() != u64_at(HEADER + body_len as usize) {
        return Err(FileError::Corrupt(p()));
    }
    let (tree, used): (Tree, usize) =
        bincode::serde::decode_from_slice(body, bincode::config::standard())
            .map_err(|e| FileError::Decode(p(), e.to_string()))?;
    if used != body.len()
        || tree.hard as u8 != hard
        || tree.max_guesses != max_guesses
        || tree.list_checksum != lists
    {
        return Err(FileError::Decode(p(), "header and body disagree".into()));
    }
    Ok(tree)
}

/// Writes a tree file atomically.
pub fn save(tree: &Tree, path: &Path) -> Result<(), FileError> {
    crate::results::write_atomic(path, &encode(tree))
        .map_err(|e| FileError::Write(path.to_path_buf(), e))
}

/// Reads a tree file and checks that it was built on `game`'s lists.
pub fn load(path: &Path, game: &Game) -> Result<Tree, FileError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::Io(path.to_path_buf(), e))?;
    let tree = decode(&bytes, path)?;
    if tree.list_checksum != game.checksum {
        return Err(FileError::Lists {
            path: path.to_path_buf(),
            tree_lists: tree.list_name.clone(),
            tree: tree.list_checksum,
            lists: game.name.clone(),
            ours: game.checksum,
        });
    }
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Node;

    fn tree() -> Tree {
        Tree {
            hard: true,
            max_guesses: 6,
            list_checksum: 42,
            list_name: "wordle".into(),
            root: Node {
                guess: 7,
                branches: vec![(
                    0,
                    Node {
                        guess: 1,
                        branches: vec![],
                    },
                )],
            },
        }
    }

    #[test]
    fn round_trip() {
        let t = tree();
        assert_eq!(decode(&encode(&t), Path::new("t")).unwrap(), t);
    }

    #[test]
    fn damage_is_refused() {
        let bytes = encode(&tree());
        let p = Path::new("t");
        assert!(matches!(
            decode(&bytes[..bytes.len() - 3], p),
            Err(FileError::Truncated(..))
        ));
        let mut bad = bytes.clone();
        bad[HEADER + 1] ^= 0xff;
        assert!(matches!(decode(&bad, p), Err(FileError::Corrupt(..))));
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert!(matches!(decode(&bad, p), Err(FileError::Version(_, 9))));
        assert!(matches!(
            decode(b"hello world, not a tree", p),
            Err(FileError::Magic(..))
        ));
    }
}

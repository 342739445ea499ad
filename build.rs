//! Build script: embeds the shipped data, so the binary and the library work from any
//! directory with no files beside them (`src/shipped.rs` reads what this writes).
//!
//! Writes `$OUT_DIR/shipped.rs` with two tables, each sorted by file name:
//! - `TREES`: every `trees/*.tree`, as is (`include_bytes!`). Tree files are bincode
//!   with little redundancy: deflate saves only about 26% (171 KB to 127 KB for all),
//!   not worth a decompression on every `next`.
//! - `TABLES`: every `tables/*.csv`, zlib-compressed here and inflated on use. The
//!   six tables are 2.28 MB of text and about 0.44 MB compressed (the measured figures
//!   are in docs/guide/formats.md); inflating the largest takes about a millisecond.
//!
//! Cargo reruns this script when a file in `trees/` or `tables/` changes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut v: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext) && p.is_file())
            .collect(),
        Err(e) => panic!("{}: cannot read the shipped data: {e}", dir.display()),
    };
    v.sort();
    v
}

fn name(p: &Path) -> String {
    p.file_name()
        .expect("a file has a name")
        .to_string_lossy()
        .into_owned()
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let mut code = String::new();
    code += "/// (file name, bytes) of every shipped `trees/*.tree`, by name.\n";
    code += "pub(crate) static TREES: &[(&str, &[u8])] = &[\n";
    for p in files(&root.join("trees"), "tree") {
        writeln!(code, "    ({:?}, include_bytes!({:?})),", name(&p), p).unwrap();
    }
    code += "];\n\n";
    code += "/// (file name, zlib bytes, length) of every shipped `tables/*.csv`, by name.\n";
    code += "pub(crate) static TABLES: &[(&str, &[u8], usize)] = &[\n";
    for p in files(&root.join("tables"), "csv") {
        let raw = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 9);
        let dest = out.join(format!("{}.zlib", name(&p)));
        std::fs::write(&dest, &packed).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
        writeln!(
            code,
            "    ({:?}, include_bytes!({:?}), {}),",
            name(&p),
            dest,
            raw.len()
        )
        .unwrap();
    }
    code += "];\n";
    std::fs::write(out.join("shipped.rs"), code).expect("OUT_DIR is writable");
}

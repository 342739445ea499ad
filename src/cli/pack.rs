//! `pack` and `unpack`: a finished results directory as one checked file, and back
//! (the format and its checks live in [`wordle_tree::store::pack`]).

use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use wordle_tree::store::pack::{self, SUFFIX};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  wordle-tree pack proofs/table.wordle.normal            (writes proofs/table.wordle.normal.pack)
  wordle-tree pack runs/lants --out lants.pack --remove
  wordle-tree unpack lants.pack runs/lants               (then rerun the same command to resume)")]
pub struct PackArgs {
    /// The results directory to pack (every regular file in it must be a sealed
    /// result or unit file).
    pub dir: PathBuf,
    /// Where to write the pack (default: DIR.pack beside the directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Vouch for result files of older builds that carry no end checksum: they go in
    /// re-encoded and sealed. Without it such a file is refused by name.
    #[arg(long)]
    pub adopt: bool,
    /// Remove the packed files and the directory once the pack is written, read back
    /// and checked.
    #[arg(long)]
    pub remove: bool,
}

#[derive(Args, Debug)]
pub struct UnpackArgs {
    /// The pack to read (checked whole before anything is written).
    pub pack: PathBuf,
    /// The directory to write its files into (created if needed; a file already there
    /// with other contents is refused by name).
    pub dir: PathBuf,
}

pub fn pack(a: &PackArgs) -> Result<ExitCode> {
    let dir = a.dir.as_path();
    if !std::fs::metadata(dir).is_ok_and(|m| m.is_dir()) {
        bail!(
            "{}: not a directory (pack takes a results directory)",
            dir.display()
        );
    }
    let out = match &a.out {
        Some(o) => o.clone(),
        None => {
            let mut name = dir
                .file_name()
                .map(|n| n.to_os_string())
                .unwrap_or_else(|| "results".into());
            name.push(SUFFIX);
            dir.with_file_name(name)
        }
    };
    if !out.to_string_lossy().ends_with(SUFFIX) {
        bail!("{}: a pack's name must end in {SUFFIX}", out.display());
    }
    let adopt = |text: &str, path: &std::path::Path, kind: &str| {
        wordle_tree::store::results::adopt_unsealed(text, path, kind).map_err(|e| e.to_string())
    };
    let done = pack::pack_dir(
        dir,
        &out,
        a.adopt.then_some(&adopt as &pack::Adopt),
        a.remove,
    )?;
    outln!(
        "packed {} files ({} adopted from older builds) of {} into {}: {} bytes of text, {} bytes packed{}",
        done.files,
        done.adopted,
        dir.display(),
        out.display(),
        done.text_bytes,
        done.pack_bytes,
        if a.remove { "; directory removed" } else { "" }
    );
    Ok(ExitCode::SUCCESS)
}

pub fn unpack(a: &UnpackArgs) -> Result<ExitCode> {
    let written = pack::unpack(&a.pack, &a.dir)?;
    outln!(
        "unpacked {} into {}: {written} files written",
        a.pack.display(),
        a.dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

//! The unit tests of [`super`]: result files, sealing and results directories.

use super::*;
use crate::store::entry::{temp_name, temp_pid};

#[test]
fn temp_names_give_back_their_pid() {
    assert_eq!(
        temp_pid(&temp_name("salet.normal.wordle.max6", 4242)),
        Some(4242)
    );
    assert_eq!(temp_pid("salet.normal.wordle.max6"), None);
    assert_eq!(temp_pid(".x.tmp.notapid"), None);
}

#[test]
fn files_from_before_the_header_are_read_unsealed_only() {
    let openers = "opener=salet\nlist=wordle\nchecksum=00000000000000ff\nmode=hard\nmax_guesses=6\nresult=exact 7920\n";
    let e = ResultFile::decode(openers, Path::new("x"), "openers").unwrap_err();
    assert!(e.to_string().contains("no valid end checksum"), "{e}");
    let f = ResultFile::decode_unsealed(openers, Path::new("x"), "openers").unwrap();
    assert_eq!(f.header.kind, "openers");
    assert_eq!((f.header.checksum, f.header.hard), (255, true));
    assert_eq!(f.get("result"), Some("exact 7920"));
    let within = "opener=salet\nlists=wordle 00000000000000ff\nmode=normal\nmax_guesses=4\nresult=refuted\nseconds=0.5\n";
    let f = ResultFile::decode(&seal(within.into()), Path::new("x"), "within").unwrap();
    assert_eq!(f.header.list, "wordle");
    assert_eq!(f.header.checksum, 255);
    assert_eq!(f.get("lists"), None);
    assert_eq!(f.get("result"), Some("refuted"));
}

#[test]
fn other_versions_and_repeated_keys_are_refused() {
    let next = format!("format={FORMAT} 2\nkind=openers\n");
    let e = ResultFile::decode(&seal(next), Path::new("x"), "openers").unwrap_err();
    assert!(e.to_string().contains("format version 2"), "{e}");
    let twice = "mode=normal\nmode=hard\n";
    let e = ResultFile::decode(&seal(twice.into()), Path::new("x"), "openers").unwrap_err();
    assert!(e.to_string().contains("'mode' appears twice"), "{e}");
}

#[test]
fn an_edited_or_cut_result_is_not_believed() {
    let header = Header {
        kind: "openers".into(),
        list: "wordle".into(),
        checksum: 7,
        hard: false,
        max_guesses: 6,
    };
    let mut f = ResultFile::new(header);
    f.set("opener", "salet").set("result", "exact 1239");
    let text = f.encode();
    assert!(text.lines().last().unwrap().starts_with("end="));
    assert_eq!(
        ResultFile::decode(&text, Path::new("x"), "openers").unwrap(),
        f
    );
    let edited = text.replace("exact 1239", "exact 1139");
    assert!(ResultFile::decode(&edited, Path::new("x"), "openers").is_err());
    let cut = &text[..text.len() - 30];
    assert!(ResultFile::decode(cut, Path::new("x"), "openers").is_err());
    // Unit files end with `end HEX`: the same seal.
    let unit = seal_as("wordle-tree proof unit v1\nresult exact 4\n".into(), "end ");
    assert!(sealed_body(&unit).is_some());
    assert!(sealed_body(&unit.replace("exact 4", "exact 3")).is_none());
}

#[test]
fn clip_cuts_long_input() {
    assert_eq!(clip("short"), "short");
    assert_eq!(clip(&"x".repeat(100)), format!("{}...", "x".repeat(40)));
}

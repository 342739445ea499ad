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

/// An environment of the given variables only.
fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
}

fn slurm(id: &str, count: &str, min: &str) -> Result<Shard, ResultsError> {
    Shard::from_scheduler(env(&[
        ("SLURM_ARRAY_TASK_ID", id),
        ("SLURM_ARRAY_TASK_COUNT", count),
        ("SLURM_ARRAY_TASK_MIN", min),
    ]))
}

#[test]
fn slurm_arrays_give_shards_from_one_whatever_their_first_id() {
    let s = |index, count| Ok::<_, String>(Shard { index, count });
    let ok = |r: Result<Shard, ResultsError>| r.map_err(|e| e.to_string());
    assert_eq!(ok(slurm("1", "16", "1")), s(1, 16));
    assert_eq!(ok(slurm("16", "16", "1")), s(16, 16));
    assert_eq!(ok(slurm("0", "4", "0")), s(1, 4));
    assert_eq!(ok(slurm("3", "4", "0")), s(4, 4));
    assert_eq!(ok(slurm(" 7 ", "4", "5")), s(3, 4));
    // --array=10-40:10
    let stepped = Shard::from_scheduler(env(&[
        ("SLURM_ARRAY_TASK_ID", "30"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
        ("SLURM_ARRAY_TASK_MIN", "10"),
        ("SLURM_ARRAY_TASK_MAX", "40"),
        ("SLURM_ARRAY_TASK_STEP", "10"),
    ]));
    assert_eq!(ok(stepped), s(3, 4));
    // Slurm is looked at before Kubernetes.
    let both = Shard::from_scheduler(env(&[
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("JOB_COMPLETION_INDEX", "0"),
        ("JOB_COMPLETIONS", "8"),
    ]));
    assert_eq!(ok(both), s(2, 2));
}

#[test]
fn kubernetes_indexed_jobs_count_from_zero() {
    let k8s = |i: &str, n: &str| {
        Shard::from_scheduler(env(&[("JOB_COMPLETION_INDEX", i), ("JOB_COMPLETIONS", n)]))
            .map_err(|e| e.to_string())
    };
    assert_eq!(k8s("0", "8"), Ok(Shard { index: 1, count: 8 }));
    assert_eq!(k8s("7", "8"), Ok(Shard { index: 8, count: 8 }));
    let e = k8s("8", "8").unwrap_err();
    assert!(
        e.contains("JOB_COMPLETION_INDEX=8 must be below JOB_COMPLETIONS=8"),
        "{e}"
    );
    let e = Shard::from_scheduler(env(&[("JOB_COMPLETION_INDEX", "2")]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS is not"),
        "{e}"
    );
}

#[test]
fn bad_scheduler_values_are_one_line_errors_naming_the_variable() {
    let e = |r: Result<Shard, ResultsError>| {
        let t = r.unwrap_err().to_string();
        assert!(!t.contains('\n'), "{t}");
        assert!(t.starts_with("--shard auto: "), "{t}");
        t
    };
    let none = e(Shard::from_scheduler(env(&[])));
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "JOB_COMPLETION_INDEX",
        "JOB_COMPLETIONS",
    ] {
        assert!(none.contains(v), "{none}");
    }
    // A Slurm job that is not an array names no shard either.
    assert!(e(Shard::from_scheduler(env(&[("SLURM_JOB_ID", "5")]))).contains("found neither"));
    assert!(e(slurm("x", "4", "1")).contains("SLURM_ARRAY_TASK_ID='x' is not a whole number"));
    assert!(e(slurm("-1", "4", "1")).contains("SLURM_ARRAY_TASK_ID='-1'"));
    assert!(e(slurm("1", "", "1")).contains("SLURM_ARRAY_TASK_COUNT='' is not a whole number"));
    assert!(e(slurm("1", "0", "1")).contains("SLURM_ARRAY_TASK_COUNT=0"));
    assert!(e(slurm("5", "4", "1")).contains("SLURM_ARRAY_TASK_ID=5 is not one of"));
    assert!(e(slurm("0", "4", "1")).contains("SLURM_ARRAY_TASK_ID=0 is not one of"));
    let no_min = Shard::from_scheduler(env(&[
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ]));
    assert!(e(no_min).contains("SLURM_ARRAY_TASK_MIN is not"));
    // --array=1,2,9: three tasks, not evenly spaced.
    let gaps = Shard::from_scheduler(env(&[
        ("SLURM_ARRAY_TASK_ID", "9"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "9"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
    ]));
    assert!(e(gaps).contains("not evenly spaced"));
    assert!(e(Shard::from_scheduler(env(&[(
        "JOB_COMPLETION_INDEX",
        "one"
    )])))
    .contains("JOB_COMPLETION_INDEX='one' is not a whole number"));
}

#[test]
fn shard_specs_parse_auto_or_a_slice() {
    assert_eq!(ShardSpec::parse("auto").unwrap(), ShardSpec::Auto);
    assert_eq!(
        ShardSpec::parse("2/8").unwrap(),
        ShardSpec::Given(Shard { index: 2, count: 8 })
    );
    assert!(ShardSpec::parse("automatic").is_err());
    assert_eq!(
        ShardSpec::Given(Shard::ALL).resolve(env(&[])).unwrap(),
        Shard::ALL
    );
    assert!(ShardSpec::Auto.resolve(env(&[])).is_err());
}

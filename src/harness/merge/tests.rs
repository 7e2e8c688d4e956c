//! Merging shard folders (synthetic shards in temporary folders).

use super::*;

/// A shard folder with one timing row and, where given, a simulator record.
fn shard(root: &Path, name: &str, record: Option<&str>) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(TIMINGS),
        format!("program,input,run,variant,seconds\nNB,{name},0,000000,1.5\n"),
    )
    .unwrap();
    if let Some(r) = record {
        std::fs::write(dir.join(SIMULATOR_RECORD), r).unwrap();
    }
    dir
}

#[test]
fn a_record_every_shard_holds_alike_goes_with_the_rows() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", Some(r#"{"config": "SM7_QV100"}"#));
    // The same JSON value, written differently.
    let b = shard(t.path(), "b", Some("{ \"config\":\n \"SM7_QV100\" }"));
    let out = t.path().join("out");
    let s = merge(&[a, b], &out).unwrap();
    assert_eq!(s.records, vec![SIMULATOR_RECORD.to_string()]);
    assert!(out.join(SIMULATOR_RECORD).is_file());
    assert!(!out.join(DEVICE_FILE).exists());
    // Merging again (the output among its own sources) agrees with itself.
    let c = shard(t.path(), "c", Some(r#"{"config": "SM7_QV100"}"#));
    merge(&[c], &out).unwrap();
}

#[test]
fn a_raw_file_given_twice_with_other_content_is_counted() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", None);
    let b = shard(t.path(), "b", None);
    for (dir, text) in [(&a, "one"), (&b, "two")] {
        std::fs::create_dir_all(dir.join(RAW)).unwrap();
        std::fs::write(dir.join(RAW).join("nb_000000.csv"), text).unwrap();
        std::fs::write(dir.join(RAW).join("same.csv"), "x").unwrap();
    }
    let out = t.path().join("out");
    let s = merge(&[a, b], &out).unwrap();
    assert_eq!(s.raw_files, 2);
    assert_eq!(s.raw_conflicts, ["nb_000000.csv"]);
    assert_eq!(
        std::fs::read_to_string(out.join(RAW).join("nb_000000.csv")).unwrap(),
        "one"
    );
}

#[test]
fn simulated_and_measured_shards_do_not_merge() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", Some(r#"{"config": "SM7_QV100"}"#));
    let b = shard(t.path(), "b", None);
    let out = t.path().join("out");
    let e = merge(&[a.clone(), b.clone()], &out)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("SIMULATED") && e.contains(&b.display().to_string()),
        "{e}"
    );
    assert!(!out.exists(), "nothing is written before the check");
    // Nor into an output that is itself simulated.
    let e = merge(&[b], &a).unwrap_err().to_string();
    assert!(e.contains(SIMULATOR_RECORD), "{e}");
}

#[test]
fn shards_of_two_configurations_or_gpus_do_not_merge() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", Some(r#"{"config": "SM7_QV100"}"#));
    let b = shard(t.path(), "b", Some(r#"{"config": "SM7_TITANV"}"#));
    let e = merge(&[a, b], &t.path().join("out"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("different simulators or configurations"), "{e}");
    let c = shard(t.path(), "c", None);
    let d = shard(t.path(), "d", None);
    std::fs::write(c.join(DEVICE_FILE), r#"{"device": "A100"}"#).unwrap();
    std::fs::write(d.join(DEVICE_FILE), r#"{"device": "H100"}"#).unwrap();
    let e = merge(&[c.clone(), d], &t.path().join("out2"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("different GPUs"), "{e}");
    std::fs::write(c.join(DEVICE_FILE), "{").unwrap();
    let e = merge(&[c], &t.path().join("out3")).unwrap_err().to_string();
    assert!(
        e.contains(DEVICE_FILE) && e.contains("not a JSON record"),
        "{e}"
    );
}

/// The shards' PROVENANCE.md files go with their rows: one text once, another under a
/// heading naming its shard, and the merge named once however often it is repeated.
#[test]
fn the_shards_provenance_is_joined() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", None);
    let b = shard(t.path(), "b", None);
    let c = shard(t.path(), "c", None);
    std::fs::write(a.join(PROVENANCE), "# Campaign\nGPU: H100, 2026-11-26\n").unwrap();
    std::fs::write(b.join(PROVENANCE), "# Campaign\nGPU: H100, 2026-11-26\n").unwrap();
    std::fs::write(c.join(PROVENANCE), "# Campaign\nGPU: H100, 2026-11-27\n").unwrap();
    let out = t.path().join("out");
    let sources = [a.clone(), b.clone(), c.clone()];
    assert!(merge(&sources, &out).unwrap().provenance);
    let text = std::fs::read_to_string(out.join(PROVENANCE)).unwrap();
    assert_eq!(text.matches("2026-11-26").count(), 1, "{text}");
    assert!(
        text.contains(&format!("## Provenance of the shard {}", c.display())),
        "{text}"
    );
    assert!(text.contains("Merged with `advise merge` from: "), "{text}");
    merge(&sources, &out).unwrap();
    assert_eq!(std::fs::read_to_string(out.join(PROVENANCE)).unwrap(), text);
    // Shards without one leave the merged folder without one, and the summary says so.
    let bare = t.path().join("bare");
    let d = shard(t.path(), "d", None);
    assert!(!merge(&[d], &bare).unwrap().provenance);
    assert!(!bare.join(PROVENANCE).exists());
}

/// Runs of two GPUs (the timings' `device` column) do not merge, and nothing is written.
#[test]
fn runs_of_two_gpus_do_not_merge() {
    let t = tempfile::tempdir().unwrap();
    let with_device = |name: &str, device: &str| {
        let dir = t.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(TIMINGS),
            format!("program,input,run,variant,time_ms,device\nNB,x,1,000000,1.5,{device}\n"),
        )
        .unwrap();
        dir
    };
    let a = with_device("a", "NVIDIA H100");
    let b = with_device("b", "NVIDIA H200");
    let same = with_device("c", "NVIDIA H100");
    let out = t.path().join("out");
    let e = merge(&[a.clone(), b], &out).unwrap_err().to_string();
    assert!(
        e.contains("runs on NVIDIA H100") && e.contains("one on NVIDIA H200"),
        "{e}"
    );
    assert!(!out.exists(), "nothing written");
    let s = merge(&[a, same], &out).unwrap();
    assert_eq!(s.tables[0].duplicates, 1);
}

/// A table cut off inside its last line (no line end) is refused at that line: a cut inside
/// the last field would otherwise pass as a shorter value.
#[test]
fn a_table_cut_off_inside_a_line_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", None);
    std::fs::write(
        a.join(TIMINGS),
        "program,input,run,variant,seconds\nNB,a,0,000000,1.5\nNB,a,1,000000,1.",
    )
    .unwrap();
    let e = merge(std::slice::from_ref(&a), &t.path().join("out"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("timings.csv:3: the file ends inside this line"),
        "{e}"
    );
    std::fs::write(a.join(TIMINGS), "program,input,run,variant,ti").unwrap();
    let e = merge(std::slice::from_ref(&a), &t.path().join("out"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("timings.csv:1: the file ends inside"), "{e}");
    // A cut ledger is found before any table is written.
    std::fs::write(a.join(TIMINGS), "program,input,run,variant,seconds\n").unwrap();
    std::fs::write(a.join(LEDGER), "job,status\nNB/000000/x,o").unwrap();
    let e = merge(&[a], &t.path().join("out")).unwrap_err().to_string();
    assert!(e.contains("ledger.csv:2: the file ends inside"), "{e}");
    assert!(!t.path().join("out").exists());
}

#[test]
fn finished_jobs_without_their_timings_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", None);
    let b = shard(t.path(), "b", None);
    std::fs::remove_file(a.join(TIMINGS)).unwrap();
    std::fs::write(
        a.join(LEDGER),
        "job,status,measurements_bytes,timings_bytes,passes,seconds,message\n\
         NB/000000/a,ok,0,50,0,1.0,\n",
    )
    .unwrap();
    let e = merge(&[a, b], &t.path().join("out"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("lists 1 finished job(s) but") && e.contains("has no timings.csv"),
        "{e}"
    );
    assert!(!t.path().join("out").exists());
}

/// Two shards whose headers differ: the error names both files and the columns that differ,
/// so that the odd one out can be told whichever came first.
#[test]
fn shards_with_other_headers_name_both_files_and_the_columns() {
    let t = tempfile::tempdir().unwrap();
    let a = shard(t.path(), "a", None);
    let b = shard(t.path(), "b", None);
    std::fs::write(
        a.join(TIMINGS),
        "program,input,run,variant,SECONDS\nNB,a,0,000000,1.5\n",
    )
    .unwrap();
    let e = merge(&[a, b], &t.path().join("out"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("b/timings.csv: its columns differ from those of"),
        "{e}"
    );
    assert!(
        e.contains("a/timings.csv: column 5 is `seconds` here, `SECONDS` there"),
        "{e}"
    );
    assert!(!t.path().join("out").exists());
}

#[test]
fn header_differences_are_listed_and_cut() {
    let rec = |s: &str| csv::StringRecord::from(s.split(',').collect::<Vec<_>>());
    assert_eq!(
        tables::header_differences(&rec("a,b,c"), &rec("a,b")),
        "2 columns here, 3 there"
    );
    assert_eq!(
        tables::header_differences(&rec("a,b,c,d,e"), &rec("v,w,x,y,e")),
        "column 1 is `v` here, `a` there; column 2 is `w` here, `b` there; column 3 is `x` \
         here, `c` there; 1 more column differs"
    );
}

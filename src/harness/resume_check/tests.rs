//! What `collect --resume` checks (synthetic campaign folders in temporary folders).

use std::path::PathBuf;

use super::*;

#[test]
fn a_campaign_resumes_only_with_its_own_settings() {
    let t = tempfile::tempdir().unwrap();
    let s = CollectSettings::for_tests(PathBuf::from(t.path()));
    check_settings(t.path(), &s).unwrap();
    assert!(t.path().join(SETTINGS_RECORD).is_file(), "written when new");
    check_settings(t.path(), &s).unwrap();
    let mut other = s.clone();
    other.seed = 7;
    other.reps = 5;
    let e = check_settings(t.path(), &other).unwrap_err().to_string();
    assert!(
        e.contains("--seed 7 (the campaign's: 1), --reps 5 (the campaign's: 1)"),
        "{e}"
    );
    std::fs::write(t.path().join(SETTINGS_RECORD), "{}").unwrap();
    let e = check_settings(t.path(), &s).unwrap_err().to_string();
    assert!(e.contains("collect.json: not the record"), "{e}");
}

#[test]
fn new_runs_come_from_the_campaign_gpu() {
    let t = tempfile::tempdir().unwrap();
    assert_eq!(campaign_device(t.path()).unwrap(), None);
    std::fs::write(
        t.path().join(TIMINGS),
        "program,input,run,variant,time_ms,device\nNB,x,1,000000,1.5,NVIDIA H100\n",
    )
    .unwrap();
    let have = campaign_device(t.path()).unwrap();
    assert_eq!(have.as_deref(), Some("NVIDIA H100"));
    check_device(t.path(), have.as_deref(), "NVIDIA H100", "NB/000000/x").unwrap();
    check_device(t.path(), None, "NVIDIA A100", "NB/000000/x").unwrap();
    let e = check_device(t.path(), have.as_deref(), "NVIDIA A100", "NB/000000/x")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("NB/000000/x ran on NVIDIA A100, but the runs"),
        "{e}"
    );
}

/// A ledger whose lines were reordered cuts no finished job's rows on `--resume`; a campaign
/// whose ledger lost a line, or is missing while its timings hold runs of several jobs, is
/// neither run again nor emptied.
#[test]
fn resume_keeps_the_rows_of_finished_jobs() {
    use super::super::campaign::tests::{job_of, line, timing};
    use super::super::campaign::{append_rows, Campaign, Status, TimingOut, LEDGER};
    let dir = tempfile::tempdir().unwrap();
    let mut c = Campaign::open(dir.path(), false).unwrap();
    for v in ["000000", "000001", "000010"] {
        c.append_job(&[], &[timing(v)], line(&job_of(v), Status::Ok))
            .unwrap();
    }
    let ledger = dir.path().join(LEDGER);
    let text = std::fs::read_to_string(&ledger).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    std::fs::write(&ledger, lines.join("\n") + "\n").unwrap();
    Campaign::open(dir.path(), true).unwrap();
    let rows: Vec<TimingOut> = crate::dataset::table::read_rows(&dir.path().join(TIMINGS)).unwrap();
    assert_eq!(rows.len(), 3, "no finished job's rows cut");
    // A line lost from the middle: its job would run again beside its rows.
    let text = std::fs::read_to_string(&ledger).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains("/000001/")).collect();
    std::fs::write(&ledger, kept.join("\n") + "\n").unwrap();
    let e = Campaign::open(dir.path(), true).unwrap_err().to_string();
    assert!(
        e.contains("holds runs of 1 job(s) that")
            && e.contains("(the first: NB/000001/bodies=10,steps=1)"),
        "{e}"
    );
    std::fs::remove_file(&ledger).unwrap();
    let e = Campaign::open(dir.path(), true).unwrap_err().to_string();
    assert!(e.contains("holds runs of 3 jobs past the last that"), "{e}");
    // One job's rows and no ledger line: the first job was stopped; resuming redoes it.
    let one = tempfile::tempdir().unwrap();
    append_rows(&one.path().join(TIMINGS), &[timing("000000")]).unwrap();
    Campaign::open(one.path(), true).unwrap();
}

#[test]
fn a_campaign_without_its_record_resumes_only_with_its_repetitions() {
    let t = tempfile::tempdir().unwrap();
    let s = CollectSettings::for_tests(PathBuf::from(t.path()));
    std::fs::write(
        t.path().join(TIMINGS),
        "program,input,run,variant,time_ms,repetitions\nNB,a,1,000000,1.0,1\nNB,a,1,000001,1.0,3\n",
    )
    .unwrap();
    let e = check_settings(t.path(), &s).unwrap_err().to_string();
    assert!(
        e.contains(
            "timings.csv:3: the campaign's runs were repeated 3 times, this call's --reps is 1"
        ),
        "{e}"
    );
    assert!(
        !t.path().join(SETTINGS_RECORD).exists(),
        "nothing written on a refusal"
    );
    let mut three = s.clone();
    three.reps = 3;
    std::fs::write(
        t.path().join(TIMINGS),
        "program,input,run,variant,time_ms,repetitions\nNB,a,1,000001,1.0,3\n",
    )
    .unwrap();
    check_settings(t.path(), &three).unwrap();
    assert!(t.path().join(SETTINGS_RECORD).is_file());
}

/// Synthetic: a timings table of one line longer than 16 MiB (line breaks lost) is refused
/// with the file's name, not read whole into one record.
#[test]
fn a_timings_table_of_one_long_line_is_refused() {
    let text = format!("device,repetitions{}", ",x".repeat(9 << 20));
    let path = Path::new("campaign/timings.csv");
    let e = timing_column(path, text.as_bytes(), "device")
        .unwrap_err()
        .to_string();
    assert!(e.contains("campaign/timings.csv"), "{e}");
    assert!(e.contains("longer than 16 MiB"), "{e}");
}

//! Tests of the campaign folder (synthetic rows written by the tests).

use super::*;

pub(crate) fn line(job: &str, status: Status) -> LedgerLine {
    LedgerLine {
        job: job.into(),
        status,
        measurements_bytes: 0,
        timings_bytes: 0,
        passes: 0,
        seconds: 0.0,
        message: String::new(),
    }
}

/// The ledger's name of the job whose rows [`timing`] writes for `variant`.
pub(crate) fn job_of(variant: &str) -> String {
    format!("NB/{variant}/bodies=10,steps=1")
}

pub(crate) fn timing(variant: &str) -> TimingOut {
    TimingOut {
        program: "NB".into(),
        input: "bodies=10,steps=1".into(),
        run: 1,
        variant: variant.into(),
        time_ms: 1.0,
        repetitions: 3,
        checksum_ok: true,
        times_ms: "1;1;1".into(),
        kernel_ms: "force=0.9".into(),
        checksum: "1;2".into(),
        device: "fake".into(),
        force_error: String::new(),
    }
}

#[test]
fn resume_drops_rows_of_the_job_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Campaign::open(dir.path(), false).unwrap();
    c.append_job(
        &[],
        &[timing("000000")],
        line(&job_of("000000"), Status::Ok),
    )
    .unwrap();
    // A second job wrote its rows, then the process died before its ledger line.
    append_rows(&dir.path().join(TIMINGS), &[timing("000001")]).unwrap();
    assert!(Campaign::open(dir.path(), false).is_err(), "needs --resume");
    let c = Campaign::open(dir.path(), true).unwrap();
    let rows: Vec<TimingOut> = table::read_rows(&dir.path().join(TIMINGS)).unwrap();
    assert_eq!(rows, vec![timing("000000")]);
    assert_eq!(c.finished().len(), 1);
}

#[test]
fn failed_jobs_are_not_finished() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Campaign::open(dir.path(), false).unwrap();
    c.append_job(&[], &[], line("a", Status::Error)).unwrap();
    c.append_job(&[], &[], line("b", Status::Mismatch)).unwrap();
    let f = c.finished();
    assert!(!f.contains_key("a"));
    assert_eq!(f.get("b"), Some(&Status::Mismatch));
}

#[test]
fn timings_are_readable_as_the_dataset_table() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(TIMINGS);
    append_rows(&p, &[timing("000000")]).unwrap();
    let rows = crate::dataset::measurements::read_timings(&p).unwrap();
    assert_eq!(rows[0].time_ms, 1.0);
    assert_eq!(rows[0].checksum_ok, Some(true));
    assert_eq!(rows[0].repetitions, Some(3));
}

#[test]
fn references_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Campaign::open(dir.path(), false).unwrap();
    c.add_reference(Reference {
        program: "BH".into(),
        input: "bodies=10,steps=1".into(),
        checksum: vec![1.5, 2.25],
    })
    .unwrap();
    let c = Campaign::open(dir.path(), true).unwrap();
    assert_eq!(
        c.reference("BH", "bodies=10,steps=1").unwrap().checksum,
        vec![1.5, 2.25]
    );
}

/// A timings table shorter than the ledger left it (a partial copy) is refused on resume,
/// naming the jobs whose rows are gone, instead of counting them as done.
#[test]
fn resume_refuses_tables_shorter_than_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Campaign::open(dir.path(), false).unwrap();
    for v in ["000000", "000001", "000010"] {
        c.append_job(&[], &[timing(v)], line(&job_of(v), Status::Ok))
            .unwrap();
    }
    let path = dir.path().join(TIMINGS);
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&path, format!("{}\n", kept.join("\n"))).unwrap();
    let e = Campaign::open(dir.path(), true).unwrap_err().to_string();
    assert!(e.contains("timings.csv"), "{e}");
    assert!(
        e.contains(&format!(
            "the rows of 2 job(s) it lists as done are missing ({}, {})",
            job_of("000001"),
            job_of("000010")
        )),
        "{e}"
    );
}

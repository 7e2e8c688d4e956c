//! `advise profile` when things go wrong: an unknown metric, a missing ncu, a counter-permission
//! error, a missing or crashing app, no kernel, too few counters; and `suggest` on every recorded
//! profiler file without a panic. The advisor is the synthetic one of the advisor tests.

use std::path::Path;

use crate::advisor::{root, setup, Setup, GINKGO};
use crate::common::advise;
use predicates::prelude::*;

/// The error `advise profile` prints, checking its exit status: 2 usage, 3 bad data, 4 tool.
fn profile_err(
    s: &Setup,
    mode: Option<&str>,
    ncu: Option<&Path>,
    csv: &str,
    app: &[&str],
    code: i32,
) -> String {
    let mut c = advise();
    c.env(
        "NCU",
        ncu.map(Path::to_path_buf)
            .unwrap_or_else(|| root().join("tests/stand-ins/replay_ncu.sh")),
    )
    .env("STANDIN_CSV", root().join(csv));
    if let Some(m) = mode {
        c.env("STANDIN_MODE", m);
    }
    let out = c
        .args(["profile", "--dir"])
        .arg(s.work.join("err"))
        .arg("--model")
        .arg(&s.model)
        .arg("--")
        .args(app)
        .assert()
        .code(code)
        .get_output()
        .stderr
        .clone();
    String::from_utf8(out).unwrap()
}

/// An ncu that does not know some requested metrics ("Failed to find metric") is run again
/// without them, and the profile goes on with the counters it has, saying which were dropped.
#[test]
fn a_metric_ncu_does_not_know_is_dropped_and_named() {
    let s = setup();
    let out = advise()
        .env("NCU", root().join("tests/stand-ins/replay_ncu.sh"))
        .env("STANDIN_CSV", root().join(GINKGO))
        .env("STANDIN_MODE", "nometric")
        .args(["profile", "--json", "--dir"])
        .arg(s.work.join("nometric"))
        .arg("--model")
        .arg(&s.model)
        .args(["--", "/bin/true"])
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("this ncu does not know"), "{err}");
    assert!(err.contains("cycles"), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text[text.find('{').unwrap()..]).unwrap();
    assert!(!v["suggestions"].as_array().unwrap().is_empty());
}

#[test]
fn each_profile_failure_has_its_own_message() {
    let s = setup();
    let e = profile_err(
        &s,
        None,
        Some(Path::new("/no/such/ncu")),
        GINKGO,
        &["/bin/true"],
        4,
    );
    assert!(e.contains("ncu") && e.contains("/no/such/ncu"), "{e}");
    let e = profile_err(&s, Some("perm"), None, GINKGO, &["/bin/true"], 4);
    assert!(
        e.contains("ERR_NVGPUCTRPERM") && e.contains("NVreg_RestrictProfilingToAdminUsers"),
        "{e}"
    );
    let e = profile_err(&s, None, None, GINKGO, &["./no-such-app"], 2);
    assert!(e.contains("program not found"), "{e}");
    // A script without its execute bit is said before ncu runs, not blamed on ncu.
    let script = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(script.path(), "echo hi\n").unwrap();
    let e = profile_err(
        &s,
        None,
        None,
        GINKGO,
        &[script.path().to_str().unwrap()],
        2,
    );
    assert!(
        e.contains("not executable") && e.contains("chmod +x"),
        "{e}"
    );
    let e = profile_err(&s, None, None, GINKGO, &["/bin/false"], 4);
    assert!(e.contains("/bin/false exited with"), "{e}");
    let e = profile_err(&s, Some("nokernel"), None, GINKGO, &["/bin/true"], 4);
    assert!(e.contains("profiled no kernel"), "{e}");
    let e = profile_err(&s, Some("nometric_other"), None, GINKGO, &["/bin/true"], 4);
    assert!(
        e.contains("does not know the metric `^not_asked_for$`")
            && e.contains("advise suggest --profile")
            && !e.contains("/bin/true exited"),
        "{e}"
    );
    let e = profile_err(
        &s,
        None,
        None,
        "tests/fixtures/ncu/ncu_details_B200_superbenchmark_cublaslt.csv",
        &["/bin/true"],
        3,
    );
    assert!(
        e.contains("lacks the counters") && e.contains("--metrics"),
        "{e}"
    );
}

#[test]
fn no_panic_on_any_recorded_file() {
    let s = setup();
    for dir in ["tests/fixtures/ncu", "tests/fixtures/nvprof"] {
        for f in std::fs::read_dir(root().join(dir)).unwrap() {
            let f = f.unwrap().path();
            let out = advise()
                .args(["suggest", "--ncu-csv"])
                .arg(&f)
                .arg("--model")
                .arg(&s.model)
                .output()
                .unwrap();
            assert!(
                matches!(out.status.code(), Some(0) | Some(3)),
                "{}: {:?}",
                f.display(),
                out
            );
            assert!(
                !String::from_utf8_lossy(&out.stderr).contains("panicked"),
                "{}",
                f.display()
            );
        }
    }
}

/// A --kernel that is no regular expression is refused before ncu runs the program (it was
/// passed to ncu, which matched nothing, and the error blamed the program).
#[test]
fn a_kernel_filter_that_is_no_regular_expression_is_refused_first() {
    advise()
        .env("NCU", "/nonexistent/ncu")
        .args(["profile", "--kernel", "(", "--", "/bin/true"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--kernel: regex parse error"));
}

/// An ncu that fails by itself, without saying the program returned an error, is named as
/// the one that failed; the program is not blamed.
#[test]
fn an_ncu_that_fails_by_itself_is_named_not_the_program() {
    let dir = tempfile::tempdir().unwrap();
    advise()
        .env("NCU", "/bin/false")
        .args(["profile", "--dir"])
        .arg(dir.path())
        .args(["--", "/bin/true"])
        .assert()
        .code(4)
        .stderr(predicates::str::contains(
            "/bin/false failed (exit status 1) without saying that /bin/true returned an error",
        ));
}

/// Settings `advise profile` would refuse after the profile are refused before ncu runs: with
/// an ncu that is not there, each says its own error (exit 2 or 5), not that ncu is missing.
#[test]
fn bad_settings_are_refused_before_ncu_runs() {
    let s = setup();
    std::fs::create_dir_all(&s.work).unwrap();
    let report_file = s.work.join("a-file");
    std::fs::write(&report_file, "x").unwrap();
    let report = report_file.to_str().unwrap();
    let missing = s.work.join("no-such.cu");
    for (flag, value, code, said) in [
        ("--gpu", "bogus", 2, "--gpu bogus: neither"),
        ("--level", "FOO=3", 2, "FOO has no levels"),
        ("--level", "=5", 2, "write FAMILY=VALUE"),
        ("--source", missing.to_str().unwrap(), 5, "no-such.cu"),
        ("--report-dir", report, 5, "a file stands there"),
    ] {
        let out = advise()
            .env("NCU", "/no/such/ncu")
            .args(["profile", "--dir"])
            .arg(s.work.join("early"))
            .arg("--model")
            .arg(&s.model)
            .args([flag, value, "--", "/bin/true"])
            .assert()
            .code(code)
            .get_output()
            .stderr
            .clone();
        let e = String::from_utf8(out).unwrap();
        assert!(
            e.contains(said) && !e.contains("ncu"),
            "{flag} {value}: {e}"
        );
    }
}

/// Without ncu the error comes first: no note says the program is being profiled.
#[test]
fn a_missing_ncu_is_said_before_any_profiling_note() {
    let dir = tempfile::tempdir().unwrap();
    advise()
        .env("NCU", "/nonexistent/ncu")
        .args(["profile", "--dir"])
        .arg(dir.path())
        .args(["--", "/bin/true"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("/nonexistent/ncu")
                .and(predicate::str::contains("profiling /bin/true").not()),
        );
}

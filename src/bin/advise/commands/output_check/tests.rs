//! Tests of output_check.rs: outputs that would overwrite inputs, or land in a space folder.

use super::*;

#[test]
fn an_output_in_a_space_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), "{}").unwrap();
    let d = dir.path().display().to_string();
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let existing = format!("{d}/a.json");
    let new = format!("{d}/runs.csv");
    for (bad, word) in [
        (
            args(&["advise", "search-bench", "--space", &d, "-o", &existing]),
            "destroy",
        ),
        (
            args(&[
                "advise",
                "search-bench",
                &format!("--space={d}"),
                "--runs-csv",
                &new,
            ]),
            "next run",
        ),
        (
            args(&[
                "advise",
                "search-bench",
                "--space",
                "x.json",
                &d,
                "--runs-csv",
                &new,
            ]),
            "next run",
        ),
    ] {
        let e = refuse_output_in_space_folder(&bad, &[(0, bad[bad.len() - 1].clone(), "-o")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--space reads") && e.contains(word), "{e}");
        assert!(refuse_output_over_input(&bad).is_err());
    }
    // Charts and other names there, or a space file elsewhere, are fine.
    let svg = format!("{d}/chart.svg");
    let ok = args(&["advise", "search-bench", "--space", &d, "-o", &svg]);
    assert!(refuse_output_in_space_folder(&ok, &[(0, svg.clone(), "-o")]).is_ok());
    let out = tempfile::tempdir().unwrap();
    let elsewhere = format!("{}/r.json", out.path().display());
    let ok = args(&["advise", "search-bench", "--space", &d, "-o", &elsewhere]);
    assert!(refuse_output_over_input(&ok).is_ok());
}

#[test]
fn an_output_that_is_also_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    std::fs::write(&input, "x\n").unwrap();
    let i = input.display().to_string();
    let dotted = format!("{}/./in.csv", dir.path().display());
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for bad in [
        args(&["advise", "parse", "-o", &i, &i]),
        args(&["advise", "parse", &dotted, &format!("--output={i}")]),
        // The short option with its value written onto it.
        args(&[
            "advise",
            "features",
            "--measurements",
            &i,
            &format!("-o{dotted}"),
        ]),
        args(&[
            "advise",
            "search",
            &format!("--space={i}"),
            "--trace",
            &dotted,
        ]),
    ] {
        let e = refuse_output_over_input(&bad).unwrap_err().to_string();
        assert!(
            e.contains("both an input and a file to write"),
            "{bad:?}: {e}"
        );
    }
    // A hard link of the input is the input.
    let linked = dir.path().join("linked.csv");
    std::fs::hard_link(&input, &linked).unwrap();
    let e = refuse_output_over_input(&args(&[
        "advise",
        "parse",
        &i,
        "-o",
        &linked.display().to_string(),
    ]))
    .unwrap_err()
    .to_string();
    assert!(e.contains("both an input and a file to write"), "{e}");
    // A report folder's files are outputs.
    let report = dir.path().join("report.md");
    std::fs::write(&report, "x\n").unwrap();
    let folder = dir.path().display().to_string();
    for bad in [
        args(&[
            "advise",
            "suggest",
            "--profile",
            &report.display().to_string(),
            "--report-dir",
            &folder,
        ]),
        args(&[
            "advise",
            "suggest",
            &format!("--report={folder}"),
            "--profile",
            &report.display().to_string(),
        ]),
    ] {
        let e = refuse_output_over_input(&bad).unwrap_err().to_string();
        assert!(e.contains("name another --report"), "{bad:?}: {e}");
    }
    // A dataset folder's table, where the folder is an input.
    let table = dir.path().join("timings.csv");
    std::fs::write(&table, "x\n").unwrap();
    let folder = dir.path().display().to_string();
    let t = table.display().to_string();
    let e = refuse_output_over_input(&args(&["advise", "train", "--dataset", &folder, "-o", &t]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("a table of the dataset folder"), "{e}");
    // Another tool's options are theirs, even where they begin with -o.
    assert!(refuse_output_over_input(&args(&[
        "advise",
        "predict",
        "--weka-options",
        &format!("-o{i}"),
        &i
    ]))
    .is_ok());
    // The profiled program's own -o is its business.
    assert!(
        refuse_output_over_input(&args(&["advise", "profile", "--", "app", "-o", &i, &i])).is_ok()
    );
    let other = dir.path().join("out.csv").display().to_string();
    let e = refuse_output_over_input(&args(&[
        "advise", "search", "--trace", &other, "-o", &other,
    ]))
    .unwrap_err()
    .to_string();
    assert!(e.contains("named for two outputs"), "{e}");
    assert!(refuse_output_over_input(&args(&["advise", "parse", "-o", &other, &i])).is_ok());
    std::fs::write(&other, "x\n").unwrap();
    assert!(refuse_output_over_input(&args(&["advise", "parse", "-o", &other, &i])).is_ok());
    // A file in a folder that does not exist, or a folder, before any work.
    let nowhere = dir.path().join("no/such/x.json").display().to_string();
    for (bad, says) in [
        (
            args(&["advise", "search", &format!("--trace={nowhere}")]),
            "--trace ",
        ),
        (args(&["advise", "explain", "-o", &nowhere]), "-o "),
        (args(&["advise", "parse", "--rules", &folder]), "a folder"),
    ] {
        let e = refuse_output_over_input(&bad).unwrap_err().to_string();
        assert!(e.starts_with(says) || e.contains(says), "{bad:?}: {e}");
    }
    let e = refuse_output_over_input(&args(&["advise", "search", "-o", &nowhere]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not exist; create it first"), "{e}");
}

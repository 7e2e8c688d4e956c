//! The command line of the data pipeline and the experiments: features and samples from a
//! campaign, experiment reports and their closing summary.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::common::advise;

/// A generated (synthetic) campaign: all 64 NB variants, one input, one run; each variant's
/// counters and time derived from its bits so that the expected speedups are known.
fn synthetic_campaign(dir: &Path) -> (PathBuf, PathBuf) {
    let mut m =
        String::from("program,input,run,variant,kernel,launch,invocations,metric,unit,value\n");
    let mut t = String::from("program,input,run,variant,time_ms,repetitions,checksum_ok\n");
    for bits in 0..64u32 {
        let v = format!("{bits:06b}");
        let inst = 1000.0 + bits as f64;
        m.push_str(&format!(
            "NB,synthetic,1,{v},force,0,1,sm__cycles_active.sum,cycle,2000\n"
        ));
        m.push_str(&format!(
            "NB,synthetic,1,{v},force,0,1,smsp__inst_executed.sum,inst,{inst}\n"
        ));
        m.push_str(&format!(
            "NB,synthetic,1,{v},force,0,1,sm__warps_active.avg.pct_of_peak_sustained_active,%,50\n"
        ));
        t.push_str(&format!(
            "NB,synthetic,1,{v},{},5,true\n",
            100.0 - bits as f64
        ));
    }
    let (mp, tp) = (dir.join("measurements.csv"), dir.join("timings.csv"));
    std::fs::write(&mp, m).unwrap();
    std::fs::write(&tp, t).unwrap();
    (mp, tp)
}

#[test]
fn features_and_samples_pipeline_on_a_synthetic_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let (m, t) = synthetic_campaign(dir.path());
    let features = dir.path().join("features.csv");
    advise()
        .args(["features", "--measurements"])
        .arg(&m)
        .arg("--timings")
        .arg(&t)
        .arg("-o")
        .arg(&features)
        .assert()
        .success();
    let text = std::fs::read_to_string(&features).unwrap();
    assert_eq!(text.lines().count(), 65);
    assert!(text.starts_with("program,input,run,variant,time_ms,sm__cycles_active.sum,"));
    // inst 1000 over 2000 active cycles -> 500000 per million; the percentage passes through.
    assert!(
        text.contains("NB,synthetic,1,000000,100,2000,50,500000"),
        "{text}"
    );

    let out = advise()
        .args(["samples", "--optimization", "shmem", "--features"])
        .arg(&features)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let samples = String::from_utf8(out).unwrap();
    assert_eq!(samples.lines().count(), 33);
    // 000000 (100 ms) vs 000010 (98 ms).
    assert!(samples.contains(&format!(
        "SHMEM,NB,synthetic,1,000000,000010,2000,50,500000,{}",
        100.0 / 98.0
    )));

    advise()
        .args(["samples", "--optimization", "FTZ", "--features"])
        .arg(&features)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--program"));
    // A switch no row of the table has (an imported space's parameter on NB): no samples is
    // an error that says why, not an empty table.
    advise()
        .args(["samples", "--optimization", "READ_ONLY:0->1", "--features"])
        .arg(&features)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "no row is a starting point for it: the table's variants are not PARAM=VALUE lists",
        ));
    // --program with a parameter switch would be ignored: refused, naming the fix.
    advise()
        .args([
            "samples",
            "--optimization",
            "READ_ONLY:0->1",
            "--program",
            "nb",
        ])
        .arg("--features")
        .arg(&features)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("leave out --program"));
}

#[test]
fn features_without_active_cycles_says_how_to_fix_it() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.csv");
    std::fs::write(
        &m,
        "program,input,run,variant,kernel,launch,invocations,metric,unit,value\nX,,1,,k,0,1,smsp__inst_executed.sum,inst,5\n",
    )
    .unwrap();
    advise()
        .args(["features", "--measurements"])
        .arg(&m)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("--normalize none"))
        .stderr(predicate::str::contains(
            "m.csv: metric active cycles is missing",
        ));
    std::fs::write(
        &m,
        "program,input,run,variant,kernel,launch,invocations,metric,unit,value\nX,,notanumber,,k,0,1,m,u,5\n",
    )
    .unwrap();
    advise()
        .args(["features", "--measurements"])
        .arg(&m)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("m.csv:2: column 3"));
    // A header that lacks columns is wrong on line 1, with rows or without.
    for text in ["program,input,run\nX,,1\n", "program,input,run\n"] {
        std::fs::write(&m, text).unwrap();
        advise()
            .args(["features", "--measurements"])
            .arg(&m)
            .assert()
            .code(3)
            .stderr(predicate::str::contains(
                "m.csv:1: the header lacks the column(s) variant, kernel",
            ));
    }
}

/// Timings of another campaign (real: BH's timings beside NB's measurements, H200) match no
/// run: a warning says so, even with -q, instead of an empty time column passing unnoticed.
#[test]
fn features_with_another_campaigns_timings_warns() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    let out = advise()
        .args(["-q", "features", "--measurements"])
        .arg(root.join("h200-nb-20261126/measurements.csv.gz"))
        .arg("--timings")
        .arg(root.join("h200-bh-20261126/timings.csv"))
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("advise: warning: none of the")
            && stderr.contains("h200-bh-20261126/timings.csv matches a run"),
        "{stderr}"
    );
    // The campaign's own timings: no warning.
    let out = advise()
        .args(["-q", "features", "--measurements"])
        .arg(root.join("h200-nb-20261126/measurements.csv.gz"))
        .arg("--timings")
        .arg(root.join("h200-nb-20261126/timings.csv"))
        .assert()
        .success();
    assert!(!String::from_utf8_lossy(&out.get_output().stderr).contains("warning"));
}

/// A real Nsight Compute details page (V100, 2020, sections named by label): its labels stand
/// for their metrics, so the portable view has the occupancy and IPC the sections printed.
#[test]
fn experiment_on_a_synthetic_campaign_writes_a_self_contained_report() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("synthetic-campaign");
    std::fs::create_dir(&data).unwrap();
    synthetic_campaign(&data);
    let out = dir.path().join("report");
    let json = advise()
        .args([
            "experiment",
            "--exp",
            "kfold",
            "--folds",
            "4",
            "--json",
            "--dataset",
        ])
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    // Written without being built whole, the document is still what its JSON value prints:
    // keys sorted at every level, the experiments among them in their place.
    assert_eq!(
        String::from_utf8(json.clone()).unwrap(),
        serde_json::to_string_pretty(&v).unwrap() + "\n"
    );
    let exps = v["experiments"].as_array().unwrap();
    assert!(exps.iter().any(|e| e["method"] == "baseline:majority"));
    for e in exps {
        for o in e["optimizations"].as_array().unwrap() {
            let cells: f64 = ["pp", "pn", "np", "nn"]
                .iter()
                .map(|k| o[k].as_f64().unwrap())
                .sum();
            assert_eq!(cells as usize, o["samples"].as_array().unwrap().len());
        }
    }
    for f in [
        "report.md",
        "index.html",
        "results.json",
        "charts/kfold4_accuracy.png",
        "charts/kfold4_accuracy.svg",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // results.json is the summary; predictions.csv.gz has one row per sample of the JSON,
    // with the same predicted and measured speedups.
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let file_exps = file["experiments"].as_array().unwrap();
    assert_eq!(file_exps.len(), exps.len());
    assert!(file_exps
        .iter()
        .flat_map(|e| e["optimizations"].as_array().unwrap())
        .all(|o| o.get("samples").is_none() && o.get("pp").is_some()));
    let gz = std::fs::File::open(out.join("predictions.csv.gz")).unwrap();
    let mut csv = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(gz), &mut csv).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("experiment,method,optimization,sample,predicted,actual,recommended")
    );
    let rows: Vec<&str> = lines.collect();
    let samples: Vec<(&serde_json::Value, &serde_json::Value, &serde_json::Value)> = exps
        .iter()
        .flat_map(|e| {
            e["optimizations"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(move |o| {
                    o["samples"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(move |s| (e, o, s))
                })
        })
        .collect();
    assert_eq!(rows.len(), samples.len());
    for (row, (e, o, s)) in rows.iter().zip(&samples) {
        let text = |v: &serde_json::Value| v.as_str().unwrap().to_string();
        let head = format!(
            "{},{},{},",
            text(&e["name"]),
            text(&e["method"]),
            text(&o["name"])
        );
        assert!(row.starts_with(&head), "{row} {head}");
        let fields: Vec<f64> = row
            .rsplitn(3, ',')
            .take(2)
            .map(|f| f.parse().unwrap())
            .collect();
        assert_eq!(
            fields,
            [
                s["recommended"].as_f64().unwrap(),
                s["actual"].as_f64().unwrap()
            ],
            "{row} {s}"
        );
    }
    crate::common::render_check(&out.join("index.html"), &["Summary", "kfold4"]);
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("<svg"));
    // Nothing is loaded from outside: no src/href to another host.
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
}

/// Several experiments end with one table of each one's best model beside its best baseline,
/// the same figures as the verdict lines above it.
#[test]
fn several_experiments_end_with_the_best_model_of_each() {
    let text = advise()
        .args(["-q", "experiment", "--dataset", "datasets/sim-qv100-nb"])
        .args(["--program", "NB", "--exp", "1,4", "--method", "ibk,m5p"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(text).unwrap();
    let (body, last) = text.split_once("In short:").expect("a closing table");
    let rows: Vec<&str> = last
        .lines()
        .skip(3)
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(rows.len(), 2, "{last}");
    for (row, exp) in rows.iter().zip(["exp1", "exp4"]) {
        assert!(row.starts_with(exp), "{row}");
        // The data is labelled and counted; the row's best model is the one its verdict line
        // names.
        let mut cells = row[exp.len()..].split_whitespace();
        assert_eq!(cells.next(), Some("SIMULATED"), "{row}");
        let n: usize = cells.next().unwrap().parse().unwrap();
        assert!(n > 0, "{row}");
        let model = cells.next().unwrap();
        let verdict = body
            .lines()
            .skip_while(|l| !l.starts_with(&format!("== {exp} ")))
            .nth(1)
            .unwrap();
        assert!(
            verdict.starts_with(&format!("best model {model} ")),
            "{verdict} / {row}"
        );
    }
}

/// A report on a simulated campaign (simulator.json beside it) says SIMULATED, with the
/// simulator, its commit and its configuration; one on measured data does not.
#[test]
fn a_report_on_simulated_data_names_the_simulator_commit_and_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("synthetic-campaign");
    std::fs::create_dir(&data).unwrap();
    synthetic_campaign(&data);
    let run = |data: &Path| {
        let out = dir.path().join("report");
        advise()
            .args(["-q", "experiment", "--exp", "kfold", "--folds", "4"])
            .args(["--method", "ibk", "--dataset"])
            .arg(data)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        std::fs::read_to_string(out.join("report.md")).unwrap()
    };
    assert!(!run(&data).contains("SIMULATED"));
    std::fs::write(
        data.join("simulator.json"),
        r#"{"simulator": "GPGPU-Sim (test)", "version": "4.2.0", "pinned_commit": "abc123",
            "config": "SM7_QV100 with gpgpu_n_clusters=2", "config_digest": "d1",
            "core_clock_mhz": 1132.0, "note": "simulated, not measured"}"#,
    )
    .unwrap();
    let md = run(&data);
    assert!(
        md.contains("SIMULATED: ") && md.contains("commit abc123") && md.contains("SM7_QV100"),
        "{md}"
    );
}

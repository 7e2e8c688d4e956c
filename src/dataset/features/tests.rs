use super::*;

fn row(
    variant: &str,
    kernel: &str,
    launch: u64,
    metric: &str,
    unit: &str,
    value: f64,
) -> MeasurementRow {
    MeasurementRow {
        program: "NB".into(),
        input: "bodies=50000,steps=2".into(),
        run: 1,
        variant: variant.into(),
        kernel: kernel.into(),
        launch,
        invocations: 1,
        metric: metric.into(),
        unit: unit.into(),
        value,
    }
}

fn synthetic_rows() -> Vec<MeasurementRow> {
    vec![
        row(
            "000000",
            "force",
            0,
            "sm__cycles_active.sum",
            "cycle",
            1000.0,
        ),
        row(
            "000000",
            "force",
            0,
            "smsp__inst_executed.sum",
            "inst",
            500.0,
        ),
        row(
            "000000",
            "force",
            0,
            "gpu__time_duration.sum",
            "second",
            3.0,
        ),
        row(
            "000000",
            "force",
            0,
            "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "%",
            90.0,
        ),
        row(
            "000000",
            "integrate",
            1,
            "sm__cycles_active.sum",
            "cycle",
            1000.0,
        ),
        row(
            "000000",
            "integrate",
            1,
            "smsp__inst_executed.sum",
            "inst",
            1500.0,
        ),
        row(
            "000000",
            "integrate",
            1,
            "gpu__time_duration.sum",
            "second",
            1.0,
        ),
        row(
            "000000",
            "integrate",
            1,
            "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "%",
            10.0,
        ),
    ]
}

#[test]
fn counts_are_summed_and_normalized_rates_weighted_by_duration() {
    let t = build(&synthetic_rows(), &[], &FeatureSettings::default()).unwrap();
    assert_eq!(t.rows.len(), 1);
    let col = |n: &str| t.columns.iter().position(|c| c == n).unwrap();
    let r = &t.rows[0];
    assert_eq!(
        r.values[col("smsp__inst_executed.sum")],
        Some(2000.0 / 2000.0 * 1e6)
    );
    assert_eq!(r.values[col("sm__cycles_active.sum")], Some(2000.0));
    assert_eq!(
        r.values[col("sm__throughput.avg.pct_of_peak_sustained_elapsed")],
        Some((90.0 * 3.0 + 10.0 * 1.0) / 4.0)
    );
    assert_eq!(t.normalizer.as_deref(), Some("sm__cycles_active.sum"));
}

#[test]
fn details_page_labels_stand_for_their_metric_unless_the_launch_has_it_by_name() {
    let settings = |keep_names| FeatureSettings {
        normalize: Normalize::None,
        per_kernel: false,
        keep_names,
        normalizer: None,
        view: View::Counters,
    };
    let rows = vec![
        row("000000", "k", 0, "Achieved Occupancy", "%", 40.0),
        row("000000", "k", 0, "Duration", "second", 2.0),
        row("000000", "k", 0, "gpu__time_duration.sum", "second", 3.0),
        row("000000", "k", 1, "Duration", "second", 1.0),
    ];
    let t = build(&rows, &[], &settings(false)).unwrap();
    assert_eq!(
        t.columns,
        vec![
            "gpu__time_duration.sum",
            "sm__warps_active.avg.pct_of_peak_sustained_active"
        ]
    );
    // Launch 0's duration by name (3; its label's 2 is dropped), launch 1's by its label
    // (1): durations average weighted by themselves, (3 x 3 + 1 x 1) / 4. With the label
    // kept too it would be (2 x 3 + 3 x 3 + 1 x 1) / 7.
    assert_eq!(t.rows[0].values, vec![Some(2.5), Some(40.0)]);
    let kept = build(&rows, &[], &settings(true)).unwrap();
    assert!(kept.columns.iter().any(|c| c == "Achieved Occupancy"));
}

#[test]
fn per_kernel_and_normalize_all() {
    let s = FeatureSettings {
        normalize: Normalize::All,
        per_kernel: true,
        keep_names: false,
        normalizer: None,
        view: View::Counters,
    };
    let t = build(&synthetic_rows(), &[], &s).unwrap();
    assert_eq!(t.rows.len(), 2);
    let col = t
        .columns
        .iter()
        .position(|c| c.starts_with("sm__throughput"))
        .unwrap();
    assert_eq!(t.rows[0].values[col], Some(90.0 / 1000.0 * 1e6));
}

#[test]
fn missing_active_cycles_is_a_clear_error() {
    let mut rows = synthetic_rows();
    rows.push(row(
        "000001",
        "force",
        0,
        "smsp__inst_executed.sum",
        "inst",
        5.0,
    ));
    let err = build(&rows, &[], &FeatureSettings::default()).unwrap_err();
    assert!(err.to_string().contains("variant 000001"), "{err}");
    let s = FeatureSettings {
        normalize: Normalize::None,
        ..Default::default()
    };
    assert!(build(&rows, &[], &s).is_ok());
}

#[test]
fn csv_round_trip() {
    let t = build(&synthetic_rows(), &[], &FeatureSettings::default()).unwrap();
    let mut buf = Vec::new();
    t.write_csv(&mut buf).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.csv");
    std::fs::write(&p, &buf).unwrap();
    let back = FeatureTable::read_csv(&p).unwrap();
    assert_eq!(back.columns, t.columns);
    assert_eq!(back.rows, t.rows);
}

/// Synthetic: a feature table that gives a run twice, or a time no kernel takes, is refused
/// at the line (a repeated run would make two samples of one measurement).
#[test]
fn a_repeated_run_or_an_impossible_time_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.csv");
    let head = "program,input,run,variant,time_ms,m\n";
    std::fs::write(
        &p,
        format!("{head}NB,a,1,000000,2.0,1\nNB,a,1,000001,1.0,1\nNB,a,1,000000,2.0,1\n"),
    )
    .unwrap();
    let e = FeatureTable::read_csv(&p).unwrap_err().to_string();
    assert!(
        e.contains("f.csv:4: repeats line 2: program NB, input a, run 1, variant 000000"),
        "{e}"
    );
    std::fs::write(&p, format!("{head}NB,a,1,000000,-1,1\n")).unwrap();
    let e = FeatureTable::read_csv(&p).unwrap_err().to_string();
    assert!(e.contains("f.csv:2: time_ms -1"), "{e}");
    // An empty time is a run without one, read as such.
    std::fs::write(&p, format!("{head}NB,a,1,000000,,1\n")).unwrap();
    assert_eq!(FeatureTable::read_csv(&p).unwrap().rows[0].time_ms, None);
    // Weka's `?` is a missing value too, as `predict` reads it.
    std::fs::write(&p, format!("{head}NB,a,1,000000,2.0,?\n")).unwrap();
    assert_eq!(FeatureTable::read_csv(&p).unwrap().rows[0].values, [None]);
    // A feature that is no finite number is refused, as the models' readers refuse it.
    for bad in ["NaN", "inf", "1e309"] {
        std::fs::write(&p, format!("{head}NB,a,1,000000,2.0,{bad}\n")).unwrap();
        let e = FeatureTable::read_csv(&p).unwrap_err().to_string();
        assert!(
            e.contains("f.csv:2: `") && e.contains("is not a finite number"),
            "{e}"
        );
    }
}

/// Synthetic: a counter so large that normalizing it overflows is refused, naming the run.
#[test]
fn a_feature_that_overflows_is_refused() {
    let mut rows = synthetic_rows();
    for r in &mut rows {
        if r.metric == "smsp__inst_executed.sum" {
            r.value = 1e308;
        }
    }
    let e = build(&rows, &[], &FeatureSettings::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("feature smsp__inst_executed.sum of program NB") && e.contains("is inf"),
        "{e}"
    );
}

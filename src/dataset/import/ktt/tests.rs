//! Tests of the KTT reader (synthetic KTT outputs written by the tests).

use super::*;

/// Synthetic: a value that KTT's numeric ValueType says is a number, damaged to text.
#[test]
fn a_numeric_parameter_holding_text_is_refused() {
    let json = r#"{"Metadata":{"Device":"GPU","TimeUnit":"Microseconds"},"Results":[
        {"Configuration":[{"Name":"A","Value":1,"ValueType":"UnsignedInt"}],"Status":"Ok",
         "ComputationResults":[{"Duration":10}]},
        {"Configuration":[{"Name":"A","Value":"abc","ValueType":"UnsignedInt"}],
         "Status":"Ok","ComputationResults":[{"Duration":10}]}]}"#;
    let e = read(Path::new("t.json"), json.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "result 1: parameter `A` has the value \"abc\", not a number, though its \
                    ValueType is UnsignedInt"
        ),
        "{e}"
    );
}

/// Synthetic KTT output in the layout of a searcher's run: configuration A=1 measured
/// twice (the second time profiled), A=2 once.
#[test]
fn a_configuration_measured_twice_keeps_its_mean_time_and_its_counters() {
    let result = |a: u32, us: f64, counters: &str| {
        format!(
            r#"{{"Configuration":[{{"Name":"A","Value":{a}}}],"Status":"Ok","KernelName":"k",
            "ComputationResults":[{{"Duration":{us},"KernelFunction":"k",
            "ProfilingData":{{"Counters":[{counters}]}}}}]}}"#
        )
    };
    let ipc = r#"{"Name":"sm__inst_executed.avg.per_cycle_active","Value":1.5}"#;
    let json = format!(
        r#"{{"Metadata":{{"Device":"GPU","TimeUnit":"Microseconds"}},"Results":[{},{},{}]}}"#,
        result(1, 100.0, ""),
        result(2, 50.0, ""),
        result(1, 300.0, ipc)
    );
    let space = read(Path::new("t.json"), json.as_bytes()).unwrap();
    assert_eq!(space.configs.len(), 2);
    let one = &space.configs[0];
    assert_eq!(one.values, ["1"]);
    assert!(
        (one.time_ms.unwrap() - 0.2).abs() < 1e-12,
        "{:?}",
        one.time_ms
    );
    assert!(one
        .counters
        .iter()
        .any(|c| c.1 == "sm__inst_executed.avg.per_cycle_active"));
    assert!(space
        .notes
        .iter()
        .any(|(k, v)| k == "repeated configurations" && v.starts_with("1 results repeat")));
}

/// Synthetic KTT output with one result whose status or duration is damaged.
#[test]
fn unknown_statuses_and_bad_durations_are_errors() {
    let file = |status: &str, results: &str| {
        format!(
            r#"{{"Metadata":{{"Device":"GPU","TimeUnit":"Microseconds"}},"Results":[
            {{"Configuration":[{{"Name":"A","Value":1}}],"Status":"{status}",
            "ComputationResults":[{results}]}}]}}"#
        )
    };
    let ok =
        |status: &str, results: &str| read(Path::new("t.json"), file(status, results).as_bytes());
    let duration = r#"{"Duration":5.0}"#;
    assert!(ok("Ok", duration).unwrap().configs[0].time_ms.is_some());
    assert_eq!(
        ok("ValidationFailed", duration).unwrap().configs[0]
            .failure
            .as_deref(),
        Some("ValidationFailed")
    );
    for (status, results, says) in [
        ("Fine", duration, "status `Fine`"),
        ("Ok", "", "no ComputationResults"),
        ("Ok", r#"{"Duration":-5.0}"#, "Duration -5"),
    ] {
        let e = ok(status, results).unwrap_err().to_string();
        assert!(e.contains("result 1:") && e.contains(says), "{e}");
    }
}

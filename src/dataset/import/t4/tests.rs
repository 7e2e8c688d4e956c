//! The T4 reader on synthetic files shaped as each tool writes them.
use super::*;

/// Synthetic results in the format of benchmark_hub's `*_T4.json.gz`.
const T4: &str = r#"{"metadata": {"timeunit": "miliseconds"}, "schema_version": "1.0.0",
"results": [
 {"configuration": {"block_size_x": 16, "read_only": 0}, "invalidity": "correct",
  "correctness": 1, "times": {"runtimes": [2.0]},
  "measurements": [{"name": "time", "value": 2.0, "unit": ""},
               {"name": "dram__bytes.sum", "value": 64.0, "unit": "byte"},
               {"name": "num_regs", "value": 32, "unit": ""}],
  "objectives": ["time"]},
 {"configuration": {"block_size_x": 32, "read_only": 0}, "invalidity": "runtime",
  "correctness": 0, "measurements": [{"name": "time", "value": "RuntimeFailedConfig"}],
  "objectives": ["time"]},
 {"configuration": {"block_size_x": 32, "read_only": 1}, "invalidity": "correct",
  "correctness": 1, "times": {"runtimes": [1.5]},
  "measurements": [{"name": "time", "value": 1.5, "unit": ""}], "objectives": ["time"]}
]}"#;

/// A run that optimised another objective: the time is still the `time` measurement
/// (GFLOP/s would be minimised the wrong way); without one, an error names the objective.
#[test]
fn the_time_whatever_the_objective() {
    let gflops = T4.replace(r#""objectives": ["time"]"#, r#""objectives": ["GFLOP/s"]"#);
    let gflops = gflops.replace(
        r#"{"name": "time", "value": 1.5, "unit": ""}"#,
        r#"{"name": "GFLOP/s", "value": 900.0, "unit": ""}, {"name": "time", "value": 1.5, "unit": ""}"#,
    );
    let s = read(Path::new("g_T4.json"), gflops.as_bytes()).unwrap();
    let times: Vec<Option<f64>> = s.configs.iter().map(|c| c.time_ms).collect();
    assert_eq!(times, [Some(2.0), None, Some(1.5)]);
    let score = r#"{"metadata": {"timeunit": "miliseconds"}, "schema_version": "1.0.0",
"results": [{"configuration": {"popsize": 10}, "invalidity": "correct", "correctness": 1,
  "measurements": [{"name": "score", "value": -1.3, "unit": ""}], "objectives": ["score"]}]}"#;
    let err = read(Path::new("h_T4.json"), score.as_bytes()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("h_T4.json") && msg.contains("objective is `score`"),
        "{msg}"
    );
}

#[test]
fn results_become_configurations_times_and_counters() {
    let s = read(Path::new("conv_T4.json"), T4.as_bytes()).unwrap();
    assert_eq!(s.params, ["block_size_x", "read_only"]);
    // Parameters keep the file's order, not the alphabet's.
    let swapped = T4.replace(
        r#"{"block_size_x": 16, "read_only": 0}"#,
        r#"{"read_only": 0, "block_size_x": 16}"#,
    );
    let s2 = read(Path::new("conv_T4.json"), swapped.as_bytes()).unwrap();
    assert_eq!(s2.params, ["read_only", "block_size_x"]);
    assert_eq!(s.configs.len(), 3);
    assert_eq!(s.failed(), 1);
    assert_eq!(s.configs[0].time_ms, Some(2.0));
    // Sorted as a cache's keys: "16,0", "32,0", "32,1".
    assert_eq!(s.configs[1].failure.as_deref(), Some("runtime"));
    let names: Vec<&str> = s.configs[0].counters.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(
        names,
        [
            "dram__bytes.sum",
            "launch__registers_per_thread",
            "gpu__time_duration.sum"
        ]
    );
    assert!(s.configs[2].counters.is_empty());
    assert_eq!(s.kernel, "conv_T4");
    // A time given as a list of values is their mean.
    let listed = T4.replace(r#""value": 1.5,"#, r#""value": [1.0, 3.0],"#);
    assert_ne!(listed, T4);
    let s3 = read(Path::new("conv_T4.json"), listed.as_bytes()).unwrap();
    assert_eq!(s3.configs[2].time_ms, Some(2.0));
}

/// Synthetic results shaped as KTT 2.2 writes T4 files: the device and tool in the
/// metadata, parameter values as text, time in microseconds, compile data per result.
const KTT_T4: &str = r#"{"metadata": {"autotuner": "KTT", "autotuner_version": "2.2.0",
"device": "NVIDIA RTX 500 Ada Generation Laptop GPU", "timeunit": "microseconds",
"timestamp": "2026-03-05 09:00:49 UTC"},
"results": [
 {"compilation_data": {"registers": 44, "local_memory_size": 0, "private_memory_size": 0},
  "configuration": {"WORK_GROUP_SIZE_X": "16", "Z_ITERATIONS": "1"}, "invalidity": "correct",
  "measurements": [{"name": "time", "unit": "", "value": 4164.0},
               {"name": "smsp__inst_executed.sum", "type": "Double", "value": 3.4e8}],
  "objectives": ["time"]},
 {"compilation_data": {"registers": 31},
  "configuration": {"WORK_GROUP_SIZE_X": "32", "Z_ITERATIONS": "1"}, "invalidity": "correct",
  "measurements": [{"name": "time", "unit": "", "value": 2000.0}], "objectives": ["time"]}
]}"#;

#[test]
fn ktt_results_give_the_device_and_compile_data() {
    let s = read(Path::new("coulomb.t4.json"), KTT_T4.as_bytes()).unwrap();
    assert_eq!(s.kernel, "coulomb");
    assert_eq!(s.device, "NVIDIA RTX 500 Ada Generation Laptop GPU");
    assert!(s
        .notes
        .contains(&("autotuner version".into(), "2.2.0".into())));
    assert_eq!(s.configs[0].time_ms, Some(4.164));
    let counters = |i: usize| -> Vec<(String, f64)> {
        s.configs[i]
            .counters
            .iter()
            .map(|c| (c.1.clone(), c.3))
            .collect()
    };
    let time = ("gpu__time_duration.sum".to_string(), 4.164e-3);
    let first = counters(0);
    assert_eq!(first.len(), 5, "{first:?}");
    assert_eq!(first[0], ("smsp__inst_executed.sum".into(), 3.4e8));
    assert_eq!(first[1], ("launch__registers_per_thread".into(), 44.0));
    assert_eq!(first[4].0, time.0);
    assert!((first[4].1 - time.1).abs() < 1e-12);
    // A result with compile data but no counter still gets its registers and its time.
    let second = counters(1);
    assert_eq!(second.len(), 2, "{second:?}");
    assert_eq!(second[0], ("launch__registers_per_thread".into(), 31.0));
    assert_eq!(second[1].0, time.0);
    // The compute capability is known from the name.
    assert_eq!(
        crate::dataset::devices::compute_capability_of(&s.device),
        Some("8.9")
    );
}

#[test]
fn bad_files_are_errors_with_the_file() {
    let unit = T4.replace("miliseconds", "fortnights");
    let err = read(Path::new("x.json"), unit.as_bytes()).unwrap_err();
    assert!(err.to_string().contains("fortnights"), "{err}");
    let err = read(Path::new("x.json"), &b"{\"results\": [{}]}"[..]).unwrap_err();
    assert!(err.to_string().starts_with("x.json"), "{err}");
    let err = read(Path::new("x.json"), &b"{\"results\": []}"[..]).unwrap_err();
    assert!(err.to_string().contains("no result"), "{err}");
}

/// Synthetic results shaped as KTT's converter from its own output writes them: no
/// metadata, and each result's time its objective, a `TotalDuration` in microseconds.
#[test]
fn an_objective_measured_in_a_unit_of_time_is_the_time() {
    let converted = r#"{"schema_version": "1.0.0", "results": [
 {"configuration": {"X": 16, "SOA": 0}, "objectives": ["TotalDuration"],
  "times": {"runtimes": [3037.4]}, "invalidity": "correct", "correctness": 1,
  "measurements": [{"name": "TotalDuration", "value": 3037.4, "unit": "Microseconds"},
                   {"name": "dram__sectors_read.sum", "value": 2.1e6, "unit": ""}]},
 {"configuration": {"X": 32, "SOA": 0}, "objectives": ["TotalDuration"],
  "invalidity": "correct", "correctness": 1,
  "measurements": [{"name": "TotalDuration", "value": [700.0, 900.0], "unit": "us"}]}
]}"#;
    let s = read(Path::new("coulomb_converted.json"), converted.as_bytes()).unwrap();
    let times: Vec<f64> = s.configs.iter().filter_map(|c| c.time_ms).collect();
    assert_eq!(times.len(), 2);
    assert!(
        (times[0] - 3.0374).abs() < 1e-12 && (times[1] - 0.8).abs() < 1e-12,
        "{times:?}"
    );
    // The objective is the time, not a counter; the other measurement is one.
    let names: Vec<&str> = s.configs[0].counters.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(names, ["dram__sectors_read.sum", "gpu__time_duration.sum"]);
    // An objective without a unit of time is no time: the error names it.
    let unitless = converted
        .replace("\"Microseconds\"", "\"\"")
        .replace("\"us\"", "\"GB/s\"");
    let err = read(Path::new("c.json"), unitless.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "the measurement of the objective `TotalDuration` states no unit, not a unit of time"
        ),
        "{err}"
    );
    let parsecs = converted
        .replace("\"Microseconds\"", "\"parsecs\"")
        .replace("\"us\"", "\"parsecs\"");
    let err = read(Path::new("c.json"), parsecs.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`TotalDuration` is in `parsecs`, not a unit of time"),
        "{err}"
    );
}

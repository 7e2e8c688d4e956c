//! Reading a Kernel Tuner cache's entries one at a time (synthetic caches in its format).

use super::*;

fn params() -> Vec<String> {
    vec!["bx".to_string()]
}

/// Entries come out sorted by key, of a key given twice the last, with the runs of those
/// that have a time: as a `serde_json::Map` read of the whole object gave them.
#[test]
fn entries_sorted_by_key_and_the_last_of_a_repeated_key_kept() {
    let raw = r#"{"64": {"bx": 64, "time": 3.0, "times": [3.0, 3.0]},
        "128": {"bx": 128, "time": "RuntimeFailedConfig"},
        "32": {"bx": 32, "time": 9.0},
        "32": {"bx": 32, "time": 2.0, "times": [1.0, 3.0]}}"#;
    let e = read_entries(Path::new("c.json"), raw, 1, &params(), "k").unwrap();
    let order: Vec<&str> = e.configs.iter().map(|c| c.values[0].as_str()).collect();
    assert_eq!(order, ["128", "32", "64"]);
    assert_eq!(e.configs[1].time_ms, Some(2.0));
    assert_eq!(e.configs[0].failure.as_deref(), Some("RuntimeFailedConfig"));
    assert_eq!(e.repeated_keys, 1);
    let runs: Vec<(f64, Option<String>)> = e
        .timed
        .iter()
        .map(|(t, r)| (*t, r.as_ref().map(Value::to_string)))
        .collect();
    assert_eq!(
        runs,
        [
            (2.0, Some("[1.0,3.0]".to_string())),
            (3.0, Some("[3.0,3.0]".to_string()))
        ]
    );
}

/// An entry's counters come out by name, of a name given twice the last, as from a JSON
/// object read whole; a parameter named `time` is both; a name with an escape reads.
#[test]
fn counters_by_name_and_fields_as_read_whole() {
    let raw = r#"{"6\u0034": {"dram__bytes.sum": 5.0, "bx": 32, "bx": 64, "time": 2.0,
        "num_regs": 40, "dram__bytes.sum": 7.0, "compile_time": 9.0}}"#;
    let e = read_entries(Path::new("c.json"), raw, 1, &params(), "k").unwrap();
    let c = &e.configs[0];
    assert_eq!(c.values, ["64"]);
    let counters: Vec<(&str, f64)> = c.counters.iter().map(|x| (x.1.as_str(), x.3)).collect();
    assert_eq!(
        counters,
        [
            ("dram__bytes.sum", 7.0),
            ("launch__registers_per_thread", 40.0),
            ("gpu__time_duration.sum", 2.0e-3)
        ]
    );
    let timed = ["time".to_string()];
    let e = read_entries(
        Path::new("c.json"),
        r#"{"1.5": {"time": 1.5}}"#,
        1,
        &timed,
        "k",
    );
    let c = &e.unwrap().configs[0];
    assert_eq!((c.values[0].as_str(), c.time_ms), ("1.5", Some(1.5)));
}

#[test]
fn an_entry_that_is_not_a_configuration_is_named() {
    // The error of reading `raw`, which starts on the file's line `line`, as text.
    let error = |raw: &str, line| {
        read_entries(Path::new("c.json"), raw, line, &params(), "k")
            .err()
            .map(|e| e.to_string())
    };
    let err = error(r#"{"32": {"bx": 32, "time": 1.0}, "64": [64]}"#, 1);
    assert!(
        err.as_deref()
            .is_some_and(|m| m.starts_with("c.json") && m.contains("`64` is not an object")),
        "{err:?}"
    );
    let err = error(r#"{"32": {"time": 1.0}}"#, 1);
    assert!(
        err.as_deref()
            .is_some_and(|m| m.contains("has no parameter `bx`")),
        "{err:?}"
    );
    // Not an object: the error is on the file's line where the text starts (here 7).
    let err = error("[1, 2]", 7);
    assert!(
        err.as_deref()
            .is_some_and(|m| m.starts_with("c.json:7: ") && m.contains("`cache`")),
        "{err:?}"
    );
}

/// An entry that is not an object is named; a number out of range in one (`1e400`) is named
/// with its line, not taken for an entry that is not an object.
#[test]
fn an_entry_that_is_not_an_object_or_holds_a_number_out_of_range() {
    let e = read_entries(Path::new("c.json"), r#"{"32": 5}"#, 1, &params(), "k")
        .err()
        .unwrap()
        .to_string();
    assert_eq!(e, "c.json: cache entry `32` is not an object");
    let raw = "{\"32\": {\"bx\": 32, \"time\": 2.0},\n\"64\": {\"bx\": 64, \"time\": 1e400}}";
    let e = read_entries(Path::new("c.json"), raw, 10, &params(), "k")
        .err()
        .unwrap()
        .to_string();
    assert!(e.starts_with("c.json:11: "), "{e}");
    assert!(e.contains("entry `64`: number out of range"), "{e}");
}

/// A time that is neither a positive number nor a failure's kind is an error naming the
/// entry, not a failed configuration that leaves the space unseen.
#[test]
fn a_time_that_is_neither_a_time_nor_a_failure_is_named() {
    for (time, says) in [
        (r#""1.5""#, "time is the text"),
        (r#""abc""#, "time \"abc\" is not"),
        ("-0.5", "time -0.5 is not positive"),
        ("0", "is not positive"),
        ("null", "time null is not"),
    ] {
        let raw =
            format!(r#"{{"32": {{"bx": 32, "time": 2.0}}, "64": {{"bx": 64, "time": {time}}}}}"#);
        let e = read_entries(Path::new("c.json"), &raw, 1, &params(), "k")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("cache entry `64`: ") && e.contains(says),
            "{time}: {e}"
        );
    }
    // An entry without a time is marked for the reader, which checks the objective first.
    let raw = r#"{"32": {"bx": 32}}"#;
    let e = read_entries(Path::new("c.json"), raw, 1, &params(), "k").unwrap();
    assert_eq!(e.configs[0].failure.as_deref(), Some(UNTIMED));
}

/// An entry whose values are not those its key names is damaged: an error, not a
/// configuration that may repeat another's.
#[test]
fn an_entry_whose_values_disagree_with_its_key_is_named() {
    let raw = r#"{"32": {"bx": 32, "time": 2.0}, "64": {"bx": 32, "time": 1.0}}"#;
    let e = read_entries(Path::new("c.json"), raw, 1, &params(), "k")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("cache entry `64` holds the configuration 32 (bx)"),
        "{e}"
    );
    assert!(key_matches(
        "1.0,True,a",
        &["1".into(), "true".into(), "a".into()]
    ));
    assert!(!key_matches("1,2", &["1".into()]));
}

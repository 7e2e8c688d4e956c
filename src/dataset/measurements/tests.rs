//! Tests of the measurement and timing tables.

use super::*;

/// Synthetic: a time of 0, a negative one, NaN or inf is an error naming its line.
#[test]
fn a_time_that_is_not_a_positive_number_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timings.csv");
    // A run whose checksum failed.
    std::fs::write(
        &path,
        "program,input,run,variant,time_ms,checksum_ok\nNB,512,1,000000,2.5,true\nNB,512,1,000001,2.4,false\n",
    )
    .unwrap();
    let e = read_timings(&path).err().unwrap().to_string();
    assert!(e.contains("timings.csv:3: checksum_ok is false"), "{e}");
    // 1e308 and 1e-320 are finite but make infinite and denormal speedups.
    for bad in ["0", "-5", "NaN", "inf", "1e400", "1e308", "1e-320"] {
        let text = format!(
            "program,input,run,variant,time_ms\nNB,512,1,000000,2.5\nNB,512,1,000001,{bad}\n"
        );
        std::fs::write(&path, text).unwrap();
        let e = read_timings(&path).err().unwrap().to_string();
        assert!(e.contains("timings.csv:3:"), "{bad}: {e}");
        assert!(e.contains("positive number of milliseconds"), "{bad}: {e}");
    }
    // A repeated row names both lines.
    std::fs::write(
        &path,
        "program,input,run,variant,time_ms\nNB,512,1,000000,2.5\nNB,512,1,000000,2.6\n",
    )
    .unwrap();
    let e = read_timings(&path).err().unwrap().to_string();
    assert!(
        e.contains("timings.csv:3: a second time for program NB"),
        "{e}"
    );
    assert!(e.contains("(the first on line 2)"), "{e}");
    // A header without time_ms is an error on line 1, with rows or without.
    for text in [
        "program,input,run,variant\n",
        "program,input,run,variant\nNB,1,1,0\n",
    ] {
        std::fs::write(&path, text).unwrap();
        let e = read_timings(&path).err().unwrap().to_string();
        assert!(
            e.contains("timings.csv:1: the header lacks the column(s) time_ms"),
            "{e}"
        );
    }
    std::fs::write(
        &path,
        "program,input,run,variant,time_ms\nNB,512,1,000000,2.5\n",
    )
    .unwrap();
    assert_eq!(read_timings(&path).unwrap().len(), 1);
}

/// Synthetic: a measurement that is inf, NaN, too large for a float or negative is an error
/// naming its line and metric; 0 passes.
#[test]
fn a_value_that_is_not_a_finite_number_at_least_zero_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("measurements.csv");
    let head = "program,input,run,variant,kernel,launch,invocations,metric,unit,value\n";
    let good = "NB,512,1,000000,k,0,1,inst_executed,inst,0\n";
    for bad in ["inf", "-1", "-1e30", "NaN", "1e400"] {
        let text = format!("{head}{good}NB,512,1,000000,k,0,1,active_cycles,cycle,{bad}\n");
        std::fs::write(&path, text).unwrap();
        let e = read_measurements(&path).err().unwrap().to_string();
        assert!(e.contains("measurements.csv:3:"), "{bad}: {e}");
        assert!(e.contains("of metric active_cycles"), "{bad}: {e}");
    }
    std::fs::write(&path, format!("{head}{good}")).unwrap();
    assert_eq!(read_measurements(&path).unwrap().len(), 1);
}

const HEADER: &str = "program,input,run,variant,kernel,launch,invocations,metric,unit,value\n";

#[test]
fn a_repeated_measurement_is_an_error_naming_both_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("measurements.csv");
    let row = "NB,small,0,000000,k,0,1,dram__bytes_read.sum,byte,10\n";
    let other = "NB,small,1,000000,k,0,1,dram__bytes_read.sum,byte,10\n";
    std::fs::write(&path, format!("{HEADER}{row}{other}")).unwrap();
    assert_eq!(read_measurements(&path).unwrap().len(), 2);
    std::fs::write(&path, format!("{HEADER}{row}{other}{row}")).unwrap();
    let e = read_measurements(&path).unwrap_err().to_string();
    assert!(
        e.contains("measurements.csv:4:") && e.contains("repeats line 2"),
        "{e}"
    );
}

/// Synthetic: a run's time outside its repetitions' times is an error naming its line; the
/// median of its repetitions, or a row without them, reads.
#[test]
fn a_time_outside_its_repetitions_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timings.csv");
    let head = "program,input,run,variant,time_ms,repetitions,times_ms\n";
    std::fs::write(
        &path,
        format!("{head}NB,a,1,000000,2.0,3,1.9;2.0;2.2\nNB,a,1,000001,1.0,,\n"),
    )
    .unwrap();
    assert_eq!(read_timings(&path).unwrap().len(), 2);
    std::fs::write(
        &path,
        format!("{head}NB,a,1,000000,2.0,3,1.9;2.0;2.2\nNB,a,1,000001,6.0,1,2.0\n"),
    )
    .unwrap();
    let e = read_timings(&path).unwrap_err().to_string();
    assert!(
        e.contains(
            "timings.csv:3: time_ms 6 lies outside its repetitions' times (times_ms from 2 to 2)"
        ),
        "{e}"
    );
}

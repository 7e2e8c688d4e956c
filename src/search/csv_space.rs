//! A recorded space as plain CSV (`.csv` or `.csv.gz`): one column per tuning parameter and
//! one time column, named `time_ms`, `time` (milliseconds), `time_us`, `time_s`, `runtime` or
//! `duration` (milliseconds). A time cell that is empty, `nan`, `inf` or a failure's name
//! (`CompilationFailedConfig`, `failed`) marks a failed configuration; any other cell that is
//! not a positive number (`0.05 ms`, `-0.5`) is an error naming its line.

use std::io::Read;
use std::path::Path;

use crate::dataset::import::{recorded_time, Config, TuningSpace};
use crate::error::{Error, Result};

/// Accepted time columns and the factor that turns them into milliseconds.
const TIME_COLUMNS: [(&str, f64); 8] = [
    ("time_ms", 1.0),
    ("time", 1.0),
    ("time_us", 1e-3),
    ("time_s", 1e3),
    ("runtime_ms", 1.0),
    ("runtime", 1.0),
    ("duration_ms", 1.0),
    ("duration", 1.0),
];

/// Reads a CSV space from a file.
pub fn read(path: &Path) -> Result<TuningSpace> {
    parse(path, crate::dataset::table::open(path)?)
}

/// Reads a CSV space from any reader; `path` names it in errors.
pub fn parse(path: &Path, reader: impl Read) -> Result<TuningSpace> {
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(crate::dataset::table::LineCap::new(reader));
    let header = rdr
        .headers()
        .map_err(|e| crate::dataset::table::csv_error(path, e))?;
    let header = crate::dataset::table::header_names(path, header)?;
    if header.iter().all(|h| h.is_empty()) {
        return Err(Error::parse(
            path,
            1,
            "empty file: expected a CSV header line of parameter names and a time column",
        ));
    }
    crate::dataset::table::refuse_other_separator(path, &header)?;
    if let Some(j) = header.iter().position(|h| h.is_empty()) {
        return Err(Error::parse(
            path,
            1,
            format!("column {} has no name: name every parameter", j + 1),
        ));
    }
    // A parameter named twice would make two configurations that differ in it look alike in
    // every table and chart, and `--fix NAME=V` ambiguous.
    crate::dataset::table::refuse_repeated_columns(path, &header, |a, b| {
        a.eq_ignore_ascii_case(b)
    })?;
    let (time_col, scale) = TIME_COLUMNS
        .iter()
        .find_map(|(name, scale)| {
            header
                .iter()
                .position(|h| h.eq_ignore_ascii_case(name))
                .map(|i| (i, *scale))
        })
        .ok_or_else(|| {
            Error::parse(
                path,
                1,
                format!(
                    "no time column: name one of {}",
                    TIME_COLUMNS.map(|(n, _)| n).join(", ")
                ),
            )
        })?;
    // A second time column would be searched as a parameter with a value per configuration.
    if let Some(other) = header.iter().enumerate().find(|&(i, h)| {
        i != time_col
            && TIME_COLUMNS
                .iter()
                .any(|(name, _)| h.eq_ignore_ascii_case(name))
    }) {
        return Err(Error::parse(
            path,
            1,
            format!(
                "two time columns, `{}` and `{}`: keep the one to search on (the other would \
                 be read as a tuning parameter)",
                header[time_col], other.1
            ),
        ));
    }
    let params: Vec<String> = header
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != time_col)
        .map(|(_, h)| h.clone())
        .collect();
    if params.is_empty() {
        return Err(Error::parse(
            path,
            1,
            "no parameter columns beside the time",
        ));
    }
    let mut configs = Vec::new();
    for (n, record) in rdr.records().enumerate() {
        let line = n + 2;
        let record = record.map_err(|e| crate::dataset::table::csv_error(path, e))?;
        if record.len() != header.len() {
            return Err(Error::parse(
                path,
                line,
                format!("{} cells, the header has {}", record.len(), header.len()),
            ));
        }
        let (time, failure) = recorded_time::from_text(&record[time_col], scale)
            .map_err(|e| Error::parse(path, line, e))?
            .split();
        let values = (0..record.len())
            .filter(|&i| i != time_col)
            .map(|i| record[i].to_string())
            .collect();
        configs.push(Config {
            values,
            time_ms: time,
            failure,
            counters: Vec::new(),
        });
    }
    Ok(TuningSpace {
        tool: "csv",
        device: String::new(),
        kernel: String::new(),
        params,
        configs,
        notes: vec![("time column".into(), header[time_col].clone())],
        run_noise: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_time_and_failures() {
        let text = "bx,ro,time_us\n32,0,2000\n64,0,CompilationFailedConfig\n64,1,\n";
        let s = parse(Path::new("s.csv"), text.as_bytes()).unwrap();
        assert_eq!(s.params, vec!["bx", "ro"]);
        assert_eq!(s.configs[0].time_ms, Some(2.0));
        assert_eq!(
            s.configs[1].failure.as_deref(),
            Some("CompilationFailedConfig")
        );
        assert_eq!(s.configs[2].failure.as_deref(), Some("no time"));
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse(Path::new("s.csv"), &b"bx,ro\n1,2\n"[..]).unwrap_err();
        assert!(err.to_string().contains("no time column"), "{err}");
        let err = parse(Path::new("s.csv"), &b"bx,time\n1,2\n3\n"[..]).unwrap_err();
        assert!(err.to_string().starts_with("s.csv:3:"), "{err}");
        let err = parse(Path::new("s.csv"), &b"a,time_s,time_ms\n1,2,3\n"[..]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("s.csv:1: two time columns, `time_ms` and `time_s`"),
            "{err}"
        );
        let err = parse(Path::new("s.csv"), &b"a;b;time_ms\n1;2;3\n"[..]).unwrap_err();
        assert!(err.to_string().contains("separated by `;`"), "{err}");
        let err = parse(Path::new("s.csv"), &b",b,time_ms\n1,2,3\n"[..]).unwrap_err();
        assert!(err.to_string().contains("column 1 has no name"), "{err}");
        let err = parse(Path::new("s.csv"), &b""[..]).unwrap_err();
        assert!(err.to_string().contains("s.csv:1: empty file"), "{err}");
        let one_line = "a,".repeat(crate::dataset::table::MOST_COLUMNS);
        let err = parse(Path::new("s.csv"), one_line.as_bytes()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("s.csv:1: the header line has 100001 columns"),
            "{err}"
        );
        let err = parse(Path::new("s.csv"), &b"bx,BX,time\n1,2,3\n"[..]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "s.csv:1: column `BX` is named twice (columns 1 and 2)"
        );
        // A time that is neither a positive number nor a failure mark is not a failure.
        for bad in ["0.05 ms", "abc", "-0.5", "0"] {
            let text = format!("bx,time\n1,2\n2,{bad}\n");
            let err = parse(Path::new("s.csv"), text.as_bytes()).unwrap_err();
            assert!(
                err.to_string().starts_with("s.csv:3: time `"),
                "{bad}: {err}"
            );
        }
    }
}

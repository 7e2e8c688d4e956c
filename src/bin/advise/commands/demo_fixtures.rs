//! `advise demo --fixtures`: every real profiler file in `tests/fixtures/` parsed, and the
//! feature table they give.

use std::path::{Path, PathBuf};

use super::output::{note, Output};
use super::parse::{file_label, FileSummary};
use advise::dataset::features::{
    build, remapper, union_columns, FeatureSettings, FeatureTable, Normalize,
};
use advise::dataset::measurements::{rows_of, RunKey};
use advise::error::{Error, Result};
use advise::profile::{parse_path, FormatChoice};
use advise::report::table::{fmt_sig, TextTable};

const DEFAULT_DATA: &str = "tests/fixtures";

/// Profiler files of `dir`: those in its `ncu/` and `nvprof/` folders where it has them (the
/// layout of tests/fixtures, whose other folders hold tuning spaces and compiled kernels),
/// else every file in it; documentation and license files are skipped. Sorted.
fn profiler_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let tool_dirs: Vec<PathBuf> = ["ncu", "nvprof"]
        .iter()
        .map(|d| dir.join(d))
        .filter(|d| d.is_dir())
        .collect();
    let dirs = if tool_dirs.is_empty() {
        vec![dir.to_path_buf()]
    } else {
        tool_dirs
    };
    let mut out = Vec::new();
    for d in dirs {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))?;
        for entry in entries {
            let path = entry.map_err(|e| Error::io(&d, e))?.path();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if path.is_file() && !(name.ends_with(".md") || name.starts_with("LICENSE")) {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Builds one feature row per file; files without active cycles are left unnormalized.
fn features_of(files: &[(RunKey, advise::profile::ProfileData)]) -> Result<FeatureTable> {
    let mut tables = Vec::new();
    for (key, data) in files {
        let rows = rows_of(key, data);
        let settings = FeatureSettings::default();
        let t = match build(&rows, &[], &settings) {
            Ok(t) => t,
            Err(Error::MissingMetric { .. }) => build(
                &rows,
                &[],
                &FeatureSettings {
                    normalize: Normalize::None,
                    ..settings
                },
            )?,
            Err(e) => return Err(e),
        };
        tables.push(t);
    }
    Ok(merge(tables))
}

/// Joins single-file tables into one, with the union of their columns.
fn merge(tables: Vec<FeatureTable>) -> FeatureTable {
    let columns = union_columns(tables.iter().map(|t| t.columns.as_slice()));
    let mut rows = Vec::new();
    for t in tables {
        let remap = remapper(&t.columns, &columns);
        rows.extend(t.rows.into_iter().map(|mut r| {
            r.values = remap(&r.values);
            r
        }));
    }
    FeatureTable {
        columns,
        rows,
        normalizer: None,
    }
}

/// `advise demo --fixtures`: parse every real profiler file of tests/fixtures.
pub fn run_fixtures(data: Option<PathBuf>, report_dir: &Path, out: &Output) -> Result<()> {
    let dir = data.unwrap_or_else(|| PathBuf::from(DEFAULT_DATA));
    advise::dataset::table::require_folder(
        &dir,
        "the folder of profiler files (run `advise demo` from the repository root or pass \
         --data DIR)",
    )?;
    note(&format!(
        "advise demo --fixtures: real public profiler output from {} (not our own H100 data)",
        dir.display()
    ));
    let mut parsed = Vec::new();
    for f in profiler_files(&dir)? {
        let data = parse_path(&f, FormatChoice::Auto)?;
        let key = RunKey {
            program: file_label(&f),
            input: String::new(),
            run: 1,
            variant: String::new(),
        };
        parsed.push((key, data));
    }
    if parsed.is_empty() {
        return Err(Error::Data(format!(
            "{}: no profiler files found",
            dir.display()
        )));
    }
    let table = features_of(&parsed)?;
    std::fs::create_dir_all(report_dir).map_err(|e| Error::io(report_dir, e))?;
    let csv_path = report_dir.join("fixture-features.csv");
    let file = std::fs::File::create(&csv_path).map_err(|e| Error::io(&csv_path, e))?;
    table.write_csv(file)?;
    let summaries: Vec<FileSummary> = parsed.iter().map(|(_, d)| FileSummary::of(d)).collect();
    if out.json {
        return out.emit_json(&serde_json::json!({
            "files": summaries,
            "features": super::features::table_json(&table),
        }));
    }
    out.emit(&render(&summaries, &table, &csv_path))
}

fn render(summaries: &[FileSummary], table: &FeatureTable, csv_path: &Path) -> String {
    let mut text = String::from("Parsed profiler files\n");
    let mut t = TextTable::new([
        "file",
        "format",
        "launches",
        "kernels",
        "metrics",
        "measurements",
    ]);
    for s in summaries {
        t.push([
            file_label(Path::new(&s.source)),
            s.format.to_string(),
            s.launches.to_string(),
            s.kernels.to_string(),
            s.metrics.to_string(),
            s.measurements.to_string(),
        ]);
    }
    text.push_str(&t.render());
    // The wide table has hundreds of columns; show those that most files share.
    let mut shared: Vec<(usize, &String)> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                table.rows.iter().filter(|r| r.values[i].is_some()).count(),
                c,
            )
        })
        .filter(|(n, _)| *n >= 2)
        .collect();
    shared.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    shared.truncate(15);
    text.push_str(&format!(
        "\nFeature table: {} rows x {} features (full table: {}); the {} features most files \
         share, counts per million active cycles where the file has them:\n",
        table.rows.len(),
        table.columns.len(),
        csv_path.display(),
        shared.len()
    ));
    let mut header = vec!["feature".to_string()];
    header.extend((0..table.rows.len()).map(|i| format!("f{}", i + 1)));
    let mut t = TextTable::new(header);
    for (_, c) in &shared {
        let i = table.columns.iter().position(|x| x == *c).unwrap_or(0);
        let mut row = vec![(*c).clone()];
        row.extend(
            table
                .rows
                .iter()
                .map(|r| r.values[i].map(|v| fmt_sig(v, 4)).unwrap_or("-".into())),
        );
        t.push(row);
    }
    text.push_str(&t.render());
    text.push_str("\nFiles:\n");
    for (i, r) in table.rows.iter().enumerate() {
        text.push_str(&format!("  f{} = {}\n", i + 1, r.key.program));
    }
    text
}

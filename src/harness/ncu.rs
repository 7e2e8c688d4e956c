//! Running a variant under Nsight Compute: the curated metric list (`variants/metrics.txt`),
//! the command line, and what ncu says about itself (replay passes, metrics it lacks).
//!
//! The program brackets its profiled time steps with cudaProfilerStart/Stop, so ncu runs with
//! `--profile-from-start off` and profiles only those launches. ncu's own output, the CSV
//! included, goes to `--log-file`; the program's JSON lines stay on standard output.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::tool::{self, Captured, ToolError};

/// The metric list file, relative to the variants folder.
pub const METRICS_FILE: &str = "metrics.txt";

/// One metric of the list with the reason it is collected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricSpec {
    pub name: String,
    pub reason: String,
}

/// Reads a metric list: one metric per line, `#` starts a comment (the reason).
pub fn parse_metric_list(path: &Path, text: &str) -> Result<Vec<MetricSpec>> {
    let mut out: Vec<MetricSpec> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (body, comment) = line.split_once('#').unwrap_or((line, ""));
        let name = body.trim();
        if name.is_empty() {
            continue;
        }
        if name.contains(char::is_whitespace) || name.contains(',') {
            return Err(Error::parse(
                path,
                i + 1,
                format!("`{name}` is not one metric name (one per line, reason after #)"),
            ));
        }
        if out.iter().any(|m| m.name == name) {
            return Err(Error::parse(path, i + 1, format!("{name} is listed twice")));
        }
        out.push(MetricSpec {
            name: name.to_string(),
            reason: comment.trim().to_string(),
        });
    }
    if out.is_empty() {
        return Err(Error::format(path, "the metric list is empty"));
    }
    Ok(out)
}

/// Reads the metric list file.
pub fn load_metric_list(path: &Path) -> Result<Vec<MetricSpec>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse_metric_list(path, &text)
}

/// The ncu command that profiles `program_args` of `binary` and writes its CSV to `log`.
pub fn command(
    ncu: &Path,
    metrics: &[MetricSpec],
    log: &Path,
    binary: &Path,
    program_args: &[String],
) -> Command {
    let list: Vec<&str> = metrics.iter().map(|m| m.name.as_str()).collect();
    let mut cmd = Command::new(ncu);
    cmd.args(["--csv", "--page", "raw", "--profile-from-start", "off"])
        .args(["--metrics", &list.join(",")])
        .arg("--log-file")
        .arg(log)
        .arg(binary)
        .args(program_args);
    cmd
}

/// Metrics an ncu of this campaign stopped at because it does not know them: left out of
/// every later job's list (each would otherwise fail once more before its retry).
static UNKNOWN_METRICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Runs ncu with the metrics it knows: where it stops at one it does not know ("Failed to
/// find metric"), that metric is left out and ncu runs again; it then shows in
/// [`missing_metrics`] as any metric this ncu or GPU lacks.
pub fn run_knowing(
    ncu_path: &Path,
    metrics: &[MetricSpec],
    log: &Path,
    bin: &Path,
    args: &[String],
    timeout: Duration,
) -> Result<Captured> {
    let known = |m: &MetricSpec| {
        UNKNOWN_METRICS
            .lock()
            .map(|u| !u.contains(&m.name))
            .unwrap_or(true)
    };
    let mut list: Vec<MetricSpec> = metrics.iter().filter(|m| known(m)).cloned().collect();
    loop {
        let mut cmd = command(ncu_path, &list, log, bin, args);
        match tool::run(&mut cmd, Some(timeout)) {
            Ok(out) => return Ok(out),
            Err(e) => {
                let said = match &e {
                    ToolError::Failed { stderr_tail, .. } => format!(
                        "{}\n{stderr_tail}",
                        std::fs::read_to_string(log).unwrap_or_default()
                    ),
                    _ => return Err(e.into()),
                };
                let Some(name) = unknown_metric(&said) else {
                    return Err(e.into());
                };
                let Some(at) = list.iter().position(|m| m.name == name) else {
                    return Err(Error::tool(
                        "ncu",
                        format!(
                            "{}: update Nsight Compute, or take the metric out of {METRICS_FILE}",
                            not_known(&name)
                        ),
                    ));
                };
                let dropped = list.remove(at);
                if let Ok(mut u) = UNKNOWN_METRICS.lock() {
                    u.push(dropped.name);
                }
            }
        }
    }
}

/// What to say of a metric ncu stopped at and that advise did not ask for by that name (`name`
/// as [`unknown_metric`] gives it, possibly empty), before the remedy.
pub fn not_known(name: &str) -> String {
    let which = if name.is_empty() {
        "a metric it was asked for".to_string()
    } else {
        format!("the metric `{name}`")
    };
    format!("this ncu does not know {which} (an older Nsight Compute, or a GPU without it)")
}

/// Replay passes per profiled kernel, from ncu's `==PROF== Profiling "k" - 0: ... - 9 passes`.
pub fn replay_passes(log: &str) -> Vec<(String, u32)> {
    log.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("==PROF== Profiling")?;
            let name = rest.split('"').nth(1).unwrap_or("").to_string();
            let tail = rest.trim_end().strip_suffix("passes")?.trim_end();
            let n = tail.rsplit(|c: char| !c.is_ascii_digit()).next()?;
            Some((name, n.parse().ok()?))
        })
        .collect()
}

/// The metric named by ncu's "Failed to find metric NAME" (an ncu that lacks a requested
/// metric stops with that line before profiling), if the text has that line; the name without
/// quotes or ncu's `regex:` prefix, or an empty string where the line names none. The wording
/// is matched case-insensitively; it has not yet been seen from the CUDA 13 ncu of the GPU
/// campaign (scripts/gpu/campaign.sh's setup probe shows what that ncu says).
pub fn unknown_metric(text: &str) -> Option<String> {
    const SAID: &str = "failed to find metric";
    text.lines().find_map(|line| {
        let at = line.to_ascii_lowercase().find(SAID)?;
        let name = line[at + SAID.len()..]
            .trim()
            .trim_matches(|c: char| c == '"' || c == '\'' || c == ':' || c.is_whitespace());
        Some(name.strip_prefix("regex:").unwrap_or(name).to_string())
    })
}

/// Requested metrics that do not appear in parsed measurements (this ncu or GPU lacks them).
pub fn missing_metrics(requested: &[MetricSpec], found: &[String]) -> Vec<String> {
    requested
        .iter()
        .filter(|m| !found.iter().any(|f| f == &m.name))
        .map(|m| m.name.clone())
        .collect()
}

/// Where a job's raw ncu output goes inside the campaign folder.
pub fn raw_path(raw_dir: &Path, program: &str, variant: &str, input: &str, run: u32) -> PathBuf {
    let input = input.replace([',', '='], "_");
    raw_dir.join(format!("ncu_{program}_{variant}_{input}_run{run}.csv"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_list_keeps_reasons_and_rejects_mistakes() {
        let p = Path::new("m.txt");
        let list = parse_metric_list(p, "# header\n\nsm__cycles_active.sum  # normalize\nb.sum\n")
            .unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].reason, "normalize");
        assert!(parse_metric_list(p, "a.sum b.sum\n").is_err());
        assert!(parse_metric_list(p, "a.sum\na.sum\n").is_err());
        assert!(parse_metric_list(p, "# nothing\n").is_err());
    }

    #[test]
    fn the_shipped_list_parses_and_has_the_normalizer() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/metrics.txt");
        let list = load_metric_list(&path).unwrap();
        assert!(list.iter().any(|m| m.name == "sm__cycles_active.sum"));
        assert!(
            list.iter().all(|m| !m.reason.is_empty()),
            "every metric needs a reason"
        );
        assert!(list.len() >= 30);
    }

    /// A campaign collected with the shipped list gets every portable feature that Nsight
    /// Compute can give from one of its formulas, the instruction classes included (the
    /// `smsp__sass_thread_inst_executed_op_*` counters), as `advise profile` asks for them
    /// (`portable::ncu_inputs`): what the advisor learns from, a user's profile has.
    #[test]
    fn the_shipped_list_gives_every_portable_feature_nsight_compute_can() {
        use crate::dataset::portable::PORTABLE;
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/metrics.txt");
        let list = load_metric_list(&path).unwrap();
        let has = |n: &str| list.iter().any(|m| m.name == n);
        let missing: Vec<&str> = PORTABLE
            .iter()
            .filter(|f| {
                let mut ncu = f.formulas.iter().filter(|x| x.source.starts_with("ncu"));
                let has_ncu = ncu.clone().next().is_some();
                has_ncu && !ncu.any(|x| x.expr.inputs().iter().all(|n| has(n)))
            })
            .map(|f| f.name)
            .collect();
        assert_eq!(missing, Vec::<&str>::new());
    }

    #[test]
    fn an_unknown_metric_is_read_from_ncus_line() {
        let log = "==PROF== Connected to process 7\n\
                   ==ERROR== Failed to find metric \"regex:^lts__t_sectors.sum$\"\n";
        assert_eq!(unknown_metric(log).as_deref(), Some("^lts__t_sectors.sum$"));
        assert_eq!(
            unknown_metric("==ERROR== failed to find metric: dram__bytes.sum").as_deref(),
            Some("dram__bytes.sum")
        );
        assert_eq!(
            unknown_metric("==ERROR== Failed to find metric").as_deref(),
            Some("")
        );
        assert_eq!(
            unknown_metric("==WARNING== No kernels were profiled."),
            None
        );
    }

    #[test]
    fn passes_come_from_prof_lines() {
        let log = "==PROF== Connected to process 7 (/x/nb)\n\
                   ==PROF== Profiling \"force\" - 0: 0%....50%....100% - 9 passes\n\
                   ==PROF== Profiling \"integrate(Params)\" - 1: 0%....50%....100% - 12 passes\n\
                   ==PROF== Disconnected from process 7\n";
        assert_eq!(
            replay_passes(log),
            vec![
                ("force".to_string(), 9),
                ("integrate(Params)".to_string(), 12)
            ]
        );
    }

    #[test]
    fn command_line_profiles_only_the_marked_steps() {
        let metrics = vec![
            MetricSpec {
                name: "a.sum".into(),
                reason: String::new(),
            },
            MetricSpec {
                name: "b.sum".into(),
                reason: String::new(),
            },
        ];
        let cmd = command(
            Path::new("/opt/ncu"),
            &metrics,
            Path::new("log.csv"),
            Path::new("bin/nb_000000"),
            &["--inputs".into(), "1000:2".into()],
        );
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(args.windows(2).any(|w| w == ["--metrics", "a.sum,b.sum"]));
        assert!(args
            .windows(2)
            .any(|w| w == ["--profile-from-start", "off"]));
        assert_eq!(args.last().unwrap(), "1000:2");
    }
}

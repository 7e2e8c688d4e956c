//! Timing fit + predict runs, and Weka's side of `advise bench models` and `advise bench
//! experiments`: Weka 3.6.14's IBk, M5P and LinearRegression run through
//! scripts/weka/WekaBench.java in one JVM, at least a few seconds so that its JIT has compiled
//! the hot code before the best run is taken (M5P at 192 x 250 rows: best of 5 runs 0.048-0.052
//! s, best of 50 or more 0.033-0.034 s; a comparison with a cold JIT would flatter advise).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::output::note;
use advise::error::{Error, Result};
use advise_ml::Data;
/// Seconds Weka runs fit + predict at least (see the module's note).
pub(super) const WEKA_SECONDS: f64 = 5.0;
/// Seconds advise runs fit + predict at least.
pub(super) const ADVISE_SECONDS: f64 = 1.0;
/// Most runs of one timing.
const MAX_RUNS: usize = 1000;

/// Wall times of repeated fit + predict runs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Timing {
    /// The best run, in seconds.
    pub best: f64,
    /// The median of the later half of the runs.
    pub median: f64,
    pub runs: usize,
}

impl Timing {
    /// Runs `once` at least `reps` times and until `seconds` have passed (at most
    /// [`MAX_RUNS`] times); `once` returns one run's seconds.
    pub(super) fn measure(
        reps: usize,
        seconds: f64,
        mut once: impl FnMut() -> Result<f64>,
    ) -> Result<Timing> {
        let mut times = Vec::new();
        let mut spent = 0.0;
        while times.len() < MAX_RUNS && (times.len() < reps.max(1) || spent < seconds) {
            let s = once()?;
            spent += s;
            times.push(s);
        }
        let best = times.iter().copied().fold(f64::INFINITY, f64::min);
        let mut late = times[times.len() / 2..].to_vec();
        late.sort_by(f64::total_cmp);
        Ok(Timing {
            best,
            median: late[late.len() / 2],
            runs: times.len(),
        })
    }
}

pub(super) fn write_csv(data: &Data, path: &Path) -> Result<()> {
    let mut text = String::new();
    for f in &data.features {
        text.push_str(&f.name);
        text.push(',');
    }
    text.push_str(&data.target);
    text.push('\n');
    for (row, y) in data.x.iter().zip(&data.y) {
        for v in row {
            text.push_str(&format!("{v:?},"));
        }
        text.push_str(&format!("{y:?}\n"));
    }
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// Java, the Weka jar and a compiled WekaBench, when all exist.
pub(super) struct Weka {
    java: String,
    classpath: String,
}

impl Weka {
    pub(super) fn find(dir: &Path) -> Option<Weka> {
        let jar = std::env::var("WEKA_JAR").unwrap_or_else(|_| "/usr/share/java/weka.jar".into());
        let java = std::env::var("JAVA").unwrap_or_else(|_| "java".into());
        let javac = std::env::var("JAVAC").unwrap_or_else(|_| "javac".into());
        let source = [
            PathBuf::from("scripts/weka/WekaBench.java"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/weka/WekaBench.java"),
        ]
        .into_iter()
        .find(|p| p.exists())?;
        if !Path::new(&jar).exists() {
            return None;
        }
        let built = Command::new(&javac)
            .args(["-cp", &jar, "-d"])
            .arg(dir)
            .arg(&source)
            .output()
            .ok()?;
        if !built.status.success() {
            note(&format!(
                "bench: javac failed, no Weka comparison: {}",
                String::from_utf8_lossy(&built.stderr).trim()
            ));
            return None;
        }
        Some(Weka {
            java,
            classpath: format!("{jar}:{}", dir.display()),
        })
    }

    pub(super) fn time(&self, class: &str, csv: &Path, reps: usize) -> Result<Timing> {
        self.time_split(class, csv, csv, reps, WEKA_SECONDS)
    }

    /// Fit on `train` + predict of `test`, at least `reps` times and for at least `seconds`, in
    /// one JVM (WekaBench prints "best first median runs").
    pub(super) fn time_split(
        &self,
        class: &str,
        train: &Path,
        test: &Path,
        reps: usize,
        seconds: f64,
    ) -> Result<Timing> {
        let out = Command::new(&self.java)
            .args(["-cp", &self.classpath, "WekaBench", class, ""])
            .arg(train)
            .arg(test)
            .arg(reps.to_string())
            .arg(seconds.to_string())
            .output()
            .map_err(|e| Error::tool("java", format!("cannot run {}: {e}", self.java)))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let fields: Vec<f64> = text
            .split_whitespace()
            .filter_map(|s| s.parse::<f64>().ok())
            .collect();
        (out.status.success() && fields.len() == 4)
            .then(|| Timing {
                best: fields[0],
                median: fields[2],
                runs: fields[3] as usize,
            })
            .ok_or_else(|| {
                Error::tool(
                    "java",
                    format!(
                        "WekaBench {class} failed: {}",
                        String::from_utf8_lossy(&out.stderr).trim()
                    ),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_runs_until_both_reps_and_seconds_and_takes_the_later_median() {
        // Runs of 0.5, 0.3, 0.1, 0.2, 0.05 s: 3 reps take 0.9 s, so a 4th run reaches 1 s.
        let times = [0.5, 0.3, 0.1, 0.2, 0.05];
        let mut i = 0;
        let t = Timing::measure(3, 1.0, || {
            i += 1;
            Ok(times[i - 1])
        })
        .unwrap();
        assert_eq!(t.runs, 4);
        assert_eq!(t.best, 0.1);
        // The later half is runs 3 and 4 (0.1, 0.2): its upper median.
        assert_eq!(t.median, 0.2);
        // Reps alone when the time is reached at once; at most MAX_RUNS runs.
        assert_eq!(Timing::measure(2, 1.0, || Ok(5.0)).unwrap().runs, 2);
        assert_eq!(Timing::measure(1, 1.0, || Ok(0.0)).unwrap().runs, MAX_RUNS);
        assert!(Timing::measure(1, 0.0, || Err(Error::Usage("x".into()))).is_err());
    }
}

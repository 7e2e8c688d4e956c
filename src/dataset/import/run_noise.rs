//! How finely a recording tells its fastest configurations apart. A Kernel Tuner cache keeps,
//! beside each configuration's `time`, the runs it averaged (`times`); their spread says how
//! far two recorded times may differ by chance. Where the runs of the fastest configurations
//! spread widely (pnpoly on an RTX Titan in benchmark_hub: a first run three to four times the
//! others, kept in the mean), fractions of the optimum closer than that spread are a draw of
//! the noise, not a difference between searches (docs/search-results.md, "Free moves and
//! crossover jumps").

use serde::Serialize;

/// The fastest configurations a summary looks at, at most.
pub const FASTEST: usize = 10;

/// The noise of a recording's fastest configurations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunNoise {
    /// Configurations summarised: the fastest, at most [`FASTEST`].
    pub configurations: usize,
    /// Runs per configuration (the median over those summarised).
    pub runs: usize,
    /// The standard error of a configuration's mean time relative to that time, the median
    /// over those summarised.
    pub standard_error: f64,
    /// Of those summarised, the configurations whose first run is over 1.5 times the slowest
    /// of their others: a warm-up run kept in the mean.
    pub warm_up_first_runs: usize,
}

/// A configuration's runs where they are at least two numbers whose mean is `time` (within
/// 1%): what the recorded time averaged. `None` otherwise (runs of another shape, or a time
/// that is not their mean).
pub fn runs_averaging(time: f64, runs: Option<&serde_json::Value>) -> Option<Vec<f64>> {
    let list = runs?.as_array()?;
    let runs: Vec<f64> = list.iter().map(|v| v.as_f64()).collect::<Option<_>>()?;
    if runs.len() < 2 {
        return None;
    }
    let mean = runs.iter().sum::<f64>() / runs.len() as f64;
    ((mean - time).abs() <= 0.01 * time.abs()).then_some(runs)
}

/// The noise of the [`FASTEST`] configurations by time among `timed` (each working
/// configuration's time and its recorded runs, as the file has them); `None` where one of
/// those has no runs that average to its time ([`runs_averaging`]), or nothing worked.
pub fn summarise(timed: &[(f64, Option<&serde_json::Value>)]) -> Option<RunNoise> {
    let mut order: Vec<usize> = (0..timed.len()).collect();
    let by_time = |a: &usize, b: &usize| timed[*a].0.total_cmp(&timed[*b].0).then(a.cmp(b));
    if order.len() > FASTEST {
        order.select_nth_unstable_by(FASTEST - 1, by_time);
        order.truncate(FASTEST);
    }
    order.sort_by(by_time);
    if order.is_empty() {
        return None;
    }
    let mut errors = Vec::with_capacity(order.len());
    let mut counts = Vec::with_capacity(order.len());
    let mut warm = 0;
    for &i in &order {
        let runs = runs_averaging(timed[i].0, timed[i].1)?;
        let n = runs.len() as f64;
        let mean = runs.iter().sum::<f64>() / n;
        let var = runs.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0);
        errors.push(var.sqrt() / n.sqrt() / mean);
        counts.push(runs.len());
        let slowest_other = runs[1..].iter().copied().fold(f64::MIN, f64::max);
        warm += usize::from(runs[0] > 1.5 * slowest_other);
    }
    Some(RunNoise {
        configurations: order.len(),
        runs: median_usize(&mut counts),
        standard_error: median(&mut errors),
        warm_up_first_runs: warm,
    })
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn median_usize(v: &mut [usize]) -> usize {
    v.sort_unstable();
    v[(v.len() - 1) / 2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn runs_count_only_where_they_average_to_the_time() {
        assert_eq!(
            runs_averaging(2.0, Some(&json!([1.0, 3.0]))),
            Some(vec![1.0, 3.0])
        );
        // One run, runs of another shape, a time that is not their mean.
        assert_eq!(runs_averaging(2.0, Some(&json!([2.0]))), None);
        assert_eq!(
            runs_averaging(2.0, Some(&json!([[0, 1.0], [0, 3.0]]))),
            None
        );
        assert_eq!(runs_averaging(1.0, Some(&json!([1.0, 3.0]))), None);
        assert_eq!(runs_averaging(2.0, None), None);
    }

    /// Synthetic: twelve configurations of four runs each.
    #[test]
    fn the_fastest_ten_give_the_median_error_and_the_warm_ups() {
        let mut runs: Vec<serde_json::Value> = (0..12)
            .map(|i| {
                let base = 1.0 + i as f64;
                // Runs base-1%, base+1%, base-1%, base+1%: sd 1.155% of the mean, se half that.
                json!([base * 0.99, base * 1.01, base * 0.99, base * 1.01])
            })
            .collect();
        let mut times: Vec<f64> = (0..12).map(|i| 1.0 + i as f64).collect();
        // The fastest gets a warm-up first run: its mean and error grow, its rank stays.
        runs[0] = json!([4.0, 0.1, 0.1, 0.1]);
        times[0] = 1.075;
        let timed = |runs: &[serde_json::Value]| -> Vec<(f64, Option<serde_json::Value>)> {
            times
                .iter()
                .copied()
                .zip(runs.iter().cloned().map(Some))
                .collect()
        };
        let summary = |t: &[(f64, Option<serde_json::Value>)]| {
            let refs: Vec<(f64, Option<&serde_json::Value>)> =
                t.iter().map(|(time, r)| (*time, r.as_ref())).collect();
            summarise(&refs)
        };
        let n = summary(&timed(&runs)).unwrap();
        assert_eq!((n.configurations, n.runs, n.warm_up_first_runs), (10, 4, 1));
        let expected = (4.0f64 / 3.0 * 1e-4).sqrt() / 2.0;
        assert!((n.standard_error - expected).abs() < 1e-9, "{n:?}");
        // One of the ten fastest without runs that average to its time: no summary. The
        // eleventh does not count.
        runs[11] = json!([1.0]);
        assert!(summary(&timed(&runs)).is_some());
        runs[3] = json!([1.0]);
        assert_eq!(summary(&timed(&runs)), None);
        assert_eq!(summarise(&[]), None);
    }
}

//! What predicts in an experiment: a regressor (fitted per fold on the training samples'
//! features and speedups) or a baseline rule that only decides "recommend or not".
//!
//! Baselines use exactly the fold's training samples: `always` recommends every
//! time; `majority` gives each optimization's majority training outcome; `mean` predicts the
//! mean training speedup; `random` flips a coin with the training set's positive rate, and its
//! table is the mean over 100 seeds.

use crate::error::Result;
use advise_ml::SplitMix64;
use advise_ml::{Data, Method, Params};

/// Features of a set of samples: one row per sample, `None` where the value is missing.
pub type Rows<'a> = Vec<&'a [Option<f64>]>;

/// A method's answer for a fold's test samples.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Predicted speedups (a regressor, or the `mean` baseline).
    Speedups(Vec<f64>),
    /// Recommend-or-not decisions, one per test sample, for each of several seeds (a rule).
    Decisions(Vec<Vec<bool>>),
}

/// Something an experiment evaluates: a fitted-per-fold model or a baseline rule.
pub trait Contender: Sync {
    /// The name shown in tables (`ibk`, `m5p`, `baseline:majority`).
    fn name(&self) -> String;
    /// Whether this is a baseline rule rather than a model.
    fn is_baseline(&self) -> bool {
        false
    }
    /// Fits on the training samples and answers for the test samples.
    fn answer(
        &self,
        train: &Rows<'_>,
        train_y: &[f64],
        test: &Rows<'_>,
        seed: u64,
    ) -> Result<Answer>;
    /// Answers for several test sets of the same training samples, each as if alone (a
    /// model is then fitted once).
    fn answer_each(
        &self,
        train: &Rows<'_>,
        train_y: &[f64],
        tests: &[Rows<'_>],
        seed: u64,
    ) -> Result<Vec<Answer>> {
        tests
            .iter()
            .map(|t| self.answer(train, train_y, t, seed))
            .collect()
    }
}

/// The four baseline rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Baseline {
    Always,
    Majority,
    Mean,
    Random,
}

impl Baseline {
    pub const ALL: [Baseline; 4] = [
        Baseline::Always,
        Baseline::Majority,
        Baseline::Mean,
        Baseline::Random,
    ];

    fn label(self) -> &'static str {
        match self {
            Baseline::Always => "always",
            Baseline::Majority => "majority",
            Baseline::Mean => "mean",
            Baseline::Random => "random",
        }
    }
}

/// The mean training speedup (0 for no samples): the `mean` rule's prediction.
fn mean_of(train_y: &[f64]) -> f64 {
    train_y.iter().sum::<f64>() / train_y.len().max(1) as f64
}

/// Seeds the `random` baseline averages over.
pub const RANDOM_SEEDS: u64 = 100;

impl Contender for Baseline {
    fn name(&self) -> String {
        format!("baseline:{}", self.label())
    }

    fn is_baseline(&self) -> bool {
        true
    }

    fn answer(
        &self,
        _train: &Rows<'_>,
        train_y: &[f64],
        test: &Rows<'_>,
        seed: u64,
    ) -> Result<Answer> {
        let n = test.len();
        let positive = train_y.iter().filter(|&&y| y > 1.0).count();
        let rate = if train_y.is_empty() {
            0.5
        } else {
            positive as f64 / train_y.len() as f64
        };
        Ok(match self {
            Baseline::Always => Answer::Decisions(vec![vec![true; n]]),
            // Ties go to "recommend": the cost of trying an optimization is small.
            Baseline::Majority => Answer::Decisions(vec![vec![2 * positive >= train_y.len(); n]]),
            Baseline::Mean => Answer::Speedups(vec![mean_of(train_y); n]),
            Baseline::Random => Answer::Decisions(
                (0..RANDOM_SEEDS)
                    .map(|s| {
                        let mut rng = SplitMix64::new(seed.wrapping_add(s));
                        (0..n).map(|_| rng.next_f64() < rate).collect()
                    })
                    .collect(),
            ),
        })
    }
}

/// The occupancy calculator as a rule, for pools whose step features include occupancy: take
/// a block-size step where theoretical occupancy rises (`step.occupancy_log2` > 0); where a
/// sample has no occupancy (another family, an unknown GPU), the mean rule's answer. No
/// training beyond the mean; the untrained physics a learned step model must beat.
pub struct OccupancyRule {
    column: usize,
}

/// The occupancy rule for a pool with these columns, where it has `step.occupancy_log2`.
pub fn occupancy_rule(columns: &[String]) -> Option<OccupancyRule> {
    columns
        .iter()
        .position(|c| c == "step.occupancy_log2")
        .map(|column| OccupancyRule { column })
}

impl Contender for OccupancyRule {
    fn name(&self) -> String {
        "baseline:occupancy".into()
    }

    fn is_baseline(&self) -> bool {
        true
    }

    fn answer(
        &self,
        _train: &Rows<'_>,
        train_y: &[f64],
        test: &Rows<'_>,
        _seed: u64,
    ) -> Result<Answer> {
        let mean = mean_of(train_y);
        Ok(Answer::Decisions(vec![test
            .iter()
            .map(|row| occupancy_rule_takes(row.get(self.column).copied().flatten(), mean))
            .collect()]))
    }
}

/// The occupancy rule's decision for one step: take it where theoretical occupancy rises
/// (`occupancy`, log2 of after over before); without occupancy, where the mean training
/// speedup `mean` is above 1.
pub fn occupancy_rule_takes(occupancy: Option<f64>, mean: f64) -> bool {
    match occupancy {
        Some(o) => o > 0.0,
        None => mean > 1.0,
    }
}

/// A model fitted afresh on every fold's training samples.
pub struct ModelContender {
    pub params: Params,
}

impl Contender for ModelContender {
    fn name(&self) -> String {
        self.params.method().name().to_string()
    }

    fn answer(
        &self,
        train: &Rows<'_>,
        train_y: &[f64],
        test: &Rows<'_>,
        seed: u64,
    ) -> Result<Answer> {
        let mut one = self.answer_each(train, train_y, std::slice::from_ref(test), seed)?;
        Ok(one.pop().unwrap_or(Answer::Speedups(Vec::new())))
    }

    fn answer_each(
        &self,
        train: &Rows<'_>,
        train_y: &[f64],
        tests: &[Rows<'_>],
        _seed: u64,
    ) -> Result<Vec<Answer>> {
        let dense = |rows: &Rows<'_>| -> Vec<Vec<f64>> {
            rows.iter()
                .map(|r| r.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
                .collect()
        };
        let width = train.first().map(|r| r.len()).unwrap_or(0);
        let names: Vec<String> = (0..width).map(|j| format!("f{j}")).collect();
        let data = Data::numeric(&names, "speedup", dense(train), train_y.to_vec());
        let fitted = self.params.fit(&data)?;
        tests
            .iter()
            .map(|test| {
                let test_data =
                    Data::numeric(&names, "speedup", dense(test), vec![f64::NAN; test.len()]);
                Ok(Answer::Speedups(fitted.predict(&test_data)?))
            })
            .collect()
    }
}

/// The contenders `--method` names, baselines always included (every table carries them).
/// `all` means every model advise has; `baselines` only the rules; otherwise a comma list of
/// ibk, m5p, linear, forest, gbrt, knn (default parameters, as Weka's defaults for the first
/// three).
pub fn contenders(spec: &str) -> Result<Vec<Box<dyn Contender>>> {
    let mut out: Vec<Box<dyn Contender>> = Vec::new();
    let mut methods: Vec<Method> = Vec::new();
    for name in spec.split(',').map(str::trim) {
        match name {
            "all" => methods.extend(Method::ALL.iter().copied()),
            "baselines" => {}
            other => methods.push(other.parse()?),
        }
    }
    // Each method once, in the order first named (`ibk,m5p,ibk` or `all,ibk` repeat one).
    let mut seen = std::collections::HashSet::new();
    methods.retain(|m| seen.insert(*m));
    for m in methods {
        out.push(Box::new(ModelContender {
            params: m.default_params(),
        }));
    }
    out.extend(
        Baseline::ALL
            .into_iter()
            .map(|b| Box::new(b) as Box<dyn Contender>),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Synthetic: the rule follows occupancy where a row has it and the training mean where
    /// it has none; a pool without the column has no such rule.
    #[test]
    fn the_occupancy_rule_follows_occupancy_else_the_mean() {
        let cols: Vec<String> = ["a", "step.occupancy_log2"].map(String::from).to_vec();
        let rule = occupancy_rule(&cols).expect("the column is there");
        let rises: [Option<f64>; 2] = [Some(1.0), Some(0.2)];
        let falls: [Option<f64>; 2] = [Some(1.0), Some(-0.2)];
        let same: [Option<f64>; 2] = [Some(1.0), Some(0.0)];
        let unknown: [Option<f64>; 2] = [Some(1.0), None];
        let test: Rows<'_> = vec![&rises, &falls, &same, &unknown];
        let up = rule.answer(&Vec::new(), &[1.5, 0.9], &test, 0).unwrap();
        assert_eq!(up, Answer::Decisions(vec![vec![true, false, false, true]]));
        let down = rule.answer(&Vec::new(), &[0.5, 0.9], &test, 0).unwrap();
        assert_eq!(
            down,
            Answer::Decisions(vec![vec![true, false, false, false]])
        );
        assert!(rule.is_baseline());
        assert!(occupancy_rule(&cols[..1]).is_none());
    }

    #[test]
    fn baselines_use_only_the_training_targets() {
        let row: [Option<f64>; 1] = [Some(1.0)];
        let test: Rows<'_> = vec![&row, &row, &row];
        let train_y = [1.2, 1.1, 0.9];
        let a = |b: Baseline| b.answer(&vec![], &train_y, &test, 1).unwrap();
        assert_eq!(a(Baseline::Always), Answer::Decisions(vec![vec![true; 3]]));
        assert_eq!(
            a(Baseline::Majority),
            Answer::Decisions(vec![vec![true; 3]])
        );
        assert_eq!(
            a(Baseline::Mean),
            Answer::Speedups(vec![(1.2 + 1.1 + 0.9) / 3.0; 3])
        );
        match a(Baseline::Random) {
            Answer::Decisions(d) => {
                assert_eq!(d.len(), RANDOM_SEEDS as usize);
                let share = d.iter().flatten().filter(|&&x| x).count() as f64 / 300.0;
                assert!((share - 2.0 / 3.0).abs() < 0.1, "{share}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            Baseline::Majority
                .answer(&vec![], &[0.9, 0.8, 1.1], &test, 1)
                .unwrap(),
            Answer::Decisions(vec![vec![false; 3]])
        );
    }

    #[test]
    fn each_method_is_a_contender_once() {
        let names = |spec: &str| -> Vec<String> {
            contenders(spec).unwrap().iter().map(|c| c.name()).collect()
        };
        let twice = names("ibk,m5p,ibk");
        let once = names("ibk,m5p");
        assert_eq!(twice, once);
        let all = names("all");
        assert_eq!(names("all,ibk"), all);
        let ibk_first = names("ibk,all");
        assert_eq!(ibk_first[0], names("ibk")[0]);
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v
        };
        assert_eq!(sorted(ibk_first), sorted(all));
    }
}

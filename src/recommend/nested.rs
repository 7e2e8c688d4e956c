//! Leave one program out with the choices a suggestion makes (the model or the majority rule,
//! a verdict or "uncertain") made without the held-out program: what the advisor's answers
//! are worth on a program that neither the models nor the choices have seen.

use super::programs::{across, measured, programs_of};
use super::validation::Outcome;
use crate::error::Result;
use crate::experiment::data::SamplePool;
use advise_ml::Method;

/// Leave one program out with the choice between the model and the majority rule made
/// without the held-out program (`validation::follows_rule` on leave one program out over the
/// others, or on grouped folds `groups` where one other remains): right and all held-out
/// directions. `outer` is `across`'s outcome for the same samples, whose points (model) and
/// rule points say per sample which was right. An estimate of what the suggestions follow
/// on a new program that the choice itself has not seen. Beside it, the same held-out
/// directions where a suggestion would carry a verdict, "recommend" or "not recommended":
/// where the inner validation's answer beat a coin toss (`validation::beats_coin_toss`).
#[allow(clippy::too_many_arguments)]
pub(super) fn nested_choice(
    pool: &SamplePool,
    idx: &[usize],
    features: &[String],
    x: &[Vec<f64>],
    y: &[f64],
    groups: &[usize],
    (primary, secondary): (Method, Method),
    folds: usize,
    seed: u64,
    outer: &Outcome,
) -> Result<NestedChoice> {
    let program = |k: usize| pool.samples[idx[k]].key.program.as_str();
    let mut out = NestedChoice::default();
    for held in programs_of(pool, idx) {
        let others = Others::of(idx, x, y, |k| program(k) != held);
        // Leave one program out over the others; with one other left, its grouped folds.
        let inner = match others.across(pool, features, (primary, secondary), seed, None)? {
            Some(o) => Some(o),
            None => {
                let within: Vec<usize> = others.rest.iter().map(|&k| groups[k]).collect();
                super::validation::validate(
                    features,
                    &others.xs,
                    &others.ys,
                    &within,
                    primary,
                    secondary,
                    folds,
                    seed,
                    &[],
                    &measured(pool, &others.rest_idx),
                )?
            }
        };
        // Counted where `outer` was judged: the measured samples where there are any.
        out.count(inner.as_ref(), outer, y, |k| program(k) == held);
    }
    Ok(out)
}

/// Leave one program out for a model whose suggestions are judged by kind of sample (a step
/// model's block steps that leave occupancy unchanged or change it, `kinds[k]` for row k;
/// `None`: not judged), with each held-out program's verdicts decided on the other programs
/// alone: for each kind, the model or the majority rule answers as `validation::follows_rule`
/// finds over the other programs' held-out rows of that kind, and the answer carries a
/// verdict where it beat a coin toss there (`validation::beats_coin_toss`), as a suggestion's
/// does (recommend::suggest, `StepModel::validation_for`). Counted on every judged row.
/// `outers` holds, per kind, `across`'s outcome over every row judged on that kind's rows
/// (the validations the step model keeps, computed once by the caller).
#[allow(clippy::too_many_arguments)]
pub(super) fn nested_verdicts_by_kind(
    pool: &SamplePool,
    idx: &[usize],
    features: &[String],
    x: &[Vec<f64>],
    y: &[f64],
    (primary, secondary): (Method, Method),
    seed: u64,
    kinds: &[Option<u8>],
    outers: &[(u8, &Outcome)],
) -> Result<NestedChoice> {
    let program = |k: usize| pool.samples[idx[k]].key.program.as_str();
    let programs = programs_of(pool, idx);
    let mut out = NestedChoice::default();
    // The other programs' rows are the same for every kind: split off once per program.
    for &held in &programs {
        let others = Others::of(idx, x, y, |k| program(k) != held);
        for &(kind, outer) in outers {
            let judged: Vec<bool> = others
                .rest
                .iter()
                .map(|&k| kinds[k] == Some(kind))
                .collect();
            let inner = others.across(pool, features, (primary, secondary), seed, Some(&judged))?;
            out.count(inner.as_ref(), outer, y, |k| program(k) == held);
        }
    }
    Ok(out)
}

/// The rows a held-out program leaves for the inner validation: their positions in `idx`
/// (`rest`), their samples (`rest_idx`), features and speedups.
struct Others {
    rest: Vec<usize>,
    rest_idx: Vec<usize>,
    xs: Vec<Vec<f64>>,
    ys: Vec<f64>,
}

impl Others {
    /// The rows `k` of `idx`, `x` and `y` that `keep` keeps.
    fn of(idx: &[usize], x: &[Vec<f64>], y: &[f64], keep: impl Fn(usize) -> bool) -> Self {
        let rest: Vec<usize> = (0..idx.len()).filter(|&k| keep(k)).collect();
        Others {
            rest_idx: rest.iter().map(|&k| idx[k]).collect(),
            xs: rest.iter().map(|&k| x[k].clone()).collect(),
            ys: rest.iter().map(|&k| y[k]).collect(),
            rest,
        }
    }

    /// Leave one program out over these rows (`programs::across`), judged on the rows
    /// `judge` marks (all without it).
    fn across(
        &self,
        pool: &SamplePool,
        features: &[String],
        (primary, secondary): (Method, Method),
        seed: u64,
        judge: Option<&[bool]>,
    ) -> Result<Option<Outcome>> {
        across(
            pool,
            &self.rest_idx,
            features,
            &self.xs,
            &self.ys,
            primary,
            secondary,
            seed,
            &[],
            judge,
        )
    }
}

/// What `nested_choice` counts over the held-out directions: those right, all of them, and of
/// those with a verdict (the inner validation beat a coin toss) the right ones, all, the
/// faster ones (where always recommending is right), and those only the answer or only
/// always recommending got right (for McNemar's test).
#[derive(Debug, Default, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NestedChoice {
    pub right: usize,
    pub all: usize,
    pub decisive_right: usize,
    pub decisive_all: usize,
    pub decisive_faster: usize,
    pub decisive_only_answer: usize,
    pub decisive_only_always: usize,
}

impl NestedChoice {
    /// Adds another count to this one (pooling optimizations).
    pub fn add(&mut self, other: &NestedChoice) {
        self.right += other.right;
        self.all += other.all;
        self.decisive_right += other.decisive_right;
        self.decisive_all += other.decisive_all;
        self.decisive_faster += other.decisive_faster;
        self.decisive_only_answer += other.decisive_only_answer;
        self.decisive_only_always += other.decisive_only_always;
    }

    /// Adds the held-out rows of `outer` that `held` marks, answered as `inner` (the same
    /// validation over the other programs) decides: by the model or the majority rule
    /// (`validation::follows_rule`), with a verdict where that answer beat a coin toss there
    /// (`validation::beats_coin_toss`).
    fn count(
        &mut self,
        inner: Option<&Outcome>,
        outer: &Outcome,
        y: &[f64],
        held: impl Fn(usize) -> bool,
    ) {
        let rule = inner.is_some_and(|o| super::validation::follows_rule(&o.validation));
        let decisive = inner.is_some_and(|o| {
            super::validation::beats_coin_toss(o.validation.answering(rule), &o.validation)
        });
        let answered = if rule {
            &outer.rule_points
        } else {
            &outer.points
        };
        for k in outer.judged.iter().copied().filter(|&k| held(k)) {
            let (correct, faster) = (answered[k].correct, y[k] > 1.0);
            self.right += usize::from(correct);
            self.all += 1;
            if decisive {
                self.decisive_right += usize::from(correct);
                self.decisive_all += 1;
                self.decisive_faster += usize::from(faster);
                self.decisive_only_answer += usize::from(correct && !faster);
                self.decisive_only_always += usize::from(!correct && faster);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::samples::SpeedupSample;

    /// Synthetic: three programs, the optimization helps where the feature is high in two of
    /// them and everywhere in the third. Every held-out direction is answered once, by the
    /// model or the rule as chosen on the other two programs.
    #[test]
    fn the_nested_choice_answers_every_held_out_sample_once() {
        let mut samples = Vec::new();
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for (p, program) in ["a", "b", "c"].iter().enumerate() {
            for k in 0..8 {
                let f = k as f64;
                let s = if p == 2 || k >= 4 { 1.5 } else { 0.7 };
                samples.push(SpeedupSample {
                    features: vec![Some(f)],
                    ..SpeedupSample::for_test("S", program, &k.to_string(), s)
                });
                x.push(vec![f]);
                y.push(s);
            }
        }
        let pool = SamplePool::of_samples(samples, "S");
        let idx: Vec<usize> = (0..24).collect();
        let features = vec!["f".to_string()];
        let groups: Vec<usize> = (0..24).collect();
        let outer = across(
            &pool,
            &idx,
            &features,
            &x,
            &y,
            Method::Ibk,
            Method::M5p,
            1,
            &[],
            None,
        )
        .unwrap()
        .unwrap();
        let nested = nested_choice(
            &pool,
            &idx,
            &features,
            &x,
            &y,
            &groups,
            (Method::Ibk, Method::M5p),
            4,
            1,
            &outer,
        )
        .unwrap();
        let (right, all) = (nested.right, nested.all);
        assert_eq!(all, 24);
        assert!(nested.decisive_all <= all && nested.decisive_right <= nested.decisive_all);
        assert!(nested.decisive_faster <= nested.decisive_all);
        let per = |pts: &[super::super::validation::Point], p: usize| {
            pts[8 * p..8 * (p + 1)].iter().filter(|q| q.correct).count()
        };
        let model: Vec<usize> = (0..3).map(|p| per(&outer.points, p)).collect();
        let rule: Vec<usize> = (0..3).map(|p| per(&outer.rule_points, p)).collect();
        // The rule would do better on c (every step helps there), but no inner comparison
        // on 8 samples a program is significant: the model answers for every program.
        assert!(rule[2] > model[2], "{rule:?} {model:?}");
        assert_eq!(right, model.iter().sum::<usize>());
    }

    /// Synthetic: three programs of two kinds of sample. Kind 1 (seven rows a program) always
    /// helps, so what answers is right on every row of the other programs and gives verdicts;
    /// kind 0 has one row a program, too few for any answer to beat a coin toss on the other
    /// two, so its rows stay "uncertain"; rows of no kind are not counted.
    #[test]
    fn verdicts_by_kind_are_given_only_where_the_other_programs_beat_a_coin_toss() {
        let mut samples = Vec::new();
        let (mut x, mut y, mut kinds) = (Vec::new(), Vec::new(), Vec::new());
        for program in ["a", "b", "c"] {
            for k in 0..9 {
                let f = k as f64;
                let (kind, s) = match k {
                    0..=6 => (Some(1), 1.5),
                    7 => (Some(0), 0.7),
                    _ => (None, 0.5),
                };
                samples.push(SpeedupSample {
                    features: vec![Some(f)],
                    ..SpeedupSample::for_test("S", program, &k.to_string(), s)
                });
                x.push(vec![f]);
                y.push(s);
                kinds.push(kind);
            }
        }
        let pool = SamplePool::of_samples(samples, "S");
        let idx: Vec<usize> = (0..x.len()).collect();
        let features = ["f".to_string()];
        let methods = (Method::Ibk, Method::M5p);
        let outers: Vec<(u8, Outcome)> = [0u8, 1]
            .into_iter()
            .filter_map(|c| {
                let mask: Vec<bool> = kinds.iter().map(|&k| k == Some(c)).collect();
                across(
                    &pool,
                    &idx,
                    &features,
                    &x,
                    &y,
                    methods.0,
                    methods.1,
                    1,
                    &[],
                    Some(&mask),
                )
                .unwrap()
                .map(|o| (c, o))
            })
            .collect();
        let outers: Vec<(u8, &Outcome)> = outers.iter().map(|(c, o)| (*c, o)).collect();
        let n =
            nested_verdicts_by_kind(&pool, &idx, &features, &x, &y, methods, 1, &kinds, &outers)
                .unwrap();
        // 7 + 1 rows of a kind per program; the rows of no kind are left out.
        assert_eq!(n.all, 24, "{n:?}");
        // Kind 1: the rule says faster and is right on all 21 held-out rows, with a verdict.
        assert_eq!(n.decisive_all, 21, "{n:?}");
        assert_eq!(n.decisive_right, 21, "{n:?}");
        assert_eq!(n.decisive_faster, 21, "{n:?}");
        assert_eq!((n.decisive_only_answer, n.decisive_only_always), (0, 0));
        assert!(n.right >= n.decisive_right);
    }
}

//! Fits and answers folds: one fit per distinct training set, spread over the machine's
//! cores, every test set answered alone.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::data::SamplePool;
use super::method::{Answer, Contender, Rows};
use super::splits::Fold;
use crate::error::Result;

/// Fits and answers every fold, spread over the machine's cores; answers come back in fold
/// order, so results do not depend on the number of threads. Folds with the same training
/// samples (the same switch under different open choices of the test side) share one fit:
/// each test set is still answered alone, so the answers are those of separate fits.
pub(super) fn answer_all(
    pool: &SamplePool,
    folds: &[&Fold],
    contender: &dyn Contender,
    seed: u64,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Answer>> {
    let mut jobs: Vec<Vec<usize>> = Vec::new();
    let mut by_train: BTreeMap<&[usize], usize> = BTreeMap::new();
    for (i, f) in folds.iter().enumerate() {
        let job = *by_train.entry(f.train.as_slice()).or_insert_with(|| {
            jobs.push(Vec::new());
            jobs.len() - 1
        });
        jobs[job].push(i);
    }
    let rows = |idx: &[usize]| -> Rows<'_> {
        idx.iter()
            .map(|&i| pool.samples[i].features.as_slice())
            .collect()
    };
    let one = |job: &[usize]| -> Vec<(usize, Result<Answer>)> {
        let train = &folds[job[0]].train;
        let train_y: Vec<f64> = train.iter().map(|&i| pool.samples[i].speedup).collect();
        let tests: Vec<Rows<'_>> = job.iter().map(|&f| rows(&folds[f].test)).collect();
        let answers = contender.answer_each(&rows(train), &train_y, &tests, seed);
        job.iter().for_each(|_| tick());
        match answers {
            Ok(a) => job.iter().copied().zip(a.into_iter().map(Ok)).collect(),
            // The job's first fold comes first in fold order, so its error is the one shown.
            Err(e) => {
                let text = e.to_string();
                let mut out = vec![(job[0], Err(e))];
                out.extend(
                    job[1..]
                        .iter()
                        .map(|&f| (f, Err(crate::error::Error::Internal(text.clone())))),
                );
                out
            }
        }
    };
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(jobs.len().max(1));
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<Answer>>> = (0..folds.len()).map(|_| None).collect();
    let chunks: Vec<Vec<(usize, Result<Answer>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let work = || {
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= jobs.len() {
                                break mine;
                            }
                            mine.extend(one(&jobs[i]));
                        }
                    };
                    // Folds already use every core: the models' helper thread would only take
                    // one from another fold.
                    if threads > 1 {
                        advise_ml::helper_thread::alone(work)
                    } else {
                        work()
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (i, a) in chunks.into_iter().flatten() {
        slots[i] = Some(a);
    }
    slots
        .into_iter()
        .map(|a| {
            a.unwrap_or_else(|| {
                Err(crate::error::Error::Internal(
                    "a worker thread failed".into(),
                ))
            })
        })
        .collect()
}

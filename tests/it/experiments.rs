//! Experiment definitions on a generated (synthetic) NB/BH campaign: fold sizes follow
//! Table 4.3 of the thesis, every table's cells sum to the test samples, the totals follow
//! from the per-sample predictions, and the same seed gives the same results.

use advise::experiment::data::load_pool;
use advise::experiment::method::{Baseline, Contender};
use advise::experiment::run::{run, RunSettings};
use advise::experiment::splits::{folds, Experiment};

fn pool() -> advise::experiment::data::SamplePool {
    let dir = tempfile::tempdir().unwrap();
    crate::common::write_synthetic_campaign(dir.path(), 7);
    load_pool(dir.path()).unwrap()
}

#[test]
fn fold_sizes_follow_table_4_3() {
    let pool = pool();
    // Samples are half the variants: the 32 of 64 that lack the optimization.
    let expect = [(1, 32, 96), (2, 32, 64), (3, 64, 32), (4, 96, 32)];
    for (n, train, test) in expect {
        let f = folds(&pool, &Experiment::Thesis(n), None).unwrap();
        assert!(
            f.iter()
                .all(|f| f.train.len() == train && f.test.len() == test),
            "exp {n}"
        );
    }
    // Exp 1 and 2: 6 BH inputs x 3 training runs x 6 optimizations.
    assert_eq!(
        folds(&pool, &Experiment::Thesis(1), None).unwrap().len(),
        6 * 3 * 6
    );
    // Exp 4: 6 training inputs x 5 other inputs x 3 runs of each x 6 optimizations.
    let f4 = folds(&pool, &Experiment::Thesis(4), None).unwrap();
    assert_eq!(f4.len(), 6 * 5 * 3 * 6);
    for (n, train_p, test_p) in [(5, "BH", "NB"), (6, "NB", "BH")] {
        let f = folds(&pool, &Experiment::Thesis(n), None).unwrap();
        assert!(
            f.iter().all(|f| f.train.len() == 96 && f.test.len() == 96),
            "exp {n}"
        );
        assert!(f.iter().all(|f| f.switch == "FTZ" || f.switch == "RSQRT"));
        assert!(f
            .iter()
            .all(|f| pool.samples[f.train[0]].key.program == train_p
                && pool.samples[f.test[0]].key.program == test_p));
    }
}

#[test]
fn cells_sum_to_test_samples_and_totals_follow_from_predictions() {
    let pool = pool();
    let f = folds(&pool, &Experiment::Thesis(2), None).unwrap();
    let contenders: Vec<&dyn Contender> =
        Baseline::ALL.iter().map(|b| b as &dyn Contender).collect();
    let results = run(
        &pool,
        "exp2",
        &f,
        &contenders,
        &RunSettings::default(),
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(results.len(), 4);
    for r in &results {
        let tested: usize = f.iter().map(|f| f.test.len()).sum();
        let cells = r.total.pp + r.total.pn + r.total.np + r.total.nn;
        assert!((cells - tested as f64).abs() < 1e-9, "{}", r.method);
        for o in &r.optimizations {
            let sum = o.pp + o.pn + o.np + o.nn;
            assert!((sum - o.samples.len() as f64).abs() < 1e-9);
            // Recompute the accuracy from the samples alone.
            let correct: f64 = o
                .samples
                .iter()
                .map(|s| {
                    if s.actual > 1.0 {
                        s.recommended
                    } else {
                        1.0 - s.recommended
                    }
                })
                .sum();
            assert!((o.accuracy.unwrap() - correct / o.samples.len() as f64).abs() < 1e-12);
        }
        let mean = r
            .optimizations
            .iter()
            .map(|o| o.accuracy.unwrap())
            .sum::<f64>()
            / r.optimizations.len() as f64;
        assert!((r.total.thesis_total.unwrap() - mean).abs() < 1e-12);
    }
    let always = results
        .iter()
        .find(|r| r.method == "baseline:always")
        .unwrap();
    // "Always recommend" predicts faster everywhere: no N predictions, and its PN are exactly
    // the samples the optimization slowed down.
    let samples: Vec<_> = always
        .optimizations
        .iter()
        .flat_map(|o| &o.samples)
        .collect();
    let slower = samples.iter().filter(|s| s.actual < 1.0).count() as f64;
    assert_eq!(always.total.np, 0.0);
    assert_eq!(always.total.nn, 0.0);
    assert_eq!(always.total.pn, slower);
    assert_eq!(always.total.pp + always.total.pn, samples.len() as f64);
    assert!(
        always.total.pp > 0.0 && always.total.pn > 0.0,
        "both kinds occur"
    );
    assert!(always.vs_majority.is_some());
}

#[test]
fn same_seed_same_json() {
    let pool = pool();
    let f = folds(&pool, &Experiment::Thesis(3), None).unwrap();
    let b = Baseline::Random;
    let go = || {
        serde_json::to_string(
            &run(
                &pool,
                "exp3",
                &f,
                &[&b],
                &RunSettings::default(),
                &|_, _| {},
            )
            .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(go(), go());
}

#[test]
fn weka_fold_layout_matches_weka_cross_validation() {
    use advise::experiment::method::ModelContender;
    use advise_ml::{weka::cv::cross_validate, Data, Method};
    let pool = pool();
    let exp = Experiment::KFold {
        k: 10,
        seed: 1,
        layout: advise::experiment::splits::FoldLayout::Weka,
    };
    let f: Vec<_> = folds(&pool, &exp, None)
        .unwrap()
        .into_iter()
        .filter(|f| f.switch == "SHMEM")
        .collect();
    let ibk = ModelContender {
        params: Method::Ibk.default_params(),
    };
    let results = run(
        &pool,
        "w",
        &f,
        &[&ibk],
        &RunSettings {
            bootstrap: 10,
            ..Default::default()
        },
        &|_, _| {},
    )
    .unwrap();
    let ours: Vec<f64> = results[0].optimizations[0]
        .samples
        .iter()
        .map(|s| s.predicted.unwrap())
        .collect();
    // The same samples through Weka-compatible CV (`advise predict --cv 10 --seed 1`).
    let idx = pool.of_switch("SHMEM");
    let x: Vec<Vec<f64>> = idx
        .iter()
        .map(|&i| {
            pool.samples[i]
                .features
                .iter()
                .map(|v| v.unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    let y: Vec<f64> = idx.iter().map(|&i| pool.samples[i].speedup).collect();
    let names: Vec<String> = (0..x[0].len()).map(|j| format!("f{j}")).collect();
    let cv = cross_validate(
        &Method::Ibk.default_params(),
        &Data::numeric(&names, "speedup", x, y),
        10,
        1,
    )
    .unwrap();
    let weka: Vec<f64> = cv.iter().map(|p| p.predicted).collect();
    assert_eq!(ours, weka);
}

#[test]
fn repetition_noise_marks_speedups_as_unclear() {
    let dir = tempfile::tempdir().unwrap();
    // The synthetic campaign, every timing with three repetitions spread +-3% around its time.
    let (m, mut t) = advise::experiment::synthetic::campaign(3, 7);
    for row in &mut t {
        let time = row.time_ms;
        row.times_ms = Some(format!("{};{};{}", time * 0.97, time, time * 1.03));
    }
    let write = |name: &str| std::fs::File::create(dir.path().join(name)).unwrap();
    advise::dataset::table::write_rows(write("measurements.csv"), &m).unwrap();
    advise::dataset::table::write_rows(write("timings.csv"), &t).unwrap();
    let pool = load_pool(dir.path()).unwrap();
    let f = folds(&pool, &Experiment::Thesis(3), None).unwrap();
    let r = run(
        &pool,
        "exp3",
        &f,
        &[&Baseline::Always],
        &RunSettings {
            band: 0.0,
            bootstrap: 10,
            ..Default::default()
        },
        &|_, _| {},
    )
    .unwrap();
    let share = |name: &str| {
        r[0].optimizations
            .iter()
            .find(|o| o.name == name)
            .unwrap()
            .unclear_share
    };
    // In the synthetic BH, FTZ changes time by 0.5%: inside the +-3% noise. WARP halves it.
    assert_eq!(share("FTZ"), 1.0);
    assert_eq!(share("WARP"), 0.0);
}

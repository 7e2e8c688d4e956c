//! A check of our arithmetic against the thesis (Taheri's thesis, Tables 5.1-5.9): its published
//! PP/PN/NP/NN percentages, fed through our total and baseline code, give its totals, and the
//! baselines that the project quotes (majority about 84.5% in experiment 1, "always recommend"
//! 100% in experiment 5, majority about 75.8% in experiment 6).

use advise::experiment::confusion::{thesis_total, Rates};

type Table = &'static [advise::experiment::thesis::Row];

fn t(exp: u8, method: &str) -> Table {
    advise::experiment::thesis::table(&format!("exp{exp}"), method)
        .unwrap()
        .1
}

fn rates(t: Table) -> Vec<Rates> {
    t.iter()
        .map(|&(_, pp, pn, np, nn)| Rates { pp, pn, np, nn })
        .collect()
}

fn total(t: Table) -> f64 {
    thesis_total(&rates(t).iter().map(Rates::accuracy).collect::<Vec<_>>()).unwrap()
}

fn mean_of(t: Table, f: fn(&Rates) -> f64) -> f64 {
    let r = rates(t);
    r.iter().map(f).sum::<f64>() / r.len() as f64
}

#[test]
fn totals_match_the_thesis_to_a_tenth() {
    let cases: [(Table, f64); 9] = [
        (t(1, "ibk"), 97.3),
        (t(1, "m5p"), 86.4),
        (t(2, "ibk"), 96.0),
        (t(3, "ibk"), 96.3),
        (t(4, "ibk"), 92.0),
        (t(4, "m5p"), 81.6),
        (t(5, "ibk"), 83.6),
        (t(6, "ibk"), 55.7),
        (t(6, "m5p"), 60.1),
    ];
    for (i, (t, expected)) in cases.iter().enumerate() {
        let got = total(t);
        assert!(
            (got - expected).abs() <= 0.1,
            "table 5.{}: {got} vs {expected}",
            i + 1
        );
    }
}

#[test]
fn baselines_quoted_in_the_issue() {
    // Experiment 1: WARP and VOLA help in every case; the majority rule scores about 84.5%.
    let m = mean_of(t(1, "ibk"), Rates::majority_baseline);
    assert!((m - 84.5).abs() <= 0.1, "{m}");
    // Experiment 5: FTZ and RSQRT helped in 100% of the NB cases.
    let a = mean_of(t(5, "ibk"), Rates::always_baseline);
    assert!((a - 100.0).abs() <= 0.1, "{a}");
    // Experiment 6: the majority rule scores about 75.8%, above IBk (55.7) and M5P (60.1).
    let m6 = mean_of(t(6, "ibk"), Rates::majority_baseline);
    assert!((m6 - 75.8).abs() <= 0.1, "{m6}");
    assert!(m6 > total(t(6, "ibk")) && m6 > total(t(6, "m5p")));
}

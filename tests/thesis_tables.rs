//! A check of our arithmetic against the thesis (seed 001, Tables 5.1-5.9): its published
//! PP/PN/NP/NN percentages, fed through our total and baseline code, give its totals, and the
//! baselines that issue 11 quotes (majority about 84.5% in experiment 1, "always recommend"
//! 100% in experiment 5, majority about 75.8% in experiment 6).

use advise::experiment::confusion::{thesis_total, Rates};

/// (optimization, PP, PN, NP, NN) as printed.
type Table = &'static [(&'static str, f64, f64, f64, f64)];

const T5_1_EXP1_IBK: Table = &[
    ("VOTE", 75.0, 0.0, 0.0, 25.0),
    ("WARP", 100.0, 0.0, 0.0, 0.0),
    ("SORT", 85.4, 0.0, 0.0, 14.6),
    ("RSQRT", 90.3, 4.9, 0.7, 4.2),
    ("FTZ", 52.3, 7.3, 3.6, 36.8),
    ("VOLA", 100.0, 0.0, 0.0, 0.0),
];
const T5_2_EXP1_M5P: Table = &[
    ("VOTE", 69.8, 5.2, 0.7, 24.3),
    ("WARP", 94.1, 5.9, 0.0, 0.0),
    ("SORT", 80.6, 4.9, 11.1, 3.5),
    ("RSQRT", 85.4, 9.7, 1.4, 3.5),
    ("FTZ", 17.4, 42.2, 0.7, 39.8),
    ("VOLA", 100.0, 0.0, 0.0, 0.0),
];
const T5_3_EXP2_IBK: Table = &[
    ("VOTE", 75.0, 0.0, 0.0, 25.0),
    ("WARP", 100.0, 0.0, 0.0, 0.0),
    ("SORT", 85.4, 0.0, 0.0, 14.6),
    ("RSQRT", 89.1, 6.1, 1.6, 3.3),
    ("FTZ", 49.7, 9.8, 6.3, 34.1),
    ("VOLA", 100.0, 0.0, 0.0, 0.0),
];
const T5_4_EXP3_IBK: Table = &[
    ("VOTE", 75.0, 0.0, 0.0, 25.0),
    ("WARP", 100.0, 0.0, 0.0, 0.0),
    ("SORT", 85.4, 0.0, 0.0, 14.6),
    ("RSQRT", 89.2, 5.9, 1.0, 3.8),
    ("FTZ", 48.6, 10.9, 4.5, 35.9),
    ("VOLA", 100.0, 0.0, 0.0, 0.0),
];
const T5_5_EXP4_IBK: Table = &[
    ("VOTE", 72.3, 2.7, 0.0, 25.0),
    ("WARP", 100.0, 0.0, 0.0, 0.0),
    ("SORT", 81.7, 3.8, 1.3, 13.3),
    ("RSQRT", 87.6, 7.7, 3.2, 1.5),
    ("FTZ", 44.3, 15.1, 14.1, 26.6),
    ("VOLA", 100.0, 0.0, 0.0, 0.0),
];
const T5_6_EXP4_M5P: Table = &[
    ("VOTE", 59.8, 15.2, 11.7, 13.3),
    ("WARP", 96.0, 4.0, 0.0, 0.0),
    ("SORT", 80.0, 5.4, 12.1, 2.5),
    ("RSQRT", 80.8, 14.5, 2.3, 2.4),
    ("FTZ", 16.9, 42.5, 3.0, 37.6),
    ("VOLA", 100.0, 0.0, 0.0, 0.0),
];
const T5_7_EXP5_IBK: Table = &[
    ("FTZ", 85.9, 0.0, 14.1, 0.0),
    ("RSQRT", 81.3, 0.0, 18.8, 0.0),
];
const T5_8_EXP6_IBK: Table = &[
    ("RSQRT", 51.0, 46.7, 0.6, 1.8),
    ("FTZ", 58.6, 0.0, 41.4, 0.0),
];
const T5_9_EXP6_M5P: Table = &[
    ("RSQRT", 74.8, 22.9, 1.4, 1.0),
    ("FTZ", 7.6, 51.0, 4.7, 36.7),
];

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
        (T5_1_EXP1_IBK, 97.3),
        (T5_2_EXP1_M5P, 86.4),
        (T5_3_EXP2_IBK, 96.0),
        (T5_4_EXP3_IBK, 96.3),
        (T5_5_EXP4_IBK, 92.0),
        (T5_6_EXP4_M5P, 81.6),
        (T5_7_EXP5_IBK, 83.6),
        (T5_8_EXP6_IBK, 55.7),
        (T5_9_EXP6_M5P, 60.1),
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
    let m = mean_of(T5_1_EXP1_IBK, Rates::majority_baseline);
    assert!((m - 84.5).abs() <= 0.1, "{m}");
    // Experiment 5: FTZ and RSQRT helped in 100% of the NB cases.
    let a = mean_of(T5_7_EXP5_IBK, Rates::always_baseline);
    assert!((a - 100.0).abs() <= 0.1, "{a}");
    // Experiment 6: the majority rule scores about 75.8%, above IBk (55.7) and M5P (60.1).
    let m6 = mean_of(T5_8_EXP6_IBK, Rates::majority_baseline);
    assert!((m6 - 75.8).abs() <= 0.1, "{m6}");
    assert!(m6 > total(T5_8_EXP6_IBK) && m6 > total(T5_9_EXP6_M5P));
}

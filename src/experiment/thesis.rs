//! The thesis's published accuracy tables (Taheri's thesis, Tables 5.1-5.9): PP/PN/NP/NN in percent
//! per optimization, as printed. Reports put them beside ours where a dataset is of the
//! thesis's kind (NB/BH); tests recompute the thesis's totals from them.

/// One row: optimization, PP, PN, NP, NN (percent).
pub type Row = (&'static str, f64, f64, f64, f64);

/// (experiment number, method, table number, rows).
pub const TABLES: &[(u8, &str, &str, &[Row])] = &[
    (
        1,
        "ibk",
        "5.1",
        &[
            ("VOTE", 75.0, 0.0, 0.0, 25.0),
            ("WARP", 100.0, 0.0, 0.0, 0.0),
            ("SORT", 85.4, 0.0, 0.0, 14.6),
            ("RSQRT", 90.3, 4.9, 0.7, 4.2),
            ("FTZ", 52.3, 7.3, 3.6, 36.8),
            ("VOLA", 100.0, 0.0, 0.0, 0.0),
        ],
    ),
    (
        1,
        "m5p",
        "5.2",
        &[
            ("VOTE", 69.8, 5.2, 0.7, 24.3),
            ("WARP", 94.1, 5.9, 0.0, 0.0),
            ("SORT", 80.6, 4.9, 11.1, 3.5),
            ("RSQRT", 85.4, 9.7, 1.4, 3.5),
            ("FTZ", 17.4, 42.2, 0.7, 39.8),
            ("VOLA", 100.0, 0.0, 0.0, 0.0),
        ],
    ),
    (
        2,
        "ibk",
        "5.3",
        &[
            ("VOTE", 75.0, 0.0, 0.0, 25.0),
            ("WARP", 100.0, 0.0, 0.0, 0.0),
            ("SORT", 85.4, 0.0, 0.0, 14.6),
            ("RSQRT", 89.1, 6.1, 1.6, 3.3),
            ("FTZ", 49.7, 9.8, 6.3, 34.1),
            ("VOLA", 100.0, 0.0, 0.0, 0.0),
        ],
    ),
    (
        3,
        "ibk",
        "5.4",
        &[
            ("VOTE", 75.0, 0.0, 0.0, 25.0),
            ("WARP", 100.0, 0.0, 0.0, 0.0),
            ("SORT", 85.4, 0.0, 0.0, 14.6),
            ("RSQRT", 89.2, 5.9, 1.0, 3.8),
            ("FTZ", 48.6, 10.9, 4.5, 35.9),
            ("VOLA", 100.0, 0.0, 0.0, 0.0),
        ],
    ),
    (
        4,
        "ibk",
        "5.5",
        &[
            ("VOTE", 72.3, 2.7, 0.0, 25.0),
            ("WARP", 100.0, 0.0, 0.0, 0.0),
            ("SORT", 81.7, 3.8, 1.3, 13.3),
            ("RSQRT", 87.6, 7.7, 3.2, 1.5),
            ("FTZ", 44.3, 15.1, 14.1, 26.6),
            ("VOLA", 100.0, 0.0, 0.0, 0.0),
        ],
    ),
    (
        4,
        "m5p",
        "5.6",
        &[
            ("VOTE", 59.8, 15.2, 11.7, 13.3),
            ("WARP", 96.0, 4.0, 0.0, 0.0),
            ("SORT", 80.0, 5.4, 12.1, 2.5),
            ("RSQRT", 80.8, 14.5, 2.3, 2.4),
            ("FTZ", 16.9, 42.5, 3.0, 37.6),
            ("VOLA", 100.0, 0.0, 0.0, 0.0),
        ],
    ),
    (
        5,
        "ibk",
        "5.7",
        &[
            ("FTZ", 85.9, 0.0, 14.1, 0.0),
            ("RSQRT", 81.3, 0.0, 18.8, 0.0),
        ],
    ),
    (
        6,
        "ibk",
        "5.8",
        &[
            ("RSQRT", 51.0, 46.7, 0.6, 1.8),
            ("FTZ", 58.6, 0.0, 41.4, 0.0),
        ],
    ),
    (
        6,
        "m5p",
        "5.9",
        &[
            ("RSQRT", 74.8, 22.9, 1.4, 1.0),
            ("FTZ", 7.6, 51.0, 4.7, 36.7),
        ],
    ),
];

/// The thesis's table for an experiment (`exp1`..`exp6`) and method, if it published one.
pub fn table(experiment: &str, method: &str) -> Option<(&'static str, &'static [Row])> {
    let n: u8 = experiment.strip_prefix("exp")?.parse().ok()?;
    TABLES
        .iter()
        .find(|(e, m, _, _)| *e == n && *m == method)
        .map(|(_, _, t, rows)| (*t, *rows))
}

//! Guards the bit-exact behaviour of the Weka ports (IBk, M5P, LinearRegression) while their
//! speed changes: predictions on seeded synthetic data, with ties, missing values, a nominal
//! column and test rows outside the training ranges, are hashed bit for bit and compared with
//! the hashes the straightforward ports gave (the ones checked row for row against Weka 3.6.14's
//! own predictions in tests/it/models_weka.rs). A changed hash means a changed floating-point
//! result somewhere: a speed-up that is not an exact rewrite.

mod common;

use common::weka_cases;

#[test]
fn numeric_with_ties() {
    weka_cases::numeric_with_ties();
}

#[test]
fn missing_and_nominal() {
    weka_cases::missing_and_nominal();
}

#[test]
fn more_columns_than_rows() {
    weka_cases::more_columns_than_rows();
}

#[test]
fn deeper_trees_and_many_rows() {
    weka_cases::deeper_trees_and_many_rows();
}

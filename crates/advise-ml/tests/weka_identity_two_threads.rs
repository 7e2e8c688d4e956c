//! The prediction-identity cases of weka_identity.rs with the helper thread taking every job it is offered (`ADVISE_THREADS=2`: no start-up test), so that every parallel path runs whatever the machine: the same hashes.

mod common;

use common::weka_cases;

#[test]
fn same_predictions() {
    // Read once, when the helper thread first starts: before any model runs, in this
    // process's only test.
    std::env::set_var("ADVISE_THREADS", "2");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(advise_ml::helper_thread::threads(), cores.min(2));
    weka_cases::numeric_with_ties();
    weka_cases::missing_and_nominal();
    weka_cases::more_columns_than_rows();
    weka_cases::deeper_trees_and_many_rows();
}

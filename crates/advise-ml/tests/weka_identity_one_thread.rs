//! The prediction-identity cases of weka_identity.rs with every job on the calling thread (`ADVISE_THREADS=1`): the same hashes.

mod common;

use common::weka_cases;

#[test]
fn same_predictions() {
    // Read once, when the helper thread first starts: before any model runs, in this
    // process's only test.
    std::env::set_var("ADVISE_THREADS", "1");
    assert_eq!(advise_ml::helper_thread::threads(), 1);
    weka_cases::numeric_with_ties();
    weka_cases::missing_and_nominal();
    weka_cases::more_columns_than_rows();
    weka_cases::deeper_trees_and_many_rows();
}

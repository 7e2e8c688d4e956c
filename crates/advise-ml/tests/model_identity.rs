//! Guards advise's own tree models (forest, gbrt) while their speed changes: predictions on
//! seeded synthetic data, hashed bit for bit, must stay those of the unchanged builders.

mod common;

use advise_ml::synthetic::synthetic;
use advise_ml::{Data, Method};
use common::hash;

fn predictions(method: Method, train: &Data, test: &Data) -> Vec<f64> {
    let model = method.default_params().fit(train).expect("fit");
    model.predict(test).expect("predict")
}

#[test]
fn forest_and_gbrt_unchanged() {
    let train = synthetic(300, 40, 21);
    let test = synthetic(80, 40, 22);
    let got: Vec<String> = [Method::Forest, Method::Gbrt]
        .into_iter()
        .map(|m| format!("{m}: {:#018x}", hash(&predictions(m, &train, &test))))
        .collect();
    assert_eq!(
        got,
        ["forest: 0xa483704185da8e73", "gbrt: 0xb947a241ff3725ba"]
    );
}

//! Guards advise's own tree models (forest, gbrt) while their speed changes: predictions on
//! seeded synthetic data, hashed bit for bit, must stay those of the unchanged builders.

use advise_ml::synthetic::synthetic;
use advise_ml::{Data, Method};

fn hash(values: &[f64]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for b in v.to_bits().to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

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

//! The prediction-identity cases of the Weka ports (see weka_identity.rs): seeded synthetic
//! data with ties, missing values, a nominal column and test rows outside the training
//! ranges, and the hashes of the predictions the straightforward ports gave.

use advise_ml::synthetic::synthetic;
use advise_ml::weka::options::parse;
use advise_ml::{Data, Feature, Method};

use super::hash;

/// Train and test data of one shape; `holes` puts a missing value at every holes-th cell and
/// `nominal` turns column 4 into a 3-label nominal column.
fn case(
    train: usize,
    test: usize,
    cols: usize,
    seed: i64,
    holes: usize,
    nominal: bool,
) -> (Data, Data) {
    let mut all = synthetic(train + test, cols, seed);
    let mut cell = 0;
    for (i, row) in all.x.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            cell += 1;
            if holes > 0 && cell % holes == 0 {
                *v = f64::NAN;
            } else if i >= train && j % 7 == 3 {
                // Test values beyond the training range widen IBk's ranges.
                *v *= 1.5;
            } else if nominal && j == 4 {
                *v = (*v * 3.0).floor();
            }
        }
    }
    if nominal && cols > 4 {
        all.features[4] = Feature {
            name: all.features[4].name.clone(),
            values: Some(vec!["a".into(), "b".into(), "c".into()]),
        };
    }
    let test_data = Data {
        features: all.features.clone(),
        target: all.target.clone(),
        x: all.x.split_off(train),
        y: all.y.split_off(train),
    };
    (all, test_data)
}

fn predictions(method: Method, options: &str, train: &Data, test: &Data) -> Vec<f64> {
    let params = parse(method, options).expect("options");
    let model = params.fit(train).expect("fit");
    let mut p = model.predict(test).expect("predict");
    p.extend(model.predict(train).expect("predict train"));
    p
}

fn check(cases: &[(Method, &str, u64)], data: &(Data, Data)) {
    let mut wrong = Vec::new();
    for &(method, options, want) in cases {
        let got = hash(&predictions(method, options, &data.0, &data.1));
        if got != want {
            wrong.push(format!(
                "{method} `{options}`: {got:#018x} (want {want:#018x})"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "changed predictions:\n{}",
        wrong.join("\n")
    );
}

pub fn numeric_with_ties() {
    check(
        &[
            (Method::Ibk, "", 0x4e061ab592743572),
            (Method::Ibk, "-K 3 -I", 0xee2e9a17573d5343),
            (Method::Ibk, "-K 5 -X", 0x6bc46d8f3804f269),
            (Method::M5p, "", 0x327397031162729f),
            (Method::M5p, "-R", 0x20525817cc911799),
            (Method::M5p, "-N -U", 0x9cff06bba7feddba),
            (Method::Linear, "", 0x18d33b3f1bf871fc),
            (Method::Linear, "-S 1", 0x1ce8cf745f35c551),
        ],
        &case(160, 40, 40, 3, 0, false),
    );
}

pub fn missing_and_nominal() {
    check(
        &[
            (Method::Ibk, "", 0x560a7a8b5afbe186),
            (Method::Ibk, "-K 2 -F", 0x1abb107f0576e5ce),
            (Method::M5p, "", 0xe20198a6456e4dfb),
            (Method::Linear, "", 0x86d198487e8ec567),
            (Method::Linear, "-S 2", 0x86d198487e8ec567),
        ],
        &case(120, 30, 20, 7, 13, true),
    );
}

pub fn more_columns_than_rows() {
    check(
        &[
            (Method::Ibk, "", 0x3701a1df328e0568),
            (Method::M5p, "", 0x65cb791879bb79d1),
            (Method::Linear, "", 0x1fcb5bc8e58d55ed),
        ],
        &case(50, 20, 90, 11, 0, false),
    );
}

pub fn deeper_trees_and_many_rows() {
    check(
        &[
            (Method::Ibk, "", 0xbb641b5fb8c5fe6f),
            (Method::M5p, "", 0xa94db107bf84bb43),
            (Method::Linear, "", 0xddc380877fba9a9e),
        ],
        &case(500, 100, 120, 13, 0, false),
    );
}

//! A fitted model as a file: the learning layer's `FittedModel` written as JSON (`advise fit
//! -o model.json`) and read back with its format and version checked. NaN (a missing value
//! inside a model) is written as `null` and read back as NaN.

use advise_ml::{FittedModel, MODEL_FORMAT, MODEL_VERSION};

use crate::error::{Error, Result};

/// The model as one line of JSON.
pub fn write(model: &FittedModel) -> Result<String> {
    serde_json::to_string(model).map_err(|e| Error::Internal(format!("cannot write model: {e}")))
}

/// Reads a model written by [`write`](fn@write); `source` names it in errors.
pub fn read(text: &str, source: &str) -> Result<FittedModel> {
    // A byte-order mark some editors write first, as the advisor's reader passes over it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let probe: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::Data(format!("{source}: not JSON: {e}")))?;
    let format = probe.get("format").and_then(|f| f.as_str());
    if probe.get("optimizations").is_some() && format != Some(MODEL_FORMAT) {
        return Err(Error::Data(format!(
            "{source}: an advisor (from `advise train`), not a model: `advise suggest --model` \
             reads it; `advise predict --model` reads a model from `advise fit`"
        )));
    }
    if probe.get("format").and_then(|f| f.as_str()) != Some(MODEL_FORMAT) {
        return Err(Error::Data(format!(
            "{source}: not an advise model (no \"format\": \"{MODEL_FORMAT}\")"
        )));
    }
    let version = probe.get("version").and_then(|v| v.as_u64());
    if version != Some(MODEL_VERSION as u64) {
        return Err(Error::Data(format!(
            "{source}: model format version {}, this advise reads version {MODEL_VERSION} \
             (fit the model again with this advise)",
            probe
                .get("version")
                .map_or_else(|| "missing".to_string(), |v| v.to_string())
        )));
    }
    let model: FittedModel = crate::json_nan::from_value(probe).map_err(|e| {
        Error::Data(format!(
            "{source}: damaged model: its JSON is not what `advise fit` writes ({e}); fit it \
             again with `advise fit`"
        ))
    })?;
    model.check().map_err(|e| {
        Error::Data(format!(
            "{source}: damaged model: {e}; fit it again with `advise fit`"
        ))
    })?;
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use advise_ml::synthetic::synthetic;
    use advise_ml::Method;

    #[test]
    fn every_model_round_trips_through_json() {
        let data = synthetic(60, 6, 5);
        for &method in Method::ALL {
            let model = method.default_params().fit(&data).unwrap();
            let before = model.predict(&data).unwrap();
            let text = write(&model).unwrap();
            let back = read(&text, "test").unwrap();
            assert_eq!(back.method(), method);
            assert_eq!(back.predict(&data).unwrap(), before, "{method}");
            // A byte-order mark an editor wrote first is passed over.
            let bom = read(&format!("\u{feff}{text}"), "test").unwrap();
            assert_eq!(bom.predict(&data).unwrap(), before, "{method}");
        }
    }

    /// A hand-edited or damaged model whose state no fit makes is refused when read, not
    /// left to panic or loop in a prediction: a tree node that is its own child, a split on a
    /// column past the row's end, k = 0, a linear model of another width, fewer features
    /// than the filters cover.
    #[test]
    fn damaged_models_are_refused_when_read() {
        let data = synthetic(60, 6, 5);
        let damaged = |method: Method, edit: &dyn Fn(&mut serde_json::Value)| {
            let model = method.default_params().fit(&data).unwrap();
            let mut doc: serde_json::Value = serde_json::from_str(&write(&model).unwrap()).unwrap();
            edit(&mut doc["model"]["state"]);
            read(&doc.to_string(), "m.json")
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        let loop_ = |trees: &'static str| {
            move |s: &mut serde_json::Value| s[trees]["trees"][0]["nodes"][0]["left"] = 0.into()
        };
        let err = damaged(Method::Forest, &loop_("forest"));
        assert!(
            err.contains("damaged model: tree 0: node 0 has child 0"),
            "{err}"
        );
        let err = damaged(Method::Gbrt, &loop_("boosted"));
        assert!(
            err.contains("damaged model: tree 0: node 0 has child 0"),
            "{err}"
        );
        let err = damaged(Method::Gbrt, &|s| {
            s["boosted"]["trees"][0]["nodes"][0]["feature"] = 6.into()
        });
        assert!(err.contains("node 0 splits column 6 of 6"), "{err}");
        // Numbers no fit writes: a split at NaN (JSON null), a NaN leaf, a learning rate
        // outside (0, 1].
        let err = damaged(Method::Forest, &|s| {
            s["forest"]["trees"][0]["nodes"][0]["threshold"] = serde_json::Value::Null
        });
        assert!(err.contains("tree 0: node 0 splits at no number"), "{err}");
        let err = damaged(Method::Gbrt, &|s| {
            s["boosted"]["learning_rate"] = (-1e300).into()
        });
        assert!(err.contains("learning rate -1e300"), "{err}");
        // M5P on a step (two regimes, so its root splits): the split at null.
        let x: Vec<Vec<f64>> = (0..80).map(|i| vec![i as f64, (i % 7) as f64]).collect();
        let y: Vec<f64> = (0..80)
            .map(|i| if i < 40 { 1.0 } else { 100.0 } + (i % 3) as f64)
            .collect();
        let step = advise_ml::Data::numeric(&["a".into(), "b".into()], "y", x, y);
        let model = Method::M5p.default_params().fit(&step).unwrap();
        let mut doc: serde_json::Value = serde_json::from_str(&write(&model).unwrap()).unwrap();
        assert!(doc["model"]["state"]["root"]["split"].is_array(), "{doc}");
        doc["model"]["state"]["root"]["split"][1] = serde_json::Value::Null;
        let err = read(&doc.to_string(), "m.json")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains("a split on column 0 at NaN"), "{err}");
        let err = damaged(Method::Knn, &|s| s["neighbours"]["k"] = 0.into());
        assert!(err.contains("k is 0"), "{err}");
        let err = damaged(Method::Knn, &|s| {
            s["neighbours"]["points"].as_array_mut().unwrap().pop();
        });
        assert!(err.contains("points 6 wide"), "{err}");
        let err = damaged(Method::M5p, &|s| {
            s["root"]["model"]["coefficients"] = serde_json::json!([1.0])
        });
        assert!(err.contains("a linear model of 1 coefficients"), "{err}");
        let err = damaged(Method::Forest, &|s| {
            s["encoder"]["missing"]["fill"]
                .as_array_mut()
                .unwrap()
                .pop();
        });
        assert!(err.contains("its filters cover 5 and 6 columns"), "{err}");
        let err = damaged(Method::Ibk, &|s| {
            s["x"] = serde_json::json!([]);
            s["y"] = serde_json::json!([]);
        });
        assert!(
            err.contains("damaged model: it holds no training rows"),
            "{err}"
        );
        // Parameters of one method over another's state, and a version that is not a number.
        let model = Method::Ibk.default_params().fit(&data).unwrap();
        let mut doc: serde_json::Value = serde_json::from_str(&write(&model).unwrap()).unwrap();
        let other = Method::Knn.default_params().fit(&data).unwrap();
        let other: serde_json::Value = serde_json::from_str(&write(&other).unwrap()).unwrap();
        doc["model"] = other["model"].clone();
        let err = read(&doc.to_string(), "m.json").unwrap_err().to_string();
        assert!(
            err.contains("its parameters are those of ibk but its state is knn's"),
            "{err}"
        );
        doc["version"] = "two".into();
        let err = read(&doc.to_string(), "m.json").unwrap_err().to_string();
        assert!(
            err.contains("model format version \"two\", this advise"),
            "{err}"
        );
    }

    #[test]
    fn models_of_another_feature_count_are_refused_when_read() {
        let data = synthetic(60, 6, 5);
        for (method, want) in [
            (Method::Ibk, "6 nominal flags for the model's 7 features"),
            (Method::Linear, "not the model's 7 features"),
        ] {
            let model = method.default_params().fit(&data).unwrap();
            let mut doc: serde_json::Value = serde_json::from_str(&write(&model).unwrap()).unwrap();
            let features = doc["features"].as_array_mut().unwrap();
            let mut extra = features[0].clone();
            extra["name"] = "extra".into();
            features.push(extra);
            let err = read(&doc.to_string(), "m.json").unwrap_err().to_string();
            assert!(err.contains(want), "{method}: {err}");
        }
    }

    #[test]
    fn refuses_other_formats_and_versions() {
        let data = synthetic(30, 3, 5);
        let model = Method::Linear.default_params().fit(&data).unwrap();
        let text = write(&model)
            .unwrap()
            .replace(&format!("\"version\":{MODEL_VERSION}"), "\"version\":99");
        assert!(read(&text, "m.json")
            .unwrap_err()
            .to_string()
            .contains("version"));
        assert!(read("{}", "m.json")
            .unwrap_err()
            .to_string()
            .contains("not an advise model"));
    }
}

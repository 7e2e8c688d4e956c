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
            "{source}: model format version {version:?}, this advise reads version \
             {MODEL_VERSION} (fit the model again with this advise)"
        )));
    }
    let model: FittedModel = crate::json_nan::from_value(probe)
        .map_err(|e| Error::Data(format!("{source}: invalid model: {e}")))?;
    model
        .check()
        .map_err(|e| Error::Data(format!("{source}: damaged model: {e}")))?;
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
            let back = read(&write(&model).unwrap(), "test").unwrap();
            assert_eq!(back.method(), method);
            assert_eq!(back.predict(&data).unwrap(), before, "{method}");
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

//! Models that predict a numeric target (a speedup) from feature rows. They know only matrices
//! ([`Data`]), never a file format. Hyper-parameters are plain structs (`IbkParams`,
//! `M5pParams`, ...) that [`Learner::fit`] turns into a fitted model; [`FittedModel`] is the
//! JSON envelope that remembers the method, the parameters and the feature columns, and
//! refuses rows whose columns differ.
//!
//! `ibk`, `m5p` and `linear` reproduce Weka 3.6.14 to the last bits that matter (see each
//! module); `forest`, `gbrt` and `knn` are our own choices and take a seed for every random step.

pub mod cv;
pub mod data;
pub mod forest;
pub mod gbrt;
pub mod ibk;
pub mod knn;
pub mod linear;
pub mod m5p;
mod m5p_tree;
pub mod synthetic;
pub mod weka_filters;
pub mod weka_options;
pub mod weka_util;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use data::{Data, Feature};
pub use forest::ForestParams;
pub use gbrt::GbrtParams;
pub use ibk::IbkParams;
pub use knn::KnnParams;
pub use linear::LinearParams;
pub use m5p::M5pParams;

use crate::error::{Error, Result};

/// A fitted model: predicts one value per row.
pub trait Predictor {
    /// `x[row][feature]`, columns as in training, NaN for missing.
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>>;
}

/// Hyper-parameters that can be fitted to data.
pub trait Learner {
    type Model: Predictor;
    fn fit(&self, data: &Data) -> Result<Self::Model>;
}

/// The model families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    Ibk,
    M5p,
    Linear,
    Forest,
    Gbrt,
    Knn,
}

impl Method {
    pub const ALL: [Method; 6] = [
        Method::Ibk,
        Method::M5p,
        Method::Linear,
        Method::Forest,
        Method::Gbrt,
        Method::Knn,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Method::Ibk => "ibk",
            Method::M5p => "m5p",
            Method::Linear => "linear",
            Method::Forest => "forest",
            Method::Gbrt => "gbrt",
            Method::Knn => "knn",
        }
    }

    /// The Weka class this method reproduces, if any.
    pub fn weka_class(self) -> Option<&'static str> {
        match self {
            Method::Ibk => Some("weka.classifiers.lazy.IBk"),
            Method::M5p => Some("weka.classifiers.trees.M5P"),
            Method::Linear => Some("weka.classifiers.functions.LinearRegression"),
            _ => None,
        }
    }

    pub fn default_params(self) -> Params {
        match self {
            Method::Ibk => Params::Ibk(IbkParams::default()),
            Method::M5p => Params::M5p(M5pParams::default()),
            Method::Linear => Params::Linear(LinearParams::default()),
            Method::Forest => Params::Forest(ForestParams::default()),
            Method::Gbrt => Params::Gbrt(GbrtParams::default()),
            Method::Knn => Params::Knn(KnnParams::default()),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = Error;

    fn from_str(s: &str) -> Result<Method> {
        let lower = s.to_ascii_lowercase();
        Method::ALL
            .into_iter()
            .find(|m| m.name() == lower)
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "unknown method `{s}`: use one of ibk, m5p, linear, forest, gbrt, knn"
                ))
            })
    }
}

/// The hyper-parameters of any method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum Params {
    Ibk(IbkParams),
    M5p(M5pParams),
    Linear(LinearParams),
    Forest(ForestParams),
    Gbrt(GbrtParams),
    Knn(KnnParams),
}

impl Params {
    pub fn method(&self) -> Method {
        match self {
            Params::Ibk(_) => Method::Ibk,
            Params::M5p(_) => Method::M5p,
            Params::Linear(_) => Method::Linear,
            Params::Forest(_) => Method::Forest,
            Params::Gbrt(_) => Method::Gbrt,
            Params::Knn(_) => Method::Knn,
        }
    }

    /// Fits the model and wraps it with the columns it needs.
    pub fn fit(&self, data: &Data) -> Result<FittedModel> {
        let model = match self {
            Params::Ibk(p) => Fitted::Ibk(p.fit(data)?),
            Params::M5p(p) => Fitted::M5p(p.fit(data)?),
            Params::Linear(p) => Fitted::Linear(p.fit(data)?),
            Params::Forest(p) => Fitted::Forest(p.fit(data)?),
            Params::Gbrt(p) => Fitted::Gbrt(p.fit(data)?),
            Params::Knn(p) => Fitted::Knn(p.fit(data)?),
        };
        Ok(FittedModel {
            format: FORMAT.to_string(),
            version: VERSION,
            features: data.features.clone(),
            target: data.target.clone(),
            params: self.clone(),
            model,
        })
    }
}

/// Any fitted model.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", content = "state", rename_all = "lowercase")]
pub enum Fitted {
    Ibk(ibk::Ibk),
    M5p(m5p::M5p),
    Linear(linear::LinearRegression),
    Forest(forest::Forest),
    Gbrt(gbrt::Gbrt),
    Knn(knn::Knn),
}

impl Predictor for Fitted {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        match self {
            Fitted::Ibk(m) => m.predict(x),
            Fitted::M5p(m) => m.predict(x),
            Fitted::Linear(m) => m.predict(x),
            Fitted::Forest(m) => m.predict(x),
            Fitted::Gbrt(m) => m.predict(x),
            Fitted::Knn(m) => m.predict(x),
        }
    }
}

const FORMAT: &str = "advise-model";
/// Bumped whenever a saved model's JSON changes meaning.
pub const VERSION: u32 = 1;

/// A fitted model with what it needs to check its input; this is the JSON file format.
#[derive(Debug, Serialize, Deserialize)]
pub struct FittedModel {
    pub format: String,
    pub version: u32,
    pub features: Vec<Feature>,
    pub target: String,
    pub params: Params,
    pub model: Fitted,
}

impl FittedModel {
    pub fn method(&self) -> Method {
        self.params.method()
    }

    /// Predicts `data`, whose columns must be the training columns.
    pub fn predict(&self, data: &Data) -> Result<Vec<f64>> {
        if data.features != self.features {
            let want: Vec<&str> = self.features.iter().map(|f| f.name.as_str()).collect();
            let have: Vec<&str> = data.features.iter().map(|f| f.name.as_str()).collect();
            return Err(Error::Invalid(format!(
                "the model was fitted on columns [{}] but the input has [{}] \
                 (or different nominal labels)",
                want.join(", "),
                have.join(", ")
            )));
        }
        self.model.predict(&data.x)
    }

    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::Invalid(format!("cannot write model: {e}")))
    }

    /// Reads a model written by [`FittedModel::to_json`]; `source` names it in errors.
    pub fn from_json(text: &str, source: &str) -> Result<FittedModel> {
        let probe: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::Invalid(format!("{source}: not JSON: {e}")))?;
        if probe.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(Error::Invalid(format!(
                "{source}: not an advise model (no \"format\": \"{FORMAT}\")"
            )));
        }
        let version = probe.get("version").and_then(|v| v.as_u64());
        if version != Some(VERSION as u64) {
            return Err(Error::Invalid(format!(
                "{source}: model format version {version:?}, this advise reads version {VERSION}"
            )));
        }
        crate::json_nan::from_value(probe)
            .map_err(|e| Error::Invalid(format!("{source}: invalid model: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_round_trips_through_json() {
        let data = synthetic::synthetic(60, 6, 5);
        for method in Method::ALL {
            let model = method.default_params().fit(&data).unwrap();
            let before = model.predict(&data).unwrap();
            let back = FittedModel::from_json(&model.to_json().unwrap(), "test").unwrap();
            assert_eq!(back.method(), method);
            assert_eq!(back.predict(&data).unwrap(), before, "{method}");
        }
    }

    #[test]
    fn refuses_other_columns_and_versions() {
        let data = synthetic::synthetic(30, 3, 5);
        let model = Method::Linear.default_params().fit(&data).unwrap();
        let other = synthetic::synthetic(30, 4, 5);
        assert!(model.predict(&other).is_err());
        let text = model
            .to_json()
            .unwrap()
            .replace("\"version\":1", "\"version\":99");
        assert!(FittedModel::from_json(&text, "m.json")
            .unwrap_err()
            .to_string()
            .contains("version"));
    }
}

//! advise's learning layer: models that predict a numeric target (a speedup, a run time) from
//! rows of numbers, and the one classifier STATuner needs. It knows matrices only, never a file
//! format or a profiler: its sole dependencies are serde (to save a fitted model) and
//! thiserror. The rest of advise turns its tables into these matrices (`dataset::matrix`).
//!
//! Two input kinds:
//! - [`Data`]: `f64` rows with numeric or nominal columns and NaN for missing values, as Weka
//!   keeps them. `ibk`, `m5p` and `linear` reproduce Weka 3.6.14 (see [`weka`]); `forest`,
//!   `gbrt` and `knn` are our own and take a seed for every random step.
//! - [`Levels`]: configurations of a tuning space as parameter levels (`u16`), for the search
//!   strategies' surrogates ([`LevelSet`], [`LevelModel`]).
//!
//! One tree builder serves every tree ([`tree`]: exact splits over sorted `f64` columns,
//! histogram splits over levels), one forest ([`forest`]), one boosting ([`boosting`]), one
//! kNN ([`knn`]), one SVM core ([`svm`]), and one module of seeded generators ([`rng`]).

mod avx2;
pub mod boosting;
pub mod data;
pub mod error;
pub mod forest;
pub mod helper_thread;
pub mod knn;
pub mod levels;
pub mod linalg;
pub mod ridge;
pub mod rng;
pub mod svm;
pub mod synthetic;
pub mod tree;
mod tree_exact;
mod tree_histogram;
pub mod weka;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use boosting::{Gbrt, GbrtParams};
pub use data::{Data, Feature};
pub use error::{MlError, Result};
pub use forest::{Forest, ForestParams};
pub use knn::{Knn, KnnParams};
pub use levels::{LevelModel, LevelScale, LevelSet, Levels, Refit};
pub use linalg::Cholesky;
pub use ridge::{LevelCounts, OneHotRidge};
pub use rng::{JavaRandom, Rng, SplitMix64};
pub use weka::ibk::{Ibk, IbkParams};
pub use weka::linear::{LinearParams, LinearRegression};
pub use weka::m5p::{M5p, M5pParams};

/// Hyper-parameters that fit training data of kind `D` into a model (linfa's `Fit`).
pub trait Fit<D: ?Sized> {
    type Model;
    fn fit(&self, data: &D) -> Result<Self::Model>;
}

/// A fitted model that predicts one value per row of `R` (linfa's `Predict`).
pub trait Predict<R: ?Sized> {
    fn predict(&self, rows: &R) -> Result<Vec<f64>>;
}

/// A fitted model that predicts a single row of `T`s (the hot path of the search strategies
/// and of the trees inside ensembles).
pub trait PredictRow<T> {
    fn predict_row(&self, row: &[T]) -> f64;
}

/// Declares the models over [`Data`] once: the [`Method`] names, their hyper-parameters
/// ([`Params`]) and fitted models ([`Fitted`]). Adding a model is one line here.
macro_rules! table_models {
    ($( $variant:ident => $name:literal, $weka:expr, $params:ty, $model:ty; )*) => {
        /// The models over `f64` rows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Method { $($variant,)* }

        impl Method {
            /// Every method, in the order tables list them.
            pub const ALL: &'static [Method] = &[$(Method::$variant,)*];

            pub fn name(self) -> &'static str {
                match self { $(Method::$variant => $name,)* }
            }

            /// The Weka class this method reproduces, if any.
            pub fn weka_class(self) -> Option<&'static str> {
                match self { $(Method::$variant => $weka,)* }
            }

            pub fn default_params(self) -> Params {
                match self { $(Method::$variant => Params::$variant(<$params>::default()),)* }
            }
        }

        /// The hyper-parameters of any method.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "method", rename_all = "lowercase")]
        pub enum Params { $($variant($params),)* }

        impl Params {
            pub fn method(&self) -> Method {
                match self { $(Params::$variant(_) => Method::$variant,)* }
            }

            /// Fits the model and wraps it with the columns it needs.
            pub fn fit(&self, data: &Data) -> Result<FittedModel> {
                let model = match self { $(Params::$variant(p) => Fitted::$variant(p.fit(data)?),)* };
                Ok(FittedModel {
                    format: MODEL_FORMAT.to_string(),
                    version: MODEL_VERSION,
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
        pub enum Fitted { $($variant($model),)* }

        impl Fitted {
            /// The method whose state this is.
            pub fn method(&self) -> Method {
                match self { $(Fitted::$variant(_) => Method::$variant,)* }
            }
        }

        impl Predict<[Vec<f64>]> for Fitted {
            fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
                match self { $(Fitted::$variant(m) => m.predict(x),)* }
            }
        }
    };
}

table_models! {
    Ibk => "ibk", Some("weka.classifiers.lazy.IBk"), IbkParams, Ibk;
    M5p => "m5p", Some("weka.classifiers.trees.M5P"), M5pParams, M5p;
    Linear => "linear", Some("weka.classifiers.functions.LinearRegression"), LinearParams, LinearRegression;
    Forest => "forest", None, ForestParams, Forest;
    Gbrt => "gbrt", None, GbrtParams, Gbrt;
    Knn => "knn", None, KnnParams, Knn;
}

impl Method {
    /// The method names, for help texts and errors.
    pub fn names() -> Vec<&'static str> {
        Method::ALL.iter().map(|m| m.name()).collect()
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = MlError;

    fn from_str(s: &str) -> Result<Method> {
        let lower = s.to_ascii_lowercase();
        Method::ALL
            .iter()
            .copied()
            .find(|m| m.name() == lower)
            .ok_or_else(|| {
                MlError::Parameter(format!(
                    "unknown method `{s}`: use one of {}",
                    Method::names().join(", ")
                ))
            })
    }
}

/// The `format` field of a saved model.
pub const MODEL_FORMAT: &str = "advise-model";
/// Bumped whenever a saved model's layout changes meaning (2: one tree layout for gbrt and
/// forest, our own forest).
pub const MODEL_VERSION: u32 = 2;

/// A fitted model with what it needs to check its input; saved as JSON by the dataset layer.
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

    /// Why a model read from a file cannot be one `fit` made, where its state says so (a
    /// damaged or hand-edited file): counts that disagree, which a prediction would index
    /// past, or tree links that would lead it past the end or round a loop.
    pub fn check(&self) -> std::result::Result<(), String> {
        let width = self.features.len();
        let names = &self.features;
        if let Some(f) = (1..width).find(|&i| names[..i].iter().any(|g| g.name == names[i].name)) {
            return Err(format!("it names the feature {} twice", names[f].name));
        }
        if self.model.method() != self.params.method() {
            return Err(format!(
                "its parameters are those of {} but its state is {}'s",
                self.params.method(),
                self.model.method()
            ));
        }
        match &self.model {
            Fitted::Ibk(m) => m.check(width),
            Fitted::Linear(m) => m.check(width),
            Fitted::M5p(m) => m.check(width),
            Fitted::Forest(m) => m.check(width),
            Fitted::Gbrt(m) => m.check(width),
            Fitted::Knn(m) => m.check(width),
        }
    }

    /// Predicts `data`, whose columns must be the training columns.
    pub fn predict(&self, data: &Data) -> Result<Vec<f64>> {
        if data.features != self.features {
            let want: Vec<&str> = self.features.iter().map(|f| f.name.as_str()).collect();
            let have: Vec<&str> = data.features.iter().map(|f| f.name.as_str()).collect();
            return Err(MlError::Columns {
                want: want.join(", "),
                have: have.join(", "),
            });
        }
        self.model.predict(&data.x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_fits_and_refuses_other_columns() {
        let data = synthetic::synthetic(60, 6, 5);
        for &method in Method::ALL {
            let model = method.default_params().fit(&data).unwrap();
            let p = model.predict(&data).unwrap();
            assert_eq!(p.len(), 60, "{method}");
            assert!(p.iter().all(|v| v.is_finite()), "{method}");
            assert_eq!(method.name().parse::<Method>().unwrap(), method);
        }
        let model = Method::Linear.default_params().fit(&data).unwrap();
        let other = synthetic::synthetic(30, 4, 5);
        assert!(matches!(
            model.predict(&other),
            Err(MlError::Columns { .. })
        ));
        assert!("mlp".parse::<Method>().is_err());
    }
}

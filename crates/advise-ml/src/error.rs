//! The learning layer's errors. A model sees matrices only, so its errors speak of rows,
//! columns and hyper-parameters; the caller adds which file or dataset they came from.

/// Errors of fitting and predicting.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MlError {
    /// The training data cannot fit this model (too few rows, no usable column, a nominal
    /// target).
    #[error("{0}")]
    Data(String),

    /// A hyper-parameter or a Weka option is not valid.
    #[error("{0}")]
    Parameter(String),

    /// Rows to predict do not have the training columns.
    #[error(
        "the model was fitted on columns [{want}] but the input has [{have}] \
         (or different nominal labels)"
    )]
    Columns { want: String, have: String },
}

/// The learning layer's result type.
pub type Result<T, E = MlError> = std::result::Result<T, E>;

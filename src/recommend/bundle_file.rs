//! An advisor as a file: written as JSON (gzipped where the name ends in `.gz`) and read back
//! with its format, version and consistency checked, so that a damaged or hand-edited file is
//! refused by name rather than followed.

use std::path::Path;

use super::bundle::{Advisor, FORMAT, VERSION};
use crate::error::{Error, Result};

impl Advisor {
    /// Writes the advisor as JSON, gzipped when the path ends in `.gz`.
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self)
            .map_err(|e| Error::Internal(format!("cannot write advisor: {e}")))?;
        crate::profile::compressed::write_by_name(
            path,
            text.as_bytes(),
            flate2::Compression::best(),
        )
    }

    /// Reads an advisor written by `save`.
    pub fn load(path: &Path) -> Result<Advisor> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let text = crate::profile::text::read_text_expecting(
            path,
            file,
            "an advisor file (JSON from `advise train`)",
        )?;
        let probe: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| Error::parse(path, e.line(), format!("not an advisor file: {e}")))?;
        if probe.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(Error::format(
                path,
                format!(
                    "not an advisor (no \"format\": \"{FORMAT}\"); train one with `advise train`"
                ),
            ));
        }
        if probe.get("version").and_then(|v| v.as_u64()) != Some(VERSION as u64) {
            return Err(Error::format(
                path,
                format!("advisor format version is not {VERSION}; retrain it with this advise"),
            ));
        }
        let advisor: Advisor = crate::json_nan::from_value(probe).map_err(|e| {
            let e = e
                .to_string()
                .replacen("unknown variant", "unknown value", 1);
            Error::format(
                path,
                format!("invalid advisor: not what `advise train` writes ({e}); train it again"),
            )
        })?;
        if let Some(f) = (advisor.features.iter().enumerate())
            .find(|(i, f)| advisor.features[..*i].contains(f))
            .map(|(_, f)| f)
        {
            return Err(Error::format(
                path,
                format!("invalid advisor: it names the feature {f} twice (a damaged file)"),
            ));
        }
        for (i, o) in advisor.optimizations.iter().enumerate() {
            // One model per optimization, or per optimization and host link.
            if (advisor.optimizations[..i].iter())
                .any(|m| (&m.name, m.host_link) == (&o.name, o.host_link))
            {
                return Err(Error::format(
                    path,
                    format!("invalid advisor: it holds two models of {}", o.name),
                ));
            }
            if let Some(p) = o.problem(&advisor.features) {
                return Err(Error::format(
                    path,
                    format!("invalid advisor: the model of {} is damaged: {p}", o.name),
                ));
            }
        }
        if let Some(p) = advisor.calibration.problem() {
            return Err(Error::format(
                path,
                format!("invalid advisor: its calibration map is damaged: {p}"),
            ));
        }
        if advisor.optimizations.is_empty() {
            return Err(Error::format(
                path,
                "the advisor holds no optimization's model, so it has nothing to suggest; \
                 train one with `advise train`",
            ));
        }
        Ok(advisor)
    }
}

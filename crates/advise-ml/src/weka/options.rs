//! Weka's option letters for the methods that reproduce Weka classifiers, so a user can pass
//! exactly what they passed to Weka: IBk `-K -I -F -X -E -W`, M5P `-N -U -R -M`,
//! LinearRegression `-S -C -R`.

use super::ibk::Weighting;
use super::linear::Selection;
use crate::error::{MlError, Result};
use crate::{Method, Params};

/// Splits an option string like Weka's `Utils.splitOptions` (whitespace, `"` quotes).
pub fn split_options(text: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err(MlError::Parameter(format!(
            "unclosed quote in options `{text}`"
        )));
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}

struct Options {
    method: Method,
    items: Vec<String>,
}

impl Options {
    /// Removes `-L` and reports whether it was there.
    fn flag(&mut self, letter: char) -> bool {
        let key = format!("-{letter}");
        match self.items.iter().position(|o| *o == key) {
            Some(i) => {
                self.items.remove(i);
                true
            }
            None => false,
        }
    }

    /// Removes `-L VALUE` and returns VALUE.
    fn value(&mut self, letter: char) -> Result<Option<String>> {
        let key = format!("-{letter}");
        let Some(i) = self.items.iter().position(|o| *o == key) else {
            return Ok(None);
        };
        if i + 1 >= self.items.len() {
            return Err(MlError::Parameter(format!("option {key} needs a value")));
        }
        let v = self.items.remove(i + 1);
        self.items.remove(i);
        Ok(Some(v))
    }

    fn number<T: std::str::FromStr>(&mut self, letter: char) -> Result<Option<T>> {
        match self.value(letter)? {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                MlError::Parameter(format!("option -{letter}: `{v}` is not a valid number"))
            }),
        }
    }

    fn finish(self) -> Result<()> {
        if self.items.is_empty() {
            return Ok(());
        }
        let weka = self.method.weka_class().unwrap_or("this method");
        // An option the parse took once and finds again was given twice.
        let known = match self.method {
            Method::Ibk => "KWIFXE",
            Method::M5p => "NURM",
            Method::Linear => "SCR",
            _ => "",
        };
        if let Some(again) = self.items.iter().find(|o| {
            o.len() == 2 && o.starts_with('-') && o[1..].chars().all(|c| known.contains(c))
        }) {
            return Err(MlError::Parameter(format!(
                "option {again} given twice for {weka}: give it once"
            )));
        }
        Err(MlError::Parameter(format!(
            "options not understood for {}: {} (known: {})",
            weka,
            self.items.join(" "),
            match self.method {
                Method::Ibk => "-K n, -W n, -I, -F, -X, -E",
                Method::M5p => "-N, -U, -R, -M n",
                Method::Linear => "-S 0|1|2, -C, -R ridge",
                _ => "none",
            }
        )))
    }
}

/// The parameters Weka would use for `method` given `options` (its defaults otherwise).
pub fn parse(method: Method, options: &str) -> Result<Params> {
    let mut o = Options {
        method,
        items: split_options(options)?,
    };
    let params = match method.default_params() {
        Params::Ibk(mut p) => {
            if let Some(k) = o.number::<usize>('K')? {
                p.k = k;
            }
            if let Some(w) = o.number::<usize>('W')? {
                p.window = w;
            }
            let inverse = o.flag('I');
            let similarity = o.flag('F');
            p.weighting = if inverse {
                Weighting::Inverse
            } else if similarity {
                Weighting::Similarity
            } else {
                Weighting::None
            };
            p.cross_validate = o.flag('X');
            p.mean_squared = o.flag('E');
            if p.k == 0 {
                return Err(MlError::Parameter("option -K: k must be at least 1".into()));
            }
            Params::Ibk(p)
        }
        Params::M5p(mut p) => {
            p.unpruned = o.flag('N');
            p.unsmoothed = o.flag('U');
            p.regression_tree = o.flag('R');
            if let Some(m) = o.number::<f64>('M')? {
                p.min_instances = m;
            }
            o.flag('L');
            Params::M5p(p)
        }
        Params::Linear(mut p) => {
            if let Some(s) = o.number::<u32>('S')? {
                p.selection = match s {
                    0 => Selection::M5,
                    1 => Selection::None,
                    2 => Selection::Greedy,
                    _ => {
                        return Err(MlError::Parameter(
                            "option -S: 0 (M5), 1 (none) or 2 (greedy)".into(),
                        ))
                    }
                };
            }
            p.eliminate_colinear = !o.flag('C');
            if let Some(r) = o.number::<f64>('R')? {
                // Weka retries a singular system with the ridge ten times larger, which
                // never ends from zero (Weka then loops forever).
                if !(r > 0.0 && r.is_finite()) {
                    return Err(MlError::Parameter(format!(
                        "option -R: the ridge must be a positive number, not {r}"
                    )));
                }
                p.ridge = r;
            }
            o.flag('D');
            Params::Linear(p)
        }
        other => other,
    };
    o.finish()?;
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IbkParams;

    #[test]
    fn parses_ibk_options() {
        let p = parse(Method::Ibk, "-K 3 -I").unwrap();
        assert_eq!(
            p,
            Params::Ibk(IbkParams {
                k: 3,
                weighting: Weighting::Inverse,
                ..IbkParams::default()
            })
        );
        assert!(parse(Method::Ibk, "-Q").is_err());
        assert!(parse(Method::M5p, "-M").is_err());
        assert!(parse(Method::Forest, "-K 2").is_err());
        let err = parse(Method::Ibk, "-K 3 -K 5").unwrap_err().to_string();
        assert!(err.contains("option -K given twice"), "{err}");
        let err = parse(Method::M5p, "-U -U").unwrap_err().to_string();
        assert!(err.contains("option -U given twice"), "{err}");
    }

    #[test]
    fn rejects_a_ridge_weka_would_loop_on() {
        for bad in ["-R 0", "-R -1", "-R NaN"] {
            let err = parse(Method::Linear, bad).unwrap_err().to_string();
            assert!(err.contains("option -R"), "{bad}: {err}");
        }
        assert!(parse(Method::Linear, "-R 1e-6").is_ok());
    }

    #[test]
    fn splits_quotes() {
        assert_eq!(
            split_options(r#" -A "x y"  -K 2"#).unwrap(),
            vec!["-A", "x y", "-K", "2"]
        );
    }
}

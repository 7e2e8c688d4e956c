//! Weka's ARFF format: `@relation`, `@attribute NAME numeric|real|integer|{v1,v2,...}`, `@data`,
//! then one instance per line (dense, or sparse `{index value, ...}`). `%` starts a comment,
//! names and values may be quoted with `'` or `"`, and `?` is a missing value.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::instances::{AttrKind, Attribute, Instances};
use crate::error::{Error, Result};

/// Reads an ARFF table; the class is the last attribute.
pub fn read(path: &Path, reader: impl Read) -> Result<Instances> {
    let mut relation = String::new();
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut in_data = false;
    // A line past the CSV readers' bound is refused here too, before it is held whole.
    let reader = crate::dataset::table::LineCap::new(reader);
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let lineno = i + 1;
        let line = line.map_err(|e| Error::parse(path, lineno, e.to_string()))?;
        // A byte-order mark some editors write first, as the CSV reader passes over it.
        let line = if lineno == 1 {
            line.strip_prefix('\u{feff}').unwrap_or(&line).to_string()
        } else {
            line
        };
        let text = strip_comment(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if !in_data {
            let lower = text.to_ascii_lowercase();
            if lower.starts_with("@relation") {
                let rest = text["@relation".len()..].trim();
                relation = tokens(rest, |c| c.is_whitespace())
                    .map_err(|m| Error::parse(path, lineno, m))?
                    .into_iter()
                    .next()
                    .unwrap_or_default();
            } else if lower.starts_with("@attribute") {
                let att = parse_attribute(text["@attribute".len()..].trim())
                    .map_err(|m| Error::parse(path, lineno, m))?;
                // Weka refuses a table whose attribute names repeat ("Attribute names are not
                // unique"); a model fitted on one would mix two columns under one name.
                if attributes.iter().any(|a| a.name == att.name) {
                    return Err(Error::parse(
                        path,
                        lineno,
                        format!("attribute `{}` is declared twice", att.name),
                    ));
                }
                attributes.push(att);
            } else if lower.starts_with("@data") {
                if attributes.is_empty() {
                    return Err(Error::parse(path, lineno, "@data before any @attribute"));
                }
                in_data = true;
            } else {
                return Err(Error::parse(
                    path,
                    lineno,
                    format!("expected @relation, @attribute or @data, found `{text}`"),
                ));
            }
            continue;
        }
        // A declaration among the rows (a second @data, an @attribute after the data): ARFF
        // has one header, then the data.
        if text.starts_with('@') {
            let word = text.split_whitespace().next().unwrap_or(text);
            return Err(Error::parse(
                path,
                lineno,
                format!(
                    "`{word}` inside the data: an ARFF file declares its attributes, then one \
                     @data section of rows"
                ),
            ));
        }
        let row = parse_row(text, &attributes).map_err(|m| Error::parse(path, lineno, m))?;
        rows.push(row);
        lines.push(lineno);
    }
    if !in_data {
        return Err(Error::format(path, "not an ARFF file: no @data section"));
    }
    let class_index = attributes.len() - 1;
    Ok(Instances {
        relation,
        attributes,
        rows,
        lines,
        class_index,
    })
}

/// Cuts a `%` comment that is not inside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '%') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Splits `text` at separators outside quotes, unquoting and trimming each token.
fn tokens(text: &str, is_sep: impl Fn(char) -> bool) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut after_separator = false;
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&first) = chars.peek() else {
            // `1,2,`: the separator at the end leaves an empty value, as in a CSV row.
            if after_separator {
                out.push(String::new());
            }
            break;
        };
        let mut tok = String::new();
        if first == '\'' || first == '"' {
            chars.next();
            let mut closed = false;
            while let Some(c) = chars.next() {
                if c == '\\' {
                    if let Some(n) = chars.next() {
                        tok.push(n);
                    }
                } else if c == first {
                    closed = true;
                    break;
                } else {
                    tok.push(c);
                }
            }
            if !closed {
                return Err(format!("unclosed quote {first} in `{text}`"));
            }
            while chars
                .peek()
                .is_some_and(|c| c.is_whitespace() && !is_sep(*c))
            {
                chars.next();
            }
        } else {
            while let Some(&c) = chars.peek() {
                if is_sep(c) {
                    break;
                }
                tok.push(c);
                chars.next();
            }
            tok = tok.trim().to_string();
        }
        out.push(tok);
        match chars.peek() {
            Some(&c) if is_sep(c) => {
                chars.next();
                after_separator = true;
            }
            Some(&c) => return Err(format!("unexpected `{c}` after a quoted value in `{text}`")),
            None => break,
        }
    }
    Ok(out)
}

fn parse_attribute(rest: &str) -> Result<Attribute, String> {
    let (name, ty) = if rest.starts_with('\'') || rest.starts_with('"') {
        let q = rest.chars().next().unwrap_or('\'');
        let mut end = None;
        let mut escaped = false;
        for (i, c) in rest.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                end = Some(i);
                break;
            }
        }
        let end = end.ok_or_else(|| format!("unclosed quote in attribute name `{rest}`"))?;
        (rest[1..end].replace("\\", ""), rest[end + 1..].trim())
    } else {
        let split = rest
            .find(|c: char| c.is_whitespace() || c == '{')
            .ok_or_else(|| format!("attribute `{rest}` has no type"))?;
        (rest[..split].to_string(), rest[split..].trim())
    };
    let lower = ty.to_ascii_lowercase();
    let kind = if ["numeric", "real", "integer"].contains(&lower.as_str()) {
        AttrKind::Numeric
    } else if let Some(inner) = ty
        .strip_prefix('{')
        .and_then(|t| t.trim_end().strip_suffix('}'))
    {
        let values = tokens(inner, |c| c == ',')?;
        if values.iter().any(String::is_empty) {
            return Err(format!(
                "attribute `{name}` lists an empty value in `{ty}` (a comma too many?)"
            ));
        }
        AttrKind::Nominal(values)
    } else {
        return Err(format!(
            "attribute `{name}` has type `{ty}`; the types read are numeric (`numeric`, `real`, \
             `integer`) and nominal, written as its values in braces (`{{a,b,c}}`)"
        ));
    };
    Ok(Attribute { name, kind })
}

fn parse_value(tok: &str, att: &Attribute) -> Result<Option<f64>, String> {
    if tok == "?" {
        return Ok(None);
    }
    match &att.kind {
        AttrKind::Numeric => match tok.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Some(x)),
            Ok(_) => Err(format!(
                "`{tok}` is not a finite number (attribute `{}`; `?` marks a missing value)",
                att.name
            )),
            Err(_) => Err(format!(
                "`{tok}` is not a number (attribute `{}`)",
                att.name
            )),
        },
        AttrKind::Nominal(values) => values
            .iter()
            .position(|v| v == tok)
            .map(|i| Some(i as f64))
            .ok_or_else(|| {
                format!(
                    "`{tok}` is not a declared value of attribute `{}`",
                    att.name
                )
            }),
    }
}

fn parse_row(text: &str, attributes: &[Attribute]) -> Result<Vec<Option<f64>>, String> {
    if let Some(inner) = text.strip_prefix('{') {
        let inner = inner
            .trim_end()
            .strip_suffix('}')
            .ok_or("sparse instance without closing `}`")?;
        // Sparse rows: unlisted numeric values are 0, unlisted nominal values the first label.
        let mut row = vec![Some(0.0); attributes.len()];
        let mut last: Option<usize> = None;
        for pair in tokens(inner, |c| c == ',')? {
            let (idx, val) = pair
                .split_once(char::is_whitespace)
                .ok_or_else(|| format!("sparse entry `{pair}` is not `index value`"))?;
            let idx: usize = idx
                .parse()
                .ok()
                .filter(|&i| i < attributes.len())
                .ok_or_else(|| format!("bad sparse index `{idx}`"))?;
            // Weka's loader wants the indices in increasing order; one given twice would
            // otherwise keep its last value unseen.
            if let Some(before) = last.filter(|&b| b >= idx) {
                return Err(format!(
                    "sparse index {idx} after {before}: the indices of a row must increase"
                ));
            }
            last = Some(idx);
            let val = tokens(val, |c| c == ',')?.pop().unwrap_or_default();
            row[idx] = parse_value(&val, &attributes[idx])?;
        }
        return Ok(row);
    }
    let toks = tokens(text, |c| c == ',')?;
    if toks.len() != attributes.len() {
        let hint =
            if toks.len() == attributes.len() + 1 && toks.last().is_some_and(|t| t.is_empty()) {
                " (a comma at the end of the row?)"
            } else {
                ""
            };
        return Err(format!(
            "row has {} values, {} attributes are declared{hint}",
            toks.len(),
            attributes.len()
        ));
    }
    toks.iter()
        .zip(attributes)
        .map(|(t, a)| parse_value(t, a))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_quotes_missing_and_comments() {
        let text = "% comment\n@relation 'r x'\n@attribute 'a b' numeric\n\
                    @attribute c {'x y', z}\n@ATTRIBUTE d REAL\n@data\n\
                    1.5,'x y',?  % trailing\n?,z,2\n{0 3, 1 z}\n";
        let t = read(Path::new("t.arff"), text.as_bytes()).unwrap();
        assert_eq!(t.relation, "r x");
        assert_eq!(t.attributes[0].name, "a b");
        assert_eq!(
            t.attributes[1].kind,
            AttrKind::Nominal(vec!["x y".into(), "z".into()])
        );
        assert_eq!(t.rows[0], vec![Some(1.5), Some(0.0), None]);
        assert_eq!(t.rows[1], vec![None, Some(1.0), Some(2.0)]);
        assert_eq!(t.rows[2], vec![Some(3.0), Some(1.0), Some(0.0)]);
        assert_eq!(t.lines, vec![7, 8, 9]);
        // A declaration among the rows is named as one.
        let late = "@relation r\n@attribute a numeric\n@data\n1\n@attribute b numeric\n";
        let e = read(Path::new("t.arff"), late.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.arff:5: `@attribute` inside the data"), "{e}");
        // A byte-order mark before the first line is passed over.
        let bom = format!("\u{feff}{text}");
        assert_eq!(
            read(Path::new("t.arff"), bom.as_bytes()).unwrap().rows,
            t.rows
        );
    }

    #[test]
    fn errors_name_the_line() {
        let text = "@relation r\n@attribute a numeric\n@data\n1\nx\n";
        let e = read(Path::new("t.arff"), text.as_bytes()).unwrap_err();
        assert!(e.to_string().starts_with("t.arff:5:"), "{e}");
        let text = "@relation r\n@attribute a numeric\n@attribute a numeric\n@data\n1,2\n";
        let e = read(Path::new("t.arff"), text.as_bytes()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("t.arff:3: attribute `a` is declared twice"),
            "{e}"
        );
        let text = "@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{0 1,0 2}\n";
        let e = read(Path::new("t.arff"), text.as_bytes()).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "t.arff:5: sparse index 0 after 0: the indices of a row must increase"
            ),
            "{e}"
        );
        let text = "@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{1 1,0 2}\n";
        assert!(read(Path::new("t.arff"), text.as_bytes()).is_err());
    }

    /// A comma at the end of a row leaves an empty value, as in a CSV row (it was dropped),
    /// and one at the end of a nominal list an empty label.
    #[test]
    fn a_comma_at_the_end_is_an_empty_value() {
        let text = "@relation r\n@attribute a numeric\n@attribute y numeric\n@data\n1,2,\n";
        let e = read(Path::new("t.arff"), text.as_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.arff:5: row has 3 values, 2 attributes are declared (a comma at the end of the row?)"
        );
        let text = "@relation r\n@attribute a {x,y,}\n@data\nx\n";
        let e = read(Path::new("t.arff"), text.as_bytes()).unwrap_err();
        assert!(
            e.to_string().contains("lists an empty value in `{x,y,}`"),
            "{e}"
        );
        assert_eq!(tokens("1, 2", |c| c == ',').unwrap(), ["1", "2"]);
        assert_eq!(tokens("1,,2", |c| c == ',').unwrap(), ["1", "", "2"]);
        assert_eq!(tokens("'a',", |c| c == ',').unwrap(), ["a", ""]);
        assert!(tokens("", |c| c == ',').unwrap().is_empty());
    }

    #[test]
    fn a_line_longer_than_any_row_is_refused() {
        let long = "1,".repeat(crate::dataset::table::LONGEST_LINE / 2 + 1);
        let text = format!("@relation r\n@attribute a numeric\n@data\n{long}\n");
        let e = read(Path::new("t.arff"), text.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("a line longer than 16 MiB"), "{e}");
    }
}

//! Plain aligned text tables for the terminal.
//!
//! Our tables are simple (a header, left-aligned text, right-aligned
//! numbers), and 60 lines here keep the output byte-stable for snapshot tests without another
//! dependency to build on a 2-core machine.

use std::sync::atomic::{AtomicUsize, Ordering};

pub use crate::number_format::fmt_sig;

/// The terminal's width in columns (0: no limit). Set once by the binary when standard output
/// is a terminal; files and pipes get whole tables.
static MAX_WIDTH: AtomicUsize = AtomicUsize::new(0);

/// Limits rendered tables to `columns` (`None`: no limit).
pub fn set_max_width(columns: Option<usize>) {
    MAX_WIDTH.store(columns.unwrap_or(0), Ordering::Relaxed);
}

/// The narrowest a text column is cut to when a table is too wide.
const MIN_TEXT_WIDTH: usize = 12;

/// Narrows the widest text columns (never numbers) until the table fits in `max` columns, or
/// every text column is at `MIN_TEXT_WIDTH`.
fn fit(widths: &mut [usize], numeric: &[bool], max: usize) {
    let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
    while total(widths) > max {
        let Some(i) = (0..widths.len())
            .filter(|&i| !numeric[i] && widths[i] > MIN_TEXT_WIDTH)
            .max_by_key(|&i| widths[i])
        else {
            return;
        };
        let excess = total(widths) - max;
        widths[i] = (widths[i] - excess).max(MIN_TEXT_WIDTH);
    }
}

/// `c` cut to `width` characters, the last one an ellipsis when something was cut.
fn clip(c: &str, width: usize) -> String {
    if c.chars().count() <= width {
        return c.to_string();
    }
    let mut out: String = c.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A text table: a header and rows of cells.
#[derive(Debug, Clone, Default)]
pub struct TextTable {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl TextTable {
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Self {
        TextTable {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    pub fn push<S: Into<String>>(&mut self, row: impl IntoIterator<Item = S>) {
        self.rows.push(row.into_iter().map(Into::into).collect());
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The number of rows (the header not counted).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Renders the table; numeric cells are right-aligned, others left-aligned; text columns
    /// are cut (with an ellipsis) where the table would not fit the terminal.
    pub fn render(&self) -> String {
        self.render_within(MAX_WIDTH.load(Ordering::Relaxed))
    }

    /// Renders the table within `max` columns (0: no limit).
    pub fn render_within(&self, max: usize) -> String {
        let ncols = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
        let mut widths = vec![0usize; ncols];
        for row in self.rows.iter().chain([&self.header]) {
            for (i, c) in row.iter().enumerate() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
        if max > 0 {
            let numeric: Vec<bool> = (0..ncols)
                .map(|i| {
                    self.rows
                        .iter()
                        .all(|r| r.get(i).is_none_or(|c| c.is_empty() || is_numeric(c)))
                })
                .collect();
            fit(&mut widths, &numeric, max);
        }
        // A column of bit strings (`000101`) is a column of labels: its `100000` is one too.
        let labels: Vec<bool> = (0..ncols)
            .map(|i| {
                self.rows
                    .iter()
                    .any(|r| r.get(i).is_some_and(|c| is_digit_label(c)))
            })
            .collect();
        let mut out = String::new();
        let line = |out: &mut String, row: &[String]| {
            let cells: Vec<String> = (0..ncols)
                .map(|i| {
                    let c = clip(row.get(i).map(String::as_str).unwrap_or(""), widths[i]);
                    let c = c.as_str();
                    let pad = widths[i] - c.chars().count();
                    if is_numeric(c) && !labels[i] {
                        format!("{}{}", " ".repeat(pad), c)
                    } else {
                        format!("{}{}", c, " ".repeat(pad))
                    }
                })
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        };
        line(&mut out, &self.header);
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push_str(&rule.join("  "));
        out.push('\n');
        for row in &self.rows {
            line(&mut out, row);
        }
        out
    }
}

impl TextTable {
    /// The table in Markdown (pipes in cells escaped).
    pub fn to_markdown(&self) -> String {
        let esc = |c: &String| c.replace('|', "\\|");
        let mut out = format!(
            "| {} |\n|{}\n",
            self.header.iter().map(esc).collect::<Vec<_>>().join(" | "),
            "---|".repeat(self.header.len())
        );
        for row in &self.rows {
            out.push_str(&format!(
                "| {} |\n",
                row.iter().map(esc).collect::<Vec<_>>().join(" | ")
            ));
        }
        out
    }

    /// The table as CSV (RFC 4180): a cell holding a comma, a quote or a line break is
    /// quoted, its quotes doubled; cells are written as shown, never cut.
    pub fn to_csv(&self) -> String {
        let cell = |c: &String| {
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            out.push_str(&row.iter().map(cell).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }

    /// The table as an HTML `<table>` (cells escaped).
    pub fn to_html(&self) -> String {
        let mut out = String::from("<table>\n<thead><tr>");
        for h in &self.header {
            out.push_str(&format!("<th>{}</th>", html_escape(h)));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for c in row {
                let class = if is_numeric(c) { " class=\"num\"" } else { "" };
                out.push_str(&format!("<td{class}>{}</td>", html_escape(c)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table>\n");
        out
    }
}

/// Escapes text for HTML.
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Numbers are right-aligned; bit strings such as `000101` are labels, not numbers.
fn is_numeric(s: &str) -> bool {
    !s.is_empty() && !is_digit_label(s) && s.trim_end_matches(['%', 'x']).parse::<f64>().is_ok()
}

/// Digits with a leading zero (`000101`, `007`): a label such as a variant's bit string.
fn is_digit_label(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0') && s.as_bytes()[1].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_tables_cut_their_widest_text_column() {
        let mut t = TextTable::new(["#", "name", "what it is"]);
        t.push([
            "1",
            "SHMEM",
            "Load data that a block reuses into shared memory once",
        ]);
        let full = t.render_within(0);
        assert!(full.lines().any(|l| l.ends_with("memory once")));
        let narrow = t.render_within(40);
        assert!(narrow.lines().all(|l| l.chars().count() <= 40), "{narrow}");
        assert!(narrow.contains("Load data that a b") && narrow.contains('…'));
        // Numbers are never cut.
        assert!(narrow.lines().nth(2).unwrap().starts_with("1  SHMEM"));
    }

    #[test]
    fn aligns_text_left_and_numbers_right() {
        let mut t = TextTable::new(["name", "value"]);
        t.push(["a", "1.5"]);
        t.push(["long name", "10"]);
        assert_eq!(
            t.render(),
            "name       value\n---------  -----\na            1.5\nlong name     10\n"
        );
    }

    #[test]
    fn a_column_of_bit_strings_is_left_aligned_throughout() {
        let mut t = TextTable::new(["variant", "n"]);
        t.push(["011111", "1"]);
        t.push(["100000", "10"]);
        assert_eq!(
            t.render(),
            "variant  n\n-------  --\n011111    1\n100000   10\n"
        );
    }

    #[test]
    fn csv_quotes_only_cells_that_need_it() {
        let mut t = TextTable::new(["name", "note"]);
        t.push(["a", "plain"]);
        t.push(["b,c", "say \"hi\"\nthere"]);
        assert_eq!(
            t.to_csv(),
            "name,note\na,plain\n\"b,c\",\"say \"\"hi\"\"\nthere\"\n"
        );
    }

    #[test]
    fn significant_digits() {
        assert_eq!(fmt_sig(1234.5678, 4), "1235");
        assert_eq!(fmt_sig(0.012345, 3), "0.0123");
        assert_eq!(fmt_sig(1.5e15, 3), "1.50e15");
    }
}

//! Reading profiler output as numbered lines and splitting CSV lines.
//!
//! Profilers write their table into the same stream as the program's own output and their
//! `==PROF==`/`==1234==` notices, so the readers work line by line: they find the table's header,
//! skip notice lines anywhere, and split each row themselves. A hand-written splitter keeps the
//! 1-based line number of every row, which error messages need, and accepts the shapes real ncu
//! versions write (a trailing comma on some rows, fields left out at the end).

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// One line of a file, with its 1-based number.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    pub number: usize,
    pub text: &'a str,
}

/// The 1-based line that byte `offset` of `bytes` lies on (the line after the last where
/// `offset` is past the end).
pub fn line_at(bytes: &[u8], offset: usize) -> usize {
    let end = offset.min(bytes.len());
    bytes[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Reads a whole profiler file into a string: gzip and bzip2 files are unpacked
/// ([`super::compressed`]), a leading UTF-8 byte-order mark is dropped, and binary content is
/// refused with a clear error.
pub fn read_text(path: &Path, reader: impl Read) -> Result<String> {
    read_text_expecting(
        path,
        reader,
        "profiler text output such as `ncu --csv`; for a .ncu-rep report run \
         `ncu --import FILE --csv --page raw` first",
    )
}

/// [`read_text`] for other text files: `expected` says what the file should have been where it
/// holds binary content (`"a Kernel Tuner cache (JSON)"`).
pub fn read_text_expecting(path: &Path, mut reader: impl Read, expected: &str) -> Result<String> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    bytes = super::compressed::unpacked(path, bytes)?;
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        let line = line_at(&bytes, nul);
        return Err(Error::parse(
            path,
            line,
            format!("binary content (NUL bytes): expected {expected}"),
        ));
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(s)),
        Err(e) => {
            let line = line_at(e.as_bytes(), e.utf8_error().valid_up_to());
            Err(Error::parse(path, line, "invalid UTF-8: not a text file"))
        }
    }
}

/// The file's lines with their numbers, line endings (`\n` or `\r\n`) removed.
pub fn lines(text: &str) -> Vec<Line<'_>> {
    text.lines()
        .enumerate()
        .map(|(i, l)| Line {
            number: i + 1,
            text: l.strip_suffix('\r').unwrap_or(l),
        })
        .collect()
}

/// Whether a line is a profiler notice (`==PROF== ...`, `==12345== ...`, `==WARNING== ...`).
pub fn is_notice(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("==") && t[2..].contains("==")
}

/// Splits one CSV line into fields. Fields may be quoted with `"`; a doubled quote inside a
/// quoted field is a literal quote. Returns an error message for an unterminated quote or text
/// after a closing quote.
pub fn split_csv(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut field = String::new();
        // Leading spaces before a quote are tolerated (some tools pad).
        while chars.peek() == Some(&' ') {
            field.push(' ');
            chars.next();
        }
        if chars.peek() == Some(&'"') {
            field.clear();
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => return Err("unterminated quoted field (file cut off?)".into()),
                }
            }
            while chars.peek() == Some(&' ') {
                chars.next();
            }
            match chars.next() {
                None => {
                    fields.push(field);
                    return Ok(fields);
                }
                Some(',') => fields.push(field),
                Some(c) => {
                    return Err(format!("unexpected `{c}` after a closing quote"));
                }
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        fields.push(field);
                        return Ok(fields);
                    }
                    Some(',') => {
                        fields.push(field);
                        break;
                    }
                    Some(c) => field.push(c),
                }
            }
        }
    }
}

/// A table header found in a file: its line index (into `lines`) and its column names.
#[derive(Debug, Clone)]
pub struct Header {
    pub index: usize,
    pub columns: Vec<String>,
}

impl Header {
    /// The position of a column, by exact name.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
}

/// Finds the first line that splits into CSV fields whose leading columns are `first` (in
/// order). Lines that are not valid CSV are passed over: they are the program's own output.
pub fn find_header(lines: &[Line<'_>], first: &[&str]) -> Option<Header> {
    lines.iter().enumerate().find_map(|(index, line)| {
        if !line.text.contains(first[0]) {
            return None;
        }
        let columns = split_csv(line.text).ok()?;
        let starts =
            columns.len() >= first.len() && columns.iter().zip(first).all(|(c, f)| c.trim() == *f);
        starts.then_some(Header { index, columns })
    })
}

/// A line that holds a profiler header's words but separated by something other than commas:
/// its number and a name for the separator.
pub fn misdelimited_header(lines: &[Line<'_>]) -> Option<(usize, &'static str)> {
    lines.iter().find_map(|l| {
        let t = l.text;
        let ncu = t.contains("ID") && t.contains("Process ID") && t.contains("Kernel Name");
        let nvprof = t.contains("Device") && t.contains("Kernel") && t.contains("Invocations");
        if !(ncu || nvprof) {
            return None;
        }
        [(';', "semicolons"), ('\t', "tabs"), ('|', "bars")]
            .into_iter()
            .find(|(c, _)| t.contains(*c))
            .map(|(_, name)| (l.number, name))
    })
}

/// One CSV record of a table body: its first line's number and its fields.
#[derive(Debug, Clone)]
pub struct Record {
    pub line: usize,
    pub fields: Vec<String>,
}

/// The CSV records after line index `header`: notice lines and blank lines are skipped, and a
/// quoted field that runs over a line end (a rule description with a newline) is joined with the
/// following lines. An unterminated quote at the end of the file is an error at its first line.
pub fn records(path: &Path, lines: &[Line<'_>], header: usize) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    let mut i = header + 1;
    while i < lines.len() {
        let line = &lines[i];
        i += 1;
        if line.text.trim().is_empty() || is_notice(line.text) {
            continue;
        }
        let mut joined = line.text.to_string();
        loop {
            match split_csv(&joined) {
                Ok(fields) => {
                    out.push(Record {
                        line: line.number,
                        fields,
                    });
                    break;
                }
                Err(msg) if msg.starts_with("unterminated") && i < lines.len() => {
                    joined.push('\n');
                    joined.push_str(lines[i].text);
                    i += 1;
                }
                Err(msg) => return Err(Error::parse(path, line.number, msg)),
            }
        }
    }
    Ok(out)
}

/// Splits a wide table's records into its units row (the first record, when `is_units` says
/// so; padded to `width`) and the data rows.
pub fn split_units_row(
    mut rows: Vec<Record>,
    width: usize,
    is_units: impl Fn(&Record) -> bool,
) -> (Vec<String>, Vec<Record>) {
    let mut units = vec![String::new(); width];
    if rows.first().is_some_and(&is_units) {
        let first = rows.remove(0);
        for (u, f) in units.iter_mut().zip(first.fields) {
            *u = f;
        }
    }
    (units, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_at_counts_the_newlines_before_an_offset() {
        let text = b"a\nb\nc";
        let lines: Vec<usize> = [0, 1, 2, 4, 5, 99].map(|o| line_at(text, o)).to_vec();
        assert_eq!(lines, [1, 1, 2, 3, 3, 3]);
    }

    #[test]
    fn splits_quoted_and_bare_fields() {
        assert_eq!(
            split_csv(r#""a","b,c",d,"e""f""#).unwrap(),
            vec!["a", "b,c", "d", "e\"f"]
        );
        assert_eq!(split_csv(r#""a","b","#).unwrap(), vec!["a", "b", ""]);
        assert_eq!(split_csv("").unwrap(), vec![""]);
    }

    #[test]
    fn rejects_unterminated_and_junk_after_quote() {
        assert!(split_csv(r#""a","b"#).is_err());
        assert!(split_csv(r#""a"x,"b""#).is_err());
    }

    #[test]
    fn notices_are_recognised() {
        assert!(is_notice("==PROF== Connected to process 1"));
        assert!(is_notice("==19128== Profiling result:"));
        assert!(!is_notice("\"ID\",\"Process ID\""));
        assert!(!is_notice("=="));
    }

    #[test]
    fn binary_is_refused() {
        let err = read_text(Path::new("x.csv"), &b"ab\0cd"[..]).unwrap_err();
        assert!(err.to_string().contains("binary"));
        assert!(err.to_string().contains("ncu --csv"));
        let err = read_text_expecting(Path::new("c.json"), &b"ab\0cd"[..], "a cache (JSON)")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "c.json:1: binary content (NUL bytes): expected a cache (JSON)"
        );
    }
}

//! A bound on the length of a CSV file's lines while it is read: a file of one long line
//! (a JSON cache saved as .csv, a table whose line breaks were lost) would otherwise be taken
//! whole into one record, at some 16 bytes of memory a field, before any check could refuse
//! it (a 50 MB file of one line took 0.8 GB).

use std::io::{self, Read};

/// The longest line a CSV file may have: far longer than any table's row (a feature table of
/// thousands of metrics has rows of tens of kB).
pub const LONGEST_LINE: usize = 16 << 20;

/// The error a line over the bound gives, carried inside an `io::Error` so that the CSV
/// reader's error can be told from a file cut off.
#[derive(Debug)]
pub struct LineTooLong {
    pub limit: usize,
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a line longer than {} MiB: is the file one long line (rows end in a line break)?",
            self.limit >> 20
        )
    }
}

impl std::error::Error for LineTooLong {}

/// A reader that fails once a line (bytes between `\n` or `\r`) grows past `limit`.
pub struct LineCap<R> {
    inner: R,
    since_break: usize,
    limit: usize,
}

impl<R: Read> LineCap<R> {
    pub fn new(inner: R) -> Self {
        Self::with_limit(inner, LONGEST_LINE)
    }

    pub fn with_limit(inner: R, limit: usize) -> Self {
        LineCap {
            inner,
            since_break: 0,
            limit,
        }
    }
}

impl<R: Read> Read for LineCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        // The first piece goes on the line before; each later one starts a line.
        let mut run = self.since_break;
        for (i, piece) in buf[..n].split(|&b| b == b'\n' || b == b'\r').enumerate() {
            run = if i == 0 {
                run + piece.len()
            } else {
                piece.len()
            };
            if run > self.limit {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    LineTooLong { limit: self.limit },
                ));
            }
        }
        self.since_break = run;
        Ok(n)
    }
}

/// The bound's error inside a CSV reader's I/O error, where it is one.
pub fn line_too_long(e: &io::Error) -> Option<&LineTooLong> {
    e.get_ref()?.downcast_ref::<LineTooLong>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &[u8], limit: usize) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        // Small reads, as a buffered reader may make them: the count carries over.
        let mut r = LineCap::with_limit(io::BufReader::with_capacity(3, text), limit);
        r.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn lines_up_to_the_limit_pass_and_a_longer_one_fails() {
        assert_eq!(
            read_all(b"abcd\nefgh\r\nij", 4).unwrap(),
            b"abcd\nefgh\r\nij"
        );
        assert_eq!(read_all(b"ab\rcd\ref", 2).unwrap(), b"ab\rcd\ref");
        let e = read_all(b"ab\nabcde\n", 4).unwrap_err();
        assert!(line_too_long(&e).is_some(), "{e}");
        assert!(read_all(b"abcde", 4).is_err());
        let other = io::Error::other("x");
        assert!(line_too_long(&other).is_none());
    }
}

//! Tests of the CSV table reader (synthetic tables written by the tests).

use super::*;

#[test]
fn record_lines_count_lf_and_crlf_alike() {
    for text in [
        "a,b\n1,x\n2,y\n3,z\n",
        "a,b\r\n1,x\r\n2,y\r\n3,z\r\n",
        "a,b\r\n1,x\r\n2,y\r\n3,z",
    ] {
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        let lines: Vec<usize> = rdr.records().map(|r| record_line(&r.unwrap())).collect();
        assert_eq!(lines, [2, 3, 4], "{text:?}");
    }
    // A quoted line break (LF) puts the next record a line further.
    let mut rdr = csv::Reader::from_reader("a,b\n1,\"x\ny\"\n2,z\n".as_bytes());
    let lines: Vec<usize> = rdr.records().map(|r| record_line(&r.unwrap())).collect();
    assert_eq!(lines, [2, 4]);
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Row {
    a: u32,
    b: String,
}

/// Synthetic: a bad cell on line 4 is reported on line 4 with LF and with CRLF endings.
#[test]
fn errors_name_the_line_with_either_line_ending() {
    let dir = tempfile::tempdir().unwrap();
    for (name, end) in [("lf.csv", "\n"), ("crlf.csv", "\r\n")] {
        let path = dir.path().join(name);
        let text = ["a,b", "1,x", "2,y", "three,z", "4,w"].join(end) + end;
        std::fs::write(&path, text).unwrap();
        let e = read_rows::<Row>(&path).err().unwrap().to_string();
        assert!(e.contains(&format!("{name}:4:")), "{e}");
        assert!(e.contains("column 1"), "{e}");
    }
    // Through the reader that knows the header: the column named, the fix in words.
    let path = dir.path().join("named.csv");
    for (cell, says) in [
        ("-3", "column 1 (a): the value is not a whole number from 0"),
        (
            "99999999999",
            "column 1 (a): the value is a whole number too large",
        ),
    ] {
        std::fs::write(&path, format!("a,b\n1,x\n{cell},y\n")).unwrap();
        let e = read_rows_with::<Row>(&path, &["a"])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains(&format!("named.csv:3: {says}")), "{e}");
    }
    // A value outside an enum's set is said as a value, with the ones allowed.
    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    enum State {
        Ok,
        Error,
    }
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Line {
        job: String,
        status: State,
    }
    std::fs::write(&path, "job,status\na,ok\nb,done\n").unwrap();
    let e = read_rows::<Line>(&path).err().unwrap().to_string();
    assert!(
        e.contains("named.csv:3: unknown value `done`, expected") && e.contains("`ok`"),
        "{e}"
    );
}

/// Synthetic: a gzip table cut off is a whole-file error that says so, not one at line 0.
#[test]
fn a_cut_off_gzip_table_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv.gz");
    // A header, then half of a long stream.
    let mut whole = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    writeln!(whole, "a,b").unwrap();
    for i in 0..20000 {
        writeln!(whole, "{i},row{i}").unwrap();
    }
    let whole = whole.finish().unwrap();
    std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    let e = read_rows::<Row>(&path).err().unwrap().to_string();
    assert!(!e.contains(":0:"), "{e}");
    assert!(e.contains("file cut off?"), "{e}");
}

#[test]
fn a_file_is_told_from_a_folder_a_fifo_and_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.cu");
    std::fs::write(&file, "x").unwrap();
    require_file(&file, "a .cu file").unwrap();
    let e = require_file(dir.path(), "a .cu file")
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with(": a folder, not a file; name a .cu file"),
        "{e}"
    );
    let e = require_file(&dir.path().join("no.cu"), "x").unwrap_err();
    assert!(e.to_string().ends_with("no.cu: no such file"), "{e}");
    let fifo = dir.path().join("f.cu");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let e = require_file(&fifo, "x").unwrap_err().to_string();
        assert!(e.contains("not a regular file (a FIFO"), "{e}");
    }
}

/// Synthetic: a file of one long line (no line break) is refused at its header, by the CSV
/// readers of tables and of models' data (a CSV tuning space's reader: its own test), before
/// each of its fields becomes a column name.
#[test]
fn a_header_of_more_columns_than_any_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one-line.csv");
    std::fs::write(&path, "a,".repeat(MOST_COLUMNS + 1)).unwrap();
    let want = format!(
        "one-line.csv:1: the header line has {} columns, more than the {MOST_COLUMNS}",
        MOST_COLUMNS + 2
    );
    let e = with_header(&path).err().unwrap().to_string();
    assert!(e.contains(&want), "{e}");
    let e = read_rows_with::<Row>(&path, &["a"])
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&want), "{e}");
    let e = crate::dataset::instances::Instances::read(&path)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&want), "{e}");
    // As many as the bound allows are read as a header.
    std::fs::write(&path, format!("{}\n", ["x"; 3].join(","))).unwrap();
    assert_eq!(with_header(&path).unwrap().1.len(), 3);
}

/// Synthetic: a line past `LONGEST_LINE` stops the CSV readers as soon as it is read past
/// the bound, with an error that says what the file looks like (not "file cut off?").
#[test]
fn a_line_longer_than_any_row_stops_the_readers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.csv");
    let mut text = String::from("a,b\n1,");
    text.push_str(&"9".repeat(LONGEST_LINE + 1));
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    let want = "long.csv: a line longer than 16 MiB: is the file one long line";
    let e = read_rows::<Row>(&path).err().unwrap().to_string();
    assert!(e.contains(want), "{e}");
    let e = crate::dataset::instances::Instances::read(&path)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(want), "{e}");
}

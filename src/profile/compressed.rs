//! Files that may be compressed, told by their first bytes rather than their name: gzip
//! (`.gz`, what this project writes) and bzip2 (`.bz2`, as Kernel Tuner's tutorial hands out
//! its GEMM cache on an A100, `energy/data/GEMM_NVML_NVIDIA_A100-PCIE-40GB_freq_cache.json.bz2`
//! in the kernel_tuner_tutorial repository) are read as they are; xz, zstd, zip and 7-Zip files
//! are refused with the command that unpacks them, where they would otherwise be read as text
//! and fail as "not a cache".

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::error::{Error, Result};

/// How a file's content is packed, from its magic number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    Plain,
    Gzip,
    Bzip2,
    /// A format this project does not unpack: its name and the command that does.
    Unsupported(&'static str, &'static str),
}

/// The magic numbers of the formats this module tells apart (each format's specification:
/// RFC 1952 for gzip, the bzip2 file header `BZh` and a block size digit, the xz file format's
/// stream header, RFC 8878 for zstd frames, PKWARE's APPNOTE for zip, 7-Zip's signature header).
pub fn packing(head: &[u8]) -> Packing {
    if head.starts_with(&[0x1f, 0x8b]) {
        Packing::Gzip
    } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
        Packing::Bzip2
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
        Packing::Unsupported("xz", "xz -dk")
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Packing::Unsupported("zstd", "zstd -d")
    } else if head.starts_with(b"PK\x03\x04") {
        Packing::Unsupported("zip", "unzip")
    } else if head.starts_with(&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c]) {
        Packing::Unsupported("7-Zip", "7z x")
    } else {
        Packing::Plain
    }
}

/// The error for a file packed in a format this project does not unpack.
fn unsupported(path: &Path, format: &str, command: &str) -> Error {
    Error::format(
        path,
        format!(
            "compressed with {format}, which advise does not unpack: run `{command} {}` and give \
             the unpacked file (gzip and bzip2 files are read as they are)",
            path.display()
        ),
    )
}

/// The error for a gzip or bzip2 file that does not unpack.
fn broken(path: &Path, format: &str, e: std::io::Error) -> Error {
    let cut = e.kind() == std::io::ErrorKind::UnexpectedEof || e.to_string().contains("incomplete");
    let hint = if cut {
        " (the file is cut off: copy or download it again)"
    } else {
        ""
    };
    Error::format(path, format!("not a readable {format} file: {e}{hint}"))
}

/// [`packing`] of the file at `path` as it lies, from its first bytes; `Plain` where they
/// cannot be read.
pub fn packing_of_file(path: &Path) -> Packing {
    let mut head = Vec::with_capacity(8);
    let _ = std::fs::File::open(path).and_then(|f| f.take(8).read_to_end(&mut head));
    packing(&head)
}

/// The error for a read of `path` that failed part-way: where the file is gzip or bzip2 (by
/// its first bytes), one that says it does not unpack (cut off, most often); else the
/// system's error, naming the file.
pub fn read_failed(path: &Path, e: std::io::Error) -> Error {
    match packing_of_file(path) {
        Packing::Gzip => broken(path, "gzip", e),
        Packing::Bzip2 => broken(path, "bzip2", e),
        _ => Error::io(path, e),
    }
}

/// `bytes` unpacked where they are a gzip or bzip2 file (several members or streams joined, as
/// `gzip -d` and `bzip2 -d` do), as they are otherwise.
pub fn unpacked(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    match packing(&bytes) {
        Packing::Plain => return Ok(bytes),
        Packing::Gzip => flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| broken(path, "gzip", e))?,
        Packing::Bzip2 => bzip2::read::MultiBzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| broken(path, "bzip2", e))?,
        Packing::Unsupported(format, command) => return Err(unsupported(path, format, command)),
    };
    Ok(out)
}

/// Opens a file for reading, unpacking gzip and bzip2 as it is read. A broken stream shows up
/// as an I/O error of the reads.
pub fn open(path: &Path) -> Result<Box<dyn Read>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut reader = BufReader::new(file);
    let head = reader.fill_buf().map_err(|e| Error::io(path, e))?;
    Ok(match packing(head) {
        Packing::Plain => Box::new(reader),
        Packing::Gzip => Box::new(flate2::read::MultiGzDecoder::new(reader)),
        Packing::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(reader)),
        Packing::Unsupported(format, command) => return Err(unsupported(path, format, command)),
    })
}

/// Writes `bytes` to `path`, gzip-compressed at `level` where the name ends in `.gz`, as the
/// name says (every reader here tells the packing by the first bytes, so either reads back).
pub fn write_by_name(path: &Path, bytes: &[u8], level: flate2::Compression) -> Result<()> {
    use std::io::Write;
    let mut file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    let written = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
    {
        let mut gz = flate2::write::GzEncoder::new(file, level);
        gz.write_all(bytes).and_then(|_| gz.finish().map(drop))
    } else {
        file.write_all(bytes)
    };
    written.map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = b"{\"cache\": {}}\n";

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    fn bzip2(bytes: &[u8]) -> Vec<u8> {
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(bytes).unwrap();
        bz.finish().unwrap()
    }

    #[test]
    fn a_read_that_fails_in_a_cut_gzip_file_says_it_is_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let cut = dir.path().join("s.csv.gz");
        let whole = gzip(&b"a,time\n1,2.0\n".repeat(200));
        std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
        let mut text = String::new();
        let e = flate2::read::MultiGzDecoder::new(std::fs::File::open(&cut).unwrap())
            .read_to_string(&mut text)
            .unwrap_err();
        let e = read_failed(&cut, e).to_string();
        assert!(
            e.contains("not a readable gzip file") && e.contains("cut off"),
            "{e}"
        );
        // A plain file's error stays the system's, naming the file.
        let plain = dir.path().join("p.csv");
        std::fs::write(&plain, "a\n").unwrap();
        let e = read_failed(&plain, std::io::Error::other("boom")).to_string();
        assert!(e.contains("p.csv") && e.contains("boom"), "{e}");
    }

    #[test]
    fn gzip_and_bzip2_unpack_and_text_stays_as_it_is() {
        let p = Path::new("x.json");
        assert_eq!(unpacked(p, TEXT.to_vec()).unwrap(), TEXT);
        assert_eq!(unpacked(p, gzip(TEXT)).unwrap(), TEXT);
        assert_eq!(unpacked(p, bzip2(TEXT)).unwrap(), TEXT);
        // Two bzip2 streams joined, as `cat a.bz2 b.bz2` makes them.
        let mut two = bzip2(b"ab");
        two.extend(bzip2(b"cd"));
        assert_eq!(unpacked(p, two).unwrap(), b"abcd");
        // Text that merely starts with the letters of bzip2's magic.
        assert_eq!(unpacked(p, b"BZhello".to_vec()).unwrap(), b"BZhello");
    }

    #[test]
    fn opened_files_unpack_by_their_content_not_their_name() {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in [
            ("a.json", TEXT.to_vec()),
            ("b.json", gzip(TEXT)),
            ("c.gz", bzip2(TEXT)),
            ("d.json.bz2", bzip2(TEXT)),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let mut out = Vec::new();
            open(&path).unwrap().read_to_end(&mut out).unwrap();
            assert_eq!(out, TEXT, "{name}");
        }
        let empty = dir.path().join("empty.csv");
        std::fs::write(&empty, b"").unwrap();
        let mut out = Vec::new();
        open(&empty).unwrap().read_to_end(&mut out).unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn other_packings_name_the_command_that_unpacks_them() {
        let p = Path::new("cache.json.xz");
        for (head, format, command) in [
            (&[0xfd, b'7', b'z', b'X', b'Z', 0, 0, 4][..], "xz", "xz -dk"),
            (&[0x28, 0xb5, 0x2f, 0xfd, 0x24][..], "zstd", "zstd -d"),
            (&b"PK\x03\x04\x14\x00"[..], "zip", "unzip"),
            (
                &[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c, 0, 4][..],
                "7-Zip",
                "7z x",
            ),
        ] {
            let e = unpacked(p, head.to_vec()).unwrap_err().to_string();
            assert!(e.contains(&format!("compressed with {format}")), "{e}");
            assert!(e.contains(&format!("`{command} cache.json.xz`")), "{e}");
        }
        let e = unpacked(p, gzip(TEXT)[..12].to_vec())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a readable gzip file"), "{e}");
        let e = unpacked(p, bzip2(TEXT)[..12].to_vec())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a readable bzip2 file"), "{e}");
    }
}

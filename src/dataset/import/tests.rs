//! Tests of the tuning-space importers' shared parts (src/dataset/import/mod.rs).

use super::*;

#[test]
fn switches_are_listed_by_family_whole_parameters_first() {
    let row = |param: &str, from: &str, to: &str, family: &str| SwitchRow {
        program: "k".into(),
        param: param.into(),
        from: from.into(),
        to: to.into(),
        family: family.into(),
    };
    let switches = [
        row("MDIMC", "8", "16", "BLOCK_SIZE"),
        row("MDIMC", "16", "32", "BLOCK_SIZE"),
        row("INNER_UNROLL_FACTOR", "0", "1", ""),
        row("INNER_UNROLL_FACTOR", "1", "2", "UNROLL"),
        row("VWM", "1", "2", ""),
    ];
    let by = switches_by_family(&switches);
    assert_eq!(by["BLOCK_SIZE"], ["MDIMC"]);
    assert_eq!(by["UNROLL"], ["INNER_UNROLL_FACTOR:1->2"]);
    assert_eq!(by["none"], ["INNER_UNROLL_FACTOR:0->1", "VWM"]);
    assert_eq!(
        families_line(&by),
        "BLOCK_SIZE: MDIMC; UNROLL: INNER_UNROLL_FACTOR:1->2; no family: \
         INNER_UNROLL_FACTOR:0->1, VWM (name one in switches.csv's family column to match \
         it across programs)"
    );
}

/// The real fixture files of tests/fixtures/spaces (tests/fixtures/PROVENANCE.md) are
/// told apart by their first few kB; read as another tool's, the error names the tool
/// whose file it looks like.
#[test]
fn a_space_read_as_the_wrong_tool_says_which_tool_wrote_it() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spaces");
    let ktt = root.join("KTPnpolyOutput_3090.json.gz");
    let kt = root.join("pnpoly__RTX_2080_Ti.json.gz");
    assert_eq!(guess_tool(&ktt).unwrap(), Some(Tool::Ktt));
    assert_eq!(guess_tool(&kt).unwrap(), Some(Tool::KernelTuner));
    assert_eq!(
        tool_of_text(r#"{"results": [{"configuration": {}}]}"#),
        Some(Tool::T4)
    );
    assert_eq!(tool_of_text("a,b\n1,2\n"), None);
    let list = r#"[{"block_size_x": 32, "time": 1.0}]"#;
    assert_eq!(tool_of_text(list), Some(Tool::KernelTuner));
    assert_eq!(tool_of_text("[1, 2]"), None);
    let e = read_space(Tool::T4, &kt).unwrap_err().to_string();
    assert!(e.contains("not T4 tuning results"), "{e}");
    assert!(
        e.ends_with(concat!(
            "it looks like a Kernel Tuner cache or results list: ",
            "import it as `advise import kernel-tuner`"
        )),
        "{e}"
    );
    let e = read_space(Tool::KernelTuner, &ktt).unwrap_err().to_string();
    assert!(e.ends_with("import it as `advise import ktt`"), "{e}");
}

/// Binary content is refused by what it is, not as "not a cache"; a name ending in .gz on a
/// file that is not gzip-compressed is said.
#[test]
fn binary_content_is_refused_as_binary() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    // Bytes with NULs and broken UTF-8 (made here, not random: the test is reproducible).
    let bytes: Vec<u8> = (0..3000u32).map(|i| (i * 97 % 256) as u8).collect();
    let raw = dir.path().join("raw.json.gz");
    std::fs::write(&raw, &bytes).unwrap();
    let e = guess_tool(&raw).unwrap_err().to_string();
    assert!(e.contains("raw.json.gz: binary content, not text"), "{e}");
    assert!(
        e.ends_with("its name ends in .gz, but it is not gzip-compressed"),
        "{e}"
    );
    let packed = dir.path().join("packed.json.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&bytes).unwrap();
    std::fs::write(&packed, gz.finish().unwrap()).unwrap();
    let e = guess_tool(&packed).unwrap_err().to_string();
    assert!(e.contains("binary content, not text"), "{e}");
    assert!(!e.contains("not gzip-compressed"), "{e}");
    // A multi-byte character cut by the 4 kB read is text.
    let text = dir.path().join("cut.json");
    let mut s = format!(
        "{{\"tune_params_keys\": [\"x\"], \"note\": \"{}",
        "a".repeat(4058)
    );
    s.push_str("ééééé\"}");
    std::fs::write(&text, s).unwrap();
    assert_eq!(guess_tool(&text).unwrap(), Some(Tool::KernelTuner));
}

/// A cache that names no kernel is named by its file: the program column of its tables is not
/// left empty.
#[test]
fn a_cache_without_a_kernel_name_is_named_by_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mykernel__GPU.json");
    std::fs::write(
        &path,
        r#"{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]},
"cache": {"1": {"a": 1, "time": 1.0}, "2": {"a": 2, "time": 2.0}}}"#,
    )
    .unwrap();
    let space = read_space(Tool::KernelTuner, &path).unwrap();
    assert_eq!(space.kernel, "mykernel__GPU");
}

/// The real T4 fixture (tests/fixtures/PROVENANCE.md) with one result's objective measured
/// in a unit that is not one of time: damage, named by the result, not a failure.
#[test]
fn a_t4_result_in_another_unit_than_time_is_refused() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/spaces/coulomb_2080_full_search_space_converted.json.gz");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut crate::dataset::table::open(&path).unwrap(), &mut text)
        .unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let result = &mut doc["results"][3];
    let objective = result["objectives"][0].clone();
    for m in result["measurements"].as_array_mut().unwrap() {
        if m["name"] == objective {
            m["unit"] = "Parsecs".into();
        }
    }
    let e = super::t4::read(std::path::Path::new("t4.json"), doc.to_string().as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("result 3: the measurement of the objective")
            && e.contains("is in `Parsecs`")
            && e.contains("other results are timed"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_is_refused_before_its_format_is_told_not_read_twice() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("space.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    // No writer: opening it would wait for ever; the check reads only its metadata.
    let e = guess_tool(&fifo).unwrap_err().to_string();
    assert!(e.contains("a pipe or device, not a file"), "{e}");
    // A CSV space's check, before its reader.
    let e = refuse_binary(&fifo).unwrap_err().to_string();
    assert!(e.contains("save it to a file first"), "{e}");
}

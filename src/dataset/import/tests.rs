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

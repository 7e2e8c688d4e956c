//! The layering of docs/ARCHITECTURE.md, checked on the source: every `crate::MODULE` a library
//! file names must sit in its own layer or below, and the learning layer depends on nothing
//! of advise.

use std::path::{Path, PathBuf};

/// The library's top-level modules by layer, bottom first.
const LAYERS: &[&[&str]] = &[
    &[
        "error",
        "variant",
        "input",
        "json_nan",
        "number_format",
        "tool",
    ],
    &["profile"],
    &["dataset"],
    &[
        "harness",
        "static_analysis",
        "search",
        "experiment",
        "recommend",
        "report",
    ],
];

/// Imports allowed between stages (the top layer): a stage may use these others.
const STAGE_ARROWS: &[(&str, &str)] = &[
    ("experiment", "static_analysis"),
    ("recommend", "experiment"),
    ("report", "experiment"),
    ("report", "recommend"),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules a file names as `crate::NAME`.
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let tail = &rest[i + "crate::".len()..];
        let name: String = tail
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
            out.push(name);
        }
        rest = tail;
    }
    out
}

#[test]
fn no_library_module_imports_upward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut bad = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        if first == "bin" || first == "lib.rs" {
            continue;
        }
        let own = first.trim_end_matches(".rs").to_string();
        let own_layer = layer_of(&own).unwrap_or_else(|| {
            panic!(
                "{}: module `{own}` is in no layer of ARCHITECTURE.md",
                rel.display()
            )
        });
        let text = std::fs::read_to_string(&f).unwrap();
        for m in imports(&text) {
            if m == own {
                continue;
            }
            let Some(l) = layer_of(&m) else {
                bad.push(format!(
                    "{}: names unknown module crate::{m}",
                    rel.display()
                ));
                continue;
            };
            let stage = LAYERS.len() - 1;
            let ok = l < own_layer
                || (l == own_layer && own_layer == 0)
                || (l == stage && own_layer == stage && STAGE_ARROWS.contains(&(&own, &m)));
            if !ok {
                bad.push(format!("{}: {own} imports {m}", rel.display()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "upward or sideways imports:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_learning_layer_depends_on_nothing_of_advise() {
    let toml = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/advise-ml/Cargo.toml"),
    )
    .unwrap();
    let deps = toml.split("[dependencies]").nth(1).unwrap_or("");
    let names: Vec<&str> = deps
        .lines()
        .filter_map(|l| l.split('=').next())
        .map(str::trim)
        .filter(|n| !n.is_empty() && !n.starts_with('['))
        .collect();
    // libc (Linux only) lets the helper thread read and set which CPU it runs on.
    assert_eq!(names, ["serde", "thiserror", "libc"], "{toml}");
}

#[test]
fn the_import_scanner_sees_paths() {
    assert_eq!(
        imports("use crate::dataset::x; let y = crate::error::Error::Data; crate::Result"),
        ["dataset", "error"]
    );
}

//! The documents' relative links, checked: every link to a file names one the repository
//! holds, and every `#anchor` (the hand-kept contents of docs/search-results.md among them)
//! names a heading of its document, slugged as GitHub slugs headings (lower case; letters,
//! digits, `-`, `_` and spaces kept, spaces as `-`; a repeated heading gets `-1`, `-2`, ...).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Markdown files of the repository: README.md, docs/ and scripts/ (not virtual
/// environments or build output).
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    walk(&p, out);
                }
            } else if name.ends_with(".md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    walk(&root().join("scripts"), &mut out);
    out.sort();
    out
}

/// The text outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// GitHub's anchor of a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = HashSet::new();
    for line in prose(text).lines() {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let s = slug(&line[hashes..]);
        let n = seen.entry(s.clone()).or_insert(0);
        out.insert(if *n == 0 {
            s.clone()
        } else {
            format!("{s}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of a text's inline links `](target)` that are not web addresses.
fn relative_links(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        if !target.contains(char::is_whitespace)
            && !target.starts_with("http://")
            && !target.starts_with("https://")
            && !target.starts_with("mailto:")
        {
            out.push(target.to_string());
        }
    }
    out
}

#[test]
fn relative_links_name_files_and_headings_that_exist() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for link in relative_links(&text) {
            checked += 1;
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(path)
            };
            let shown = doc
                .strip_prefix(root())
                .unwrap_or(&doc)
                .display()
                .to_string();
            if !target.exists() {
                broken.push(format!("{shown}: {link} (no such file)"));
                continue;
            }
            if !anchor.is_empty() && target.extension().is_some_and(|e| e == "md") {
                let there = std::fs::read_to_string(&target).unwrap();
                if !anchors(&there).contains(anchor) {
                    broken.push(format!("{shown}: {link} (no such heading)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // docs/search-results.md's contents alone hold dozens.
    assert!(checked >= 40, "only {checked} relative links found");
}

#[test]
fn slugs_and_links_are_read_as_github_reads_them() {
    assert_eq!(
        slug("Blind set: two more spaces (2026-11-29, session 46)"),
        "blind-set-two-more-spaces-2026-11-29-session-46"
    );
    assert_eq!(
        slug("`advise bench search`: CPU"),
        "advise-bench-search-cpu"
    );
    assert_eq!(slug("1% budget: mean"), "1-budget-mean");
    let a = anchors("# A\n## A\n```\n# B\n```\n### C d\n#nope\n");
    let want: HashSet<String> = ["a", "a-1", "c-d"].map(String::from).into();
    assert_eq!(a, want);
    assert_eq!(
        relative_links("[x](#a) [y](docs/b.md#c) [z](https://e.org) [w](a b)"),
        ["#a", "docs/b.md#c"]
    );
}

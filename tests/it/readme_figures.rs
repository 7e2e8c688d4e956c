//! README's prose quotes figures of the regenerated results (`scripts/results/regenerate.sh`):
//! `advise train`'s summary and reliability tables (docs/results/train.txt) and `advise bench
//! transfer`'s evaluations (docs/results/transfer.json). The generated parts of README follow
//! those files by themselves; these sentences are written by hand, and were found stale once
//! (2026-12-02). Each check reads the figure from its file and looks for it, as README words
//! it, in README's text with its line breaks made spaces: a failure means the results moved
//! and the sentence must be brought to them.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README with every run of whitespace made one space.
fn readme() -> String {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn train_txt() -> String {
    std::fs::read_to_string(root().join("docs/results/train.txt")).unwrap()
}

fn transfer() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("docs/results/transfer.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `n` with thousands separated by commas, as README writes counts.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn assert_says(readme: &str, wanted: &str, source: &str) {
    assert!(
        readme.contains(wanted),
        "README no longer says \"{wanted}\", which {source} now gives: bring the sentence to it"
    );
}

#[test]
fn thousands_are_separated() {
    assert_eq!(thousands(4642), "4,642");
    assert_eq!(thousands(642), "642");
    assert_eq!(thousands(1_083_000), "1,083,000");
}

/// The pooled across-program figures of `advise train`'s summary line.
#[test]
fn the_training_summary_is_quoted_as_it_stands() {
    let train = train_txt();
    let re = regex::Regex::new(
        r"the models were right ([\d.]+)% of the time, .*?, ([\d.]+)% with the choice made without each held-out program\. With a verdict \(.*?\) (\d+) of those (\d+) held-out directions, right ([\d.]+)% of the time against always recommending's ([\d.]+)%",
    )
    .unwrap();
    let c = re
        .captures(&train)
        .expect("docs/results/train.txt has its summary line");
    let readme = readme();
    let source = "docs/results/train.txt's summary line";
    assert_says(
        &readme,
        &format!(
            "suggestions were right on {}% of the held-out directions, against {}% for the models alone",
            &c[2], &c[1]
        ),
        source,
    );
    let with_verdict: u64 = c[3].parse().unwrap();
    let all: u64 = c[4].parse().unwrap();
    assert_says(
        &readme,
        &format!(
            "{} of the {} held-out directions would carry a verdict and {}% of them were right, against {}% for always recommending",
            thousands(with_verdict),
            thousands(all),
            &c[5],
            &c[6]
        ),
        source,
    );
}

/// The 0.6-0.7 band of the reliability table on programs the advisor had not seen.
#[test]
fn the_unseen_programs_confidence_band_is_quoted_as_it_stands() {
    let train = train_txt();
    let table = train
        .split("Reliability on programs the advisor had not seen")
        .nth(1)
        .expect("train.txt has the table on unseen programs");
    let row = table
        .lines()
        .find(|l| l.starts_with("0.6-0.7"))
        .expect("a 0.6-0.7 row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    let share: f64 = cells[3].parse().unwrap();
    assert_says(
        &readme(),
        &format!("0.6-0.7 ({}), {:.0}%", cells[2], 100.0 * share),
        "docs/results/train.txt's second reliability table",
    );
}

/// The step-features-only transfer across programs and the leave-one-GPU-out H100 -> H200.
#[test]
fn the_transfer_figures_are_quoted_as_they_stand() {
    let t = transfer();
    let evals = t["evaluations"].as_array().unwrap();
    let named = |name: &str| {
        evals
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("transfer.json has `{name}`"))
    };
    let row = |e: &serde_json::Value, method: &str| {
        let r = e["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["method"] == method)
            .unwrap_or_else(|| panic!("a {method} row"))
            .clone();
        (
            100.0 * r["accuracy"].as_f64().unwrap(),
            100.0 * r["balanced_accuracy"].as_f64().unwrap(),
        )
    };
    let readme = readme();
    let source = "docs/results/transfer.json";
    let step = named("leave one program out, step features only");
    let (acc, bal) = row(step, "linear");
    assert_says(
        &readme,
        &format!(
            "LinearRegression is right {acc:.1}% of the time across programs ({bal:.1}% balanced)"
        ),
        source,
    );
    let (acc, bal) = row(step, "baseline:occupancy");
    assert_says(
        &readme,
        &format!("the mean rule elsewhere): {acc:.1}% ({bal:.1}% balanced)"),
        source,
    );
    let gpus = evals
        .iter()
        .find(|e| {
            e["name"] == "leave one GPU out"
                && e["data"]
                    .as_str()
                    .is_some_and(|d| d.starts_with("h100-bh-20261126+h100-nb-20261126 -> "))
        })
        .expect("the H100 -> H200 evaluation");
    let (acc, _) = row(gpus, "m5p");
    assert_says(&readme, &format!("(M5P, {acc:.1}% H100 -> H200)"), source);
}

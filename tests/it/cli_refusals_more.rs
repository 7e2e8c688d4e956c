//! More bad input the command line refuses with the file and the fix: a feature table built
//! from a header alone, a JSON file given as a profile, output names that say another format,
//! a file where a folder should be, negative numbers, a cut-off T4 file.

use std::path::Path;

use predicates::prelude::*;

use crate::common::advise;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_header_alone_builds_no_feature_table() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.csv");
    std::fs::write(
        &m,
        "program,input,run,variant,kernel,launch,invocations,metric,unit,value\n",
    )
    .unwrap();
    advise()
        .args(["features", "--measurements"])
        .arg(&m)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "m.csv: no measurements (only the header)",
        ));
}

#[test]
fn a_json_file_is_not_a_profile() {
    advise()
        .args(["parse"])
        .arg(root().join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz"))
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("this is JSON").and(predicate::str::contains(
                "`advise search --space` reads tuning spaces",
            )),
        );
}

/// NB's and BH's variants are bit strings: another label is refused by `parse`, not by
/// `samples` after the work.
#[test]
fn parse_refuses_a_variant_that_is_no_bit_string_of_nb() {
    let page = root().join("tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv");
    advise()
        .args(["parse", "--program", "NB", "--variant", "1111111"])
        .arg(&page)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--variant 1111111: "));
    advise()
        .args(["parse", "--program", "nb", "--variant", "010011"])
        .arg(&page)
        .assert()
        .success();
}

/// Synthetic: `--ignore` that leaves only the target is refused (the model would predict the
/// mean and look like one).
#[test]
fn predict_refuses_to_ignore_every_feature() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.csv");
    std::fs::write(&t, "a,b,y\n1,2,3\n2,3,5\n3,5,8\n4,6,10\n").unwrap();
    advise()
        .args(["predict", "--method", "ibk", "--ignore", "a,b", "--train"])
        .arg(&t)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no feature column is left beside the target",
        ));
}

/// A synthetic Kernel Tuner cache of `n` block sizes by four tile heights by two depths, the
/// `i`th block size's configurations taking `time_of(i)` ms, imported into `dir/name`.
fn imported(
    dir: &Path,
    name: &str,
    n: usize,
    time_of: impl Fn(usize) -> f64,
) -> std::path::PathBuf {
    let mut entries = Vec::new();
    for i in 0..n {
        for ty in [1, 2, 4, 8] {
            for tz in [0, 1] {
                let bx = 32 << i;
                entries.push(format!(
                    "\"{bx},{ty},{tz}\": {{\"bx\": {bx}, \"ty\": {ty}, \"tz\": {tz}, \
                     \"time\": {}}}",
                    time_of(i)
                ));
            }
        }
    }
    let cache = dir.join(format!("{name}.json"));
    std::fs::write(
        &cache,
        format!(
            "{{\"device_name\": \"synthetic\", \"kernel_name\": \"k\", \"tune_params_keys\": \
             [\"bx\", \"ty\", \"tz\"], \"cache\": {{{}}}}}",
            entries.join(", ")
        ),
    )
    .unwrap();
    let out = dir.join(name);
    advise()
        .args(["-q", "import", "kernel-tuner"])
        .arg(&cache)
        .arg("--out-dir")
        .arg(&out)
        .assert()
        .success();
    out
}

/// Synthetic spaces: where no experiment can run, `experiment` fails and says why each did
/// not; where every time is the same, its verdict says there is nothing to predict instead of
/// "right 100% of the time".
#[test]
fn experiments_that_cannot_run_or_have_nothing_to_predict_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let small = imported(dir.path(), "small", 1, |i| 1.0 + i as f64);
    advise()
        .args(["-q", "experiment", "--dataset"])
        .arg(&small)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "no experiment could run on small:",
        ))
        .stderr(predicate::str::contains("loio has no folds on small"));
    let flat = imported(dir.path(), "flat", 4, |_| 1.0);
    advise()
        .args([
            "-q",
            "experiment",
            "--exp",
            "kfold",
            "--folds",
            "3",
            "--step",
            "only",
        ])
        .arg("--dataset")
        .arg(&flat)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "no test sample's time changed clearly",
        ))
        .stdout(predicate::str::contains("is right").not());
}

/// A negative budget reaches the budget's own check (not the argument parser's "unexpected
/// argument"), in each command that takes one.
#[test]
fn a_negative_budget_is_the_budget_check_s_to_refuse() {
    let space = root().join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz");
    for args in [
        vec!["search", "--budget", "-1"],
        vec!["search-bench", "--budgets", "-1", "--repeats", "2"],
        vec!["bench", "search", "--budgets", "-1", "--repeats", "2"],
    ] {
        advise()
            .args(&args)
            .arg("--space")
            .arg(&space)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("budget `-1`"));
    }
}

/// Synthetic: a space of one configuration is benchmarked with a warning that its rows say
/// nothing about a strategy.
#[test]
fn a_space_with_nothing_to_search_is_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    let space = dir.path().join("one.csv");
    std::fs::write(&space, "a,time_ms\n1,2.0\n").unwrap();
    advise()
        .args([
            "-q",
            "search-bench",
            "--budgets",
            "2%",
            "--repeats",
            "2",
            "--space",
        ])
        .arg(&space)
        .arg("--charts-dir")
        .arg(dir.path().join("charts"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "one: 1 configuration that ran, no parameter that varies: nothing to search",
        ));
}

/// A synthetic CSV space of 48 configurations (made up by the test).
fn small_space(dir: &Path) -> std::path::PathBuf {
    let mut text = String::from("bx,by,unroll,time_ms\n");
    for (i, (bx, by, u)) in [8, 16, 32, 64]
        .iter()
        .flat_map(|bx| {
            [1, 2, 4, 8]
                .iter()
                .flat_map(move |by| [1, 2, 4].map(move |u| (*bx, *by, u)))
        })
        .enumerate()
    {
        text += &format!("{bx},{by},{u},{}\n", 1.0 + (i as f64 * 0.37) % 5.0);
    }
    let path = dir.join("space.csv");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn output_names_are_taken_at_their_word() {
    let dir = tempfile::tempdir().unwrap();
    let space = small_space(dir.path());
    let trace = dir.path().join("t.csv.gz");
    advise()
        .args(["-q", "search", "--budget", "10", "--space"])
        .arg(&space)
        .arg("--trace")
        .arg(&trace)
        .assert()
        .success();
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&trace).unwrap()),
        &mut text,
    )
    .unwrap();
    assert!(
        text.starts_with("evaluation,bx,by,unroll,time_ms"),
        "{text}"
    );
    advise()
        .args(["search", "--budget", "10", "--space"])
        .arg(&space)
        .arg("--trace")
        .arg(dir.path().join("t.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the trace is CSV"));
    // A name in capitals asks for JSON as one in lower case does.
    let upper = dir.path().join("X.JSON");
    advise()
        .args(["-q", "explain", "FTZ", "-o"])
        .arg(&upper)
        .assert()
        .success();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&upper).unwrap()).unwrap();
    assert!(doc.get("optimizations").is_some(), "{doc}");
    // A file where the output's folder should be is named as a file.
    std::fs::write(dir.path().join("file"), "").unwrap();
    advise()
        .args(["explain", "FTZ", "-o"])
        .arg(dir.path().join("file/x.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("file is a file, not a folder"));
}

#[test]
fn search_bench_counts_the_runs_it_made_and_negative_numbers_are_said_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let space = small_space(dir.path());
    advise()
        .args([
            "search-bench",
            "--no-charts",
            "--threads",
            "1",
            "--repeats",
            "3",
        ])
        .args(["--budgets", "5,1000", "--space"])
        .arg(&space)
        .assert()
        .success()
        .stderr(predicate::str::contains("search-bench: 3 runs in"));
    advise()
        .args([
            "search-bench",
            "--no-charts",
            "--charts-dir",
            "x",
            "--space",
        ])
        .arg(&space)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    advise()
        .args(["search", "--seed", "-1", "--space"])
        .arg(&space)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "`-1` reads as an option, not as a value",
        ));
    // A negative fraction is named whole, not by the part clap read as a short option.
    advise()
        .args(["profile", "--gpu", "-7.5", "--", "ls"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "`-7.5` reads as an option, not as a value",
        ))
        .stderr(predicate::str::contains("(`--option=-7.5`)"));
}

#[test]
fn a_cut_off_t4_file_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(
            std::fs::File::open(
                root()
                    .join("tests/fixtures/spaces/coulomb_2080_full_search_space_converted.json.gz"),
            )
            .unwrap(),
        ),
        &mut text,
    )
    .unwrap();
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, &text[..30_000]).unwrap();
    advise()
        .args(["search", "--budget", "5", "--space"])
        .arg(&cut)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "(the file ends inside it: cut off?)",
        ));
}

#[test]
fn bench_models_names_the_size_a_method_cannot_fit() {
    advise()
        .args(["bench", "models", "--rows", "2", "--cols", "1", "--no-weka"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--rows 2: knn cannot fit 2 rows"));
}

//! Reading real recorded spaces for search: a Kernel Tuner cache with failed configurations
//! given as strings, the same cache cut off mid-write, packed with bzip2 or under another name,
//! the same space as CSV and as T4 results, and KTT output.

use std::io::Write;
use std::path::{Path, PathBuf};

use advise::search::{Eval, Evaluator, SearchSpace};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/spaces")
        .join(name)
}

/// The fixture cache's parameter names and entries, in its order.
fn cache_entries() -> (Vec<String>, Vec<serde_json::Value>) {
    let cache: serde_json::Value = serde_json::from_str(&cache_text()).unwrap();
    let keys = cache["tune_params_keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let entries = cache["cache"]
        .as_object()
        .unwrap()
        .values()
        .cloned()
        .collect();
    (keys, entries)
}

/// The same space as the results list `tune_kernel` returns, written here from the cache
/// (each result its parameters, then its time; a failed one its failure string) in reverse
/// order: the same space, and the same runs of a search.
#[test]
fn the_same_space_as_a_kernel_tuner_results_list() {
    let (keys, mut entries) = cache_entries();
    entries.reverse();
    let results: Vec<String> = entries
        .iter()
        .map(|e| {
            let mut fields: Vec<String> =
                keys.iter().map(|k| format!("\"{k}\": {}", e[k])).collect();
            fields.push(format!("\"time\": {}", e["time"]));
            format!("{{{}}}", fields.join(", "))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pnpoly_results.json");
    std::fs::write(&path, format!("[{}]", results.join(",\n"))).unwrap();
    let list = SearchSpace::load(&path).unwrap();
    let json = SearchSpace::load(&fixture("pnpoly__RTX_2080_Ti.json.gz")).unwrap();
    assert_eq!((list.len(), list.failed()), (4092, json.failed()));
    assert_eq!(list.optimum(), json.optimum());
    let auto = advise::search::strategy("auto").unwrap();
    let run = |s: &SearchSpace| advise::search::run(s, auto.as_ref(), 80, 7).unwrap().trace;
    assert_eq!(run(&list), run(&json));
}

fn cache_text() -> String {
    crate::common::gunzipped_text(&fixture("pnpoly__RTX_2080_Ti.json.gz"))
}

#[test]
fn kernel_tuner_cache_with_failures() {
    let s = SearchSpace::load(&fixture("pnpoly__RTX_2080_Ti.json.gz")).unwrap();
    assert_eq!(s.name, "pnpoly__RTX_2080_Ti");
    assert_eq!(s.len(), 4092);
    assert_eq!(s.failed(), 358);
    assert_eq!(s.n_params(), 4);
    let (best, t) = s.optimum();
    assert!((t - 0.015913600102066994).abs() < 1e-15);
    assert_eq!(
        s.describe(best),
        "between_method=3,block_size_x=448,tile_size=20,use_method=0"
    );
    // A failed configuration is evaluated, charged and reported as failed.
    let failed = (0..s.len()).find(|&i| s.time(i).is_none()).unwrap();
    let mut ev = Evaluator::new(&s, 1);
    assert_eq!(ev.evaluate(failed), Eval::Failed);
    assert_eq!(ev.remaining(), 0);
}

#[test]
fn a_cache_cut_off_mid_write_still_loads() {
    let text = cache_text();
    // Cut inside an entry about two thirds through, as a killed tuning run leaves it.
    let cut = text.len() * 2 / 3;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.json");
    std::fs::write(&path, &text[..cut]).unwrap();
    let s = SearchSpace::load(&path).unwrap();
    assert!(s.len() > 2000 && s.len() < 4092, "{}", s.len());
}

/// The real cache's every value is in its `tune_params`; with one `tile_size` taken out of
/// them, the configurations of that size are counted as ones Kernel Tuner would not visit.
#[test]
fn values_a_cache_s_tune_params_do_not_list_are_counted() {
    assert_eq!(
        SearchSpace::load(&fixture("pnpoly__RTX_2080_Ti.json.gz"))
            .unwrap()
            .outside_tune_params,
        0
    );
    let mut cache: serde_json::Value = serde_json::from_str(&cache_text()).unwrap();
    let sizes = cache["tune_params"]["tile_size"].as_array_mut().unwrap();
    let dropped = sizes.remove(0);
    let with_it = cache["cache"]
        .as_object()
        .unwrap()
        .values()
        .filter(|e| e["tile_size"] == dropped)
        .count();
    assert!(with_it > 0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fewer.json");
    std::fs::write(&path, cache.to_string()).unwrap();
    assert_eq!(
        SearchSpace::load(&path).unwrap().outside_tune_params,
        with_it
    );
}

/// Old Kernel Tuner versions wrote 1e20 for a failure: such times count as failed, and the
/// space says how many (`advise search` and `search-bench` say it beside the results).
#[test]
fn times_out_of_range_count_as_failed_and_are_counted() {
    let real = SearchSpace::load(&fixture("pnpoly__RTX_2080_Ti.json.gz")).unwrap();
    assert_eq!(real.times_out_of_range, 0);
    let mut cache: serde_json::Value = serde_json::from_str(&cache_text()).unwrap();
    let mut marked = 0;
    for entry in cache["cache"].as_object_mut().unwrap().values_mut() {
        if marked < 3 && entry["time"].is_number() {
            entry["time"] = serde_json::json!(1e20);
            marked += 1;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marked.json");
    std::fs::write(&path, cache.to_string()).unwrap();
    let s = SearchSpace::load(&path).unwrap();
    assert_eq!(s.times_out_of_range, 3);
    assert_eq!(s.failed(), real.failed() + 3);
    crate::common::advise()
        .args(["search", "--budget", "20", "--space"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "3 entries record a time outside 1e-9 to 1e12 ms",
        ));
}

#[test]
fn the_same_space_as_csv() {
    let (keys, entries) = cache_entries();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pnpoly.csv");
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(f, "{},time_ms", keys.join(",")).unwrap();
    for entry in &entries {
        let vals: Vec<String> = keys.iter().map(|k| entry[k].to_string()).collect();
        let time = match &entry["time"] {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        writeln!(f, "{},{}", vals.join(","), time).unwrap();
    }
    drop(f);
    let csv = SearchSpace::load(&path).unwrap();
    let json = SearchSpace::load(&fixture("pnpoly__RTX_2080_Ti.json.gz")).unwrap();
    assert_eq!(csv.len(), json.len());
    assert_eq!(csv.failed(), json.failed());
    assert_eq!(csv.optimum().1, json.optimum().1);
    assert_eq!(
        csv.describe(csv.optimum().0),
        json.describe(json.optimum().0)
    );
}

#[test]
fn ktt_output() {
    let s = SearchSpace::load(&fixture("KTPnpolyOutput_3090.json.gz")).unwrap();
    assert_eq!(s.len(), 4092);
    assert_eq!(s.failed(), 4092 - 3818);
    assert_eq!(
        s.n_params(),
        4,
        "VERTICES is fixed: the input, not a parameter"
    );
    // KTT records microseconds; the space holds milliseconds.
    assert!((s.optimum().1 - 7.224192).abs() < 1e-9);
}

#[test]
fn not_a_space_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.json");
    std::fs::write(&path, "{\"hello\": 1}").unwrap();
    let err = SearchSpace::load(&path).unwrap_err().to_string();
    assert!(err.contains("not a Kernel Tuner cache"), "{err}");
}

/// The same space in the T4 results format (Kernel Tuner's schema; benchmark_hub ships it
/// beside each cache as `*_T4.json.gz`), written here from the cache with its results in
/// reverse order: the same space, and the same runs of a search.
#[test]
fn the_same_space_as_t4_results() {
    let (keys, entries) = cache_entries();
    let mut results: Vec<String> = Vec::new();
    for entry in &entries {
        let config: Vec<String> = keys
            .iter()
            .map(|k| format!("\"{k}\": {}", entry[k]))
            .collect();
        let (invalidity, time) = match &entry["time"] {
            serde_json::Value::String(s) => ("runtime", format!("\"{s}\"")),
            other => ("correct", other.to_string()),
        };
        results.push(format!(
            "{{\"configuration\": {{{}}}, \"invalidity\": \"{invalidity}\", \"correctness\": 1, \
             \"times\": {{}}, \"measurements\": [{{\"name\": \"time\", \"value\": {time}, \
             \"unit\": \"\"}}], \"objectives\": [\"time\"]}}",
            config.join(", ")
        ));
    }
    results.reverse();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pnpoly_T4.json");
    std::fs::write(
        &path,
        format!(
            "{{\"metadata\": {{\"timeunit\": \"miliseconds\"}}, \"schema_version\": \"1.0.0\", \
             \"results\": [{}]}}",
            results.join(",\n")
        ),
    )
    .unwrap();
    let t4 = SearchSpace::load(&path).unwrap();
    let json = SearchSpace::load(&fixture("pnpoly__RTX_2080_Ti.json.gz")).unwrap();
    assert_eq!((t4.len(), t4.failed()), (json.len(), json.failed()));
    assert_eq!(t4.optimum(), json.optimum());
    let auto = advise::search::strategy("auto").unwrap();
    let run = |s: &SearchSpace| advise::search::run(s, auto.as_ref(), 80, 7).unwrap().trace;
    assert_eq!(run(&t4), run(&json));
}

/// Every configuration of a space as its parameter text and time, sorted.
fn configurations(s: &SearchSpace) -> Vec<(String, Option<f64>)> {
    let mut all: Vec<(String, Option<f64>)> = (0..s.len())
        .map(|id| (s.describe(id), s.time(id)))
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

/// One real brute-force run (KTT's Coulomb sum on an RTX 2080 Ti) in KTT's own output and
/// as the T4 file KTT's converter wrote from it, whose only time is each result's objective,
/// `TotalDuration` in microseconds: the same 210 configurations with the same times.
#[test]
fn ktt_output_and_its_t4_conversion_are_the_same_space() {
    let ktt = SearchSpace::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("datasets/ktt-coulomb-rtx2080ti/source/coulomb_2080_full_search_space.json.gz"),
    )
    .unwrap();
    let t4 =
        SearchSpace::load(&fixture("coulomb_2080_full_search_space_converted.json.gz")).unwrap();
    assert_eq!(ktt.device, "NVIDIA GeForce RTX 2080 Ti");
    assert_eq!((ktt.len(), t4.len()), (210, 210));
    assert_eq!((ktt.failed(), t4.failed()), (0, 0));
    assert_eq!(ktt.params, t4.params);
    assert_eq!(
        ktt.n_params(),
        5,
        "three parameters never change: the input"
    );
    let (a, b) = (configurations(&ktt), configurations(&t4));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.0, y.0);
        let (tx, ty) = (x.1.unwrap(), y.1.unwrap());
        assert!((tx - ty).abs() <= 1e-12 * tx, "{}: {tx} vs {ty}", x.0);
    }
    // 769.696 microseconds, the file's fastest.
    assert!((t4.optimum().1 - 0.769696).abs() < 1e-12);
    assert_eq!(ktt.describe(ktt.optimum().0), t4.describe(t4.optimum().0));
}

/// CLBlast's tuner output, written here in its shape (the tuner's own files are not in the
/// repository): a search reads it, by content, and finds its optimum.
#[test]
fn clblast_tuner_output() {
    let mut results = Vec::new();
    for (i, (mwg, nwg, vwm)) in [
        (16, 16, 1),
        (16, 32, 2),
        (32, 16, 1),
        (32, 32, 4),
        (64, 64, 2),
    ]
    .into_iter()
    .enumerate()
    {
        results.push(format!(
            "    {{\n      \"kernel\": \"Xgemm\",\n      \"time\": {:.3},\n      \"parameters\": \
             {{\"MWG\": {mwg}, \"NWG\": {nwg}, \"VWM\": {vwm}, \"PRECISION\": 32}}\n    }}",
            5.0 - i as f64 * 0.5
        ));
    }
    let text = format!(
        "{{\n  \"kernel_family\": \"xgemm_1\",\n  \"precision\": \"32\",\n  \"device\": \
         \"Synthetic GPU\",\n  \"results\": [\n{}\n  ]\n}}\n",
        results.join(",\n")
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clblast_xgemm_1_32.json");
    std::fs::write(&path, text).unwrap();
    let s = SearchSpace::load(&path).unwrap();
    assert_eq!((s.len(), s.failed(), s.n_params()), (5, 0, 3));
    assert_eq!(s.device, "Synthetic GPU");
    assert!((s.optimum().1 - 3.0).abs() < 1e-12);
    assert_eq!(s.describe(s.optimum().0), "MWG=64,NWG=64,VWM=2");
    let mut eval = Evaluator::new(&s, 5);
    let best = (0..s.len())
        .filter_map(|id| eval.evaluate(id).time())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(best, s.optimum().1);
}

#[test]
fn a_packed_cache_is_read_by_its_content_whatever_its_name() {
    // The real cache as bzip2 (as some public Kernel Tuner caches are kept), and as gzip under
    // a plain `.json` name: the same space as the fixture.
    let text = cache_text();
    let dir = tempfile::tempdir().unwrap();
    let bz2 = dir.path().join("pnpoly__RTX_2080_Ti.json.bz2");
    let mut enc = bzip2::write::BzEncoder::new(
        std::fs::File::create(&bz2).unwrap(),
        bzip2::Compression::default(),
    );
    enc.write_all(text.as_bytes()).unwrap();
    enc.finish().unwrap();
    // (In a folder of its own: two files of one space name in one folder are refused.)
    std::fs::create_dir(dir.path().join("plain")).unwrap();
    let misnamed = dir.path().join("plain/pnpoly__RTX_2080_Ti.json");
    std::fs::copy(fixture("pnpoly__RTX_2080_Ti.json.gz"), &misnamed).unwrap();
    let want = SearchSpace::load(&fixture("pnpoly__RTX_2080_Ti.json.gz")).unwrap();
    for path in [bz2, misnamed] {
        let got = SearchSpace::load(&path).unwrap();
        assert_eq!(got.name, want.name, "{path:?}");
        assert_eq!(got.params, want.params, "{path:?}");
        assert_eq!(got.len(), want.len(), "{path:?}");
        assert_eq!(got.optimum(), want.optimum(), "{path:?}");
        assert!(
            (0..want.len()).all(|i| got.levels(i) == want.levels(i) && got.time(i) == want.time(i))
        );
    }
    // A folder stands for the bzip2 file too.
    let files = advise::search::space_files::space_files(&[dir.path().to_path_buf()]).unwrap();
    assert_eq!(files.len(), 1);
}

#[test]
fn an_xz_packed_cache_names_the_command_that_unpacks_it() {
    let dir = tempfile::tempdir().unwrap();
    let xz = dir.path().join("cache.json.xz");
    // The xz stream header's magic, then bytes no reader gets to.
    std::fs::write(&xz, [0xfd, b'7', b'z', b'X', b'Z', 0, 0, 4, 0xe6, 0xd6]).unwrap();
    crate::common::advise()
        .args(["search", "--budget", "2%", "--space"])
        .arg(&xz)
        .assert()
        .failure()
        .stderr(predicates::str::contains("compressed with xz"))
        .stderr(predicates::str::contains(format!(
            "`xz -dk {}`",
            xz.display()
        )));
}

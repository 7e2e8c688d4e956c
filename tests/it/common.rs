//! A generated (synthetic) NB/BH campaign for tests: the thesis's inputs, 3 runs, all 64
//! variants, with times and counters computed from each variant's bits by a fixed formula plus
//! seeded noise. It stands in for real data only where the layout, not the numbers, matters.

use std::fmt::Write as _;
use std::path::Path;

use advise::dataset::table::write_rows;
use advise::experiment::synthetic::{campaign, factors};
use advise::variant::Program;
use advise_ml::SplitMix64;

/// The thesis's inputs (Table 4.2) as (bodies, steps).
pub fn inputs(p: Program) -> Vec<(u32, u32)> {
    advise::harness::jobs::thesis_inputs(p)
        .into_iter()
        .map(|i| (i.bodies, i.steps))
        .collect()
}

/// The advise binary, run from the repository root.
pub fn advise() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("advise").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// The real Kernel Tuner cache of pnpoly on an RTX 2080 Ti (tests/fixtures/spaces/PROVENANCE.md)
/// that the search tests run on.
pub fn pnpoly_space() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz")
}

/// A gzipped fixture's text.
pub fn gunzipped_text(path: &Path) -> String {
    use std::io::Read;
    let f = std::fs::File::open(path).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(f)
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// `advise -q ARGS...`, which must succeed, and its standard output read as JSON.
pub fn run_json<I, S>(args: I) -> serde_json::Value
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = advise()
        .arg("-q")
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

/// `advise -q bench transfer --method baselines ARGS...` run in `cwd` (the baselines are
/// enough to see which evaluations run, and fast).
pub fn bench_transfer_baselines(
    cwd: &std::path::Path,
    args: &[&std::ffi::OsStr],
) -> assert_cmd::assert::Assert {
    advise()
        .current_dir(cwd)
        .args(["-q", "bench", "transfer", "--method", "baselines"])
        .args(args)
        .assert()
}

/// Writes `measurements.csv` and `timings.csv` of the library's synthetic campaign
/// (`advise::experiment::synthetic`, 3 counters besides active cycles) into `dir`.
pub fn write_synthetic_campaign(dir: &Path, seed: u64) {
    let (m, t) = campaign(3, seed);
    write_rows(
        std::fs::File::create(dir.join("measurements.csv")).unwrap(),
        &m,
    )
    .unwrap();
    write_rows(std::fs::File::create(dir.join("timings.csv")).unwrap(), &t).unwrap();
}

/// The counters of the real ncu fixture `ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv`.
pub const GINKGO_METRICS: [&str; 14] = [
    "dram__sectors_read.sum",
    "dram__sectors_write.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_write.sum",
    "smsp__inst_executed.sum",
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__thread_inst_executed.sum",
];

/// A synthetic NB campaign whose counters are named `metrics` (and no active cycles, so an
/// advisor trained on it reads raw values): for tests of `advise train/suggest/profile`
/// against a real recorded ncu file with those counters.
pub fn write_synthetic_nb_with(dir: &Path, metrics: &[&str], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut m =
        String::from("program,input,run,variant,kernel,launch,invocations,metric,unit,value\n");
    let mut t = String::from("program,input,run,variant,time_ms,repetitions,checksum_ok\n");
    for (bodies, steps) in inputs(Program::Nb) {
        let input = format!("bodies={bodies},steps={steps}");
        for run in 1..=3 {
            for v in Program::Nb.variants() {
                let bits = v.bits();
                let mut time = bodies as f64 * steps as f64 * 1e-4;
                for (b, f) in factors(Program::Nb).iter().enumerate() {
                    if bits & (1 << b) != 0 {
                        time *= f;
                    }
                }
                time *= 1.0 + 0.004 * (rng.next_f64() - 0.5);
                let key = format!("NB,\"{input}\",{run},{}", v.bit_string());
                for (k, name) in metrics.iter().enumerate() {
                    let shape = 1.0 + 0.3 * ((bits as usize >> (k % 6)) & 1) as f64;
                    let value = 1e3
                        * (k + 1) as f64
                        * (bodies as f64 / 5e4)
                        * shape
                        * (1.0 + 0.01 * rng.next_f64());
                    let _ = writeln!(m, "{key},force,0,1,{name},,{value}");
                }
                let _ = writeln!(t, "{key},{time},5,true");
            }
        }
    }
    std::fs::write(dir.join("measurements.csv"), m).unwrap();
    std::fs::write(dir.join("timings.csv"), t).unwrap();
}

/// Headless Chromium, where installed (`chromium`, `chromium-browser`, `google-chrome`).
pub fn chromium() -> Option<std::path::PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|_| std::path::PathBuf::from(c))
        })
}

/// What the page reports about itself once rendered (see `render_check`).
const CHECK_SCRIPT: &str = r#"<script>
window.addEventListener('load', function () {
  var out = {};
  out.resources = performance.getEntriesByType('resource').map(function (r) { return r.name; });
  out.headings = Array.prototype.map.call(document.querySelectorAll('h1,h2,h3'),
    function (h) { return h.textContent; });
  out.pageOverflow = document.documentElement.scrollWidth > window.innerWidth + 1;
  out.overflowing = Array.prototype.filter.call(
    document.querySelectorAll('p,li,td,th,h1,h2,h3,figcaption,span'),
    function (e) {
      return getComputedStyle(e).overflowX === 'visible'
        && e.getBoundingClientRect().left + e.scrollWidth > window.innerWidth + 1;
    })
    .map(function (e) { return e.tagName + ': ' + e.textContent.slice(0, 60); });
  document.body.setAttribute('data-check', JSON.stringify(out));
});
</script>"#;

/// Renders `html` in headless Chromium (1000 px wide, network off) and checks what a reader
/// would see: nothing fetched from anywhere, every heading in `headings` present, and no text
/// running past the right edge of the page. Skips with a note where Chromium is absent, unless
/// `ADVISE_REQUIRE_CHROMIUM` is set (CI installs Chromium and sets it).
pub fn render_check(html: &std::path::Path, headings: &[&str]) {
    let Some(chrome) = chromium() else {
        assert!(
            std::env::var_os("ADVISE_REQUIRE_CHROMIUM").is_none(),
            "ADVISE_REQUIRE_CHROMIUM is set but Chromium is not installed"
        );
        eprintln!(
            "SKIPPED: Chromium not found; {} not rendered",
            html.display()
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("</body>"), "{}: no </body>", html.display());
    let checked = dir.path().join("checked.html");
    std::fs::write(
        &checked,
        page.replacen("</body>", &format!("{CHECK_SCRIPT}</body>"), 1),
    )
    .unwrap();
    let out = std::process::Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1000,1400",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg(format!("file://{}", checked.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .find("data-check=\"")
        .unwrap_or_else(|| panic!("the check did not run:\n{}", &dom[..dom.len().min(2000)]))
        + "data-check=\"".len();
    let end = start + dom[start..].find('"').unwrap();
    let json = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["resources"], serde_json::json!([]), "resources fetched");
    let found: Vec<&str> = v["headings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h.as_str())
        .collect();
    for h in headings {
        assert!(
            found.iter().any(|f| f.contains(h)),
            "no heading `{h}` in {found:?}"
        );
    }
    assert_eq!(
        v["pageOverflow"], false,
        "the page is wider than the window"
    );
    assert_eq!(
        v["overflowing"],
        serde_json::json!([]),
        "text runs past the page"
    );
}

//! `advise search`: one simulated search on a recorded space.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::output::Output;
use advise::dataset::import::run_noise::RunNoise;
use advise::error::{Error, Result};
use advise::report::table::fmt_sig;
use advise::search::bench::Budget;
use advise::search::{self, SearchSpace};

use super::space_notes::{noise_note, reading_note};

use crate::args::OutputArgs;

/// `advise search`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recorded space.
    ///
    /// A Kernel Tuner cache (.json, .json.gz or .json.bz2, cut-off caches too), a T4 results
    /// file, KTT's JSON output, CLBlast's tuner output (the configurations that ran), or CSV
    /// (parameter columns and a time_ms column).
    #[arg(long)]
    pub space: PathBuf,
    /// The strategy, NAME[:KEY=VALUE,...] (Kernel Tuner's names are accepted too).
    ///
    /// Strategies: auto (the default), exhaustive, random, iterml, shrinking, brt, ga, anneal,
    /// greedy_ils, basinhopping, pso, diff_evo, bayes_opt; Kernel Tuner's random_sample,
    /// genetic_algorithm, simulated_annealing and brute_force name advise's random, ga, anneal
    /// and exhaustive. Settings as NAME:KEY=VALUE,... (iterml:model=cart, shrinking:k=3,vth=2,
    /// brt:hc=25).
    ///
    /// auto's settings (defaults in brackets): init, the random share [0.15], that many working
    /// configurations drawn at random, but at most twice as many measurements; initmin, the
    /// fewest, at most half the budget [10]; initmax, the most, 0 for no cap [25]; offspring,
    /// the share of the budget bred from the five fastest of the random share (uniform
    /// crossover of two, each parameter redrawn with probability 0.1) instead of drawn, where
    /// the share is under initmax, 0 for none [0.1]; offkeep, the random configurations kept
    /// before any are bred [8]; spread, the
    /// configurations drawn for each after the first, the one farthest from those before
    /// measured, 1 for independent draws [1]; perturb, the most parameters a jump changes [2];
    /// temp, the Metropolis temperature
    /// [0.2]; bo, the share of Bayesian-optimisation steps before the first descent, 0 for none
    /// [0.2]; bomin, the smallest budget that gets Bayesian steps [20]; bobudget, the largest, 0 for
    /// any [4000]; bomax, the most steps
    /// before the first descent [20]; bowideat, bowide and bowidemax, where the random
    /// configurations hold on average at least bowideat times the budget in single changes, the
    /// share and most steps before the first descent instead, 0 for never [0.45, 0.4, 40]; bojump,
    /// Bayesian steps at each local minimum, 0 for none [3]; bojmax, the most Bayesian steps in one
    /// search, the first ones included [30]; bocand, random candidates scored per step [50];
    /// bocorner, corners of the parameters' box (each parameter at its first or last value) scored
    /// per step besides: every unmeasured one where at most this many are left, else those among
    /// twice as many draws; 0 for none [8]; botrain, fastest measurements the Gaussian process is
    /// fitted on [30]; boscale, the process's parameter scaling, unit (each over [0, 1]) or kt
    /// (every level one step apart, as Kernel Tuner's) [kt]; botarget, what it models, log or time
    /// [time]; boell, a fixed length scale, 0 for the marginal likelihood's choice [0]; boalt,
    /// every other step's fixed length scale, 0 for none [1.5]; boaltfrom, the smallest budget
    /// (evaluations) that takes those steps [200]; bofail, what a failed measurement is to the
    /// process: slowest (the slowest time seen, as Kernel Tuner's), drop (the process learns
    /// from the ones that ran) or weigh (as drop, each candidate's expected improvement weighed
    /// by its estimated chance of running) [weigh]; bofailpow, the power of that chance, and
    /// bofailell, its length scale in level steps, 0 for the process's own (with weigh only)
    /// [0.5, 0]; repair, repairs of a single change the space lacks measured per descent step where no single change helps, 0 for none [1]; repfloor, the
    /// fewest neighbours a local minimum is checked against: where the space holds fewer single
    /// changes of it, more repairs make up the difference, 0 for repair alone [8]; modelrows,
    /// measurements per model column before the model orders neighbours whatever its record [1];
    /// gate, the share of pairs of measured neighbours its predictions must rank right to order
    /// them before that, 0 for never [0.65]; momentum, after an improving step to an adjacent value
    /// try the same step again first, 0 for no [1]; rebest, local minima in a row without a new
    /// best before the descent starts again from the fastest measured configuration that differs
    /// from the best in at least half the parameters, 0 for never [2]; twins, where no single
    /// change is faster, two parameters with the same list of three or more values, at the same
    /// value, moved one level together, 0 for no [1]; mirror, at a local minimum, before a
    /// random jump, its transpose (the values of each x and y pair of parameters, such as
    /// block_size_x and block_size_y, and of a matrix multiply's M and N pairs, such as MWG and
    /// NWG, swapped), 0 for no [1]; mirrorfrom, the smallest budget (evaluations) that
    /// transposes x and y pairs [100]; mirrorgemm, the smallest that transposes M and N pairs
    /// [0]; stall and stallmin, stop once this share of
    /// the budget, and at least stallmin evaluations, found nothing faster, 0 for never [0.333,
    /// 4000]; free, where a measured neighbour is faster than the descent's configuration,
    /// move to the fastest such one without measuring, in the adjacent stage or in all (as
    /// Kernel Tuner's cache does): off, adjacent or all [adjacent]; freefrom, the share of the
    /// space measured before those free moves start [0.025]; monotone, the fewest measured
    /// pairs one change of a parameter of six or more levels apart that, at most one in 20
    /// disagreeing, make it monotone (a clock frequency): no step or jump then moves it the
    /// slower way and the descent tries its farthest level the faster way first, 0 for never
    /// [4]; linecap and lineflat, where no adjacent value is faster, at most linecap other
    /// values of one parameter measured, those the model ranks first, where the measured values
    /// one step either way are within lineflat of the time, 0 for no cap and for every
    /// parameter [4, 0.03]; and, for trying its parts one
    /// at a time, the local search's nb (vnd|adjacent|hamming) [vnd], model (0: neighbours in
    /// random order) [1],
    /// noise, scan and restart [0]. greedy_ils and basinhopping take nb, perturb, temp, restart,
    /// init, initmin, noise, scan, model, modelrows, gate (both 0 there) and repair. bayes_opt
    /// takes scale, target, ell, alt, altfrom, fail, failpow and failell [kt, log, 0, 0, 0,
    /// slowest, 1, 0].
    #[arg(long, default_value = "auto")]
    pub strategy: String,
    /// Evaluations allowed: a count (100) or a share of the space (2%).
    #[arg(long, allow_hyphen_values = true)]
    pub budget: String,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Also write every measurement in order to this CSV file (compressed where the name
    /// ends in `.gz`): its number, the configuration's parameters, its time in ms (empty
    /// where it failed) and the best time and fraction of the optimum so far.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    search_one(&args, &args.out.clone().into())
}

#[derive(Debug, Serialize)]
struct SearchReport {
    space: String,
    configurations: usize,
    failed_configurations: usize,
    strategy: String,
    budget: usize,
    seed: u64,
    evaluations: usize,
    best_config: Option<serde_json::Map<String, serde_json::Value>>,
    best_time_ms: Option<f64>,
    optimum_time_ms: f64,
    optimum_config: serde_json::Map<String, serde_json::Value>,
    fraction_of_optimum: f64,
    /// How finely the recording tells its fastest configurations apart, where it keeps runs.
    run_noise: Option<RunNoise>,
    /// Whether the file was cut off and only its complete entries were read.
    cut_off: bool,
    /// Entries that repeat a configuration listed before them (the first one's time stands).
    repeated_entries: usize,
    /// Kernel Tuner cache entries whose key a later entry repeated (the later one stands).
    repeated_keys: usize,
    /// Configurations with a value the cache's `tune_params` do not list (Kernel Tuner's
    /// simulation mode never visits them).
    outside_tune_params: usize,
    /// Entries whose time lies outside 1e-9 to 1e12 ms (old Kernel Tuner versions wrote 1e20
    /// for a failure): counted as failed.
    times_out_of_range: usize,
}

fn config_json(space: &SearchSpace, id: usize) -> serde_json::Map<String, serde_json::Value> {
    space
        .assignment(id)
        .into_iter()
        .map(|(k, v)| (k, serde_json::Value::String(v)))
        .collect()
}

/// Writes one search's measurements, in order, as CSV (compressed where the name ends in
/// `.gz`).
fn write_trace(space: &SearchSpace, o: &search::Outcome, path: &Path) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["evaluation".to_string()];
    header.extend(space.params.iter().cloned());
    header.extend(["time_ms", "best_time_ms", "fraction_of_optimum"].map(String::from));
    w.write_record(&header).map_err(|e| Error::write(path, e))?;
    let optimum = space.optimum().1;
    for (i, (&id, &best)) in o.measured.iter().zip(&o.trace).enumerate() {
        let mut row = vec![(i + 1).to_string()];
        row.extend(space.assignment(id).into_iter().map(|(_, v)| v));
        row.push(space.time(id).map_or(String::new(), |t| t.to_string()));
        let found = best.is_finite();
        row.push(if found {
            best.to_string()
        } else {
            String::new()
        });
        row.push(if found {
            (optimum / best).to_string()
        } else {
            "0".into()
        });
        w.write_record(&row).map_err(|e| Error::write(path, e))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::io(path, e.into_error()))?;
    advise::profile::compressed::write_by_name(path, &bytes, flate2::Compression::default())
}

/// `--trace` writes CSV: a name that says another format is refused before the search.
fn check_trace_name(path: &Path) -> Result<()> {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    if name.ends_with(".json") || name.ends_with(".txt") {
        return Err(Error::Usage(format!(
            "--trace {}: the trace is CSV; name a .csv file (or .csv.gz, compressed)",
            path.display()
        )));
    }
    Ok(())
}

/// "N of BUDGET", and where the search stopped before its budget with configurations left,
/// how many measurements since its best last improved.
fn evaluations_line(o: &search::Outcome, budget: usize, configurations: usize) -> String {
    let line = format!("{} of {budget}", o.evaluations);
    if o.evaluations >= budget.min(configurations) {
        return line;
    }
    let last = o.trace.last().copied().unwrap_or(f64::INFINITY);
    let found_at = o.trace.iter().position(|&b| b == last).map_or(0, |i| i + 1);
    format!(
        "{line} (stopped early: the last {} found nothing faster{})",
        o.evaluations - found_at,
        if o.strategy.starts_with("auto") {
            "; auto:stall=0 spends the whole budget"
        } else {
            ""
        }
    )
}

fn search_one(args: &Args, out: &Output) -> Result<()> {
    if args.space.is_dir() {
        return Err(Error::Usage(format!(
            "{} is a folder: `advise search` searches one space file; `advise search-bench \
             --space {}` runs on every space in a folder",
            args.space.display(),
            args.space.display()
        )));
    }
    if let Some(path) = &args.trace {
        check_trace_name(path)?;
    }
    let space = SearchSpace::load(&args.space)?;
    let strategy = search::strategy(&args.strategy)?;
    let budget = Budget::parse(&args.budget)?.evaluations(space.len());
    let seed = args.seed;
    let o = search::run(&space, strategy.as_ref(), budget, seed)?;
    if let Some(path) = &args.trace {
        write_trace(&space, &o, path)?;
    }
    let (opt_id, opt_time) = space.optimum();
    let report = SearchReport {
        space: space.name.clone(),
        configurations: space.len(),
        failed_configurations: space.failed(),
        strategy: o.strategy.clone(),
        budget,
        seed,
        evaluations: o.evaluations,
        best_config: o.best.map(|id| config_json(&space, id)),
        best_time_ms: o.best_time_ms,
        optimum_time_ms: opt_time,
        optimum_config: config_json(&space, opt_id),
        fraction_of_optimum: o.fraction_of_optimum,
        run_noise: space.run_noise,
        cut_off: space.cut_off,
        repeated_entries: space.repeated,
        repeated_keys: space.repeated_keys,
        outside_tune_params: space.outside_tune_params,
        times_out_of_range: space.times_out_of_range,
    };
    if out.json {
        return out.emit_json(&report);
    }
    let best = o
        .best
        .map_or("none (every measured configuration failed)".into(), |id| {
            space.describe(id)
        });
    let lines = [
        (
            "space",
            format!(
                "{} ({} configurations, {} failed)",
                report.space, report.configurations, report.failed_configurations
            ),
        ),
        ("strategy", format!("{} (seed {seed})", report.strategy)),
        ("evaluations", evaluations_line(&o, budget, space.len())),
        ("best found", best),
        (
            "its time",
            o.best_time_ms
                .map_or("-".into(), |t| format!("{} ms", fmt_sig(t, 6))),
        ),
        (
            "optimum",
            format!("{} ms ({})", fmt_sig(opt_time, 6), space.describe(opt_id)),
        ),
        (
            "fraction of optimum",
            format!("{:.4}", o.fraction_of_optimum),
        ),
    ];
    let mut text: String = lines
        .iter()
        .map(|(k, v)| format!("{k:<20} {v}\n"))
        .collect();
    for note in reading_note(&space).into_iter().chain(noise_note(&space)) {
        text += &format!("note: {note}\n");
    }
    out.emit(&text)
}

//! What `advise suggest` and `advise profile` are given besides the counters: the launch facts
//! (with the GPU the user named), the levels of the tuning parameters (with those the user
//! gave), and the optimizations left out because the source already applies them or has
//! nothing for them to change; the host link the user gave (`--host-link`) and the names
//! `--applied` takes.

use std::path::Path;

use super::output::note;
use super::suggest::SuggestSettings;
use advise::dataset::host_link::{HostLink, COHERENT_SIGNS};
use advise::dataset::measurements::MeasurementRow;
use advise::error::{Error, Result};
use advise::recommend::bundle::Advisor;
use advise::recommend::suggest::{self as suggesting, NotSuggested};

/// The profile's launch facts, with the GPU the user named in place of the profile's (noted
/// where `say` and the profile names another).
pub fn launch_of(
    rows: &[advise::dataset::measurements::MeasurementRow],
    gpu: Option<&str>,
    say: bool,
) -> Result<advise::recommend::step_model::ProfileLaunch> {
    let mut launch = advise::recommend::step_model::ProfileLaunch::of_rows(rows);
    if let Some(g) = gpu {
        let cc = advise::experiment::launch::compute_capability_given(g).ok_or_else(|| {
            Error::Usage(format!(
                "--gpu {}: neither a compute capability this advise knows (7.5, sm_90) nor a \
                 GPU name it knows (RTX 2080 Ti, A100, H100)",
                advise::error::shown_text(g)
            ))
        })?;
        match &launch.compute_capability {
            Some(own) if say && *own != cc => note(&format!(
                "--gpu {g} (compute capability {cc}) replaces the profile's own, {own}: the \
                 occupancy of a block-size step is computed for the GPU named"
            )),
            _ => {}
        }
        launch.compute_capability = Some(cc);
    }
    Ok(launch)
}

/// The levels of the profile's launches, overridden by those the user gave (said where they
/// differ, when `say` holds). A level is a whole number from 1 to 1024: a profile's block
/// size outside that is damage (no GPU launches a block of more than 1024 threads), refused
/// unless `--level` gives the block size; a family given twice is refused.
pub fn levels_of(
    profile: &Path,
    rows: &[MeasurementRow],
    given: &[String],
    say: bool,
) -> Result<std::collections::BTreeMap<String, f64>> {
    let whole_level = |v: f64| (1.0..=1024.0).contains(&v) && v.fract() == 0.0;
    let mut out = advise::recommend::step_model::profile_levels(rows);
    let mut named: Vec<String> = Vec::new();
    for g in given {
        let bad = || {
            Error::Usage(format!(
                "--level {g}: write FAMILY=VALUE with a whole number from 1 to 1024, e.g. \
                 BLOCK_SIZE=256 (threads per block, which no GPU takes over 1024), TILE_SIZE=4 \
                 or UNROLL=2"
            ))
        };
        let (family, value) = g.split_once('=').ok_or_else(bad)?;
        let family = family.trim().to_ascii_uppercase();
        if family.is_empty() {
            return Err(bad());
        }
        let value: f64 = value.trim().parse().map_err(|_| bad())?;
        // Threads per block, outputs per thread and unroll factors are whole numbers, and a
        // level far outside any training space would be extrapolated into nonsense.
        if !whole_level(value) {
            return Err(bad());
        }
        if advise::recommend::step_model::level_meaning(&family).is_none() {
            return Err(Error::Usage(format!(
                "--level {g}: {family} has no levels; BLOCK_SIZE, TILE_SIZE and UNROLL do"
            )));
        }
        if named.contains(&family) {
            return Err(Error::Usage(format!(
                "--level {g}: {family} is given twice; give each family once"
            )));
        }
        named.push(family.clone());
        if let Some(&shown) = out.get(&family).filter(|&&v| say && v != value) {
            note(&format!(
                "--level {family}={value} stands; the profile shows {shown}"
            ));
        }
        out.insert(family, value);
    }
    // Registers per thread: a whole number of at most 255 (the most any GPU gives a thread).
    if let Some(r) = rows.iter().find(|r| {
        advise::experiment::launch::names_registers(r)
            && !(r.value >= 0.0 && r.value <= 255.0 && r.value.fract() == 0.0)
    }) {
        return Err(Error::Data(format!(
            "{}: a launch of {} uses {} registers per thread (launch__registers_per_thread, \
             \"Registers Per Thread\"): no GPU gives a thread a fraction of one, fewer than 0 \
             or more than 255, so the profile is damaged; profile the program again",
            profile.display(),
            r.kernel,
            r.value
        )));
    }
    if let Some(&size) = out.get("BLOCK_SIZE").filter(|&&v| !whole_level(v)) {
        let size = if size < 1e6 {
            format!("{size}")
        } else {
            format!("{size:e}")
        };
        return Err(Error::Data(format!(
            "{}: its launches' block size (launch__block_size, \"Block Size\") is {size} \
             threads: no GPU launches a block of a fraction of a thread or of more than 1024, \
             so the profile is damaged; profile the program again, or give the block size \
             with --level BLOCK_SIZE=N",
            profile.display()
        )));
    }
    Ok(out)
}

/// The settings `advise profile` can check before it runs ncu (minutes to hours on a real
/// GPU): `--gpu`, `--level`, that `--source` is a file and `--report-dir` no file; each
/// refused as `suggest` would refuse it after the profile.
pub fn check_before_profiling(s: &SuggestSettings) -> Result<()> {
    launch_of(&[], s.gpu.as_deref(), false)?;
    levels_of(Path::new(""), &[], &s.levels, false)?;
    if let Some(src) = &s.source {
        if std::fs::metadata(src)
            .map_err(|e| Error::io(src, e))?
            .is_dir()
        {
            return Err(Error::io(
                src,
                std::io::Error::from(std::io::ErrorKind::IsADirectory),
            ));
        }
    }
    if let Some(dir) = s.report.as_ref().filter(|d| d.exists() && !d.is_dir()) {
        return Err(Error::io(
            dir,
            std::io::Error::from(std::io::ErrorKind::AlreadyExists),
        ));
    }
    Ok(())
}

/// The optimizations to leave out beyond those the user named (`--applied`), each with why:
/// those the source already applies or gives nothing to apply to (where `advisor` knows them).
pub fn source_checks(
    s: &SuggestSettings,
    advisor: &Advisor,
    profiled: &[String],
) -> Result<Vec<NotSuggested>> {
    let mut out: Vec<NotSuggested> = Vec::new();
    if let Some(src) = &s.source {
        let (found, inapplicable) =
            advise::static_analysis::optimization_facts_for(src, &Default::default(), profiled)?;
        let known = |name: &str| {
            advisor
                .optimizations
                .iter()
                .any(|m| suggesting::is_applied(&m.name, name))
        };
        for n in inapplicable {
            if known(n.name) {
                leave_out(
                    &mut out,
                    &s.applied,
                    n.name,
                    format!("does not apply to {}: {}", src.display(), n.reason),
                );
            }
        }
        for d in found {
            if d.optimization.is_some() {
                leave_out(
                    &mut out,
                    &s.applied,
                    &d.name,
                    format!(
                        "is already applied in {} ({} x {})",
                        d.kernel, d.count, d.evidence
                    ),
                );
            }
        }
    }
    Ok(out)
}

/// Leaves `name` out of the suggestions with `reason`, which reads on from the name ("is
/// already applied in ..."), unless it already is or the user `named` it (`--applied`). The
/// report says it ("Not suggested: ..."), and the JSON's `not_suggested`.
pub fn leave_out(out: &mut Vec<NotSuggested>, named: &[String], name: &str, reason: String) {
    if !out.iter().any(|o| o.optimization == name) && !named.iter().any(|n| n == name) {
        out.push(NotSuggested {
            optimization: name.to_string(),
            reason,
        });
    }
}

/// `--host-link`: where the profile shows no link, its rows get the device attribute a raw
/// page would carry (`COHERENT_SIGNS`' first: 1 coherent, 0 PCIe), so that every step reads
/// the link as from the profile; where it shows the other link, an error. Returns whether the
/// link is the user's (the profile showed none).
pub fn given_host_link(rows: &mut Vec<MeasurementRow>, link: HostLink, csv: &Path) -> Result<bool> {
    match HostLink::of_rows(rows) {
        Some(own) if own != link => Err(Error::Usage(format!(
            "--host-link {}: {} shows {} in its device attributes; leave --host-link out",
            link.label(),
            csv.display(),
            own.describe()
        ))),
        Some(_) => Ok(false),
        None => {
            let Some(first) = rows.first() else {
                return Ok(false);
            };
            let mut row = first.clone();
            row.metric = COHERENT_SIGNS[0].to_string();
            row.unit = String::new();
            row.value = if link == HostLink::Coherent { 1.0 } else { 0.0 };
            rows.push(row);
            Ok(true)
        }
    }
}

/// The advisor's optimizations as `--applied` takes them: the families of step models
/// (`TILE_SIZE`), each name once.
pub fn known_names(advisor: &Advisor) -> Vec<String> {
    let mut names: Vec<String> = advisor
        .optimizations
        .iter()
        .map(|m| advise::recommend::step_model::family_of(&m.name).to_string())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

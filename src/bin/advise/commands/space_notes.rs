//! What `advise search` and `search-bench` say beside a space's results: how its file was
//! read (cut off, repeated entries) and how noisy its recorded times are; and what
//! `search-bench` left out (files it could not read, budgets larger than a space).

use advise::dataset::import::run_noise::RunNoise;
use advise::search::bench::SkippedCell;
use advise::search::SearchSpace;

/// A space file `search-bench` could not read, and why.
#[derive(Debug, Clone, serde::Serialize)]
pub struct UnreadFile {
    pub file: String,
    pub error: String,
}

/// The text report's list of what was left out of the results; nothing where nothing was.
pub fn left_out_section(unread: &[UnreadFile], skipped: &[SkippedCell]) -> String {
    let budgets = skipped.iter().map(|c| {
        let plural = if c.configurations == 1 { "" } else { "s" };
        format!(
            "{} at {}: the budget ({} evaluations) is larger than the space ({} \
             configuration{plural})",
            c.space, c.budget, c.budget_evaluations, c.configurations
        )
    });
    titled_list(
        "Left out of the results",
        unread.iter().map(|u| u.error.clone()).chain(budgets),
    )
}

/// Below this standard error of the fastest configurations' mean times, relative to them, a
/// recording's noise is left out of the text report (the JSON always has it).
pub const NOISE_WORTH_SAYING: f64 = 0.01;

/// The sentence on how a space's file was read, where it was cut off
/// ([`SearchSpace::cut_off`]: its searches are of the entries read, not of the whole run) or
/// repeats configurations ([`SearchSpace::repeated`]); `advise search` and `search-bench` say
/// it.
pub fn reading_note(space: &SearchSpace) -> Option<String> {
    let mut facts = Vec::new();
    if space.cut_off {
        facts.push(format!(
            "the file was cut off (a Kernel Tuner run that did not finish?); its {} complete \
             entries were read, and fractions are of their fastest, which the whole space may \
             beat",
            space.len()
        ));
    }
    match space.repeated {
        0 => {}
        1 => facts.push(
            "1 entry repeats a configuration listed before it; the first entry's time stands"
                .into(),
        ),
        n => facts.push(format!(
            "{n} entries repeat a configuration listed before them; the first entry's time \
             stands"
        )),
    }
    match space.repeated_keys {
        0 => {}
        1 => facts.push(
            "1 entry repeats the key of one before it; the later entry's time stands, as \
             Python's json module (and so Kernel Tuner) reads it"
                .into(),
        ),
        n => facts.push(format!(
            "{n} entries repeat the key of one before them; the later entries' times stand, \
             as Python's json module (and so Kernel Tuner) reads them"
        )),
    }
    if space.outside_tune_params > 0 {
        let (n, gives) = match space.outside_tune_params {
            1 => ("1 of its configurations".to_string(), "gives"),
            n => (format!("{n} of its configurations"), "give"),
        };
        facts.push(format!(
            "{n} {gives} a parameter a value the cache's tune_params do not list; Kernel \
             Tuner's simulation mode never visits them, so its searches of this file and \
             advise's are of different spaces"
        ));
    }
    match space.times_out_of_range {
        0 => {}
        1 => facts.push(
            "1 entry records a time outside 1e-9 to 1e12 ms (old Kernel Tuner versions wrote \
             1e20 for a failure) and counts as failed"
                .into(),
        ),
        n => facts.push(format!(
            "{n} entries record a time outside 1e-9 to 1e12 ms (old Kernel Tuner versions \
             wrote 1e20 for a failure) and count as failed"
        )),
    }
    (!facts.is_empty()).then(|| format!("{}: {}", space.name, facts.join("; ")))
}

/// The sentence on a space's recorded noise where it is worth saying ([`NOISE_WORTH_SAYING`]
/// or more; `advise search` and `search-bench` say it).
pub fn noise_note(space: &SearchSpace) -> Option<String> {
    space
        .run_noise
        .filter(|n| n.standard_error >= NOISE_WORTH_SAYING)
        .map(|n| noise_sentence(&space.name, &n))
}

/// One sentence on a recording's noise.
fn noise_sentence(space: &str, n: &RunNoise) -> String {
    let warm = match n.warm_up_first_runs {
        0 => String::new(),
        w => {
            format!("; in {w} of them the first run is a warm-up, over 1.5 times the slowest other")
        }
    };
    format!(
        "{space}: the recorded runs give the mean times of its {} fastest configurations a \
         standard error of {:.1}% ({} runs each{warm}): fractions of the optimum closer than \
         that are not told apart",
        n.configurations,
        n.standard_error * 100.0,
        n.runs
    )
}

/// A titled list of the notes `note` has on `spaces`; nothing where it has none.
pub fn notes_section(
    title: &str,
    spaces: &[SearchSpace],
    note: fn(&SearchSpace) -> Option<String>,
) -> String {
    titled_list(title, spaces.iter().filter_map(note))
}

/// `items` as a list under `title`, after a blank line; nothing where there are none.
fn titled_list(title: &str, items: impl Iterator<Item = String>) -> String {
    let items: String = items.map(|n| format!("- {n}\n")).collect();
    match items.is_empty() {
        true => String::new(),
        false => format!("\n{title}\n\n{items}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advise::dataset::import::{Config, TuningSpace};

    /// A SYNTHETIC space of `times.len()` configurations of one parameter; `repeats` of them
    /// are listed twice.
    fn space(times: &[f64], repeats: usize) -> SearchSpace {
        let cfg = |i: usize, t: f64| Config {
            values: vec![i.to_string()],
            time_ms: Some(t),
            failure: None,
            counters: vec![],
        };
        let mut configs: Vec<Config> = times.iter().enumerate().map(|(i, &t)| cfg(i, t)).collect();
        configs.extend((0..repeats).map(|i| cfg(i, 100.0)));
        let t = TuningSpace {
            tool: "test",
            device: "gpu".into(),
            kernel: "k".into(),
            params: vec!["x".into()],
            configs,
            notes: vec![],
            run_noise: None,
        };
        SearchSpace::from_tuning("k".into(), &t).expect("a valid space")
    }

    fn noise(standard_error: f64, warm_up_first_runs: usize) -> RunNoise {
        RunNoise {
            configurations: 10,
            runs: 7,
            standard_error,
            warm_up_first_runs,
        }
    }

    #[test]
    fn a_clean_space_has_no_notes() {
        let s = space(&[1.0, 2.0, 3.0], 0);
        assert_eq!(reading_note(&s), None);
        assert_eq!(noise_note(&s), None);
        assert_eq!(notes_section("Title", &[s], reading_note), "");
    }

    #[test]
    fn repeats_and_a_cut_off_are_said_in_one_sentence() {
        let one = space(&[1.0, 2.0, 3.0], 1);
        assert_eq!(one.repeated, 1);
        assert_eq!(
            reading_note(&one).as_deref(),
            Some("k: 1 entry repeats a configuration listed before it; the first entry's time stands")
        );
        let mut two = space(&[1.0, 2.0, 3.0], 2);
        two.cut_off = true;
        let note = reading_note(&two).expect("a note");
        assert!(note.starts_with("k: the file was cut off"), "{note}");
        assert!(note.contains("its 3 complete entries were read"), "{note}");
        assert!(note.ends_with("; 2 entries repeat a configuration listed before them; the first entry's time stands"), "{note}");
        let section = notes_section("How the files were read", &[one, two], reading_note);
        assert!(
            section.starts_with("\nHow the files were read\n\n- k: 1 entry"),
            "{section}"
        );
        assert_eq!(section.matches("\n- ").count(), 2, "{section}");
        // A Kernel Tuner cache's repeated key: the later entry stands, and is said.
        let mut keys = space(&[1.0, 2.0], 0);
        keys.repeated_keys = 1;
        let note = reading_note(&keys).expect("a note");
        assert!(
            note.contains(
                "1 entry repeats the key of one before it; the later entry's time stands"
            ),
            "{note}"
        );
    }

    #[test]
    fn noise_is_said_from_one_percent_with_its_warm_ups() {
        let mut s = space(&[1.0, 2.0], 0);
        s.run_noise = Some(noise(0.009, 0));
        assert_eq!(noise_note(&s), None);
        s.run_noise = Some(noise(0.025, 0));
        let quiet = noise_note(&s).expect("a note");
        assert!(
            quiet.contains("a standard error of 2.5% (7 runs each)"),
            "{quiet}"
        );
        assert!(!quiet.contains("warm-up"), "{quiet}");
        s.run_noise = Some(noise(0.025, 3));
        let warm = noise_note(&s).expect("a note");
        assert!(
            warm.contains("(7 runs each; in 3 of them the first run is a warm-up"),
            "{warm}"
        );
    }
}

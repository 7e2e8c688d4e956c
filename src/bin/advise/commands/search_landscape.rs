//! `advise search-landscape`: how a recorded space looks to local search (its local minima and
//! basins of attraction), as text tables or JSON.

use std::path::PathBuf;

use serde::Serialize;

use super::output::Output;
use super::search_bench::{parse_fractions, read_spaces};
use super::space_notes::{left_out_section, UnreadFile};
use crate::args::OutputArgs;
use advise::error::{Error, Result};
use advise::report::table::TextTable;
use advise::search::landscape::{landscape, Landscape, LandscapeSettings, Neighbourhood};
use advise::search::space_files::space_files;
use advise::search::SearchSpace;

/// `advise search-landscape`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Recorded spaces: files (Kernel Tuner caches, T4 results, KTT or CLBlast output, CSV),
    /// or folders, which stand for the .json and .csv files in them. A file that cannot be
    /// read is named in a warning and left out.
    #[arg(long, required = true, num_args = 1..)]
    pub space: Vec<PathBuf>,
    /// Fractions of the optimum a local minimum counts as good at (comma-separated); the first
    /// decides the basins' escapes and the --by shares.
    #[arg(long, value_name = "FRACTIONS", default_value = "0.95")]
    pub at: String,
    /// The neighbours a descent steps to: hamming (any other value of one parameter) or
    /// adjacent (one parameter one level up or down, the first stage of `auto`'s descents).
    #[arg(long = "neighbourhood", alias = "nb", value_name = "NB", default_value = "hamming", value_parser = ["hamming", "adjacent"])]
    pub neighbourhood: String,
    /// The largest basins listed (0: none).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub basins: usize,
    /// Parameters (comma-separated names) whose value combinations each get the share of
    /// their starts that end at the first --at fraction or better: where a descent should
    /// begin.
    #[arg(long, value_name = "PARAMS", default_value = "")]
    pub by: String,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    method: &'static str,
    landscapes: &'a [Landscape],
    /// Files that could not be read, left out.
    unread: &'a [UnreadFile],
}

const METHOD: &str = "every configuration that ran, followed by steepest descent over \
                      single-parameter changes (any other value, or with --neighbourhood \
                      adjacent one level up or down; a configuration the space lacks or that \
                      failed is no neighbour; ties to the one listed first) to its local minimum";

pub fn run(args: Args) -> Result<()> {
    let out: Output = args.out.clone().into();
    let at = parse_fractions("--at", &args.at)?;
    if at.is_empty() {
        return Err(Error::Usage(
            "--at: give at least one fraction of the optimum (0.95)".into(),
        ));
    }
    let names: Vec<&str> = args
        .by
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if let Some(twice) = names
        .iter()
        .enumerate()
        .find_map(|(i, n)| names[..i].contains(n).then_some(n))
    {
        return Err(Error::Usage(format!("--by: {twice} is given twice")));
    }
    let (spaces, unread) = read_spaces(&space_files(&args.space)?, "the landscapes")?;
    let mut landscapes = Vec::with_capacity(spaces.len());
    for space in &spaces {
        let settings = LandscapeSettings {
            neighbourhood: if args.neighbourhood == "adjacent" {
                Neighbourhood::Adjacent
            } else {
                Neighbourhood::Hamming
            },
            at: at.clone(),
            basins: args.basins,
            by: by_params(space, &names)?,
        };
        landscapes.push(landscape(space, &settings));
    }
    if out.json {
        return out.emit_json(&JsonReport {
            method: METHOD,
            landscapes: &landscapes,
            unread: &unread,
        });
    }
    let mut text = format!("Local search's view of each space: {METHOD}.\n");
    for l in &landscapes {
        text += &render(l);
    }
    text += &left_out_section(&unread, &[]);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    out.emit(&text)
}

/// The indices of the `--by` parameters in `space`, or an error naming those it lacks.
fn by_params(space: &SearchSpace, names: &[&str]) -> Result<Vec<usize>> {
    names
        .iter()
        .map(|&n| {
            space.params.iter().position(|p| p == n).ok_or_else(|| {
                Error::Usage(format!(
                    "--by {n}: {} has no tuning parameter `{n}` that varies; it has {}",
                    space.name,
                    space.params.join(", ")
                ))
            })
        })
        .collect()
}

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// One space's tables.
fn render(l: &Landscape) -> String {
    let mut header = vec![
        "descents from".to_string(),
        "starts".into(),
        "down to".into(),
    ];
    header.extend(
        l.from_random
            .iter()
            .map(|s| format!("ending at >= {}", s.at)),
    );
    let mut starts = TextTable::new(header);
    let mut row = vec![
        "any configuration".to_string(),
        l.configurations.to_string(),
    ];
    row.push("-".into());
    row.extend(l.from_random.iter().map(|s| percent(s.share)));
    starts.push(row);
    for f in &l.from_fastest {
        let mut row = vec![
            format!("the fastest {}", percent(f.fastest).replace(".0%", "%")),
            f.starts.to_string(),
            format!("{:.3}", f.down_to),
        ];
        row.extend(f.reach.iter().map(|s| percent(s.share)));
        starts.push(row);
    }
    let first = l.from_random.first().map_or(1.0, |s| s.at);
    let mut basins = TextTable::new([
        "minimum's fraction".to_string(),
        "share of starts".into(),
        format!("two-change jumps to a minimum >= {first}"),
        "minimum".into(),
    ]);
    for b in &l.basins {
        basins.push([
            format!("{:.3}", b.fraction),
            percent(b.share),
            b.escapes.map_or("-".into(), |(good, all)| {
                format!(
                    "{good} of {all} ({})",
                    percent(good as f64 / all.max(1) as f64)
                )
            }),
            assignment(&b.minimum),
        ]);
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut text = format!(
        "\n{}: {} that ran, {} ({} neighbourhood)\n\n{}",
        l.space,
        plural(l.configurations, "configuration", "configurations"),
        plural(l.local_minima, "local minimum", "local minima"),
        if l.neighbourhood == Neighbourhood::Adjacent {
            "adjacent"
        } else {
            "Hamming"
        },
        starts.render(),
    );
    if !l.basins.is_empty() {
        text += &format!("\nThe largest basins\n\n{}", basins.render());
    }
    if !l.by.is_empty() {
        let mut by = TextTable::new([
            "starting at".to_string(),
            "starts".into(),
            format!("ending at >= {first}"),
        ]);
        for c in &l.by {
            by.push([
                assignment(&c.values),
                c.starts.to_string(),
                percent(c.share),
            ]);
        }
        text += &format!("\nBy where a descent starts\n\n{}", by.render());
    }
    text
}

fn assignment(values: &[(String, String)]) -> String {
    values
        .iter()
        .map(|(p, v)| format!("{p}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

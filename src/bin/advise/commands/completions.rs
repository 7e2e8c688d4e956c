//! `advise completions SHELL` and `advise man`: generated from the command line's own
//! definition, so they never fall behind it.

use clap::CommandFactory;

use super::output::Output;
use crate::cli::Cli;
use advise::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(args: Args) -> Result<()> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "advise", &mut buf);
    Output::default().emit(&String::from_utf8_lossy(&buf))
}

/// The exit statuses (src/error.rs's table, README's "Exit status").
const EXIT_STATUS: [(u8, &str); 6] = [
    (0, "done"),
    (
        2,
        "usage: an argument or option is wrong, or a program to profile is not found",
    ),
    (
        3,
        "bad input data: a file or dataset is malformed or cannot serve the request",
    ),
    (
        4,
        "an external tool is missing or failed (nvcc, ncu, GPGPU-Sim, the profiled program)",
    ),
    (5, "a file could not be read or written"),
    (1, "an internal error (please report it)"),
];

/// The environment variables most runs meet (README's "Environment variables" has them all).
const ENVIRONMENT: [(&str, &str); 4] = [
    (
        "NVCC, PTXAS, CUOBJDUMP",
        "the CUDA tools (else PATH, /usr/local/cuda/bin, /opt/cuda/bin)",
    ),
    ("NCU", "Nsight Compute's command line (profile, collect)"),
    (
        "ADVISE_MODEL",
        "the advisor suggest and profile use instead of models/default.advisor.json.gz",
    ),
    (
        "GPGPUSIM_ROOT",
        "the built GPGPU-Sim (collect --backend gpgpu-sim)",
    ),
];

/// One page for the whole tool: clap_mangen's sections but its SUBCOMMANDS, which name a
/// page per command (`advise-demo(1)`) that is never written; a COMMANDS section that points
/// to `advise COMMAND --help` instead, then EXIT STATUS and ENVIRONMENT.
pub fn man() -> Result<()> {
    let cmd = Cli::command();
    let page = clap_mangen::Man::new(cmd.clone());
    let mut buf = Vec::new();
    let failed = |e: std::io::Error| Error::Internal(format!("cannot render the man page: {e}"));
    page.render_title(&mut buf).map_err(failed)?;
    page.render_name_section(&mut buf).map_err(failed)?;
    page.render_synopsis_section(&mut buf).map_err(failed)?;
    page.render_description_section(&mut buf).map_err(failed)?;
    page.render_options_section(&mut buf).map_err(failed)?;
    let mut text = String::from_utf8_lossy(&buf).into_owned();
    text.push_str(".SH COMMANDS\n");
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        let name = roff(sub.get_name());
        text.push_str(&format!(
            ".TP\n\\fBadvise {name}\\fR\n{} (\\fBadvise {name} \\-\\-help\\fR says more)\n",
            roff(&about),
        ));
    }
    text.push_str(".SH \"EXIT STATUS\"\n");
    for (code, meaning) in EXIT_STATUS {
        text.push_str(&format!(".TP\n{code}\n{}\n", roff(meaning)));
    }
    text.push_str(".SH ENVIRONMENT\n");
    for (name, meaning) in ENVIRONMENT {
        text.push_str(&format!(".TP\n\\fB{}\\fR\n{}\n", roff(name), roff(meaning)));
    }
    let mut version = Vec::new();
    page.render_version_section(&mut version).map_err(failed)?;
    text.push_str(&String::from_utf8_lossy(&version));
    Output::default().emit(&text)
}

/// Text for a roff line: backslashes and hyphens escaped, a leading dot or quote kept from
/// reading as a request.
fn roff(s: &str) -> String {
    let t = s.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

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

pub fn man() -> Result<()> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut buf)
        .map_err(|e| Error::Internal(format!("cannot render the man page: {e}")))?;
    Output::default().emit(&String::from_utf8_lossy(&buf))
}

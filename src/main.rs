//! The advise binary: parse the command line, run the command, turn errors into one line on
//! standard error and exit status 2.

use clap::Parser;

fn main() {
    let cli = advise::cli::Cli::parse();
    if let Err(e) = advise::commands::run(cli).map_err(anyhow::Error::from) {
        eprintln!("advise: error: {e:#}");
        std::process::exit(2);
    }
}

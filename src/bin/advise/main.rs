//! The advise binary: parse the command line, run the command, turn an error into one line on
//! standard error and an exit status a script can act on: 2 usage, 3 bad input data, 4 a
//! missing or failing tool, 5 a file that cannot be read or written, 1 an internal error
//! (`advise::Error::exit_code`; clap's own usage errors exit 2 too).

mod args;
mod cli;
mod commands;

use clap::Parser;

fn main() {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(message) = negative_number(&e) {
                commands::output::to_stderr(&format!("advise: error: {message}"));
                std::process::exit(2);
            }
            e.exit()
        }
    };
    commands::output::set_quiet(cli.quiet);
    // Tables fit the terminal; files (`-o`) and pipes get them whole.
    // Arguments as text (a name that is not UTF-8 is compared by its lossy text).
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let to_file = args.iter().any(|a| a == "-o" || a.starts_with("--output"));
    if !to_file {
        let width = console::Term::stdout()
            .size_checked()
            .map(|(_, c)| c as usize);
        advise::report::table::set_max_width(width);
    }
    let result = commands::output::refuse_output_over_input(&args)
        .and_then(|()| cli.command.check_result_file())
        .and_then(|()| cli.command.run());
    if let Err(e) = result {
        let code = e.exit_code();
        commands::output::to_stderr(&format!("advise: error: {}", one_line(&e)));
        std::process::exit(code);
    }
}

/// A negative number after an option reads to clap as an option of its own, and its tip
/// (`-- -1`) does not help there: said in words instead.
fn negative_number(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    arg.parse::<f64>().ok().filter(|v| *v < 0.0)?;
    // clap names the part it read as a short option (`-7` of `-7.5`): the argument as given
    // is the one that begins with it and is a number.
    let arg = std::env::args_os()
        .filter_map(|a| a.into_string().ok())
        .find(|a| a.starts_with(arg.as_str()) && a.parse::<f64>().is_ok_and(|v| v < 0.0))
        .unwrap_or_else(|| arg.clone());
    Some(format!(
        "`{arg}` reads as an option, not as a value: the counts, seeds, run numbers and times \
         this tool takes are 0 or more; where an option allows a negative value, write it \
         joined to its option (`--option={arg}`)"
    ))
}

/// The error and its causes on one line, each once: a cause whose text the line already holds
/// (an I/O error's message is "{path}: {source}") is not repeated after it.
fn one_line(e: &(dyn std::error::Error + 'static)) -> String {
    let mut line = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        cause = c.source();
    }
    line
}

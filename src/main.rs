//! The `c4solver` command: parse the command line, run it, map the outcome to the
//! exit code (0 good; 1 invalid or mismatched input; 2 usage, I/O or resource
//! error; 130 interrupted by SIGINT; 143 stopped by SIGTERM).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    if let Some(why) = c4solver::unsupported_cpu() {
        eprintln!("c4solver: {why}");
        return ExitCode::from(2);
    }
    let cli = cli::args::Cli::parse();
    if let Err(e) = cli.validate() {
        e.exit();
    }
    ExitCode::from(cli::run(cli).code())
}

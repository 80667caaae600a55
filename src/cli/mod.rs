//! The command line: [`args`] defines it (clap derive), one file per command runs
//! it, and [`run`] maps what happened to an [`Exit`], which `main` turns into
//! the exit code. Nothing here is needed by the library.

mod analyze;
pub mod args;
mod bench;
mod book;
mod candidates;
mod engine;
mod generate;
mod harness;
mod markdown;
mod output;
mod per_line;
mod play;
mod progress;
#[cfg(feature = "research")]
mod research;
mod serve;
mod sig4;
mod signals;
mod solve;
mod source;
mod stdio;

use args::{BookAction, Cli, Command};
use signals::Signals;

/// How a run ended, before it becomes an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything valid and correct: exit 0.
    Ok,
    /// Some line was invalid or some score mismatched: exit 1.
    BadInput,
    /// A usage, I/O or resource error (reported on stderr): exit 2.
    Failure,
    /// Stopped by a signal: exit 130 (SIGINT) or 143 (SIGTERM).
    Signal(u8),
}

impl Exit {
    /// The exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::BadInput => 1,
            Exit::Failure => 2,
            Exit::Signal(code) => code,
        }
    }

    /// The more serious of two outcomes (a signal beats a failure beats bad input).
    pub fn worst(self, other: Exit) -> Exit {
        let rank = |o| match o {
            Exit::Ok => 0,
            Exit::BadInput => 1,
            Exit::Failure => 2,
            Exit::Signal(_) => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// Runs the command on the `--size` board (the library's size-erased types
/// carry the size: one copy of each command serves every size).
fn run_command(cli: &Cli, signals: &Signals) -> anyhow::Result<Exit> {
    let engine = &cli.engine;
    match &cli.command {
        None => solve::run(&cli.solve, &cli.files, engine, signals),
        Some(Command::Solve(s)) => solve::run(&s.args, &s.files, engine, signals),
        Some(Command::Bench(b)) => bench::run(b, engine, signals),
        Some(Command::Generate(g)) => generate::run(g, engine, signals),
        Some(Command::Book(b)) => book::run(b, engine, signals),
        Some(Command::Analyze(a)) => analyze::run(a, engine, signals),
        Some(Command::Play(p)) => play::run(p, engine, signals),
        Some(Command::Serve(s)) => serve::run(s, engine, signals),
    }
}

/// Whether the command's answers go to stdout (all but `book generate` and
/// `book merge`, which write a file and report on stderr).
fn prints(cli: &Cli) -> bool {
    !matches!(
        &cli.command,
        Some(Command::Book(b)) if matches!(b.action, BookAction::Generate(_) | BookAction::Merge(_))
    )
}

/// Runs the command: every error is reported on stderr here, and the outcome says
/// which exit code fits.
pub fn run(cli: Cli) -> Exit {
    if stdio::stdout_closed() && prints(&cli) {
        eprintln!("c4solver: stdout is closed: there is nowhere to print the answers");
        return Exit::Failure;
    }
    let signals = Signals::install();
    let result = run_command(&cli, &signals);
    let outcome = result.unwrap_or_else(|e| {
        eprintln!("c4solver: {e:#}");
        Exit::Failure
    });
    match signals.exit_code() {
        Some(code) => outcome.worst(Exit::Signal(code)),
        None => outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_ranks_and_codes() {
        assert_eq!(Exit::Ok.worst(Exit::BadInput), Exit::BadInput);
        assert_eq!(Exit::Failure.worst(Exit::BadInput), Exit::Failure);
        assert_eq!(Exit::Failure.worst(Exit::Signal(143)).code(), 143);
        assert_eq!(Exit::BadInput.code(), 1);
    }
}

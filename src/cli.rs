//! Command-line definitions (clap derive). The doc comments are the help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use c4solver::SolverKind;
use c4solver::testset::{Difficulty, Stage};

/// An exact Connect Four solver.
///
/// With no subcommand, solves the positions read from stdin (as `solve`).
///
/// Exit codes: 0 all good; 1 some line invalid or some score mismatched;
/// 2 usage or I/O error (bad flag, unreadable file, table too large);
/// 130 interrupted.
#[derive(Parser, Debug)]
#[command(name = "c4solver", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do (default: solve stdin).
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Options of bare `c4solver` (same as `solve`).
    #[command(flatten)]
    pub solve: SolveArgs,

    /// Solver options.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve positions, one per line, from files or stdin.
    ///
    /// Each line is a move string (1-based columns, "4453"; empty = the starting
    /// position), optionally followed by the expected score, which is then
    /// checked. Prints `moves score nodes microseconds` per line. An invalid line
    /// prints `c4solver: line N: <reason>` on stderr and an empty line on stdout.
    Solve(SolveFiles),
    /// Run test sets, check every score, and print the benchmark tables.
    Bench(BenchArgs),
    /// Generate a test set of random positions labelled by the strong solver.
    Generate(GenerateArgs),
}

/// Options shared by `solve` and bare `c4solver`.
#[derive(Args, Debug, Clone, Default)]
pub struct SolveArgs {
    /// Weak solver: print only the sign of the score (1 win, 0 draw, -1 loss).
    #[arg(short, long)]
    pub weak: bool,

    /// Print one JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `solve` arguments.
#[derive(Args, Debug, Clone)]
pub struct SolveFiles {
    /// Options.
    #[command(flatten)]
    pub args: SolveArgs,

    /// Files to read (default: stdin; `-` is stdin).
    pub files: Vec<PathBuf>,
}

/// `bench` arguments.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Run the strong solver (default: both strong and weak).
    #[arg(long)]
    pub strong: bool,

    /// Run the weak solver (default: both strong and weak).
    #[arg(long)]
    pub weak: bool,

    /// Solve only the first N positions of each set.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Print JSON instead of markdown tables.
    #[arg(long)]
    pub json: bool,

    /// Test-set files (`moves score` lines; default: every set in `testsets/`).
    #[arg(value_name = "SET")]
    pub sets: Vec<PathBuf>,
}

/// `generate` arguments.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// Stones on the board: end (29-42), middle (15-28), begin (0-14).
    #[arg(long, value_enum)]
    pub stage: StageArg,

    /// Moves left under perfect play: easy (0-14), medium (15-28), hard (29-42).
    #[arg(long, value_enum)]
    pub difficulty: DifficultyArg,

    /// Positions to generate.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,

    /// Seed of the random games (same seed, same output).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Options that select and size the solver; accepted before or after the subcommand.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search to use (`bench` accepts a comma-separated list).
    #[arg(
        long,
        global = true,
        value_enum,
        value_delimiter = ',',
        default_value = "tuned"
    )]
    pub solver: Vec<SolverArg>,

    /// Table size in MB; the table holds the largest prime number of entries that
    /// fits: 8-byte entries for `reference` (64 MB: 8,388,593), 4-byte entries for
    /// `tuned` (64 MB: 16,777,213; at least 63 MB).
    #[arg(long, global = true, value_name = "N", default_value_t = 64)]
    pub table_mb: usize,

    /// Keep the table between positions instead of clearing it before each one.
    #[arg(long, global = true)]
    pub keep_table: bool,
}

/// `--solver` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverArg {
    /// The tutorial's part-7 solver: center-first negamax, upper-bound table.
    Reference,
    /// The tuned solver: null windows, loss anticipation, threat-sorted moves,
    /// compact two-bound table (needs at least 63 MB of table on 7x6).
    Tuned,
}

impl From<SolverArg> for SolverKind {
    fn from(a: SolverArg) -> Self {
        match a {
            SolverArg::Reference => SolverKind::Reference,
            SolverArg::Tuned => SolverKind::Tuned,
        }
    }
}

/// `--stage` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageArg {
    /// 29 to 42 stones.
    End,
    /// 15 to 28 stones.
    Middle,
    /// 0 to 14 stones.
    Begin,
}

impl From<StageArg> for Stage {
    fn from(a: StageArg) -> Self {
        match a {
            StageArg::End => Stage::End,
            StageArg::Middle => Stage::Middle,
            StageArg::Begin => Stage::Begin,
        }
    }
}

/// `--difficulty` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DifficultyArg {
    /// 0 to 14 moves left.
    Easy,
    /// 15 to 28 moves left.
    Medium,
    /// 29 to 42 moves left.
    Hard,
}

impl From<DifficultyArg> for Difficulty {
    fn from(a: DifficultyArg) -> Self {
        match a {
            DifficultyArg::Easy => Difficulty::Easy,
            DifficultyArg::Medium => Difficulty::Medium,
            DifficultyArg::Hard => Difficulty::Hard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_invocation_is_solve_on_stdin() {
        let cli = Cli::try_parse_from(["c4solver", "-w"]).unwrap();
        assert!(cli.command.is_none());
        assert!(cli.solve.weak);
    }

    #[test]
    fn subcommands_and_global_options() {
        let cli =
            Cli::try_parse_from(["c4solver", "bench", "--limit", "5", "--table-mb", "16", "a"])
                .unwrap();
        let Some(Command::Bench(b)) = cli.command else {
            panic!("not bench")
        };
        assert_eq!(b.limit, Some(5));
        assert_eq!(cli.engine.table_mb, 16);
        assert_eq!(b.sets, vec![PathBuf::from("a")]);
        let cli =
            Cli::try_parse_from(["c4solver", "solve", "--solver", "reference", "-w", "f"]).unwrap();
        assert_eq!(cli.engine.solver, vec![SolverArg::Reference]);
        let cli = Cli::try_parse_from(["c4solver", "solve"]).unwrap();
        assert_eq!(
            cli.engine.solver,
            vec![SolverArg::Tuned],
            "tuned is the default"
        );
        let cli =
            Cli::try_parse_from(["c4solver", "bench", "--solver", "reference,tuned"]).unwrap();
        assert_eq!(
            cli.engine.solver,
            vec![SolverArg::Reference, SolverArg::Tuned]
        );
        assert!(Cli::try_parse_from(["c4solver", "--solver", "nope"]).is_err());
        assert!(Cli::try_parse_from(["c4solver", "generate", "--stage", "end"]).is_err());
    }
}

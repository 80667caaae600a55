//! Command-line definitions (clap derive). The doc comments are the help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use c4solver::testset::{Difficulty, Stage};
use c4solver::{DepthKind, ReplaceKind, SolverKind, TableKind};

/// An exact Connect Four solver.
///
/// With no subcommand, solves the positions read from stdin (as `solve`).
///
/// Exit codes: 0 all good; 1 some line invalid or some score mismatched;
/// 2 usage or I/O error (bad flag, unreadable file, table too large);
/// 130 interrupted.
#[derive(Parser, Debug)]
#[command(name = "c4solver", version)]
pub struct Cli {
    /// What to do (default: solve stdin).
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Options of bare `c4solver` (same as `solve`); with a subcommand they are
    /// rejected by `main` (clap's `args_conflicts_with_subcommands` would also
    /// reject the global engine options written before the subcommand).
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

    /// Count table statistics: a `stats` field per line with --json, otherwise
    /// their totals on stderr at the end.
    #[arg(long)]
    pub stats: bool,
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

    /// Compare configurations: every combination of --solver, --table, --replace,
    /// --depth and --table-mb runs on the same positions, with table statistics;
    /// one row per configuration, nodes relative to upper/always/64.
    #[arg(long)]
    pub compare: bool,

    /// Test-set files (`moves score` lines; default: every set in `testsets/` but
    /// `begin-hard`, whose positions can take minutes each).
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
    /// Search to use (`bench` accepts a comma-separated list). Default: `tuned`,
    /// or `reference` when --table, --replace or --depth name a table design.
    /// Both searches take every table design.
    #[arg(long, global = true, value_enum, value_delimiter = ',')]
    pub solver: Vec<SolverArg>,

    /// Table size in MB; the table holds the largest prime number of entries (or
    /// sets of entries) that fits: 8-byte entries for `reference` (64 MB:
    /// 8,388,593), 4-byte entries for `tuned` (64 MB: 16,777,213; at least 63 MB).
    /// `bench` accepts a comma-separated list.
    #[arg(
        long,
        global = true,
        value_name = "N",
        value_delimiter = ',',
        default_value = "64"
    )]
    pub table_mb: Vec<usize>,

    /// Table design (`bench` accepts a comma-separated list). Default: `upper`
    /// for `reference`, `compact` for `tuned`.
    #[arg(long, global = true, value_enum, value_delimiter = ',')]
    pub table: Vec<TableArg>,

    /// Replacement policy (`bench` accepts a comma-separated list; combinations
    /// a table does not offer are left out: `compact` only replaces always).
    #[arg(
        long,
        global = true,
        value_enum,
        value_delimiter = ',',
        default_value = "always"
    )]
    pub replace: Vec<ReplaceArg>,

    /// Depth measure of the depth, two-tier and bucket policies (`bench` accepts
    /// a comma-separated list).
    #[arg(
        long,
        global = true,
        value_enum,
        value_delimiter = ',',
        default_value = "cells"
    )]
    pub depth: Vec<DepthArg>,

    /// Keep the table between positions instead of clearing it before each one.
    #[arg(long, global = true)]
    pub keep_table: bool,
}

/// `--solver` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverArg {
    /// The tutorial's part-7 solver: center-first negamax, upper-bound table.
    Reference,
    /// The tuned solver: null windows, loss anticipation, wins in two, zugzwang
    /// (parity) bounds, threat-sorted moves, compact two-bound table (needs at least
    /// 63 MB of table on 7x6).
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

/// `--table` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableArg {
    /// The tutorial's table: upper bounds only.
    Upper,
    /// Chess-style: upper, lower and exact bounds with the best move.
    Bounds,
    /// The tuned solver's: one upper or lower bound in 4 bytes, always replaced
    /// (at least 63 MB on 7x6).
    Compact,
}

impl From<TableArg> for TableKind {
    fn from(a: TableArg) -> Self {
        match a {
            TableArg::Upper => TableKind::Upper,
            TableArg::Bounds => TableKind::Bounds,
            TableArg::Compact => TableKind::Compact,
        }
    }
}

/// `--replace` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplaceArg {
    /// Always replace (the tutorial's).
    Always,
    /// Keep the deeper entry.
    Depth,
    /// Two entries per slot: depth-preferred and always-replace.
    TwoTier,
    /// Eight entries per cache line, victim by depth and age.
    Bucket,
}

impl From<ReplaceArg> for ReplaceKind {
    fn from(a: ReplaceArg) -> Self {
        match a {
            ReplaceArg::Always => ReplaceKind::Always,
            ReplaceArg::Depth => ReplaceKind::Depth,
            ReplaceArg::TwoTier => ReplaceKind::TwoTier,
            ReplaceArg::Bucket => ReplaceKind::Bucket,
        }
    }
}

/// `--depth` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthArg {
    /// Empty cells of the position.
    Cells,
    /// Bit length of the node count of the search behind the entry.
    Work,
}

impl From<DepthArg> for DepthKind {
    fn from(a: DepthArg) -> Self {
        match a {
            DepthArg::Cells => DepthKind::Cells,
            DepthArg::Work => DepthKind::Work,
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
        assert_eq!(cli.engine.table_mb, vec![16]);
        assert_eq!(b.sets, vec![PathBuf::from("a")]);
        let cli =
            Cli::try_parse_from(["c4solver", "solve", "--solver", "reference", "-w", "f"]).unwrap();
        assert_eq!(cli.engine.solver, vec![SolverArg::Reference]);
        // no --solver: main picks tuned (or reference when a table design is named)
        let cli = Cli::try_parse_from(["c4solver", "solve"]).unwrap();
        assert!(cli.engine.solver.is_empty());
        let cli =
            Cli::try_parse_from(["c4solver", "bench", "--solver", "reference,tuned"]).unwrap();
        assert_eq!(
            cli.engine.solver,
            vec![SolverArg::Reference, SolverArg::Tuned]
        );
        assert!(Cli::try_parse_from(["c4solver", "--solver", "nope"]).is_err());
        let cli = Cli::try_parse_from(["c4solver", "--table-mb", "8", "solve"]).unwrap();
        assert_eq!(cli.engine.table_mb, vec![8]);
        assert!(matches!(cli.command, Some(Command::Solve(_))));
        assert!(Cli::try_parse_from(["c4solver", "generate", "--stage", "end"]).is_err());
    }

    #[test]
    fn compare_lists() {
        let cli = Cli::try_parse_from([
            "c4solver",
            "bench",
            "--compare",
            "--table",
            "upper,bounds",
            "--replace",
            "always,two-tier,bucket",
            "--table-mb",
            "16,64",
            "--depth",
            "work",
        ])
        .unwrap();
        let Some(Command::Bench(b)) = cli.command else {
            panic!("not bench")
        };
        assert!(b.compare);
        assert_eq!(cli.engine.table, vec![TableArg::Upper, TableArg::Bounds]);
        assert_eq!(
            cli.engine.replace,
            vec![ReplaceArg::Always, ReplaceArg::TwoTier, ReplaceArg::Bucket]
        );
        assert_eq!(cli.engine.table_mb, vec![16, 64]);
        assert_eq!(cli.engine.depth, vec![DepthArg::Work]);
        let cli = Cli::try_parse_from(["c4solver", "--stats", "--table", "bounds"]).unwrap();
        assert!(cli.solve.stats);
        assert_eq!(cli.engine.replace, vec![ReplaceArg::Always]);
        assert!(Cli::try_parse_from(["c4solver", "--replace", "lru"]).is_err());
    }
}

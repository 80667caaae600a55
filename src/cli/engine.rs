//! From the engine options (`--solver`, `--table`, `--replace`, `--depth`,
//! `--table-mb`, `--keep-table`) to solver configurations.

use anyhow::bail;

use c4solver::{Config, DepthKind, ReplaceKind, Solver7x6, SolverKind, TableKind};

use super::args::EngineArgs;

/// Every combination of the listed values, without duplicates (`--depth` does not
/// matter to `always`). The search is `tuned` unless `--solver` says otherwise;
/// without `--table`, each search gets its own table design.
///
/// Combinations that cannot be built (a policy the design does not offer, a size
/// too small for the design's keys) are returned apart, each with the reason.
pub fn configs(engine: &EngineArgs, stats: bool) -> (Vec<Config>, Vec<(Config, String)>) {
    let solvers = if engine.solver.is_empty() {
        vec![SolverKind::Tuned]
    } else {
        engine.solver.iter().map(|&s| s.into()).collect()
    };
    let mut good: Vec<Config> = Vec::new();
    let mut left_out: Vec<(Config, String)> = Vec::new();
    for kind in solvers {
        let tables: Vec<TableKind> = if engine.table.is_empty() {
            vec![kind.own_table()]
        } else {
            engine.table.iter().map(|&t| t.into()).collect()
        };
        for &table in &tables {
            for &replace in &engine.replace {
                let replace: ReplaceKind = replace.into();
                for &depth in &engine.depth {
                    for &table_mb in &engine.table_mb {
                        let config = Config {
                            kind,
                            table_mb,
                            keep_table: engine.keep_table,
                            table,
                            replace,
                            depth: if replace == ReplaceKind::Always {
                                DepthKind::Cells
                            } else {
                                depth.into()
                            },
                            stats,
                        };
                        if good.contains(&config) || left_out.iter().any(|(c, _)| *c == config) {
                            continue;
                        }
                        match config.check::<7, 6>() {
                            Ok(()) => good.push(config),
                            Err(e) => left_out.push((config, e.to_string())),
                        }
                    }
                }
            }
        }
    }
    (good, left_out)
}

/// The one configuration of a command that runs a single solver (`solve`,
/// `generate`), built.
///
/// # Errors
/// A list where one value is expected, or a table that cannot be built, with a
/// message naming the command.
pub fn single_solver(engine: &EngineArgs, command: &str, stats: bool) -> anyhow::Result<Solver7x6> {
    let lists = [
        ("--solver", engine.solver.len()),
        ("--table", engine.table.len()),
        ("--replace", engine.replace.len()),
        ("--depth", engine.depth.len()),
        ("--table-mb", engine.table_mb.len()),
    ];
    if let Some((flag, _)) = lists.iter().find(|(_, n)| *n > 1) {
        bail!("{flag} takes a single value for `{command}` (lists are for `bench --compare`)");
    }
    let (good, left_out) = configs(engine, stats);
    if let Some((_, reason)) = left_out.first() {
        bail!("{reason}");
    }
    Ok(Solver7x6::new(good[0])?)
}

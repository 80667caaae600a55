//! The research options of the command line (the `research` cargo feature):
//! `--table`, `--replace` and `--depth-measure`, and the table designs they
//! name. `bench --compare` runs every combination of their lists.

use clap::{Args, ValueEnum};

use c4solver::Config;
use c4solver::research::{DepthKind, ReplaceKind, TableKind};

/// The table options (global: they may come before or after the subcommand).
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Table design (`bench` accepts a comma-separated list). Default: each
    /// search's own, `compact` for `tuned`, `upper` for `reference`.
    #[arg(long, global = true, value_enum, value_delimiter = ',')]
    pub table: Vec<TableArg>,

    /// Replacement policy (`bench` accepts a comma-separated list; `compact` takes
    /// only `always`: its sets have their own replacement).
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
    pub depth_measure: Vec<DepthArg>,
}

impl TableArgs {
    /// The options given away from their defaults.
    pub fn given(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if !self.table.is_empty() {
            v.push("--table");
        }
        if self.replace != [ReplaceArg::Always] {
            v.push("--replace");
        }
        if self.depth_measure != [DepthArg::Cells] {
            v.push("--depth-measure");
        }
        v
    }
}

/// The configurations of `base` with every combination of the table options
/// (without `--table`, the search's own design), each counting statistics if
/// `stats`: a combination a design does not offer comes as its name and the
/// reason.
pub fn expand(
    args: &TableArgs,
    base: Config,
    stats: bool,
) -> Vec<Result<Config, (String, String)>> {
    let designs = if args.table.is_empty() {
        vec![None]
    } else {
        args.table.iter().map(|&t| Some(t)).collect()
    };
    let mut out = Vec::new();
    for design in designs {
        for &replace in &args.replace {
            for &depth in &args.depth_measure {
                out.push(match table_kind(design, replace, depth, base) {
                    Ok(table) => Ok(base.with_table(table).with_stats(stats)),
                    Err(reason) => Err((
                        format!(
                            "{} compact/{}/{}",
                            base.kind.name(),
                            replace.to_possible_value().expect("named").get_name(),
                            base.table_mb
                        ),
                        reason,
                    )),
                });
            }
        }
    }
    out
}

/// The table of `design` (the search's own if `None`) with `replace` and `depth`.
fn table_kind(
    design: Option<TableArg>,
    replace: ReplaceArg,
    depth: DepthArg,
    base: Config,
) -> Result<TableKind, String> {
    let depth: DepthKind = depth.into();
    let policy = match replace {
        ReplaceArg::Always => ReplaceKind::Always,
        ReplaceArg::Depth => ReplaceKind::Depth(depth),
        ReplaceArg::TwoTier => ReplaceKind::TwoTier(depth),
        ReplaceArg::Bucket => ReplaceKind::Bucket(depth),
    };
    let design = design.unwrap_or(match base.kind.own_table() {
        TableKind::Compact => TableArg::Compact,
        _ => TableArg::Upper,
    });
    match design {
        TableArg::Upper => Ok(TableKind::Upper(policy)),
        TableArg::Bounds => Ok(TableKind::Bounds(policy)),
        TableArg::Compact if policy == ReplaceKind::Always => Ok(TableKind::Compact),
        TableArg::Compact => Err(format!(
            "the compact table has no '{}' replacement policy (it always replaces)",
            policy.name()
        )),
    }
}

/// `--table` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableArg {
    /// The tutorial's table: upper bounds only.
    Upper,
    /// Chess-style: upper, lower and exact bounds with the best move.
    Bounds,
    /// The tuned solver's: one upper or lower bound in 4 bytes, two per set, the
    /// bigger search's result kept (8 bytes holding the whole key, always
    /// replaced, below 63 MB on 7x6).
    Compact,
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

/// `--depth-measure` values.
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

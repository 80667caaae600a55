//! The research configurations (the `research` cargo feature): every search over
//! every table design, replacement policy and depth measure, and table
//! statistics, each behind one virtual call per position. They exist to measure
//! the designs against each other (`bench --compare`, docs/tables.md); the
//! default build has each search with its own table only.
//!
//! A configuration that cannot work cannot be written: the compact table takes
//! no replacement policy ([`TableKind::Compact`] holds none), and only the
//! depth-aware policies hold a [`DepthKind`].

use super::reference::Reference;
use super::tuned::Tuned;
use super::{Config, SolverKind, StopFlag, narrow_fits};
use crate::bits::Bits;
use crate::position::Board;
use crate::table::{
    Always, BoundTable, Bucket, CompactTable, DepthPreferred, Replace, SharedTable, Table,
    TableError, TableStats, TwoTier, UpperTable, Wide,
};

/// What the table keeps, with its replacement policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Upper bounds only (the tutorial's): `UpperTable` with
    /// [`ReplaceKind::Always`], a `BoundTable` in upper-only mode otherwise.
    Upper(ReplaceKind),
    /// Upper, lower and exact bounds with the best move: a `BoundTable`.
    Bounds(ReplaceKind),
    /// One upper or lower bound in 4 bytes, two entries per set (the bigger
    /// search's result and the newest other): the tuned search's [`CompactTable`],
    /// whose replacement is its own. Below the size at which its partial key stays
    /// exact (63 MB on 7x6), 8-byte entries holding the whole key ([`Wide`]).
    Compact,
}

impl TableKind {
    /// Every design with every policy it offers and every depth measure (15).
    pub fn all() -> Vec<TableKind> {
        let mut all = vec![TableKind::Compact];
        all.extend(ReplaceKind::ALL.iter().map(|&r| TableKind::Upper(r)));
        all.extend(ReplaceKind::ALL.iter().map(|&r| TableKind::Bounds(r)));
        all
    }

    /// The name of the design on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Upper(_) => "upper",
            TableKind::Bounds(_) => "bounds",
            TableKind::Compact => "compact",
        }
    }

    /// The replacement policy (the compact table's own is listed as `always`).
    pub fn replace(self) -> ReplaceKind {
        match self {
            TableKind::Upper(r) | TableKind::Bounds(r) => r,
            TableKind::Compact => ReplaceKind::Always,
        }
    }
}

/// The table's replacement policy (see `crate::table::replace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ReplaceKind {
    /// Always replace (the tutorial's).
    #[default]
    Always,
    /// Keep the deeper entry.
    Depth(DepthKind),
    /// Two entries per slot: depth-preferred and always-replace.
    TwoTier(DepthKind),
    /// Eight entries per cache line; the victim minimises `depth - 8 * age`.
    Bucket(DepthKind),
}

impl ReplaceKind {
    /// Every policy with every depth measure.
    pub const ALL: [ReplaceKind; 7] = [
        ReplaceKind::Always,
        ReplaceKind::Depth(DepthKind::Cells),
        ReplaceKind::Depth(DepthKind::Work),
        ReplaceKind::TwoTier(DepthKind::Cells),
        ReplaceKind::TwoTier(DepthKind::Work),
        ReplaceKind::Bucket(DepthKind::Cells),
        ReplaceKind::Bucket(DepthKind::Work),
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ReplaceKind::Always => "always",
            ReplaceKind::Depth(_) => "depth",
            ReplaceKind::TwoTier(_) => "two-tier",
            ReplaceKind::Bucket(_) => "bucket",
        }
    }

    /// The depth measure of a depth-aware policy (`None` for `always`).
    pub fn depth(self) -> Option<DepthKind> {
        match self {
            ReplaceKind::Always => None,
            ReplaceKind::Depth(d) | ReplaceKind::TwoTier(d) | ReplaceKind::Bucket(d) => Some(d),
        }
    }

    /// Slots a key may use, to size the table.
    fn ways(self) -> usize {
        match self {
            ReplaceKind::Always => Always::WAYS,
            ReplaceKind::Depth(_) => DepthPreferred::WAYS,
            ReplaceKind::TwoTier(_) => TwoTier::WAYS,
            ReplaceKind::Bucket(_) => Bucket::WAYS,
        }
    }
}

/// What "depth" means to the depth-aware replacement policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DepthKind {
    /// Empty cells of the position.
    #[default]
    Cells,
    /// Bit length of the node count of the search that produced the entry.
    Work,
}

impl DepthKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            DepthKind::Cells => "cells",
            DepthKind::Work => "work",
        }
    }
}

/// [`Config::check`] for a research configuration: the 7x6 board only, then the
/// design's own sizing.
pub(super) fn check<const W: usize, const H: usize>(config: &Config) -> Result<(), TableError> {
    if (W, H) != (7, 6) {
        let what = if config.research.stats {
            "table statistics (--stats)".to_string()
        } else {
            format!("the table option {}", config.label())
        };
        return Err(TableError::StandardBoardOnly {
            what: format!("{what} with the {} search", config.kind.name()),
            width: W,
            height: H,
        });
    }
    let mb = config.table_mb;
    match config.table() {
        TableKind::Compact => super::check_compact::<W, H>(mb),
        TableKind::Upper(ReplaceKind::Always) => super::check_upper::<W, H>(mb),
        TableKind::Upper(r) | TableKind::Bounds(r) => {
            crate::table::bounds::sets_for(mb, (W * (H + 1)) as u32, r.ways()).map(drop)
        }
    }
}

/// A search over some table, behind one virtual call per position.
pub(super) trait TableSearch<const W: usize, const H: usize, B: Bits>:
    std::fmt::Debug + Send
{
    fn search(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> (i32, u64);
    fn clear(&mut self);
    fn prefault(&mut self);
    fn new_search(&mut self);
    fn stats(&self) -> Option<TableStats>;
    fn set_stop_flag(&mut self, flag: StopFlag);
    fn stopped(&self) -> bool;
    fn clone_box(&self) -> Box<dyn TableSearch<W, H, B>>;
}

/// Implements [`TableSearch`] for a search type by forwarding to its methods of
/// the same names.
macro_rules! forward {
    ($search:ident, $flag:ident) => {
        impl<const W: usize, const H: usize, B: Bits, T, const $flag: bool> TableSearch<W, H, B>
            for $search<W, H, B, T, $flag>
        where
            T: Table + Clone + std::fmt::Debug + Send + 'static,
        {
            fn search(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> (i32, u64) {
                $search::search(self, pos, alpha, beta)
            }
            fn clear(&mut self) {
                $search::clear(self)
            }
            fn prefault(&mut self) {
                $search::prefault(self)
            }
            fn new_search(&mut self) {
                $search::new_search(self)
            }
            fn stats(&self) -> Option<TableStats> {
                $search::stats(self)
            }
            fn set_stop_flag(&mut self, flag: StopFlag) {
                $search::set_stop_flag(self, flag)
            }
            fn stopped(&self) -> bool {
                $search::stopped(self)
            }
            fn clone_box(&self) -> Box<dyn TableSearch<W, H, B>> {
                Box::new(self.clone())
            }
        }
    };
}

forward!(Reference, STATS);
forward!(Tuned, PROFILE);

impl<const W: usize, const H: usize, B: Bits> Clone for Box<dyn TableSearch<W, H, B>> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The research configuration's search over its table (7x6 only: [`check`]).
pub(super) fn engine<const W: usize, const H: usize, B: Bits>(
    config: &Config,
) -> Result<Box<dyn TableSearch<W, H, B>>, TableError> {
    check::<W, H>(config)?;
    let mb = config.table_mb;
    Ok(match config.table() {
        TableKind::Compact if narrow_fits::<W, H>(mb) => {
            boxed(CompactTable::for_board::<W, H>(mb)?, config)?
        }
        TableKind::Compact => boxed(SharedTable::<Wide>::for_board::<W, H>(mb)?, config)?,
        TableKind::Upper(ReplaceKind::Always) => boxed(
            UpperTable::for_board(mb, Board::<W, H, B>::MIN_SCORE)?,
            config,
        )?,
        TableKind::Upper(r) => packed::<W, H, B, true>(r, config)?,
        TableKind::Bounds(r) => packed::<W, H, B, false>(r, config)?,
    })
}

/// The configured search over `table`, counting statistics if asked to.
fn boxed<const W: usize, const H: usize, B: Bits, T>(
    table: T,
    config: &Config,
) -> Result<Box<dyn TableSearch<W, H, B>>, TableError>
where
    T: Table + Clone + std::fmt::Debug + Send + 'static,
{
    Ok(match (config.kind, config.research.stats) {
        (SolverKind::Tuned, true) => Box::new(Tuned::<W, H, B, T, true>::new(table)?),
        (SolverKind::Tuned, false) => Box::new(Tuned::<W, H, B, T, false>::new(table)?),
        (SolverKind::Reference, true) => Box::new(Reference::<W, H, B, T, true>::new(table)),
        (SolverKind::Reference, false) => Box::new(Reference::<W, H, B, T, false>::new(table)),
    })
}

/// The configured search over a [`BoundTable`] of policy `replace`.
fn packed<const W: usize, const H: usize, B: Bits, const UPPER_ONLY: bool>(
    replace: ReplaceKind,
    config: &Config,
) -> Result<Box<dyn TableSearch<W, H, B>>, TableError> {
    fn table<R: Replace, const UPPER_ONLY: bool, const WORK: bool>(
        mb: usize,
        bits: u32,
    ) -> Result<BoundTable<R, UPPER_ONLY, WORK>, TableError> {
        BoundTable::new(mb, bits)
    }
    let (mb, bits, c) = (config.table_mb, (W * (H + 1)) as u32, config);
    // Their entries keep a 64-bit key: no board over 64 bits.
    if bits > 64 {
        return Err(TableError::KeyTooWide { mb, key_bits: bits });
    }
    use DepthKind::{Cells, Work};
    Ok(match replace {
        ReplaceKind::Always => boxed(table::<Always, UPPER_ONLY, false>(mb, bits)?, c)?,
        ReplaceKind::Depth(Cells) => {
            boxed(table::<DepthPreferred, UPPER_ONLY, false>(mb, bits)?, c)?
        }
        ReplaceKind::Depth(Work) => boxed(table::<DepthPreferred, UPPER_ONLY, true>(mb, bits)?, c)?,
        ReplaceKind::TwoTier(Cells) => boxed(table::<TwoTier, UPPER_ONLY, false>(mb, bits)?, c)?,
        ReplaceKind::TwoTier(Work) => boxed(table::<TwoTier, UPPER_ONLY, true>(mb, bits)?, c)?,
        ReplaceKind::Bucket(Cells) => boxed(table::<Bucket, UPPER_ONLY, false>(mb, bits)?, c)?,
        ReplaceKind::Bucket(Work) => boxed(table::<Bucket, UPPER_ONLY, true>(mb, bits)?, c)?,
    })
}

//! Table statistics: what the table did for one search (or a sum of searches).
//!
//! The search counts probes, hits, cutoffs, narrowings, hints and stores; the table
//! counts overwrites of other positions and reports its occupancy. The search only
//! counts when it is built with statistics on (a const generic), so the default
//! configuration pays nothing for them.

use serde::Serialize;

/// Counters of table use. All fields are totals; [`TableStats::add`] sums two sets
/// of counters (the occupancy is summed too, with [`TableStats::searches`] to take
/// its mean).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableStats {
    /// Table probes (one per node that got past the immediate-win check).
    pub probes: u64,
    /// Probes that found an entry for the position.
    pub hits: u64,
    /// Hits whose exact score answered the node at once.
    pub cut_exact: u64,
    /// Hits whose lower bound reached beta (fail high without search).
    pub cut_lower: u64,
    /// Hits whose upper bound fell to alpha or below (fail low without search).
    pub cut_upper: u64,
    /// Hits whose lower bound raised alpha without closing the window.
    pub narrow_alpha: u64,
    /// Hits whose upper bound lowered beta without closing the window.
    pub narrow_beta: u64,
    /// Nodes that searched the table's best move first (the reference search
    /// only: the tuned search neither reads nor stores best moves, so it leaves 0).
    pub hints: u64,
    /// Hinted moves that caused the fail high (the reference search only).
    pub hint_cuts: u64,
    /// Calls of the table's store (including those a design drops).
    pub stores: u64,
    /// Stores that destroyed an entry of another position.
    pub overwrites: u64,
    /// Occupancy in per mille of the first 1000 entries at the end of the search
    /// (summed over [`TableStats::searches`] searches).
    pub hashfull: u64,
    /// Searches these counters sum up.
    pub searches: u64,
}

impl TableStats {
    /// Cutoffs of every bound kind.
    pub fn cutoffs(&self) -> u64 {
        self.cut_exact + self.cut_lower + self.cut_upper
    }

    /// Window narrowings of both kinds.
    pub fn narrowings(&self) -> u64 {
        self.narrow_alpha + self.narrow_beta
    }

    /// Hits per probe (0 without probes).
    pub fn hit_rate(&self) -> f64 {
        ratio(self.hits, self.probes)
    }

    /// Cutoffs per probe: the share of probed nodes the table answered alone.
    pub fn cutoff_rate(&self) -> f64 {
        ratio(self.cutoffs(), self.probes)
    }

    /// Hints per probe: the share of probed nodes that searched a hinted move first.
    pub fn hint_rate(&self) -> f64 {
        ratio(self.hints, self.probes)
    }

    /// Hint cuts per hint: how often the hinted move was the one that cut.
    pub fn hint_cut_rate(&self) -> f64 {
        ratio(self.hint_cuts, self.hints)
    }

    /// Mean occupancy in per mille over the searches counted.
    pub fn mean_hashfull(&self) -> f64 {
        ratio(self.hashfull, self.searches)
    }

    /// Adds `other`'s counters to these.
    pub fn add(&mut self, other: &TableStats) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.cut_exact += other.cut_exact;
        self.cut_lower += other.cut_lower;
        self.cut_upper += other.cut_upper;
        self.narrow_alpha += other.narrow_alpha;
        self.narrow_beta += other.narrow_beta;
        self.hints += other.hints;
        self.hint_cuts += other.hint_cuts;
        self.stores += other.stores;
        self.overwrites += other.overwrites;
        self.hashfull += other.hashfull;
        self.searches += other.searches;
    }

    /// Checks the invariants every honest count keeps; returns the first broken one.
    pub fn check(&self) -> Result<(), &'static str> {
        if self.hits > self.probes {
            return Err("more hits than probes");
        }
        if self.cutoffs() + self.narrowings() > self.hits {
            return Err("more cutoffs and narrowings than hits");
        }
        if self.hint_cuts > self.hints {
            return Err("more hint cuts than hints");
        }
        if self.hints > self.hits {
            return Err("more hints than hits");
        }
        if self.overwrites > self.stores {
            return Err("more overwrites than stores");
        }
        if self.hashfull > 1000 * self.searches {
            return Err("occupancy above 1000 per mille");
        }
        Ok(())
    }

    /// One line of `key=value` pairs for logs.
    pub fn summary(&self) -> String {
        format!(
            "probes={} hits={} cut_exact={} cut_lower={} cut_upper={} narrow_alpha={} \
             narrow_beta={} hints={} hint_cuts={} stores={} overwrites={} hashfull={:.0}",
            self.probes,
            self.hits,
            self.cut_exact,
            self.cut_lower,
            self.cut_upper,
            self.narrow_alpha,
            self.narrow_beta,
            self.hints,
            self.hint_cuts,
            self.stores,
            self.overwrites,
            self.mean_hashfull()
        )
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_sums() {
        let a = TableStats {
            probes: 10,
            hits: 5,
            cut_exact: 1,
            cut_lower: 1,
            cut_upper: 1,
            narrow_alpha: 1,
            hints: 2,
            hint_cuts: 1,
            stores: 4,
            overwrites: 1,
            hashfull: 500,
            searches: 1,
            ..TableStats::default()
        };
        assert_eq!(a.check(), Ok(()));
        assert_eq!(a.hit_rate(), 0.5);
        assert_eq!(a.cutoff_rate(), 0.3);
        assert_eq!(a.hint_cut_rate(), 0.5);
        let mut b = a;
        b.add(&a);
        assert_eq!(b.probes, 20);
        assert_eq!(b.mean_hashfull(), 500.0);
        assert_eq!(b.check(), Ok(()));
        assert_eq!(TableStats::default().hit_rate(), 0.0);
        let bad = TableStats {
            hits: 1,
            ..TableStats::default()
        };
        assert!(bad.check().is_err());
    }
}

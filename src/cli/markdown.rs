//! The bench report as the tutorial's markdown tables (`c4solver bench`), and the
//! comparison tables of `bench --compare`.

use super::harness::{Report, Row};
use super::sig4::sig4;

/// The tutorial's name for a test set file (`Test_L3_R1` is End-Easy), if known.
fn bucket_name(file: &str) -> Option<&'static str> {
    Some(match file {
        "Test_L3_R1" | "end-easy" => "End-Easy",
        "Test_L2_R1" | "middle-easy" => "Middle-Easy",
        "Test_L2_R2" | "middle-medium" => "Middle-Medium",
        "Test_L1_R1" | "begin-easy" => "Begin-Easy",
        "Test_L1_R2" | "begin-medium" => "Begin-Medium",
        "Test_L1_R3" | "begin-hard" => "Begin-Hard",
        _ => return None,
    })
}

/// A duration in seconds with a unit and 4 significant digits: `12.40 μs`,
/// `5.806 ms`, `1.234 s`.
fn format_time(secs: f64) -> String {
    if secs < 1e-3 {
        format!("{} μs", sig4(secs * 1e6))
    } else if secs < 1.0 {
        format!("{} ms", sig4(secs * 1e3))
    } else {
        format!("{} s", sig4(secs))
    }
}

/// The markdown tables, one block per mode, laid out like the tutorial's.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    for mode in ["strong", "weak"] {
        let rows: Vec<&Row> = report.rows.iter().filter(|r| r.mode == mode).collect();
        if rows.is_empty() {
            continue;
        }
        match rows[0].threads {
            1 => out.push_str(&format!("### {} solver\n\n", capitalize(mode))),
            t => out.push_str(&format!(
                "### {} solver, {t} threads (throughput: wall time per position)\n\n",
                capitalize(mode)
            )),
        }
        out.push_str("|Solver|Test Set name|mean time|mean nb pos|K pos/s|\n");
        out.push_str("|---|---|---|---:|---:|\n");
        for r in &rows {
            let mut name = match bucket_name(&r.set) {
                Some(b) if b != r.set => format!("{} ({b})", r.set),
                _ => r.set.clone(),
            };
            if r.positions < r.planned {
                name.push_str(&format!(", {} of {} (interrupted)", r.positions, r.planned));
            }
            // Each solver's default table goes unnamed.
            let solver = if r.default_table {
                r.solver.clone()
            } else {
                format!("{} {}", r.solver, r.config)
            };
            out.push_str(&format!(
                "|{}|{}|{}|{}|{}|\n",
                solver,
                name,
                format_time(r.mean_time_s),
                sig4(r.mean_nodes),
                sig4(r.kpos_per_s)
            ));
        }
        out.push('\n');
        out.push_str(&comparison(&rows));
    }
    out
}

/// The comparison tables of `bench --compare`: per mode and test set, one row per
/// configuration with mean time, mean nodes, nodes relative to the reference
/// configuration (`upper/always/64`, or the first row if it was not run), K pos/s
/// and the table statistics (hit rate and cutoff rate per probe, hinted nodes per
/// probe, share of hints that cut, mean occupancy).
pub fn compare_markdown(report: &Report) -> String {
    let mut out = String::new();
    for mode in ["strong", "weak"] {
        let mut sets: Vec<&str> = Vec::new();
        for r in report.rows.iter().filter(|r| r.mode == mode) {
            if !sets.contains(&r.set.as_str()) {
                sets.push(&r.set);
            }
        }
        for set in sets {
            let rows: Vec<&Row> = report
                .rows
                .iter()
                .filter(|r| r.mode == mode && r.set == set)
                .collect();
            let reference = rows
                .iter()
                .find(|r| {
                    r.solver == "reference"
                        && (r.config == "upper/always/64" || r.config == "upper/always/64/keep")
                })
                .copied()
                .unwrap_or(rows[0]);
            let name = match bucket_name(set) {
                Some(b) if b != set => format!("{set} ({b})"),
                _ => set.to_string(),
            };
            out.push_str(&format!(
                "### {} solver, {name}, {} positions\n\n",
                capitalize(mode),
                reference.positions
            ));
            out.push_str(&format!(
                "|Solver|Table|mean time|mean nb pos|total nodes|nodes vs {}|K pos/s|hit rate|cutoff rate|hints|hint cuts|hashfull|\n",
                reference.config
            ));
            out.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for r in rows {
                let rel = if reference.mean_nodes > 0.0 {
                    r.mean_nodes / reference.mean_nodes
                } else {
                    0.0
                };
                let pct = |x: f64| format!("{:.1}%", 100.0 * x);
                let (hit, cut, hints, hint_cuts, full) = match &r.stats {
                    Some(st) => (
                        pct(st.hit_rate()),
                        pct(st.cutoff_rate()),
                        pct(st.hint_rate()),
                        pct(st.hint_cut_rate()),
                        format!("{:.0}", st.mean_hashfull()),
                    ),
                    None => Default::default(),
                };
                out.push_str(&format!(
                    "|{}|{}|{}|{}|{}|{:.3}|{}|{hit}|{cut}|{hints}|{hint_cuts}|{full}|\n",
                    r.solver,
                    r.config,
                    format_time(r.mean_time_s),
                    sig4(r.mean_nodes),
                    r.total_nodes,
                    rel,
                    sig4(r.kpos_per_s),
                ));
            }
            out.push('\n');
        }
    }
    out
}

/// With several configurations, a table of each one's mean nodes and mean time
/// divided by the first configuration's on the same set (`0.5000` = half). Empty
/// with a single configuration.
fn comparison(rows: &[&Row]) -> String {
    let Some(first) = rows.first().map(|r| r.solver.as_str()) else {
        return String::new();
    };
    if rows.iter().all(|r| r.solver == first) {
        return String::new();
    }
    let mut out = format!("|Solver|Test Set name|nodes vs {first}|time vs {first}|\n");
    out.push_str("|---|---|---:|---:|\n");
    for r in rows.iter().filter(|r| r.solver != first) {
        let Some(base) = rows
            .iter()
            .find(|b| b.solver == first && b.set == r.set && b.positions == r.positions)
        else {
            continue;
        };
        let ratio = |x: f64, y: f64| {
            if y > 0.0 {
                sig4(x / y)
            } else {
                "-".to_string()
            }
        };
        out.push_str(&format!(
            "|{}|{}|{}|{}|\n",
            r.solver,
            r.set,
            ratio(r.mean_nodes, base.mean_nodes),
            ratio(r.mean_time_s, base.mean_time_s)
        ));
    }
    out.push('\n');
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(solver: &str, set: &str, time: f64, nodes: f64) -> Row {
        Row {
            solver: solver.to_string(),
            config: String::new(),
            default_table: true,
            mode: "strong",
            set: set.to_string(),
            positions: 10,
            planned: 10,
            mean_time_s: time,
            mean_nodes: nodes,
            total_nodes: (nodes * 10.0) as u64,
            kpos_per_s: 0.0,
            mismatches: 0,
            stats: None,
            threads: 1,
        }
    }

    #[test]
    fn ratios_against_the_first_configuration() {
        let report = Report {
            rows: vec![
                row("reference", "Test_L3_R1", 2e-3, 100.0),
                row("reference", "Test_L2_R1", 1.0, 1000.0),
                row("tuned", "Test_L3_R1", 1e-3, 50.0),
                row("tuned", "Test_L2_R1", 0.01, 1.0),
            ],
            ..Report::default()
        };
        let md = markdown(&report);
        assert!(md.contains("|Solver|Test Set name|nodes vs reference|time vs reference|"));
        assert!(md.contains("|tuned|Test_L3_R1|0.5000|0.5000|"), "{md}");
        assert!(md.contains("|tuned|Test_L2_R1|0.001000|0.01000|"), "{md}");
        let single = Report {
            rows: vec![row("tuned", "Test_L3_R1", 1e-3, 50.0)],
            ..Report::default()
        };
        assert!(!markdown(&single).contains("vs"));
    }

    #[test]
    fn time_units() {
        assert_eq!(format_time(12.4e-6), "12.40 μs");
        assert_eq!(format_time(5.806e-3), "5.806 ms");
        assert_eq!(format_time(1.2344), "1.234 s");
        assert_eq!(format_time(112.04e-3), "112.0 ms");
    }
}

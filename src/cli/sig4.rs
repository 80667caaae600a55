//! Figures rounded for show: `bench`'s tables (`markdown.rs`) write every mean
//! with 4 significant digits, as the tutorial's tables do. Standalone (no import
//! of the command line's other modules), so that the integration tests that
//! compare with the tutorial's figures (tests/integration/pons.rs) include it.

/// Rounds `x` to 4 significant digits and writes it with thousands separators:
/// `92.84`, `207,900`, `1,731,000`, `0.5000`.
pub fn sig4(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (3 - magnitude).max(0) as usize;
    let rounded = if magnitude >= 4 {
        let p = 10f64.powi(magnitude - 3);
        (x / p).round() * p
    } else {
        x
    };
    let s = format!("{rounded:.decimals$}");
    // After rounding, e.g. 9.9996 -> "10.000": drop the extra digit.
    let s = if s.replace(['.', '-'], "").trim_start_matches('0').len() > 4 && decimals > 0 {
        format!("{rounded:.prec$}", prec = decimals - 1)
    } else {
        s
    };
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let (sign, digits) = match int.strip_prefix('-') {
        Some(d) => ("-", d.to_string()),
        None => ("", int),
    };
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_significant_digits() {
        assert_eq!(sig4(92.8412), "92.84");
        assert_eq!(sig4(207_942.24), "207,900");
        assert_eq!(sig4(1_731_151.0), "1,731,000");
        assert_eq!(sig4(68.69), "68.69");
        assert_eq!(sig4(28_752.6), "28,750");
        assert_eq!(sig4(752_300.4), "752,300");
        assert_eq!(sig4(8.0), "8.000");
        assert_eq!(sig4(9.99996), "10.00");
        assert_eq!(sig4(1234.4), "1,234");
        assert_eq!(sig4(0.5), "0.5000");
    }
}

//! Bad input as a message repeats it, cut so that a hostile line does not flood
//! the terminal or the log: the command line's and the server's own messages cut
//! a field as the library's do (its `LineError` and `PosError`).

/// The most characters of a field that a message repeats: a longer one is cut
/// there, and its length given.
const SHOWN: usize = 40;

/// `text` as a message repeats it: whole if it has at most `SHOWN`
/// characters, else its first `SHOWN` and its length, `1234...(5000 bytes)`.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

/// [`excerpt`] in double quotes (the quotes around the part shown):
/// `"abc"`, `"abcd..."... (5000 bytes)`.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &text[..cut], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_fields_are_cut_as_the_library_cuts_them() {
        let long = "4".repeat(5000);
        assert_eq!(excerpt("4455"), "4455");
        assert_eq!(
            excerpt(&long),
            format!("{}... (5000 bytes)", "4".repeat(40))
        );
        assert_eq!(quoted("a\"b"), "\"a\\\"b\"");
        assert_eq!(
            quoted(&long),
            format!("\"{}\"... (5000 bytes)", "4".repeat(40))
        );
        // The library's messages of bad scores, cut the same way.
        let size = c4solver::Size::STANDARD;
        let (min, max) = c4solver::Position::parse(size, "4455")
            .unwrap()
            .score_range();
        let line = format!("4455 {long}");
        let e = c4solver::Line::parse(size, line.as_bytes(), false).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "expected score {} is out of range ({min}..={max})",
                excerpt(&long)
            )
        );
    }
}

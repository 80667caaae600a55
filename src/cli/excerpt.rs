//! Bad input repeated in messages (`play --start`, the server's query and log),
//! cut as the library cuts it in its own messages (a line's bad score): whole up
//! to [`SHOWN`] characters, else that much and its length, so that a hostile
//! value does not flood the terminal or the log.

/// The most characters of a value that a message repeats.
const SHOWN: usize = 40;

/// `text` as a message repeats it: whole if it has at most [`SHOWN`]
/// characters, else its first [`SHOWN`] and its length, `1234... (5000 bytes)`.
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
    fn short_text_is_whole_and_long_text_cut_with_its_length() {
        assert_eq!(excerpt("4455"), "4455");
        assert_eq!(quoted("a\"b"), r#""a\"b""#);
        let long = "é".repeat(50);
        assert_eq!(excerpt(&long), format!("{}... (100 bytes)", "é".repeat(40)));
        assert_eq!(
            quoted(&long),
            format!("\"{}\"... (100 bytes)", "é".repeat(40))
        );
        // As the library cuts a line's bad score.
        let line = format!("4455 {}", "x".repeat(5000));
        let refused = c4solver::Line::parse(c4solver::Size::STANDARD, line.as_bytes(), false);
        assert_eq!(
            refused.unwrap_err().to_string(),
            format!(
                "expected score {} is not a number",
                quoted(&"x".repeat(5000))
            )
        );
    }
}

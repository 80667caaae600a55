//! The query string of `/solve` and `/analyze`: `pos` (the moves, percent-decoded
//! to bytes, so that the command line's parser judges them, invalid UTF-8
//! included), the board `size` (`WxH`, one this program holds), and the `weak`
//! and `pv` switches. Other parameters are ignored, as the online solver
//! ignores them.
//!
//! Not axum's `Query` (serde_urlencoded): it decodes every value into a `String`,
//! so invalid UTF-8 in `pos` would be replaced before the command line's parser
//! could report it by its byte offset; the decoding itself is percent-encoding's.

use std::borrow::Cow;

use c4solver::Size;
use percent_encoding::percent_decode;

/// The parameters of one request (`pos` borrowed from the query unless it had
/// to be decoded).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params<'a> {
    /// The bytes of `pos`, `None` if absent.
    pub pos: Option<Cow<'a, [u8]>>,
    /// `weak=1`.
    pub weak: bool,
    /// `pv=1`.
    pub pv: bool,
    /// `size=WxH`, `None` if absent (the server's `--size` board).
    pub size: Option<Size>,
}

/// Decodes one `application/x-www-form-urlencoded` field: `+` is a space.
/// A field with neither `+` nor `%` (every move string) is borrowed as it is.
fn decode(field: &str) -> Cow<'_, [u8]> {
    if !field.contains('+') {
        return percent_decode(field.as_bytes()).into();
    }
    let spaced = field.replace('+', " ");
    Cow::Owned(percent_decode(spaced.as_bytes()).collect())
}

/// A switch: `1` (on) or `0` (off), nothing else: an empty value (`pv=`, or
/// `pv` alone) is an error, never "on".
fn switch(name: &str, value: &[u8]) -> Result<bool, String> {
    match value {
        b"1" => Ok(true),
        b"0" => Ok(false),
        _ => Err(format!(
            "{name} is 1 or 0, found {}",
            c4solver::lines::quoted(&String::from_utf8_lossy(value))
        )),
    }
}

/// A board size this program holds, with the command line's message for
/// `--size` otherwise.
fn size(value: &[u8]) -> Result<Size, String> {
    String::from_utf8_lossy(value)
        .parse::<Size>()
        .and_then(Size::built)
        .map_err(|e| e.to_string())
}

/// The parameters of `query` (the part after `?`); the first of a repeated one
/// counts.
///
/// # Errors
/// A `weak` or `pv` that is not a switch, or a `size` this program does not
/// hold, with the message.
pub fn parse(query: Option<&str>) -> Result<Params<'_>, String> {
    let mut params = Params::default();
    let (mut weak, mut pv) = (None, None);
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = decode(value);
        match &*decode(name) {
            b"pos" if params.pos.is_none() => params.pos = Some(value),
            b"weak" if weak.is_none() => weak = Some(switch("weak", &value)?),
            b"pv" if pv.is_none() => pv = Some(switch("pv", &value)?),
            b"size" if params.size.is_none() => params.size = Some(size(&value)?),
            _ => {}
        }
    }
    params.weak = weak.unwrap_or(false);
    params.pv = pv.unwrap_or(false);
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_pos_and_switches() {
        let p = parse(Some("pos=44%355&weak=1&pv=1&x=y")).unwrap();
        assert_eq!(p.pos.as_deref(), Some(&b"4455"[..]));
        assert!(p.weak && p.pv);
        let p = parse(Some("pos=4&weak=0&pv=0")).unwrap();
        assert!(!p.weak && !p.pv);
        assert_eq!(parse(Some("pos=")).unwrap().pos.as_deref(), Some(&b""[..]));
        assert_eq!(parse(None).unwrap().pos, None);
        assert_eq!(
            parse(Some("pos=%FF")).unwrap().pos.as_deref(),
            Some(&[0xFF][..])
        );
        let plain = parse(Some("pos=4455&pv=1")).unwrap().pos;
        assert!(matches!(plain, Some(Cow::Borrowed(b"4455"))), "{plain:?}");
        assert_eq!(
            parse(Some("pos=4+4")).unwrap().pos.as_deref(),
            Some(&b"4 4"[..])
        );
        assert_eq!(
            parse(Some("pos=1&pv=maybe")).unwrap_err(),
            r#"pv is 1 or 0, found "maybe""#
        );
    }

    #[test]
    fn size_is_a_built_board() {
        assert_eq!(parse(Some("pos=4")).unwrap().size, None);
        let p = parse(Some("size=7x6&pos=4&size=9x9")).unwrap();
        assert_eq!(p.size, Some(Size::STANDARD), "the first counts");
        assert_eq!(
            parse(Some("size=seven")).unwrap_err(),
            r#"bad board size "seven": expected WIDTHxHEIGHT, for example 7x6"#
        );
        assert_eq!(
            parse(Some("size=20x20")).unwrap_err(),
            "board size 20x20 is too large: width * (height + 1) = 420 bits, more than the 128 of the widest bitboard"
        );
        let eight = Size::new(8, 7).unwrap();
        match eight.built() {
            Ok(_) => assert_eq!(parse(Some("size=8x7")).unwrap().size, Some(eight)),
            Err(e) => assert_eq!(parse(Some("size=8x7")).unwrap_err(), e.to_string()),
        }
    }

    #[test]
    fn a_bare_pos_is_the_empty_board() {
        // `?pos` with no `=` is `pos=`, the empty board, not a missing `pos`.
        for query in ["pos", "pos&pv=1", "weak=1&pos"] {
            let p = parse(Some(query)).unwrap();
            assert_eq!(p.pos.as_deref(), Some(&b""[..]), "{query}");
        }
        let p = parse(Some("pos&weak=1&pv=1")).unwrap();
        assert!(p.weak && p.pv);
    }

    #[test]
    fn a_switch_is_1_or_0_only() {
        for (query, found) in [
            ("pv=", r#""""#),
            ("pv", r#""""#),
            ("pv=yes", r#""yes""#),
            ("pv=true", r#""true""#),
            ("pv=2", r#""2""#),
        ] {
            assert_eq!(
                parse(Some(query)).unwrap_err(),
                format!("pv is 1 or 0, found {found}"),
                "{query}"
            );
        }
        assert_eq!(
            parse(Some("weak=no")).unwrap_err(),
            r#"weak is 1 or 0, found "no""#
        );
    }
}

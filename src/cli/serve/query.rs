//! The query string of `/solve` and `/analyze`: `pos` (the moves, percent-decoded
//! to bytes, so that the command line's parser judges them, invalid UTF-8
//! included), and the `weak` and `pv` switches. Other parameters are ignored, as
//! the online solver ignores them.

use percent_encoding::percent_decode;

/// The parameters of one request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    /// The bytes of `pos`, `None` if absent.
    pub pos: Option<Vec<u8>>,
    /// `weak=1`.
    pub weak: bool,
    /// `pv=1`.
    pub pv: bool,
}

/// Decodes one `application/x-www-form-urlencoded` field: `+` is a space.
fn decode(field: &str) -> Vec<u8> {
    let spaced = field.replace('+', " ");
    percent_decode(spaced.as_bytes()).collect()
}

/// A switch: `1` (on) or `0` (off), nothing else: an empty value (`pv=`, or
/// `pv` alone) is an error, never "on".
fn switch(name: &str, value: &[u8]) -> Result<bool, String> {
    match value {
        b"1" => Ok(true),
        b"0" => Ok(false),
        _ => Err(format!(
            "{name} is 1 or 0, found {}",
            c4solver::quoted(&String::from_utf8_lossy(value))
        )),
    }
}

/// The parameters of `query` (the part after `?`); the first of a repeated one
/// counts.
///
/// # Errors
/// A `weak` or `pv` that is not a switch, with the message.
pub fn parse(query: Option<&str>) -> Result<Params, String> {
    let mut params = Params::default();
    let (mut weak, mut pv) = (None, None);
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = decode(value);
        match decode(name).as_slice() {
            b"pos" if params.pos.is_none() => params.pos = Some(value),
            b"weak" if weak.is_none() => weak = Some(switch("weak", &value)?),
            b"pv" if pv.is_none() => pv = Some(switch("pv", &value)?),
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
        assert_eq!(parse(Some("pos=%FF")).unwrap().pos, Some(vec![0xFF]));
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

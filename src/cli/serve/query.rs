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

/// A switch: `1`/`true`/`yes` or `0`/`false`/`no`, or empty (`&pv`) for on.
fn switch(name: &str, value: &[u8]) -> Result<bool, String> {
    match value {
        b"" | b"1" | b"true" | b"yes" => Ok(true),
        b"0" | b"false" | b"no" => Ok(false),
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
        let p = parse(Some("pos=44%355&weak=1&pv&x=y")).unwrap();
        assert_eq!(p.pos.as_deref(), Some(&b"4455"[..]));
        assert!(p.weak && p.pv);
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
}

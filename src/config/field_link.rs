//! A link to one field of one message: the fragment's tail
//! `/m{lane}.{event}/{path}` (`state::field_fragment` writes it).

/// A link to one field: the message (lane, event) and the field's path.
pub type FieldLink = ((usize, usize), String);

/// Splits a fragment into its permalink and the field it points at
/// (`state::field_fragment`): `("v3.…", Some(((lane, event), path)))`.
pub fn split_field(hash: &str) -> (&str, Option<FieldLink>) {
    let Some((base, rest)) = hash.split_once("/m") else {
        return (hash, None);
    };
    let (at, path) = rest.split_once('/').unwrap_or((rest, ""));
    let Some((lane, event)) = at.split_once('.') else {
        return (hash, None);
    };
    let (Ok(lane), Ok(event)) = (lane.parse(), event.parse()) else {
        return (hash, None);
    };
    (base, Some(((lane, event), percent_decode(path))))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

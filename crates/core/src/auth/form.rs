//! `application/x-www-form-urlencoded` text, as OAuth sends it in query
//! strings and token request bodies: read into name-value pairs (`+` is a
//! space, `%XX` a byte, invalid UTF-8 read lossily) and written back.

/// The pairs of a query string or form body, in order.
pub fn parse(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|seg| !seg.is_empty())
        .map(|seg| {
            let (name, value) = seg.split_once('=').unwrap_or((seg, ""));
            (decode(name), decode(value))
        })
        .collect()
}

/// The value of the only parameter called `name`; `None` when it is
/// missing, empty or repeated (RFC 6749 3.1: a parameter sent twice is an
/// error).
pub fn single<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    let mut found = pairs.iter().filter(|(n, _)| n == name);
    let first = found.next()?;
    if found.next().is_some() || first.1.is_empty() {
        return None;
    }
    Some(&first.1)
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match text.get(i + 1..i + 3).map(|h| u8::from_str_radix(h, 16)) {
                    Some(Ok(b)) => {
                        out.push(b);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` as a query component: unreserved characters as they are,
/// every other byte as `%XX`.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `url` with `pairs` appended to its query.
pub fn with_query(url: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = url.to_string();
    let mut sep = if url.contains('?') { '&' } else { '?' };
    for (name, value) in pairs {
        out.push(sep);
        out.push_str(&encode(name));
        out.push('=');
        out.push_str(&encode(value));
        sep = '&';
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_form_text() {
        let pairs = parse("a=1+2&b=%2Fx%3F&c&bad=%zz&a=3");
        assert_eq!(pairs[0], ("a".into(), "1 2".into()));
        assert_eq!(pairs[1], ("b".into(), "/x?".into()));
        assert_eq!(pairs[2], ("c".into(), String::new()));
        assert_eq!(pairs[3], ("bad".into(), "%zz".into()));
        assert_eq!(single(&pairs, "a"), None);
        assert_eq!(single(&pairs, "b"), Some("/x?"));
        assert_eq!(single(&pairs, "c"), None);
        assert_eq!(parse("x=%4"), vec![("x".into(), "%4".into())]);
        assert_eq!(
            with_query("http://h/cb?k=1", &[("code", "a b"), ("iss", "http://i")]),
            "http://h/cb?k=1&code=a%20b&iss=http%3A%2F%2Fi"
        );
    }
}

//! Reading a `WWW-Authenticate` header (RFC 9110 challenges, RFC 6750
//! Bearer parameters), and the well-known URIs of RFC 9728 (protected
//! resource metadata) and RFC 8414 / OpenID Connect discovery
//! (authorization server metadata) a checker fetches.

/// One challenge of a `WWW-Authenticate` header: its scheme and its
/// `name=value` parameters (quotes removed, names lower-cased).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The auth scheme as written (`Bearer`, `Basic`, ...).
    pub scheme: String,
    /// The parameters in the order written.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// Whether the scheme is `Bearer` (case-insensitive).
    pub fn is_bearer(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("bearer")
    }

    /// The value of parameter `name` (case-insensitive name).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The challenges of a `WWW-Authenticate` value, in order. Lenient: a
/// parameter it cannot read ends the parse with what was read so far.
pub fn parse(value: &str) -> Vec<Challenge> {
    let mut out: Vec<Challenge> = Vec::new();
    let mut rest = value.trim();
    while !rest.is_empty() {
        rest = rest.trim_start_matches([',', ' ', '\t']);
        // A token followed by `=` is a parameter of the current challenge;
        // a token followed by a space or the end is a new scheme.
        let end = rest
            .find(|c: char| c == '=' || c == ',' || c.is_whitespace())
            .unwrap_or(rest.len());
        let (token, after) = rest.split_at(end);
        if token.is_empty() {
            break;
        }
        let after_trim = after.trim_start();
        if let (Some(current), Some(value_part)) = (out.last_mut(), after_trim.strip_prefix('=')) {
            let value_part = value_part.trim_start();
            let (param, remaining) = read_value(value_part);
            current.params.push((token.to_ascii_lowercase(), param));
            rest = remaining;
        } else {
            out.push(Challenge {
                scheme: token.to_string(),
                params: Vec::new(),
            });
            rest = after;
        }
    }
    out
}

/// A quoted string (with `\` escapes) or a token, and what follows it.
fn read_value(text: &str) -> (String, &str) {
    if let Some(quoted) = text.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, next)) = chars.next() {
                        value.push(next);
                    }
                }
                '"' => return (value, &quoted[i + 1..]),
                _ => value.push(c),
            }
        }
        (value, "")
    } else {
        let end = text
            .find(|c: char| c == ',' || c.is_whitespace())
            .unwrap_or(text.len());
        (text[..end].to_string(), &text[end..])
    }
}

/// Every challenge of the `WWW-Authenticate` headers, in order.
pub fn all(headers: &[(String, String)]) -> impl Iterator<Item = Challenge> + '_ {
    headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("www-authenticate"))
        .flat_map(|(_, v)| parse(v))
}

/// The first Bearer challenge among the `WWW-Authenticate` headers.
pub fn bearer(headers: &[(String, String)]) -> Option<Challenge> {
    all(headers).find(Challenge::is_bearer)
}

/// Splits an absolute `http(s)://` URL into its origin and its path
/// (without query or fragment, `""` for the root).
pub fn origin_and_path(url: &str) -> Option<(&str, &str)> {
    let scheme_end = url.find("://")?;
    let after = &url[scheme_end + 3..];
    let authority_end = after.find(['/', '?', '#']).unwrap_or(after.len());
    if authority_end == 0 {
        return None;
    }
    let origin = &url[..scheme_end + 3 + authority_end];
    let path_part = &after[authority_end..];
    let path_end = path_part.find(['?', '#']).unwrap_or(path_part.len());
    let path = path_part[..path_end].trim_end_matches('/');
    Some((origin, path))
}

/// Where RFC 9728 puts the protected resource metadata of `resource`:
/// the well-known path with the resource's path after it, then at the
/// origin's root.
pub fn prm_well_known(resource: &str) -> Vec<String> {
    let Some((origin, path)) = origin_and_path(resource) else {
        return Vec::new();
    };
    let mut urls = vec![format!(
        "{origin}/.well-known/oauth-protected-resource{path}"
    )];
    if !path.is_empty() {
        urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    }
    urls
}

/// Where an authorization server's metadata is for `issuer`, in the order
/// the 2026-07-28 revision tries them: RFC 8414 then OpenID Connect
/// discovery, path inserted, and OpenID Connect's path appended.
pub fn as_well_known(issuer: &str) -> Vec<String> {
    let Some((origin, path)) = origin_and_path(issuer) else {
        return Vec::new();
    };
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_read_with_their_parameters() {
        let c = parse(
            r#"Bearer resource_metadata="http://a/x", scope="read write", error=insufficient_scope"#,
        );
        assert_eq!(c.len(), 1);
        assert!(c[0].is_bearer());
        assert_eq!(c[0].param("resource_metadata"), Some("http://a/x"));
        assert_eq!(c[0].param("scope"), Some("read write"));
        assert_eq!(c[0].param("error"), Some("insufficient_scope"));
        let two = parse(r#"Basic realm="x", Bearer scope="a""#);
        assert_eq!(two.len(), 2);
        assert_eq!(two[1].param("scope"), Some("a"));
        assert!(parse("").is_empty());
        assert!(parse("==,,\"").len() <= 1);
    }

    #[test]
    fn well_known_uris_insert_the_path() {
        assert_eq!(
            prm_well_known("http://h:1/mcp"),
            vec![
                "http://h:1/.well-known/oauth-protected-resource/mcp",
                "http://h:1/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            as_well_known("http://h:1"),
            vec![
                "http://h:1/.well-known/oauth-authorization-server",
                "http://h:1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(as_well_known("http://h/t1").len(), 3);
        assert!(prm_well_known("not a url").is_empty());
    }
}

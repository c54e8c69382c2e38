//! Who may talk to the bridge: the Host check and the Origin check that stop
//! DNS rebinding, and the CORS headers for the one origin allowed.
//!
//! A page on another site can point a name it controls at 127.0.0.1 (DNS
//! rebinding) and so reach a loopback port. Its requests then carry that
//! name in `Host` and its own origin in `Origin`; the bridge answers only
//! requests whose `Host` is a loopback name with the bridge's port, and
//! whose `Origin` (when there is one: browsers send it on every
//! cross-origin fetch) is exactly the origin given with `--allow-origin`.
//! Everything else gets 403.

use crate::i18n::Keyed;

/// Request headers a page may send (CORS `Access-Control-Allow-Headers`),
/// lower-case; any `mcp-param-*` header is allowed too.
const ALLOWED_HEADERS: [&str; 7] = [
    "content-type",
    "accept",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "last-event-id",
];

/// The prefix of the per-parameter headers (`Mcp-Param-Name`).
const PARAM_PREFIX: &str = "mcp-param-";

/// Response headers a page may read (CORS `Access-Control-Expose-Headers`).
pub const EXPOSED_HEADERS: &str = "Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name";

/// Methods a page may use.
pub const ALLOWED_METHODS: &str = "POST, GET, DELETE";

/// How long a browser may cache a preflight answer, in seconds.
pub const PREFLIGHT_MAX_AGE: &str = "600";

/// The bridge's access policy: its port and the one origin it allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The port the bridge listens on (part of every acceptable `Host`).
    pub port: u16,
    /// The origin allowed (`--allow-origin`), normalized; `None`: no
    /// browser page may use the bridge, only clients that send no `Origin`.
    pub origin: Option<String>,
}

/// Why a request is refused with 403.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// `Host` is missing or not a loopback name with the bridge's port.
    Host(String),
    /// `Origin` is not the allowed origin.
    Origin(String),
}

impl Refusal {
    /// The sentence sent back with the 403 (and logged).
    pub fn explain(&self) -> String {
        match self {
            Refusal::Host(host) => format!(
                "Forbidden: Host {host:?} is not this bridge (127.0.0.1, localhost or [::1] with its port); requests for other names are refused against DNS rebinding."
            ),
            Refusal::Origin(origin) => format!(
                "Forbidden: Origin {origin:?} is not allowed; start the bridge with --allow-origin {origin} to let that page use it."
            ),
        }
    }
}

/// Normalizes an origin given with `--allow-origin`: `http` or `https`, a
/// host, an optional port, nothing after (a trailing `/` is dropped).
/// Refuses `*` and `null`: the bridge runs a program, so exactly one page
/// may drive it. The refusal is a usage error of the catalogs
/// (`cli.usage.origin_any`, `cli.usage.not_an_origin`).
pub fn parse_origin(text: &str) -> Result<String, Keyed> {
    let trimmed = text.trim().trim_end_matches('/');
    let lower = trimmed.to_ascii_lowercase();
    let value = || [("value", format!("{text:?}"))];
    let bad = || {
        Keyed::new(
            "cli.usage.not_an_origin",
            "--allow-origin {value} is not an origin (expected http://HOST[:PORT] or https://HOST[:PORT], e.g. http://127.0.0.1:8080)",
            &value(),
        )
    };
    if lower == "*" || lower == "null" {
        return Err(Keyed::new(
            "cli.usage.origin_any",
            "--allow-origin {value} would let any page run the bridge's command; name the page's origin instead",
            &value(),
        ));
    }
    let rest = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
        .ok_or_else(bad)?;
    let (host, port) = split_port(rest);
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-.[]:".contains(c));
    let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok());
    if !host_ok || !port_ok || rest.contains(['/', '?', '#', '@']) {
        return Err(bad());
    }
    Ok(lower)
}

/// `host:port` into its host and port (an IPv6 literal keeps its brackets).
fn split_port(authority: &str) -> (&str, Option<&str>) {
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => {
                let (host, rest) = authority.split_at(end + 1);
                (host, rest.strip_prefix(':'))
            }
            None => (authority, None),
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    }
}

impl Policy {
    /// Checks `Host` and `Origin`; `Ok` when the request may go on.
    pub fn admit(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), Refusal> {
        let host_text = host.unwrap_or("");
        let (name, port) = split_port(host_text.trim());
        let name = name.to_ascii_lowercase();
        let loopback = matches!(name.as_str(), "127.0.0.1" | "localhost" | "[::1]");
        let port_ok = match port {
            Some(p) => p.parse::<u16>().ok() == Some(self.port),
            None => self.port == 80,
        };
        if !(loopback && port_ok) {
            return Err(Refusal::Host(host_text.to_string()));
        }
        match origin {
            None => Ok(()),
            Some(origin) => {
                let allowed = self.origin.as_deref();
                if allowed == Some(origin.trim_end_matches('/').to_ascii_lowercase().as_str()) {
                    Ok(())
                } else {
                    Err(Refusal::Origin(origin.to_string()))
                }
            }
        }
    }

    /// The CORS headers of every answer to an admitted request that carried
    /// an `Origin` (none without one).
    pub fn cors_headers(&self, origin: Option<&str>) -> Vec<(String, String)> {
        let (Some(_), Some(allowed)) = (origin, self.origin.as_deref()) else {
            return Vec::new();
        };
        vec![
            ("Access-Control-Allow-Origin".into(), allowed.to_string()),
            (
                "Access-Control-Expose-Headers".into(),
                EXPOSED_HEADERS.into(),
            ),
            ("Vary".into(), "Origin".into()),
        ]
    }

    /// The headers of the answer to a preflight: the methods, and of the
    /// headers the page asks for (`Access-Control-Request-Headers`) those
    /// the bridge accepts (a header left out makes the browser refuse).
    pub fn preflight_headers(
        &self,
        origin: Option<&str>,
        requested: Option<&str>,
    ) -> Vec<(String, String)> {
        let mut headers = self.cors_headers(origin);
        if headers.is_empty() {
            return headers;
        }
        let allowed: Vec<String> = requested
            .unwrap_or("")
            .split(',')
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| {
                !h.is_empty() && (ALLOWED_HEADERS.contains(&h.as_str()) || is_param_header(h))
            })
            .collect();
        headers.push((
            "Access-Control-Allow-Methods".into(),
            ALLOWED_METHODS.into(),
        ));
        if !allowed.is_empty() {
            headers.push(("Access-Control-Allow-Headers".into(), allowed.join(", ")));
        }
        headers.push(("Access-Control-Max-Age".into(), PREFLIGHT_MAX_AGE.into()));
        headers
    }
}

/// `mcp-param-NAME` with a token after the prefix.
fn is_param_header(name: &str) -> bool {
    name.strip_prefix(PARAM_PREFIX).is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(origin: Option<&str>) -> Policy {
        Policy {
            port: 8931,
            origin: origin.map(str::to_string),
        }
    }

    #[test]
    fn origins_parse_or_are_refused() {
        assert_eq!(
            parse_origin("http://127.0.0.1:8080/"),
            Ok("http://127.0.0.1:8080".into())
        );
        assert_eq!(
            parse_origin("HTTPS://Lanes.Example"),
            Ok("https://lanes.example".into())
        );
        assert_eq!(
            parse_origin("http://[::1]:3000"),
            Ok("http://[::1]:3000".into())
        );
        for bad in [
            "*",
            "null",
            "127.0.0.1:8080",
            "ftp://x",
            "http://",
            "http://a/b",
            "http://a:99999",
            "http://u@a",
            "http://a?x",
        ] {
            let Err(err) = parse_origin(bad) else {
                panic!("{bad} should be refused");
            };
            // Keyed as en.json says it, and said in Chinese under zh.
            let en = crate::i18n::Catalog::load("en").expect("en");
            let zh = crate::i18n::Catalog::load("zh").expect("zh");
            assert_eq!(en.text(err.key, ""), err.template, "{bad}");
            assert_ne!(err.say(Some(&zh)), err.to_string(), "{bad}");
        }
    }

    #[test]
    fn only_loopback_hosts_with_the_port_are_admitted() {
        let p = policy(None);
        for host in [
            "127.0.0.1:8931",
            "localhost:8931",
            "LOCALHOST:8931",
            "[::1]:8931",
        ] {
            assert_eq!(p.admit(Some(host), None), Ok(()), "{host}");
        }
        for host in [
            "evil.example:8931",
            "127.0.0.1:80",
            "127.0.0.1",
            "127.0.0.2:8931",
            "localhost.evil.example:8931",
            "",
        ] {
            assert!(
                matches!(p.admit(Some(host), None), Err(Refusal::Host(_))),
                "{host}"
            );
        }
        assert!(matches!(p.admit(None, None), Err(Refusal::Host(_))));
    }

    #[test]
    fn only_the_allowed_origin_is_admitted() {
        let none = policy(None);
        assert!(matches!(
            none.admit(Some("127.0.0.1:8931"), Some("http://127.0.0.1:8080")),
            Err(Refusal::Origin(_))
        ));
        let one = policy(Some("http://127.0.0.1:8080"));
        let host = Some("127.0.0.1:8931");
        assert_eq!(one.admit(host, Some("http://127.0.0.1:8080")), Ok(()));
        for origin in [
            "http://127.0.0.1:8081",
            "https://127.0.0.1:8080",
            "null",
            "http://evil.example",
        ] {
            assert!(
                matches!(one.admit(host, Some(origin)), Err(Refusal::Origin(_))),
                "{origin}"
            );
        }
        assert!(Refusal::Origin("http://x".into())
            .explain()
            .contains("--allow-origin http://x"));
    }

    #[test]
    fn cors_names_the_origin_and_the_mcp_headers() {
        let one = policy(Some("http://127.0.0.1:8080"));
        assert!(one.cors_headers(None).is_empty());
        let headers = one.preflight_headers(
            Some("http://127.0.0.1:8080"),
            Some("content-type, mcp-protocol-version, Mcp-Method, mcp-param-region, x-evil"),
        );
        let get = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(
            get("Access-Control-Allow-Origin"),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            get("Access-Control-Allow-Headers"),
            Some("content-type, mcp-protocol-version, mcp-method, mcp-param-region")
        );
        assert!(get("Access-Control-Expose-Headers").is_some_and(|v| v.contains("Mcp-Session-Id")));
        assert_eq!(get("Access-Control-Allow-Methods"), Some(ALLOWED_METHODS));
    }
}

//! Which connection a message arrived on. The server keeps legacy session
//! state per connection (L-INIT); the modern era keeps none.

use std::fmt;

/// A connection to the server. Built with the constructors below; the
/// server, the engine, the editor and the CLI never spell a key by hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ConnId {
    /// A stdio connection (one client process), by name: [`ConnId::stdio`]
    /// for the usual single one.
    Stdio(String),
    /// Streamable HTTP outside any session: every POST stands alone.
    Http,
    /// A legacy Streamable HTTP session, by its `Mcp-Session-Id`.
    HttpSession(String),
    /// An SSE response that stays open (a `subscriptions/listen` stream),
    /// by the key of its [`HttpResponse::stream`](crate::transport::http::HttpResponse::stream).
    HttpStream(String),
}

impl ConnId {
    /// The stdio connection of a one-client run (the engine, the editor,
    /// `mcp-lanes serve --transport stdio`).
    pub fn stdio() -> ConnId {
        ConnId::Stdio("stdio".into())
    }

    /// Another stdio connection, by name (several clients of one server).
    pub fn stdio_named(name: &str) -> ConnId {
        ConnId::Stdio(name.into())
    }

    /// Streamable HTTP without a session.
    pub fn http() -> ConnId {
        ConnId::Http
    }

    /// The legacy Streamable HTTP session `session_id`.
    pub fn http_session(session_id: &str) -> ConnId {
        ConnId::HttpSession(session_id.into())
    }

    /// The open SSE response stream `key`.
    pub fn http_stream(key: &str) -> ConnId {
        ConnId::HttpStream(key.into())
    }

    /// The connection an HTTP request belongs to: its session, if it names one.
    pub fn for_http(session_id: Option<&str>) -> ConnId {
        session_id.map_or(ConnId::Http, ConnId::http_session)
    }

    /// The `Mcp-Session-Id` of a legacy HTTP session.
    pub fn session_id(&self) -> Option<&str> {
        match self {
            ConnId::HttpSession(id) => Some(id),
            _ => None,
        }
    }
}

/// `stdio` (or the connection's name), `http`, `http:<session id>`.
impl fmt::Display for ConnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnId::Stdio(name) => f.write_str(name),
            ConnId::Http => f.write_str("http"),
            ConnId::HttpSession(id) => write!(f, "http:{id}"),
            ConnId::HttpStream(key) => write!(f, "http-stream:{key}"),
        }
    }
}

//! Transports as simulated channels: stdio framing and Streamable HTTP
//! requests/responses. Pure data and pure functions; the engine in
//! [`crate::sim`] moves messages through them on the virtual clock.

pub mod http;
pub mod param_headers;
pub mod sse;
pub mod stdio;

use serde::{Deserialize, Serialize};

pub use http::{HttpRequest, HttpResponse};

/// Which transport a set-up uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TransportKind {
    /// One JSON message per line over a child process's stdin/stdout.
    Stdio,
    /// Streamable HTTP: one POST per message.
    Http,
}

impl TransportKind {
    /// Lower-case name, as used in the CLI and the URL.
    pub fn name(self) -> &'static str {
        match self {
            TransportKind::Stdio => "stdio",
            TransportKind::Http => "http",
        }
    }
}

/// How the simulated channel behaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelConfig {
    /// Which transport.
    pub kind: TransportKind,
    /// One-way latency in virtual milliseconds.
    pub latency_ms: u64,
    /// Client messages lost in transit, by 1-based ordinal (e.g. `[2]`
    /// loses the client's second message).
    #[serde(default)]
    pub lose_from_client: Vec<u32>,
    /// Server messages lost in transit, by 1-based ordinal.
    #[serde(default)]
    pub lose_from_server: Vec<u32>,
}

impl ChannelConfig {
    /// A channel with the default 20 ms one-way latency.
    pub fn new(kind: TransportKind) -> Self {
        Self {
            kind,
            latency_ms: 20,
            lose_from_client: Vec::new(),
            lose_from_server: Vec::new(),
        }
    }
}

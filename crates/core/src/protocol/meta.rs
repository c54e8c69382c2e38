//! Reserved `_meta` keys of the modern revision (2026-07-28).

/// `_meta` key carrying the protocol version of a modern request (PV).
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key carrying the client capabilities declared on a request (CAPS).
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key carrying the client's self-description (CINFO); optional.
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key carrying the server's self-description on results (SINFO).
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// Extension identifier of the tasks extension, declared by the `rich` client.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

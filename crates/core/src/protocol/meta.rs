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
/// `_meta` key of a modern request asking for log messages at this level
/// or above; without it the server sends none for the request.
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key tagging every notification of a `subscriptions/listen`
/// stream with the id of the listen request.
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// `_meta` key of a request asking for progress notifications.
pub const PROGRESS_TOKEN: &str = "progressToken";

//! Method names used by the simulator.

/// Modern discovery request.
pub const DISCOVER: &str = "server/discover";
/// Legacy handshake request.
pub const INITIALIZE: &str = "initialize";
/// Legacy handshake completion notification.
pub const INITIALIZED: &str = "notifications/initialized";
/// Liveness check (legacy only; removed in 2026-07-28).
pub const PING: &str = "ping";
/// List tools.
pub const TOOLS_LIST: &str = "tools/list";
/// Call a tool.
pub const TOOLS_CALL: &str = "tools/call";
/// List prompts.
pub const PROMPTS_LIST: &str = "prompts/list";
/// Get a prompt.
pub const PROMPTS_GET: &str = "prompts/get";
/// List resources.
pub const RESOURCES_LIST: &str = "resources/list";
/// List resource templates.
pub const RESOURCES_TEMPLATES_LIST: &str = "resources/templates/list";
/// Read a resource.
pub const RESOURCES_READ: &str = "resources/read";
/// Subscribe to a resource (legacy only).
pub const RESOURCES_SUBSCRIBE: &str = "resources/subscribe";
/// Unsubscribe from a resource (legacy only).
pub const RESOURCES_UNSUBSCRIBE: &str = "resources/unsubscribe";
/// Set the log level (legacy only).
pub const LOGGING_SET_LEVEL: &str = "logging/setLevel";
/// Server-to-client elicitation (legacy); an input request kind under MRTR.
pub const ELICITATION_CREATE: &str = "elicitation/create";
/// Cancellation notification.
pub const CANCELLED: &str = "notifications/cancelled";
/// Tool list changed notification.
pub const TOOLS_LIST_CHANGED: &str = "notifications/tools/list_changed";
/// Resource updated notification (legacy subscriptions).
pub const RESOURCES_UPDATED: &str = "notifications/resources/updated";

/// Legacy methods a modern-only server no longer has (M-UNKNOWN-METHOD).
pub const REMOVED_IN_MODERN: &[&str] = &[
    INITIALIZE,
    PING,
    LOGGING_SET_LEVEL,
    RESOURCES_SUBSCRIBE,
    RESOURCES_UNSUBSCRIBE,
];

/// Methods whose requests name a target that HTTP mirrors in `Mcp-Name`.
pub fn name_param(method: &str) -> Option<&'static str> {
    match method {
        TOOLS_CALL | PROMPTS_GET => Some("name"),
        RESOURCES_READ => Some("uri"),
        _ => None,
    }
}

/// Methods whose modern results may be `input_required` (M-MRTR).
pub fn may_require_input(method: &str) -> bool {
    matches!(method, TOOLS_CALL | PROMPTS_GET | RESOURCES_READ)
}

/// Methods whose modern results carry `ttlMs` and `cacheScope` (M-CACHE-HINTS).
pub fn is_cacheable(method: &str) -> bool {
    matches!(
        method,
        DISCOVER
            | TOOLS_LIST
            | PROMPTS_LIST
            | RESOURCES_LIST
            | RESOURCES_TEMPLATES_LIST
            | RESOURCES_READ
    )
}

/// Argument autocompletion.
pub const COMPLETION_COMPLETE: &str = "completion/complete";
/// Open a long-lived notification stream (2026-07-28).
pub const SUBSCRIPTIONS_LISTEN: &str = "subscriptions/listen";
/// Acknowledges a `subscriptions/listen` stream (its first message).
pub const SUBSCRIPTIONS_ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";
/// Ask the client's model for a completion (legacy request; an input request kind under MRTR).
pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
/// Ask the client for its roots (legacy request; an input request kind under MRTR).
pub const ROOTS_LIST: &str = "roots/list";
/// A log message from the server.
pub const LOGGING_MESSAGE: &str = "notifications/message";
/// Progress of a request that asked for it with a progress token.
pub const PROGRESS: &str = "notifications/progress";
/// Prompt list changed notification.
pub const PROMPTS_LIST_CHANGED: &str = "notifications/prompts/list_changed";
/// Resource list changed notification.
pub const RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";

//! MCP methods: their names, and [`METHODS`], the one table of what each
//! is (eras, sender, request or notification, cache hints, input rounds,
//! the `Mcp-Name` field, what a legacy session needs first, the schema
//! type of its result).

use super::version::Era;

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

/// Who sends a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// The client.
    Client,
    /// The server.
    Server,
}

/// A request (answered) or a notification (not answered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// It has an id and gets a response.
    Request,
    /// It has no id and gets none.
    Notification,
}

/// In which eras a method exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eras {
    /// 2026-07-28 only.
    Modern,
    /// The initialize-based revisions only (2025-11-25 and earlier).
    Legacy,
    /// Both.
    Both,
}

impl Eras {
    /// Whether the method exists in `era`.
    pub fn has(self, era: Era) -> bool {
        matches!(
            (self, era),
            (Eras::Both, _) | (Eras::Modern, Era::Modern) | (Eras::Legacy, Era::Legacy)
        )
    }
}

/// What a legacy session needs before it may use a method
/// (L-CAP-SESSION), as the legacy server checks it (a method whose
/// capability the server did not declare is one it does not have,
/// -32601; one that needs a session is refused before initialize) and
/// the check grades a server's requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegacyNeeds {
    /// Nothing: the handshake itself, `ping` (which may come first), a
    /// notification.
    Nothing,
    /// An initialized session (initialize answered), and no capability.
    Session,
    /// A session, and the capability of that name declared by the side
    /// the method goes to: for a client request a server capability
    /// (`tools`, `prompts`, ...; `resources.subscribe` for a flag within
    /// one, see [`ServerCapabilities::declares`](super::ServerCapabilities::declares)),
    /// for a server request a client capability (`elicitation`; see
    /// [`ClientCapabilities::declares`](super::ClientCapabilities::declares)),
    /// the one its input request needs under MRTR too (M-MRTR-CAP).
    Capability(&'static str),
}

impl LegacyNeeds {
    /// The capability it names, if any.
    pub fn capability(self) -> Option<&'static str> {
        match self {
            LegacyNeeds::Capability(name) => Some(name),
            LegacyNeeds::Nothing | LegacyNeeds::Session => None,
        }
    }

    /// Whether the method needs an initialized session.
    pub fn session(self) -> bool {
        self != LegacyNeeds::Nothing
    }
}

/// One MCP method and what every part of mcp-lanes needs to know about it:
/// the one table the server, the client, the editor's lint, the check and
/// the catalogs read (ARCHITECTURE.md, "add a method").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Method {
    /// The method name.
    pub name: &'static str,
    /// The eras it exists in.
    pub eras: Eras,
    /// Who sends it.
    pub from: Sender,
    /// Request or notification.
    pub shape: Shape,
    /// Its modern results carry `ttlMs` and `cacheScope` (M-CACHE-HINTS).
    pub cacheable: bool,
    /// Its modern results may be `input_required` (M-MRTR).
    pub input_required: bool,
    /// The params field HTTP mirrors in `Mcp-Name` (H-HEADERS).
    pub name_param: Option<&'static str>,
    /// What a legacy session needs first (the legacy server's gate); its
    /// capability gates a modern request too.
    pub legacy_needs: LegacyNeeds,
    /// The schema definition of its result (`ListToolsResult`), the same
    /// name in every revision that has the method; `None` for a
    /// notification, and for a request whose result nothing validates
    /// (2025-11-25's tasks).
    pub result_schema: Option<&'static str>,
}

/// A row: a request or a notification, then what else is true of it,
/// chained (`returns`, `needs`, `sessionless`, `cached`, `targeted`).
const fn row(name: &'static str, eras: Eras, from: Sender, shape: Shape) -> Method {
    Method {
        name,
        eras,
        from,
        shape,
        cacheable: false,
        input_required: false,
        name_param: None,
        legacy_needs: LegacyNeeds::Nothing,
        result_schema: None,
    }
}

/// A request of the client and the schema definition of its result; in a
/// legacy session it comes after initialize.
const fn client(name: &'static str, eras: Eras, result: &'static str) -> Method {
    let mut m = row(name, eras, Sender::Client, Shape::Request).returns(result);
    m.legacy_needs = LegacyNeeds::Session;
    m
}

/// A request of the server and the schema definition of its result.
const fn server(name: &'static str, eras: Eras, result: &'static str) -> Method {
    row(name, eras, Sender::Server, Shape::Request).returns(result)
}

const fn notification(name: &'static str, eras: Eras, from: Sender) -> Method {
    row(name, eras, from, Shape::Notification)
}

impl Method {
    const fn returns(mut self, result: &'static str) -> Method {
        self.result_schema = Some(result);
        self
    }

    const fn needs(mut self, capability: &'static str) -> Method {
        self.legacy_needs = LegacyNeeds::Capability(capability);
        self
    }

    const fn sessionless(mut self) -> Method {
        self.legacy_needs = LegacyNeeds::Nothing;
        self
    }

    const fn cached(mut self) -> Method {
        self.cacheable = true;
        self
    }

    const fn targeted(mut self, param: &'static str) -> Method {
        self.name_param = Some(param);
        self.input_required = true;
        self
    }
}

/// Every method mcp-lanes knows, client requests and notifications first,
/// in the order the editor's templates list them.
#[rustfmt::skip]
pub const METHODS: &[Method] = {
    use Eras::{Both, Legacy, Modern};
    use Sender::{Client, Server};
    &[
        client(DISCOVER, Modern, "DiscoverResult").cached(),
        client(INITIALIZE, Legacy, "InitializeResult").sessionless(),
        notification(INITIALIZED, Legacy, Client),
        client(PING, Legacy, "EmptyResult").sessionless(),
        client(TOOLS_LIST, Both, "ListToolsResult").needs("tools").cached(),
        client(TOOLS_CALL, Both, "CallToolResult").needs("tools").targeted("name"),
        client(PROMPTS_LIST, Both, "ListPromptsResult").needs("prompts").cached(),
        client(PROMPTS_GET, Both, "GetPromptResult").needs("prompts").targeted("name"),
        client(RESOURCES_LIST, Both, "ListResourcesResult").needs("resources").cached(),
        client(RESOURCES_TEMPLATES_LIST, Both, "ListResourceTemplatesResult")
            .needs("resources").cached(),
        client(RESOURCES_READ, Both, "ReadResourceResult")
            .needs("resources").cached().targeted("uri"),
        client(RESOURCES_SUBSCRIBE, Legacy, "EmptyResult").needs("resources.subscribe"),
        client(RESOURCES_UNSUBSCRIBE, Legacy, "EmptyResult").needs("resources.subscribe"),
        client(LOGGING_SET_LEVEL, Legacy, "EmptyResult").needs("logging"),
        client(COMPLETION_COMPLETE, Both, "CompleteResult").needs("completions"),
        client(SUBSCRIPTIONS_LISTEN, Modern, "SubscriptionsListenResult"),
        notification(CANCELLED, Both, Client),
        notification(ROOTS_LIST_CHANGED, Legacy, Client),
        // 2025-11-25's tasks (experimental): known to the check, not
        // templated, not served, their results not validated.
        row(TASKS_GET, Legacy, Client, Shape::Request).needs("tasks"),
        row(TASKS_RESULT, Legacy, Client, Shape::Request).needs("tasks"),
        row(TASKS_LIST, Legacy, Client, Shape::Request).needs("tasks"),
        row(TASKS_CANCEL, Legacy, Client, Shape::Request).needs("tasks"),
        // The server's requests of a legacy session (input requests under MRTR).
        server(ELICITATION_CREATE, Legacy, "ElicitResult").needs("elicitation"),
        server(SAMPLING_CREATE_MESSAGE, Legacy, "CreateMessageResult").needs("sampling"),
        server(ROOTS_LIST, Legacy, "ListRootsResult").needs("roots"),
        // The server's notifications.
        notification(TOOLS_LIST_CHANGED, Both, Server),
        notification(PROMPTS_LIST_CHANGED, Both, Server),
        notification(RESOURCES_LIST_CHANGED, Both, Server),
        notification(RESOURCES_UPDATED, Both, Server),
        notification(LOGGING_MESSAGE, Both, Server),
        notification(PROGRESS, Both, Server),
        notification(SUBSCRIPTIONS_ACKNOWLEDGED, Modern, Server),
    ]
};

/// The row of `name`, if mcp-lanes knows the method.
pub fn find(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

/// The requests and notifications a client sends in `era`, in table order
/// (the editor's templates); 2025-11-25's experimental tasks are left out.
pub fn client_methods(era: Era) -> Vec<&'static str> {
    METHODS
        .iter()
        .filter(|m| m.from == Sender::Client && m.eras.has(era))
        .filter(|m| !m.name.starts_with("tasks/"))
        .map(|m| m.name)
        .collect()
}

/// Whether `name` is a client request of some revision (anything else sent
/// as a request is an unknown method, M-UNKNOWN-METHOD).
pub fn is_known_request(name: &str) -> bool {
    find(name).is_some_and(|m| m.from == Sender::Client && m.shape == Shape::Request)
}

/// Whether `name` is a legacy client request a modern-only server no
/// longer has (M-UNKNOWN-METHOD): `initialize`, `ping`, `logging/setLevel`,
/// `resources/subscribe`, `resources/unsubscribe`.
pub fn removed_in_modern(name: &str) -> bool {
    find(name).is_some_and(|m| {
        m.eras == Eras::Legacy
            && m.from == Sender::Client
            && m.shape == Shape::Request
            && !m.name.starts_with("tasks/")
    })
}

/// Methods whose requests name a target that HTTP mirrors in `Mcp-Name`.
pub fn name_param(method: &str) -> Option<&'static str> {
    find(method).and_then(|m| m.name_param)
}

/// Methods whose modern results may be `input_required` (M-MRTR).
pub fn may_require_input(method: &str) -> bool {
    find(method).is_some_and(|m| m.input_required)
}

/// The schema definition of the result of `method` (S-SCHEMA), whoever
/// answers it.
pub fn result_schema(method: &str) -> Option<&'static str> {
    find(method).and_then(|m| m.result_schema)
}

/// Methods whose modern results carry `ttlMs` and `cacheScope` (M-CACHE-HINTS).
pub fn is_cacheable(method: &str) -> bool {
    find(method).is_some_and(|m| m.cacheable)
}

/// Roots list changed notification (legacy).
pub const ROOTS_LIST_CHANGED: &str = "notifications/roots/list_changed";
/// Get a task (2025-11-25, experimental).
pub const TASKS_GET: &str = "tasks/get";
/// A task's result (2025-11-25, experimental).
pub const TASKS_RESULT: &str = "tasks/result";
/// List tasks (2025-11-25, experimental).
pub const TASKS_LIST: &str = "tasks/list";
/// Cancel a task (2025-11-25, experimental).
pub const TASKS_CANCEL: &str = "tasks/cancel";

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m_unknown_method_removed_in_modern_are_the_five_legacy_requests() {
        let removed: Vec<&str> = METHODS
            .iter()
            .map(|m| m.name)
            .filter(|n| removed_in_modern(n))
            .collect();
        assert_eq!(
            removed,
            [
                INITIALIZE,
                PING,
                RESOURCES_SUBSCRIBE,
                RESOURCES_UNSUBSCRIBE,
                LOGGING_SET_LEVEL
            ]
        );
    }

    #[test]
    fn m_cache_hints_and_m_mrtr_come_from_the_table() {
        for m in [
            DISCOVER,
            TOOLS_LIST,
            PROMPTS_LIST,
            RESOURCES_LIST,
            RESOURCES_TEMPLATES_LIST,
            RESOURCES_READ,
        ] {
            assert!(is_cacheable(m), "{m}");
        }
        assert!(!is_cacheable(TOOLS_CALL));
        for m in [TOOLS_CALL, PROMPTS_GET, RESOURCES_READ] {
            assert!(may_require_input(m), "{m}");
        }
        assert_eq!(name_param(RESOURCES_READ), Some("uri"));
        assert_eq!(name_param(TOOLS_LIST), None);
    }

    #[test]
    fn l_cap_session_what_a_legacy_session_needs_comes_from_the_table() {
        use crate::protocol::capabilities::{ListCapability, ServerCapabilities};
        let needs = |m: &str| find(m).map(|m| m.legacy_needs);
        assert_eq!(needs(PING), Some(LegacyNeeds::Nothing));
        for m in METHODS
            .iter()
            .filter(|m| m.from == Sender::Client && m.shape == Shape::Request)
        {
            let first = [INITIALIZE, PING].contains(&m.name);
            assert_eq!(m.legacy_needs.session(), !first, "{}", m.name);
        }
        assert_eq!(needs(TOOLS_CALL), Some(LegacyNeeds::Capability("tools")));
        let subscribe = needs(RESOURCES_SUBSCRIBE).and_then(LegacyNeeds::capability);
        assert_eq!(subscribe, Some("resources.subscribe"));
        let mut caps = ServerCapabilities {
            resources: Some(ListCapability::default()),
            ..ServerCapabilities::default()
        };
        assert!(caps.declares("resources") && !caps.declares("resources.subscribe"));
        caps.resources = Some(ListCapability {
            subscribe: Some(true),
            ..ListCapability::default()
        });
        assert!(caps.declares("resources.subscribe") && !caps.declares("tools"));
    }

    #[test]
    fn every_method_is_in_the_table_once() {
        for (n, m) in METHODS.iter().enumerate() {
            assert!(
                METHODS[n + 1..].iter().all(|o| o.name != m.name),
                "{} twice",
                m.name
            );
        }
        assert!(is_known_request(SUBSCRIPTIONS_LISTEN));
        assert!(!is_known_request(CANCELLED));
        assert!(!is_known_request("mcp-lanes/no-such-method"));
    }
}

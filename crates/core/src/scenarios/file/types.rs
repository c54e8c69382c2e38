//! The scenario file as an author writes it: every field optional where a
//! preset or a default can fill it in (`None` = "not written"). These types
//! are the file's own vocabulary, not the core's: `build.rs` turns them
//! into [`crate::sim::Setup`]s, `write.rs` makes them from set-ups.

use serde_json::{Map, Value};

use crate::client::UndeclaredPolicy;
use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, ServerCapabilities};
use crate::server::{CacheScope, ProgressStep, PromptArgument, ToolFailure, UnknownMethodPolicy};
use crate::transport::TransportKind;

/// A whole scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileDef {
    /// Stable id (lowercase letters, digits and `-`).
    pub id: String,
    /// Short title.
    pub title: String,
    /// One-line summary.
    pub summary: String,
    /// Servers the set-ups refer to (besides the built-in presets).
    pub servers: Vec<ServerDef>,
    /// Clients the set-ups refer to (besides the built-in presets).
    pub clients: Vec<ClientDef>,
    /// The side-by-side set-ups.
    pub setups: Vec<SetupDef>,
    /// The author's text in other languages.
    pub translations: Vec<super::Translation>,
}

/// What a server and a client definition share: how set-ups refer to it,
/// the preset it starts from, who it says it is, which versions it speaks
/// and its capabilities (`C`: server or client capabilities).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PeerDef<C> {
    /// How set-ups refer to it.
    pub id: String,
    /// The built-in preset it starts from.
    pub preset: Option<String>,
    /// serverInfo.name or clientInfo.name.
    pub name: Option<String>,
    /// serverInfo.version or clientInfo.version.
    pub version: Option<String>,
    /// Which eras it speaks.
    pub era: Option<EraMode>,
    /// Modern protocol versions (a client's in preference order).
    pub modern_versions: Option<Vec<String>>,
    /// Legacy protocol versions (a server's newest first, a client's in
    /// preference order).
    pub legacy_versions: Option<Vec<String>>,
    /// Its capabilities (a server's are derived from its lists when not
    /// written).
    pub capabilities: Option<C>,
}

/// A server: a preset with overrides, or one written from scratch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerDef {
    /// Id, preset, info, era, versions and capabilities.
    pub peer: PeerDef<ServerCapabilities>,
    /// Instructions; `Some(None)` is an explicit `null` (none).
    pub instructions: Option<Option<String>>,
    /// Cache hint: ttlMs.
    pub ttl_ms: Option<u64>,
    /// Cache hint: cacheScope.
    pub cache_scope: Option<CacheScope>,
    /// Tools (replace the preset's).
    pub tools: Option<Vec<ToolDef>>,
    /// Resources (replace the preset's).
    pub resources: Option<Vec<ResourceDef>>,
    /// Resource templates (`resourceTemplates`).
    pub resource_templates: Option<Vec<crate::server::config::TemplateSpec>>,
    /// Prompts (replace the preset's).
    pub prompts: Option<Vec<PromptDef>>,
    /// Whether the capability check runs before any side effect.
    pub checks_capability_before_work: Option<bool>,
    /// What a legacy server does with an unknown method.
    pub unknown_methods: Option<UnknownMethodPolicy>,
    /// The id of the first request the server itself sends (legacy).
    pub first_request_id: Option<i64>,
    /// Items per page of its lists (M-PAGINATION).
    pub page_size: Option<usize>,
    /// Who may see and call which tools (`policy`).
    pub policy: Option<crate::server::Policy>,
}

/// A tool.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolDef {
    /// Tool name.
    pub name: String,
    /// Description for the model.
    pub description: Option<String>,
    /// JSON Schema of its arguments.
    pub input_schema: Option<Value>,
    /// Client capabilities it needs.
    pub requires: Option<ClientCapabilities>,
    /// A question it asks the user before finishing.
    pub asks: Option<QuestionDef>,
    /// The -32021 message, worded the lesson's way.
    pub refusal_message: Option<String>,
    /// A side effect taken while working (a lock).
    pub side_effect: Option<String>,
    /// Text of the successful result.
    pub result: Option<String>,
    /// Failures it declares (M-TOOL-ERROR).
    pub errors: Option<Vec<ToolFailure>>,
    /// Progress it reports when asked (M-PROGRESS).
    pub progress: Option<Vec<ProgressStep>>,
    /// How long it works, in virtual ms (`durationMs`).
    pub duration_ms: Option<u64>,
    /// What it keeps between calls (`rateLimit`, `returns`, `uses`,
    /// `quarantine`).
    pub state: crate::server::ToolState,
    /// What its listing shows besides name, description and input schema
    /// (`title`, `annotations`, `icons`, `_meta`), as written.
    pub shown: Map<String, Value>,
}

/// An elicitation question (MRTR on modern requests, elicitation/create in
/// a legacy session).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QuestionDef {
    /// What the user is asked.
    pub message: String,
    /// The requested schema.
    pub requested_schema: Value,
    /// The argument the answer fills in (nothing is asked when the call has it).
    pub argument: Option<String>,
    /// The tool error when the client cannot be asked.
    pub fallback_error: Option<String>,
    /// URL mode: the page the user opens.
    pub url: Option<String>,
}

/// A resource.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResourceDef {
    /// URI.
    pub uri: String,
    /// Display name.
    pub name: Option<String>,
    /// Text contents.
    pub text: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// MIME type of its contents (`text/plain` when not given).
    pub mime_type: Option<String>,
}

/// A prompt.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PromptDef {
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Its arguments.
    pub arguments: Vec<PromptArgument>,
    /// The messages `prompts/get` returns (PromptMessage objects).
    pub messages: Vec<Value>,
}

/// A client: a preset with overrides, or one written from scratch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClientDef {
    /// Id, preset, info, era, versions and capabilities.
    pub peer: PeerDef<ClientCapabilities>,
    /// Calls server/discover before its first modern request.
    pub discover_first: Option<bool>,
    /// What it does with a request it never declared.
    pub undeclared_requests: Option<UndeclaredPolicy>,
    /// Deadline of every request; `Some(None)` = `null`, no deadline.
    pub request_timeout_ms: Option<Option<u64>>,
    /// How long a dual-era stdio probe waits.
    pub probe_timeout_ms: Option<u64>,
    /// When the host kills the run; `Some(None)` = `null`, never.
    pub host_kill_ms: Option<Option<u64>>,
    /// Quiet period before re-listing after list_changed.
    pub debounce_ms: Option<u64>,
    /// Id of its first request.
    pub first_id: Option<i64>,
    /// Its `principal` and bearer `token`.
    pub identity: Option<crate::identity::Identity>,
}

/// The channel of a set-up.
#[derive(Debug, Clone, PartialEq)]
pub struct TransportDef {
    /// stdio or Streamable HTTP.
    pub kind: TransportKind,
    /// One-way latency.
    pub latency_ms: Option<u64>,
    /// Client messages lost, by 1-based ordinal.
    pub lose_from_client: Vec<u32>,
    /// Server messages lost, by 1-based ordinal.
    pub lose_from_server: Vec<u32>,
}

/// Something that happens to the server on its own.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ServerEventDef {
    /// Its tool list changes.
    ToolsChanged {
        /// When (virtual ms).
        at_ms: u64,
    },
    /// It is upgraded in place to another server of the file (or a preset).
    Upgrade {
        /// When (virtual ms).
        at_ms: u64,
        /// The server it becomes.
        to: String,
    },
    /// Its prompts or resources change, or one resource does
    /// (`prompts-changed`, `resources-changed`, `resource-updated` + `uri`).
    Changed {
        /// When (virtual ms).
        at_ms: u64,
        /// What changed.
        change: crate::server::ServerTrigger,
    },
    /// From `atMs` on, the next matching request is answered wrongly, as
    /// written (`"event": "reply"`).
    Reply {
        /// When it is armed (virtual ms).
        at_ms: u64,
        /// The reply and what it matches.
        reply: crate::sim::scripted::ScriptedReply,
    },
    /// A notification the server sends as written (`"event": "notify"`),
    /// at `atMs` or `atMs` after the request it follows.
    Notify {
        /// When (virtual ms; after the request it follows, if it has one).
        at_ms: u64,
        /// The notification.
        notice: crate::sim::scripted::ScriptedNotice,
    },
}

/// One side-by-side set-up.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupDef {
    /// Label above the lane.
    pub label: String,
    /// A client id of the file, or a client preset.
    pub client: String,
    /// A server id of the file, or a server preset.
    pub server: String,
    /// The channel.
    pub transport: TransportDef,
    /// What the client is asked to do.
    pub steps: Vec<StepDef>,
    /// What happens to the server on its own.
    pub server_events: Vec<ServerEventDef>,
    /// The server is an OAuth protected resource (`"auth"`).
    pub auth: Option<crate::auth::Protection>,
    /// A gateway between the client and the server (`"gateway"`).
    pub gateway: Option<crate::gateway::GatewayConfig>,
}

/// How a request is sent (the options every request-like step shares).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RequestOptions {
    /// Capabilities to declare on this request instead of the current ones.
    pub declare: Option<ClientCapabilities>,
    /// Protocol version to name instead of the chosen one.
    pub version: Option<String>,
    /// On -32021, retry declaring the capability if the client has it.
    pub retry_on_missing_capability: Option<bool>,
    /// Runs alongside the following steps (`"background": true`).
    pub background: bool,
}

/// One step of a set-up's script, with the narration shown with it.
#[derive(Debug, Clone, PartialEq)]
pub struct StepDef {
    /// What the reader is told when the step begins.
    pub say: Option<String>,
    /// What the client does.
    pub action: ActionDef,
}

/// What a step asks the client to do.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ActionDef {
    /// server/discover.
    Discover {
        /// Version to name instead of the preferred one.
        version: Option<String>,
    },
    /// tools/list, resources/list, prompts/list or resources/templates/list.
    List {
        /// `tools`, `resources`, `prompts` or `resource-templates`.
        what: String,
        /// Request options.
        options: RequestOptions,
        /// Ask for every next page while a result has a `nextCursor`.
        follow: bool,
    },
    /// tools/call.
    Call {
        /// Tool name.
        tool: String,
        /// Its arguments.
        arguments: Value,
        /// Extra `_meta` keys of the request (the protocol's own win).
        meta: Option<Value>,
        /// Request options.
        options: RequestOptions,
    },
    /// resources/read.
    Read {
        /// Resource URI.
        uri: String,
        /// Request options.
        options: RequestOptions,
    },
    /// prompts/get.
    GetPrompt {
        /// Prompt name.
        name: String,
        /// Its arguments, if any.
        arguments: Option<Value>,
        /// Request options.
        options: RequestOptions,
    },
    /// Any request (the client adds `_meta`).
    Request {
        /// Method.
        method: String,
        /// Params without `_meta`.
        params: Value,
        /// Request options.
        options: RequestOptions,
    },
    /// Exact text, e.g. a deliberately broken request.
    Send {
        /// The wire text.
        text: String,
        /// HTTP headers instead of the computed ones.
        headers: Option<Vec<(String, String)>>,
        /// Why it is broken on purpose.
        violation: Option<String>,
        /// What the reader should notice.
        note: Option<String>,
        /// Rule ids it illustrates.
        rules: Vec<String>,
    },
    /// From now on, requests declare exactly these capabilities
    /// (`None`: everything the client has, the default).
    Declare {
        /// The capabilities.
        capabilities: Option<ClientCapabilities>,
    },
    /// From now on, requests stop declaring this top-level capability.
    Drop {
        /// `elicitation`, `sampling`, `roots`, `extensions` or `experimental`.
        capability: String,
    },
    /// Let virtual time pass.
    Wait {
        /// How long.
        ms: u64,
    },
    /// Close the connection.
    Disconnect,
    /// Narration only.
    Say,
}

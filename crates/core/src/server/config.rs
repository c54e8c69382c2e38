//! How a simulated server is set up: plain data, one struct.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tool_state::ToolState;
use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, Implementation, ProtocolVersion, ServerCapabilities};

/// `cacheScope` of cacheable results (M-CACHE-HINTS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Shareable across authorization contexts.
    Public,
    /// Only within one authorization context.
    Private,
}

impl CacheScope {
    /// Wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// What a legacy server does with a request for a method it does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum UnknownMethodPolicy {
    /// Answer -32601 (stdio) or a 400 with a non-modern error body (HTTP).
    Answer,
    /// Never answer (stdio) or a 404 with an empty body (HTTP).
    Silent,
}

/// A question the tool asks the user (elicitation: form mode, or URL
/// mode when it has a `url`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// The argument the answer fills in; when the call already carries it,
    /// nothing is asked (e.g. `retention_days`).
    pub argument: Option<String>,
    /// What the user is asked.
    pub message: String,
    /// The requested schema (flat object of primitive properties).
    pub requested_schema: Value,
    /// The tool error returned when the client cannot be asked (L-FALLBACK).
    pub fallback_error: Option<String>,
    /// URL mode: the page the user opens (the answer carries no content;
    /// the client must have declared `elicitation.url`, M-CAP-ELICIT-MODES).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl Question {
    /// The client capability asking it needs: `elicitation.url` in URL
    /// mode, else form-mode elicitation (M-CAP-ELICIT-MODES).
    pub fn needs(&self) -> ClientCapabilities {
        match self.url {
            Some(_) => ClientCapabilities::elicitation_url(),
            None => ClientCapabilities::elicitation_form(),
        }
    }
}

/// A tool the server offers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Tool name.
    pub name: String,
    /// Description for the model.
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
    /// Client capabilities the tool cannot work without (M-CAP-REQUIRED).
    pub requires: ClientCapabilities,
    /// A question asked before finishing, if any (MRTR or legacy elicitation).
    pub asks: Option<Question>,
    /// The -32021 message, when the lesson words it its own way.
    pub refusal_message: Option<String>,
    /// A side effect taken while working, e.g. "index lock prod-catalog".
    pub side_effect: Option<String>,
    /// Text of the successful result.
    pub result_text: String,
    /// What the tool does besides answering `result_text` (the reference
    /// preset's fixtures); `None`: nothing more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<Behaviour>,
    /// Failures the tool declares: a call whose arguments include a
    /// failure's `when` ends with its message as a tool error
    /// (M-TOOL-ERROR).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ToolFailure>,
    /// Progress the tool reports while it works, when the request carries
    /// a progress token (M-PROGRESS).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub progress: Vec<ProgressStep>,
    /// How long the tool works, in virtual ms: its progress notifications
    /// are spaced over this time and its result comes at its end
    /// (M-PROGRESS). `None`: it answers at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// What the tool keeps from one call to the next: a rate limit,
    /// handles, a quarantine (`server/tool_state.rs`).
    #[serde(default, skip_serializing_if = "ToolState::is_empty")]
    pub state: ToolState,
    /// What the tool's listing shows besides its name, description and
    /// input schema: `title`, `annotations`, `icons`, `_meta` (e.g. an MCP
    /// App's `ui.resourceUri`), each only to revisions whose schema defines
    /// it ([`crate::server::listing::tool`]).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub shown: serde_json::Map<String, Value>,
}

/// A failure a tool declares (`errors` of a scenario file's tool).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolFailure {
    /// The arguments that make it fail: every key given must be in the
    /// call's arguments with an equal value (an empty object: every call).
    pub when: Value,
    /// The tool error's text; `{argument}` is filled from the call.
    pub message: String,
}

/// One `notifications/progress` a tool sends while it works.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgressStep {
    /// How far along (grows from one notification to the next).
    pub progress: f64,
    /// The total, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A sentence for the user, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// What a tool does besides answering its `result_text`
/// (`server/tools.rs` runs it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Behaviour {
    /// Answers these content blocks instead of one text block.
    Content {
        /// The blocks (text, image, audio, resource ...).
        content: Vec<Value>,
    },
    /// Answers `result_text` as a tool error (`isError: true`), not as a
    /// JSON-RPC error.
    ToolError,
    /// Sends `steps` progress notifications before the result when the
    /// request carries a progress token.
    Progress {
        /// How many.
        steps: u32,
    },
    /// Logs these messages (level info) before the result: in a modern
    /// request only when its `_meta` sets a log level, in a legacy session
    /// at the level the session set.
    Logs {
        /// The messages, in order.
        messages: Vec<String>,
    },
    /// Asks the client's model: `sampling/createMessage` with the
    /// argument `prompt_argument` (a server request in a legacy session,
    /// an input request under MRTR).
    Sample {
        /// The argument holding the prompt.
        prompt_argument: String,
    },
    /// Asks for input through multi round-trip requests (MRTR).
    Mrtr(MrtrSpec),
    /// Changes one of the server's lists: its listeners that asked for it
    /// get the list_changed notification.
    Announce {
        /// What changed.
        change: super::ServerTrigger,
    },
    /// Answers as usual, but in a 2025-11-25 HTTP session the POST's SSE
    /// stream ends after a priming event and the result waits for the
    /// client to reconnect (SSE polling, H-SSE-POLL).
    Reconnect {
        /// The `retry:` the priming event names (ms).
        retry_ms: u64,
    },
}

/// A multi round-trip request flow (M-MRTR): rounds of input requests, the
/// result once the last round is answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MrtrSpec {
    /// The rounds, in order.
    pub rounds: Vec<InputRound>,
    /// Issues a `requestState` the server signs and verifies (needed to
    /// carry answers from one round to the next).
    pub signed_state: bool,
    /// Text of the result; `{KEY.FIELD}` is filled from the answers
    /// (`{KEY.text}` for a sampling answer, `{KEY.roots}` for roots).
    pub result_text: String,
}

/// One round of input requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputRound {
    /// The requests, keyed.
    pub asks: Vec<InputAsk>,
    /// Sends only the requests whose capability the request declared (at
    /// least one must be); otherwise every request's capability is needed.
    #[serde(default)]
    pub only_declared: bool,
}

/// One input request of a round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputAsk {
    /// Its key in `inputRequests` / `inputResponses`.
    pub key: String,
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// Its params.
    pub params: Value,
}

/// A prompt the server offers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PromptSpec {
    /// Prompt name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<PromptArgument>,
    /// The messages `prompts/get` returns (PromptMessage objects);
    /// `{ARGUMENT}` in a string is filled from the request's arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<Value>,
    /// Input asked for before the messages (MRTR), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mrtr: Option<MrtrSpec>,
}

/// An argument of a prompt.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// What it is.
    pub description: String,
    /// Whether `prompts/get` needs it.
    pub required: bool,
    /// Values `completion/complete` suggests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// A resource the server offers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResourceSpec {
    /// Resource URI.
    pub uri: String,
    /// Display name.
    pub name: String,
    /// Text contents.
    pub text: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type (`text/plain` when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Binary contents (base64), served instead of `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

/// A resource template (RFC 6570 level 1: `{name}` placeholders).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TemplateSpec {
    /// The URI template, e.g. `test://template/{id}/data`.
    pub uri_template: String,
    /// Display name.
    pub name: String,
    /// Description.
    pub description: String,
    /// MIME type of every resource it matches.
    pub mime_type: String,
    /// Text of a matched resource; `{name}` is filled from the URI.
    pub text: String,
}

/// Everything that makes a simulated server what it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerConfig {
    /// Preset id this config came from (e.g. `deploy-console`).
    pub preset: String,
    /// serverInfo (display only, M-SINFO).
    pub info: Implementation,
    /// Which eras it speaks.
    pub era: EraMode,
    /// Modern versions it implements.
    pub modern_versions: Vec<String>,
    /// Legacy versions it implements, newest first.
    pub legacy_versions: Vec<String>,
    /// What it offers.
    pub capabilities: ServerCapabilities,
    /// Guidance for the model.
    pub instructions: Option<String>,
    /// Cache hint for cacheable results.
    pub ttl_ms: u64,
    /// Cache scope for cacheable results.
    pub cache_scope: CacheScope,
    /// Tools.
    pub tools: Vec<ToolSpec>,
    /// Prompts.
    pub prompts: Vec<PromptSpec>,
    /// Resources.
    pub resources: Vec<ResourceSpec>,
    /// Resource templates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_templates: Vec<TemplateSpec>,
    /// Runs the capability check before any side effect (M-CAP-BEFORE-WORK,
    /// L-CAP-SESSION). Only scenario 13 turns this off, on purpose.
    pub checks_capability_before_work: bool,
    /// What a legacy server does with unknown methods.
    pub unknown_method: UnknownMethodPolicy,
    /// The id of the first request the server itself sends (legacy).
    pub first_request_id: i64,
    /// Refuses a `Host` header that is not a loopback name with 403
    /// (H-HOST). The lesson presets check only `Origin`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub checks_host: bool,
    /// A built-in fixture set (`reference`) whose tools, prompts, resources
    /// and templates the server adds when it starts ([`super::Server::new`]):
    /// code that only shows a configuration (the page's settings panel)
    /// never links the fixtures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixtures: Option<String>,
    /// How many items one page of a list holds (`tools/list`,
    /// `prompts/list`, `resources/list`, `resources/templates/list`);
    /// `None`: every item on one page (M-PAGINATION).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<usize>,
    /// Who may see and call which tools (M-TOOL-POLICY-LIST,
    /// M-TOOL-POLICY-CALL); `None`: every caller alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<super::policy::Policy>,
}

impl ToolSpec {
    /// This tool with `{argument}` placeholders in its texts (question,
    /// fallback error, side effect, result) filled from a call's arguments.
    pub fn instantiate(&self, arguments: &Value) -> ToolSpec {
        let fill = |text: &str| {
            let mut out = text.to_string();
            if let Some(args) = arguments.as_object() {
                for (name, value) in args {
                    let value = match value {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    out = out.replace(&format!("{{{name}}}"), &value);
                }
            }
            out
        };
        let mut tool = self.clone();
        if let Some(q) = tool.asks.as_mut() {
            q.message = fill(&q.message);
            q.fallback_error = q.fallback_error.as_deref().map(fill);
        }
        tool.side_effect = tool.side_effect.as_deref().map(fill);
        tool.result_text = fill(&tool.result_text);
        tool
    }
}

impl ServerConfig {
    /// A modern-only server (the current modern version) that offers
    /// nothing yet: the defaults every preset and every server of a
    /// scenario file starts from (one-hour public cache hint, capability
    /// check before work, unknown methods answered, first request id 1).
    pub fn new(preset: &str, info: Implementation) -> ServerConfig {
        ServerConfig {
            preset: preset.into(),
            info,
            era: EraMode::ModernOnly,
            modern_versions: vec![ProtocolVersion::MODERN.into()],
            legacy_versions: Vec::new(),
            capabilities: ServerCapabilities::default(),
            instructions: None,
            ttl_ms: 3_600_000,
            cache_scope: CacheScope::Public,
            tools: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
            resource_templates: Vec::new(),
            checks_capability_before_work: true,
            unknown_method: UnknownMethodPolicy::Answer,
            first_request_id: 1,
            checks_host: false,
            fixtures: None,
            page_size: None,
            policy: None,
        }
    }
    /// A human label for the lane header.
    pub fn label(&self) -> String {
        format!(
            "{} {} ({})",
            self.info.name,
            self.info.version,
            self.era.label()
        )
    }
    /// Finds a tool by name.
    pub fn tool(&self, name: &str) -> Option<&ToolSpec> {
        self.tools.iter().find(|t| t.name == name)
    }
}

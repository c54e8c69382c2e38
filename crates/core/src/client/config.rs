//! How a simulated client is set up, and the steps a scenario asks of it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, Implementation, ProtocolVersion};

/// What a legacy client does with a request it never agreed to handle
/// (L-UNDECLARED).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum UndeclaredPolicy {
    /// Answer -32601 Method not found.
    MethodNotFound,
    /// Drop it silently (the server waits forever).
    Drop,
    /// Close the connection.
    Close,
}

impl UndeclaredPolicy {
    /// The three behaviours, in the lesson's order.
    pub const ALL: [UndeclaredPolicy; 3] = [
        UndeclaredPolicy::MethodNotFound,
        UndeclaredPolicy::Drop,
        UndeclaredPolicy::Close,
    ];
    /// What the client would do, as a bare verb phrase ("answer -32601").
    pub fn verb(self) -> &'static str {
        match self {
            UndeclaredPolicy::MethodNotFound => "answer -32601",
            UndeclaredPolicy::Drop => "drop it silently",
            UndeclaredPolicy::Close => "close the connection",
        }
    }
    /// Short label.
    pub fn label(self) -> &'static str {
        match self {
            UndeclaredPolicy::MethodNotFound => "answers -32601",
            UndeclaredPolicy::Drop => "drops it silently",
            UndeclaredPolicy::Close => "closes the connection",
        }
    }
}

/// Everything that makes a simulated client what it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientConfig {
    /// Preset id this config came from (e.g. `rich`).
    pub preset: String,
    /// clientInfo (display only).
    pub info: Implementation,
    /// Which eras it speaks.
    pub era: EraMode,
    /// Modern versions in preference order (first = preferred).
    pub modern_versions: Vec<String>,
    /// Legacy versions in preference order (first = what initialize asks for).
    pub legacy_versions: Vec<String>,
    /// Capabilities it has, declared on each request (modern) or at initialize (legacy).
    pub capabilities: ClientCapabilities,
    /// Calls server/discover before its first modern request (modern-only clients).
    pub discover_first: bool,
    /// What it does with a request it never declared.
    pub undeclared: UndeclaredPolicy,
    /// Deadline for every request, if any (L-TIMEOUT).
    pub request_timeout_ms: Option<u64>,
    /// How long a dual-era stdio probe waits before deciding "legacy".
    pub probe_timeout_ms: u64,
    /// The host framework kills the run at this time (sends nothing).
    pub host_kill_ms: Option<u64>,
    /// Quiet period before re-listing after list_changed notices (0 = no debounce).
    pub debounce_ms: u64,
    /// Id of its first request.
    pub first_id: i64,
    /// Who it acts for, and its bearer token over HTTP (A-BEARER).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<crate::identity::Identity>,
}

impl ClientConfig {
    /// A modern-only client (the current modern version) with
    /// `capabilities`: the defaults every preset and every client of a
    /// scenario file starts from (no discover first, -32601 for undeclared
    /// requests, 30 s request deadline, 3 s probe, 200 ms debounce, first
    /// id 1).
    pub fn new(
        preset: &str,
        info: Implementation,
        capabilities: ClientCapabilities,
    ) -> ClientConfig {
        ClientConfig {
            preset: preset.into(),
            info,
            era: EraMode::ModernOnly,
            modern_versions: vec![ProtocolVersion::MODERN.into()],
            legacy_versions: Vec::new(),
            capabilities,
            discover_first: false,
            undeclared: UndeclaredPolicy::MethodNotFound,
            request_timeout_ms: Some(30_000),
            probe_timeout_ms: 3_000,
            host_kill_ms: None,
            debounce_ms: 200,
            first_id: 1,
            identity: None,
        }
    }
    /// A human label for the lane header.
    /// With an identity, its principal follows: `name version (era) · alice`.
    pub fn label(&self) -> String {
        let base = format!(
            "{} {} ({})",
            self.info.name,
            self.info.version,
            self.era.label()
        );
        match &self.identity {
            Some(identity) => format!("{base} · {}", identity.principal),
            None => base,
        }
    }
}

/// One thing a scenario asks the client to do, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // a handful per scenario; clarity over size
#[non_exhaustive]
pub enum Step {
    /// Call server/discover (modern).
    Discover {
        /// Version to name instead of the preferred one.
        version: Option<String>,
    },
    /// Send a request; the client adds `_meta` (modern) itself.
    Request {
        /// Method.
        method: String,
        /// Params without `_meta`.
        params: Value,
        /// Capabilities to declare instead of all it has.
        declare: Option<ClientCapabilities>,
        /// Version to name instead of the chosen one.
        version: Option<String>,
        /// On -32021, retry declaring the capability if the client has it.
        retry_on_missing_capability: bool,
        /// For a list: ask for the next page while the result carries a
        /// `nextCursor` (M-PAGINATION).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        follow_cursor: bool,
        /// Runs alongside the following steps: the client sends it and goes
        /// on without waiting; its answer and the notifications it brings
        /// are handled whenever they come, and the client cancels it when
        /// the script is done (C-BACKGROUND).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        background: bool,
    },
    /// Send this exact text, e.g. a deliberately broken request.
    Raw {
        /// The wire text.
        text: String,
        /// HTTP headers to use instead of the computed ones.
        headers: Option<Vec<(String, String)>>,
        /// Why this message is broken on purpose.
        violation: Option<crate::note::Note>,
        /// What the learner should notice (a scenario file's: plain text;
        /// the catalog's: a keyed note).
        note: crate::note::Note,
        /// The rule IDs this message illustrates.
        #[serde(default)]
        rules: Vec<String>,
    },
    /// Use what an earlier list returned: `tools/call` for each listed
    /// tool, `resources/read` for each resource, `prompts/get` for each
    /// prompt, in list order. On HTTP, tools whose header annotations are
    /// invalid were left out of the list (C-PARAM-INVALID).
    CallListed {
        /// `tools/list`, `resources/list` or `prompts/list`.
        list: String,
        /// At most this many, from the start of the list.
        #[serde(default)]
        limit: Option<usize>,
        /// Arguments by tool or prompt name; anything required and not
        /// given is filled with a plain value of its type.
        #[serde(default)]
        arguments: Value,
    },
    /// `tools/call` of `tool` with one argument, `argument`, holding the
    /// inputSchema of the listed tool `schema_of` exactly as it was listed
    /// (C-SCHEMA-NO-DEREF).
    EchoSchema {
        /// The tool to call.
        tool: String,
        /// The argument that carries the schema.
        argument: String,
        /// The listed tool whose inputSchema is passed on.
        schema_of: String,
    },
    /// Load a skill that an earlier `skills/list` returned (the skills
    /// extension): read its `SKILL.md`, verify its size, digest and
    /// frontmatter against the entry, then read and verify each other
    /// file; the first failure stops the load (C-SKILL-SIZE,
    /// C-SKILL-DIGEST, C-SKILL-FRONTMATTER).
    LoadSkill {
        /// The skill's `SKILL.md` URI; `None` for the first listed skill.
        #[serde(default)]
        uri: Option<String>,
    },
    /// Let virtual time pass.
    Wait {
        /// How long.
        ms: u64,
    },
    /// Close the connection.
    Disconnect,
    /// Narration for the reader (a scenario file's `say`): sends nothing;
    /// the next event the client records carries it
    /// ([`crate::sim::Event::narration`]).
    Narrate {
        /// What the reader is told.
        text: String,
    },
}

impl Step {
    /// A tools/call of `name` with `arguments`, declaring everything the client has.
    pub fn call_tool(name: &str, arguments: Value) -> Step {
        Step::Request {
            method: crate::protocol::methods::TOOLS_CALL.into(),
            params: serde_json::json!({"name": name, "arguments": arguments}),
            declare: None,
            version: None,
            retry_on_missing_capability: true,
            follow_cursor: false,
            background: false,
        }
    }
    /// A `resources/read` of `uri`, declaring everything the client has.
    pub fn read_resource(uri: &str) -> Step {
        let mut step = Step::request(crate::protocol::methods::RESOURCES_READ);
        if let Step::Request { params, .. } = &mut step {
            *params = serde_json::json!({ "uri": uri });
        }
        step
    }
    /// A request with no params besides `_meta`.
    pub fn request(method: &str) -> Step {
        Step::Request {
            method: method.into(),
            params: serde_json::json!({}),
            declare: None,
            version: None,
            retry_on_missing_capability: true,
            follow_cursor: false,
            background: false,
        }
    }
}

/// One client script to run against a server: a client configuration and
/// its steps, with the label its timeline gets. What `mcp-lanes client`,
/// `mcp-lanes check` and the page's live check hand to a driver.
#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    /// The timeline's label (its English text), and how another language
    /// says it (a check's flows are keyed, `check.flow.*`).
    pub label: crate::note::Note,
    /// The client (a driver replaces its request timeout with its own).
    pub client: ClientConfig,
    /// What it is asked to do.
    pub script: Vec<Step>,
}

//! How a simulated server is set up: plain data, one struct.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, Implementation, ServerCapabilities};

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
pub enum UnknownMethodPolicy {
    /// Answer -32601 (stdio) or a 400 with a non-modern error body (HTTP).
    Answer,
    /// Never answer (stdio) or a 404 with an empty body (HTTP).
    Silent,
}

/// A question the tool asks the user (elicitation, form mode).
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
}

/// A tool the server offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// A prompt the server offers (listed only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptSpec {
    /// Prompt name.
    pub name: String,
    /// Description.
    pub description: String,
}

/// A resource the server offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceSpec {
    /// Resource URI.
    pub uri: String,
    /// Display name.
    pub name: String,
    /// Text contents.
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
    /// Runs the capability check before any side effect (M-CAP-BEFORE-WORK,
    /// L-CAP-SESSION). Only scenario 13 turns this off, on purpose.
    pub checks_capability_before_work: bool,
    /// What a legacy server does with unknown methods.
    pub unknown_method: UnknownMethodPolicy,
    /// The id of the first request the server itself sends (legacy).
    pub first_request_id: i64,
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

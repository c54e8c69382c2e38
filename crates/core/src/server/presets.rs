//! The server presets of the lessons: deploy-console, order-desk, notes,
//! search-index and dual-era; and `reference` (`reference.rs`), the whole
//! server side of the spec.

use serde_json::json;

use super::config::{PromptSpec, Question, ResourceSpec, ServerConfig, ToolSpec};
use crate::protocol::capabilities::ListCapability;
use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, Implementation, ServerCapabilities};

/// Preset ids with a one-line description, in catalog order.
pub const PRESETS: &[(&str, &str)] = &[
    ("deploy-console", "modern-only server: notify_oncall (needs elicitation) and list_incidents (needs nothing)"),
    ("order-desk", "modern-only server: confirm_order asks the user through an MRTR elicitation, or -32021"),
    ("notes", "legacy 2025-06-18 server: tools (listChanged), resources (subscribe), prompts, instructions"),
    ("search-index", "legacy 2025-06-18 server: purge_index elicits a retention choice; capability check toggle"),
    ("dual-era", "dual-era server: serves modern requests statelessly and legacy sessions after initialize"),
    ("reference", "dual-era server with the whole server side of the spec and the official conformance suite's fixtures"),
];

/// Looks a server preset up by id.
pub fn server(id: &str) -> Option<ServerConfig> {
    Some(match id {
        "deploy-console" => deploy_console(),
        "order-desk" => order_desk(),
        "notes" => notes(),
        "search-index" => search_index(),
        "dual-era" => dual_era(),
        "reference" => super::reference::reference(),
        _ => return None,
    })
}

fn modern_only(preset: &str, name: &str, version: &str) -> ServerConfig {
    let mut cfg = ServerConfig::new(preset, Implementation::new(name, version));
    cfg.capabilities.tools = Some(ListCapability::default());
    cfg
}

fn text_args(props: serde_json::Value, required: &[&str]) -> serde_json::Value {
    json!({"type": "object", "properties": props, "required": required})
}

fn list_incidents() -> ToolSpec {
    ToolSpec {
        name: "list_incidents".into(),
        description: "List open incidents with their severity and owner.".into(),
        input_schema: json!({"type": "object", "properties": {}}),
        requires: ClientCapabilities::none(),
        asks: None,
        refusal_message: None,
        side_effect: None,
        result_text:
            "2 open incidents: INC-4211 (sev2, payments latency), INC-4214 (sev3, stale dashboard)."
                .into(),
        behaviour: None,
        ..Default::default()
    }
}

/// `deploy-console 2.4.0`: modern only.
pub fn deploy_console() -> ServerConfig {
    let mut cfg = modern_only("deploy-console", "deploy-console", "2.4.0");
    cfg.instructions = Some("Check list_incidents before paging anyone; notify_oncall pages a human, so use it only for incidents that need one.".into());
    cfg.tools = vec![
        ToolSpec {
            name: "notify_oncall".into(),
            description: "Page the on-call engineer about an incident.".into(),
            input_schema: text_args(json!({"incident": {"type": "string"}}), &["incident"]),
            requires: ClientCapabilities::elicitation_form(),
            asks: None,
            refusal_message: None,
            side_effect: None,
            result_text: "Paged the on-call engineer for INC-4211.".into(),
            behaviour: None,
            ..Default::default()
        },
        list_incidents(),
    ];
    cfg
}

/// `order-desk`: modern; confirm_order asks the user through MRTR.
pub fn order_desk() -> ServerConfig {
    let mut cfg = modern_only("order-desk", "order-desk", "1.3.0");
    cfg.ttl_ms = 300_000;
    cfg.tools = vec![ToolSpec {
        name: "confirm_order".into(),
        description: "Place an order after the user confirms it.".into(),
        input_schema: text_args(json!({"order_id": {"type": "string"}}), &["order_id"]),
        requires: ClientCapabilities::elicitation_form(),
        asks: Some(Question {
            argument: None,
            message: "Place order A-1042 for 3 items, total 84.00 EUR?".into(),
            requested_schema: json!({"type": "object", "properties": {"confirm": {"type": "boolean", "title": "Place the order"}}, "required": ["confirm"]}),
            fallback_error: None,
            url: None,
        }),
        refusal_message: Some("confirm_order needs elicitation".into()),
        side_effect: Some("order reservation A-1042".into()),
        result_text: "Order A-1042 placed.".into(),
        behaviour: None,
        ..Default::default()
    }];
    cfg
}

fn legacy_only(preset: &str, name: &str, version: &str) -> ServerConfig {
    let mut cfg = modern_only(preset, name, version);
    cfg.era = EraMode::LegacyOnly;
    cfg.modern_versions = Vec::new();
    cfg.legacy_versions = vec!["2025-06-18".into()];
    cfg
}

/// `notes 0.1`: legacy 2025-06-18 (the handshake lesson).
pub fn notes() -> ServerConfig {
    let mut cfg = legacy_only("notes", "notes", "0.1");
    cfg.capabilities = ServerCapabilities {
        tools: Some(ListCapability {
            list_changed: Some(true),
            ..Default::default()
        }),
        resources: Some(ListCapability {
            subscribe: Some(true),
            list_changed: Some(false),
        }),
        prompts: Some(ListCapability::default()),
        ..Default::default()
    };
    cfg.instructions = Some("Read notes before writing them.".into());
    cfg.tools = vec![
        ToolSpec {
            name: "read_note".into(),
            description: "Read a note by title.".into(),
            input_schema: text_args(json!({"title": {"type": "string"}}), &["title"]),
            requires: ClientCapabilities::none(),
            asks: None,
            refusal_message: None,
            side_effect: None,
            result_text: "Standup moved to 09:30.".into(),
            behaviour: None,
            ..Default::default()
        },
        ToolSpec {
            name: "write_note".into(),
            description: "Write a note.".into(),
            input_schema: text_args(
                json!({"title": {"type": "string"}, "body": {"type": "string"}}),
                &["title", "body"],
            ),
            requires: ClientCapabilities::none(),
            asks: None,
            refusal_message: None,
            side_effect: None,
            result_text: "Saved.".into(),
            behaviour: None,
            ..Default::default()
        },
    ];
    cfg.prompts = vec![PromptSpec {
        name: "summarize_notes".into(),
        description: "Summarize recent notes.".into(),
        ..Default::default()
    }];
    cfg.resources = vec![ResourceSpec {
        uri: "note://standup".into(),
        name: "standup".into(),
        text: "Standup moved to 09:30.".into(),
        ..Default::default()
    }];
    cfg
}

/// The tool error of the lesson's purge_index when the client cannot be asked
/// (`{index}` is filled in from the call's arguments).
pub const PURGE_FALLBACK: &str = "Refusing to purge {index}: this client cannot prompt for a retention choice, and purge_index requires one. Call purge_index with retention_days set explicitly (0 for a full purge, or a positive number of days to keep). Index size: 2,400,118 documents.";

/// `search-index`: legacy 2025-06-18; purge_index elicits a retention choice.
pub fn search_index() -> ServerConfig {
    let mut cfg = legacy_only("search-index", "search-index", "3.2.0");
    cfg.first_request_id = 7;
    cfg.tools = vec![ToolSpec {
        name: "purge_index".into(),
        description: "Delete documents from a search index (destructive).".into(),
        input_schema: text_args(json!({"index": {"type": "string"}, "retention_days": {"type": "integer", "minimum": 0}}), &["index"]),
        requires: ClientCapabilities::none(),
        asks: Some(Question {
            argument: Some("retention_days".into()),
            message: "How many days of documents should {index} keep? 0 purges everything (2,400,118 documents).".into(),
            requested_schema: json!({"type": "object", "properties": {"retention_days": {"type": "integer", "minimum": 0, "title": "Days to keep"}}, "required": ["retention_days"]}),
            fallback_error: Some(PURGE_FALLBACK.into()),
            url: None,
        }),
        refusal_message: None,
        side_effect: Some("index lock {index}".into()),
        result_text: "Purged {index}.".into(),
        behaviour: None,
        ..Default::default()
    }];
    cfg
}

/// `dual-era`: both eras on one endpoint.
pub fn dual_era() -> ServerConfig {
    let mut cfg = deploy_console();
    cfg.preset = "dual-era".into();
    cfg.info = Implementation::new("dual-era", "1.0.0");
    cfg.era = EraMode::DualEra;
    cfg.legacy_versions = vec!["2025-11-25".into(), "2025-06-18".into()];
    cfg
}

//! The `reference` preset: a dual-era server (2026-07-28 stateless, legacy
//! 2025-11-25 sessions) with the whole server side of the spec and every
//! fixture the official conformance suite's server scenarios call
//! (`docs/conformance-map.md` §3). Everything here is data; the behaviour
//! lives in `tools.rs`, `mrtr.rs`, `resources.rs`, `prompts.rs`,
//! `subscriptions.rs` and `params.rs`.

use serde_json::{json, Value};

use super::config::{
    Behaviour, CacheScope, InputAsk, InputRound, MrtrSpec, PromptArgument, PromptSpec, Question,
    ResourceSpec, ServerConfig, TemplateSpec, ToolSpec, UnknownMethodPolicy,
};
use super::ServerTrigger;
use crate::protocol::capabilities::ListCapability;
use crate::protocol::version::EraMode;
use crate::protocol::{
    methods, ClientCapabilities, Implementation, ProtocolVersion, ServerCapabilities,
};

/// A 1x1 PNG, base64.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
/// A silent 1 ms WAV, base64.
pub const WAV: &str =
    "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";
/// The resource a listen stream or a legacy session can watch.
pub const WATCHED: &str = "test://watched-resource";

fn empty_schema() -> Value {
    json!({"type": "object", "properties": {}})
}

fn tool(name: &str, description: &str, result: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: description.into(),
        input_schema: empty_schema(),
        requires: ClientCapabilities::none(),
        result_text: result.into(),
        ..Default::default()
    }
}

fn with(mut t: ToolSpec, behaviour: Behaviour) -> ToolSpec {
    t.behaviour = Some(behaviour);
    t
}

fn content(blocks: Value) -> Behaviour {
    Behaviour::Content {
        content: blocks.as_array().cloned().unwrap_or_default(),
    }
}

fn ask(key: &str, method: &str, params: Value) -> InputAsk {
    InputAsk {
        key: key.into(),
        method: method.into(),
        params,
    }
}

fn elicit(key: &str, message: &str, properties: Value, required: &[&str]) -> InputAsk {
    ask(
        key,
        methods::ELICITATION_CREATE,
        json!({"mode": "form", "message": message, "requestedSchema": {"type": "object", "properties": properties, "required": required}}),
    )
}

fn sample(key: &str, prompt: &str) -> InputAsk {
    ask(
        key,
        methods::SAMPLING_CREATE_MESSAGE,
        super::tools::sampling_params(prompt),
    )
}

fn roots(key: &str) -> InputAsk {
    ask(key, methods::ROOTS_LIST, json!({}))
}

fn flow(rounds: Vec<Vec<InputAsk>>, signed_state: bool, result: &str) -> Behaviour {
    Behaviour::Mrtr(MrtrSpec {
        rounds: rounds
            .into_iter()
            .map(|asks| InputRound {
                asks,
                only_declared: false,
            })
            .collect(),
        signed_state,
        result_text: result.into(),
    })
}

fn mrtr_tool(name: &str, description: &str, behaviour: Behaviour) -> ToolSpec {
    with(tool(name, description, ""), behaviour)
}

fn legacy_elicitation(name: &str, description: &str, message: &str, schema: Value) -> ToolSpec {
    ToolSpec {
        requires: ClientCapabilities::elicitation_form(),
        asks: Some(Question {
            argument: None,
            message: message.into(),
            requested_schema: schema,
            fallback_error: None,
        }),
        ..tool(
            name,
            description,
            "The user answered; elicitation completed.",
        )
    }
}

/// The JSON Schema 2020-12 input schema of `json_schema_2020_12_tool`,
/// served exactly as written (M-SCHEMA-INTACT).
pub fn schema_2020_12() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"}, "email": {"type": "string"}},
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    })
}

fn tools() -> Vec<ToolSpec> {
    let text = |t: &str| json!({"type": "text", "text": t});
    let image = json!({"type": "image", "data": PNG, "mimeType": "image/png"});
    let embedded = json!({"type": "resource", "resource": {"uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."}});
    let mixed_resource = json!({"type": "resource", "resource": {"uri": "test://mixed-content-resource", "mimeType": "application/json", "text": "{\"test\":\"data\",\"value\":123}"}});
    let mut all = vec![
        tool("test_simple_text", "Returns a simple text response.", "This is a simple text response for testing."),
        with(tool("test_image_content", "Returns an image (a 1x1 PNG).", ""), content(json!([image.clone()]))),
        with(tool("test_audio_content", "Returns audio (a silent WAV).", ""), content(json!([{"type": "audio", "data": WAV, "mimeType": "audio/wav"}]))),
        with(tool("test_embedded_resource", "Returns an embedded resource.", ""), content(json!([embedded]))),
        with(tool("test_multiple_content_types", "Returns text, an image and an embedded resource.", ""),
            content(json!([text("Multiple content types test:"), image, mixed_resource]))),
        with(tool("test_tool_with_logging", "Logs three messages while it works.", "Logging tool completed."),
            Behaviour::Logs { messages: vec!["Tool execution started".into(), "Tool processing data".into(), "Tool execution completed".into()] }),
        with(tool("test_tool_with_progress", "Reports progress (0, 50, 100) when asked for it.", "Progress tool completed."),
            Behaviour::Progress { steps: 3 }),
        with(tool("test_error_handling", "Always fails, as a tool error the model can read.", "This tool intentionally returns an error for testing."),
            Behaviour::ToolError),
        with(ToolSpec {
            input_schema: json!({"type": "object", "properties": {"prompt": {"type": "string", "description": "What to ask the model."}}, "required": ["prompt"]}),
            requires: ClientCapabilities { sampling: Some(Default::default()), ..Default::default() },
            ..tool("test_sampling", "Asks the client's model (sampling) and returns its answer.", "")
        }, Behaviour::Sample { prompt_argument: "prompt".into() }),
        ToolSpec {
            input_schema: json!({"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}),
            ..legacy_elicitation("test_elicitation", "Asks the user for their information (elicitation).", "{message}",
                json!({"type": "object", "properties": {"username": {"type": "string", "description": "Your username"}, "email": {"type": "string", "description": "Your email address"}}, "required": ["username", "email"]}))
        },
        legacy_elicitation("test_elicitation_sep1034_defaults", "Elicitation whose fields have default values (SEP-1034).", "Please review your details.",
            json!({"type": "object", "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
                "verified": {"type": "boolean", "default": true}}})),
        legacy_elicitation("test_elicitation_sep1330_enums", "Elicitation with every enum shape (SEP-1330).", "Please choose.",
            json!({"type": "object", "properties": {
                "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                "titledSingle": {"type": "string", "oneOf": [{"const": "value1", "title": "First Option"}, {"const": "value2", "title": "Second Option"}]},
                "legacyEnum": {"type": "string", "enum": ["opt1", "opt2"], "enumNames": ["Option One", "Option Two"]},
                "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}},
                "titledMulti": {"type": "array", "items": {"anyOf": [{"const": "x", "title": "Ex"}, {"const": "y", "title": "Why"}]}}}})),
        tool("test_reconnection", "Answers at once (stream resumption is the HTTP layer's).", "Reconnection test completed."),
        ToolSpec { input_schema: schema_2020_12(), ..tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", "Schema received intact.") },
        ToolSpec {
            requires: ClientCapabilities { sampling: Some(Default::default()), ..Default::default() },
            ..tool("test_missing_capability", "Needs the client's sampling capability, declared on the request.", "sampling was declared: the tool could work.")
        },
        mrtr_tool("test_streaming_elicitation", "Asks through MRTR: never a server request on a response stream.",
            flow(vec![vec![elicit("confirm", "Continue?", json!({"ok": {"type": "boolean"}}), &["ok"])]], false, "Confirmed.")),
        with(tool("test_logging_tool", "Logs one message, only when the request set a log level.", "Logging tool done."),
            Behaviour::Logs { messages: vec!["test_logging_tool ran".into()] }),
        with(tool("test_trigger_tool_change", "Changes the tool list: listen streams that asked hear tools/list_changed.", "Tool list change announced."),
            Behaviour::Announce { change: ServerTrigger::ToolsChanged }),
        with(tool("test_trigger_prompt_change", "Changes the prompt list: listen streams that asked hear prompts/list_changed.", "Prompt list change announced."),
            Behaviour::Announce { change: ServerTrigger::PromptsChanged }),
        with(tool("test_trigger_resource_list_change", "Changes the resource list: listen streams that asked hear resources/list_changed.", "Resource list change announced."),
            Behaviour::Announce { change: ServerTrigger::ResourcesChanged }),
        with(tool("test_trigger_resource_update", "Updates test://watched-resource: its subscribers hear resources/updated.", "test://watched-resource updated."),
            Behaviour::Announce { change: ServerTrigger::ResourceUpdated { uri: WATCHED.into() } }),
        ToolSpec {
            input_schema: json!({"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region", "description": "Mirrored in Mcp-Param-Region."}}, "required": ["region"]}),
            ..tool("test_header_echo", "Echoes its region; the argument is mirrored in the Mcp-Param-Region header (SEP-2243).", "Region: {region}")
        },
    ];
    let name_schema = json!({"name": {"type": "string"}});
    all.extend([
        mrtr_tool("test_input_required_result_elicitation", "MRTR: asks the user's name (elicitation).",
            flow(vec![vec![elicit("user_name", "What is your name?", name_schema.clone(), &["name"])]], false, "Hello, {user_name.name}!")),
        mrtr_tool("test_input_required_result_sampling", "MRTR: asks the client's model (sampling).",
            flow(vec![vec![sample("capital_question", "What is the capital of France?")]], false, "The model says: {capital_question.text}")),
        mrtr_tool("test_input_required_result_list_roots", "MRTR: asks the client's roots.",
            flow(vec![vec![roots("client_roots")]], false, "Roots: {client_roots.roots}")),
        mrtr_tool("test_input_required_result_request_state", "MRTR with a signed requestState.",
            flow(vec![vec![elicit("confirm", "Proceed?", json!({"ok": {"type": "boolean"}}), &["ok"])]], true, "state-ok")),
        mrtr_tool("test_input_required_result_multiple_inputs", "MRTR: elicitation, sampling and roots at once, with a signed requestState.",
            flow(vec![vec![
                elicit("user_name", "What is your name?", name_schema.clone(), &["name"]),
                sample("greeting", "Write a one-line greeting."),
                roots("client_roots"),
            ]], true, "Hello {user_name.name}: {greeting.text} (roots: {client_roots.roots})")),
        mrtr_tool("test_input_required_result_multi_round", "MRTR over two rounds: the name, then a colour; the first answer travels in the signed requestState.",
            flow(vec![
                vec![elicit("user_name", "What is your name?", name_schema.clone(), &["name"])],
                vec![elicit("favorite_color", "What is your favourite colour?", json!({"color": {"type": "string"}}), &["color"])],
            ], true, "{user_name.name} likes {favorite_color.color}.")),
        mrtr_tool("test_input_required_result_tampered_state", "MRTR whose requestState is signed: a changed one is rejected.",
            flow(vec![vec![elicit("confirm", "Proceed?", json!({"ok": {"type": "boolean"}}), &["ok"])]], true, "state verified")),
        mrtr_tool("test_input_required_result_capabilities", "MRTR that asks only through capabilities the request declared.",
            Behaviour::Mrtr(MrtrSpec {
                rounds: vec![InputRound {
                    asks: vec![
                        elicit("user_name", "What is your name?", name_schema, &["name"]),
                        sample("user_name_guess", "Suggest a user name."),
                        roots("client_roots"),
                    ],
                    only_declared: true,
                }],
                signed_state: false,
                result_text: "Answered through the declared capabilities.".into(),
            })),
    ]);
    all
}

fn text_message(text: &str) -> Value {
    json!({"role": "user", "content": {"type": "text", "text": text}})
}

fn prompts() -> Vec<PromptSpec> {
    let arg = |name: &str, description: &str, values: &[&str]| PromptArgument {
        name: name.into(),
        description: description.into(),
        required: true,
        values: values.iter().map(|v| v.to_string()).collect(),
    };
    vec![
        PromptSpec {
            name: "test_simple_prompt".into(),
            description: "A simple prompt without arguments.".into(),
            messages: vec![text_message("This is a simple prompt for testing.")],
            ..Default::default()
        },
        PromptSpec {
            name: "test_prompt_with_arguments".into(),
            description: "A prompt with two required arguments.".into(),
            arguments: vec![
                arg(
                    "arg1",
                    "First argument",
                    &["test", "test-value", "testing", "other"],
                ),
                arg("arg2", "Second argument", &["alpha", "beta"]),
            ],
            messages: vec![text_message(
                "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'",
            )],
            ..Default::default()
        },
        PromptSpec {
            name: "test_prompt_with_embedded_resource".into(),
            description: "A prompt that embeds a resource.".into(),
            arguments: vec![arg("resourceUri", "URI of the resource to embed", &[])],
            messages: vec![
                json!({"role": "user", "content": {"type": "resource", "resource": {"uri": "{resourceUri}", "mimeType": "text/plain", "text": "Embedded resource content for testing."}}}),
                text_message("Please process the embedded resource above."),
            ],
            ..Default::default()
        },
        PromptSpec {
            name: "test_prompt_with_image".into(),
            description: "A prompt with an image.".into(),
            messages: vec![
                json!({"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}}),
                text_message("Please analyze the image above."),
            ],
            ..Default::default()
        },
        PromptSpec {
            name: "test_input_required_result_prompt".into(),
            description: "MRTR on prompts/get: asks for context first.".into(),
            messages: vec![text_message("Context: {user_context.context}")],
            mrtr: Some(MrtrSpec {
                rounds: vec![InputRound {
                    asks: vec![elicit(
                        "user_context",
                        "What context should the prompt use?",
                        json!({"context": {"type": "string"}}),
                        &["context"],
                    )],
                    only_declared: false,
                }],
                signed_state: false,
                result_text: String::new(),
            }),
            ..Default::default()
        },
    ]
}

fn resources() -> Vec<ResourceSpec> {
    vec![
        ResourceSpec {
            uri: "test://static-text".into(),
            name: "static-text".into(),
            text: "This is the content of the static text resource.".into(),
            description: Some("A static text resource.".into()),
            mime_type: Some("text/plain".into()),
            blob: None,
        },
        ResourceSpec {
            uri: "test://static-binary".into(),
            name: "static-binary".into(),
            text: String::new(),
            description: Some("A static binary resource (a 1x1 PNG).".into()),
            mime_type: Some("image/png".into()),
            blob: Some(PNG.into()),
        },
        ResourceSpec {
            uri: WATCHED.into(),
            name: "watched-resource".into(),
            text: "This resource can be watched for updates.".into(),
            description: Some(
                "A resource to subscribe to (test_trigger_resource_update changes it).".into(),
            ),
            mime_type: Some("text/plain".into()),
            blob: None,
        },
    ]
}

/// `reference`: both eras, every feature of the server side, the suite's fixtures.
pub fn reference() -> ServerConfig {
    let list = |subscribe: Option<bool>| {
        Some(ListCapability {
            list_changed: Some(true),
            subscribe,
        })
    };
    ServerConfig {
        preset: "reference".into(),
        info: Implementation::new("mcp-lanes-reference", "1.0.0"),
        era: EraMode::DualEra,
        modern_versions: vec![ProtocolVersion::MODERN.into()],
        legacy_versions: vec!["2025-11-25".into(), "2025-06-18".into(), "2025-03-26".into(), "2024-11-05".into()],
        capabilities: ServerCapabilities {
            tools: list(None),
            resources: list(Some(true)),
            prompts: list(None),
            completions: Some(Default::default()),
            logging: Some(Default::default()),
            extensions: None,
        },
        instructions: Some("The reference server: every request of both eras, with the fixtures of the official conformance suite.".into()),
        ttl_ms: 60_000,
        cache_scope: CacheScope::Public,
        tools: tools(),
        prompts: prompts(),
        resources: resources(),
        resource_templates: vec![TemplateSpec {
            uri_template: "test://template/{id}/data".into(),
            name: "template-data".into(),
            description: "Data for any id.".into(),
            mime_type: "application/json".into(),
            text: "{\"id\":\"{id}\",\"templateTest\":true,\"data\":\"Data for ID: {id}\"}".into(),
        }],
        checks_capability_before_work: true,
        unknown_method: UnknownMethodPolicy::Answer,
        first_request_id: 1,
        checks_host: true,
    }
}

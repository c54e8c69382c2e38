//! The scenarios of the rest of the course: resources and prompts,
//! logging, multi-round input, subscriptions, tool errors and paging, and a
//! server scripted to go wrong (17 to 22).

// The catalog's helpers and imports.
use super::*;

pub(super) const RESOURCES_PROMPTS_CACHING: Definition = Definition {
    number: 17,
    id: "resources-prompts-caching",
    title: en!("Resources and prompts, with cache hints"),
    summary: en!(
        "Lists, a template read, an unknown URI (-32602 naming it), a prompt with \
        arguments and a completion: every list and read carries ttlMs and cacheScope."
    ),
    lanes: 1,
    setups: || {
        reference_setups(
            r#"[{"label":"plain client, reference server","client":"plain","transport":"http","script":[
            ["discover"],["request","resources/list",{}],["request","resources/templates/list",{}],
            ["request","resources/read",{"uri":"test://template/42/data"}],
            ["request","resources/read",{"uri":"test://no-such-resource"}],
            ["request","prompts/list",{}],
            ["request","prompts/get",{"name":"test_prompt_with_arguments","arguments":{"arg1":"test-value","arg2":"beta"}}],
            ["request","completion/complete",{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"tes"}}]]}]"#,
        )
    },
};

pub(super) const PER_REQUEST_LOGGING: Definition = Definition {
    number: 18,
    id: "per-request-logging",
    title: en!("Per-request logging"),
    summary: en!(
        "No logLevel in _meta: no log messages. logLevel info: three messages on the \
        request's own SSE stream before its result. logLevel error: none again."
    ),
    lanes: 1,
    setups: || {
        reference_setups(
            r#"[{"label":"plain client, reference server","client":"plain","transport":"http","script":[
            ["raw",{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}},
             "A call with no log level in _meta: the client has not opted in to log messages.","M-LOG-LEVEL"],
            ["raw",{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}}},
             "The same call asking for log messages at level info and above.","M-LOG-LEVEL"],
            ["raw",{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"error"}}},
             "The same call asking only for errors: the tool's info messages are below that.","M-LOG-LEVEL"]]}]"#,
        )
    },
};

pub(super) const MRTR_SAMPLING_ROOTS: Definition = Definition {
    number: 19,
    id: "mrtr-sampling-roots",
    title: en!("MRTR: sampling, roots, several rounds"),
    summary: en!(
        "input_required asks the client's model and its roots; a two-round flow \
        carries the first answer in a signed requestState; without the capability, -32021."
    ),
    lanes: 4,
    setups: || {
        reference_setups(
            r#"[{"label":"sampling","client":"all","transport":"http","script":[["call","test_input_required_result_sampling"]]},
            {"label":"roots","client":"all","transport":"http","script":[["call","test_input_required_result_list_roots"]]},
            {"label":"two rounds, signed requestState","client":"all","transport":"http","script":[["call","test_input_required_result_multi_round"]]},
            {"label":"sampling not declared","client":"plain","transport":"http","script":[["call","test_input_required_result_sampling"]]}]"#,
        )
    },
};

pub(super) const SUBSCRIPTIONS_LISTEN: Definition = Definition {
    number: 20,
    id: "subscriptions-listen",
    title: en!("subscriptions/listen with a filter"),
    summary: en!(
        "A listen stream for prompts and one resource: acknowledged first, tools \
        changes filtered out, every notification tagged with the subscription id; after \
        the client cancels, the server keeps nothing."
    ),
    lanes: 1,
    setups: || {
        reference_setups(
            r#"[{"label":"plain client, reference server, stdio","client":"plain","transport":"stdio","timeout":2000,
            "events":[[400,{"change":"tools_changed"}],[800,{"change":"prompts_changed"}],
                [1200,{"change":"resource_updated","uri":"test://watched-resource"}],[2600,{"change":"prompts_changed"}]],
            "script":[["raw",{"jsonrpc":"2.0","id":"watch-1","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"promptsListChanged":true,"resourceSubscriptions":["test://watched-resource"]}}},
             "The client opens a listen stream for prompt list changes and updates of one resource, not for tool changes.","M-LISTEN-FILTER"]]}]"#,
        )
    },
};

pub(super) const SCRIPTED_SERVER: Definition = Definition {
    number: 22,
    id: "scripted-server",
    title: en!("A listen stream alongside calls, and a server scripted to misbehave"),
    summary: en!(
        "A listen stream runs in the background while calls go on: notifications the \
        set-up schedules interleave with the calls, and the client cancels the stream when \
        its script is done. Beside it, a server the set-up makes answer wrongly on purpose: \
        a result without resultType, a retired error code and a log message nobody asked \
        for, each drawn as a violation with its reason."
    ),
    lanes: 2,
    setups: crate::scenarios::scripted_server::setups,
};

pub(super) const TOOL_STATE: Definition = Definition {
    number: 23,
    id: "tool-state",
    title: en!("Tools that remember: rate limits, handles, quarantine, polling"),
    summary: en!(
        "A search allowed two calls a second refuses the third with a tool error naming \
        when to retry, and answers again once the second has passed; reading a file outside \
        the workspace quarantines every tool. Beside it, an export started with one call \
        answers a job handle; an unknown handle is a tool error, and the status call answers \
        running until the job's virtual time has passed, then done."
    ),
    lanes: 2,
    setups: crate::scenarios::tool_state::setups,
};

pub(super) const TOOL_ERRORS_PAGES_PROGRESS: Definition = Definition {
    number: 21,
    id: "tool-errors-pages-progress",
    title: en!("Tool errors, pages and progress"),
    summary: en!(
        "tools/list in pages of two, the client following nextCursor; a forged cursor \
        is -32602; arguments that break inputSchema and a failure the tool declares are \
        tool errors (isError), -32602 in a 2025-06-18 session; a progress token gets \
        notifications/progress before the result."
    ),
    lanes: 2,
    setups: || {
        let forecast = |arguments: serde_json::Value, meta: Option<serde_json::Value>| {
            let mut params = json!({"name": "forecast", "arguments": arguments});
            if let Some(meta) = meta {
                params["_meta"] = meta;
            }
            Step::Request {
                method: methods::TOOLS_CALL.into(),
                params,
                declare: None,
                version: None,
                retry_on_missing_capability: true,
                follow_cursor: false,
                background: false,
            }
        };
        let mut list = Step::request(methods::TOOLS_LIST);
        if let Step::Request { follow_cursor, .. } = &mut list {
            *follow_cursor = true;
        }
        let forged = Step::Raw {
            text: json!({"jsonrpc": "2.0", "id": "forged", "method": "tools/list", "params": {
                "cursor": "eyJsIjoidG9vbHMvbGlzdCIsIm8iOjB9.forged",
                "_meta": modern_meta()}})
            .to_string(),
            headers: None,
            violation: None,
            note: crate::note!(
                "scenario.tool_errors.forged_cursor",
                "A cursor the client made up: only a nextCursor the server signed may come back."
            ),
            rules: vec!["M-PAGINATION".into()],
        };
        let mut legacy = clients::plain();
        legacy.era = EraMode::LegacyOnly;
        legacy.legacy_versions = vec!["2025-06-18".into()];
        vec![
            setup(
                "modern client",
                clients::plain(),
                weather_desk(),
                STDIO,
                vec![
                    list,
                    forged,
                    forecast(json!({"city": "Oslo", "days": "two"}), None),
                    forecast(json!({"city": "Atlantis", "days": 1}), None),
                    forecast(
                        json!({"city": "Oslo", "days": 3}),
                        Some(json!({"progressToken": "forecast-1"})),
                    ),
                ],
            ),
            setup(
                "2025-06-18 session",
                legacy,
                weather_desk(),
                STDIO,
                vec![
                    forecast(json!({"city": "Oslo", "days": "two"}), None),
                    forecast(json!({"city": "Atlantis", "days": 1}), None),
                ],
            ),
        ]
    },
};

/// The server of scenario 21: three tools listed two at a time, and a
/// forecast that checks its arguments, declares a failure and reports
/// progress.
pub(super) fn weather_desk() -> ServerConfig {
    use crate::protocol::Implementation;
    use crate::server::{ProgressStep, ToolFailure, ToolSpec};
    let mut cfg = ServerConfig::new("weather-desk", Implementation::new("weather-desk", "1.0.0"));
    cfg.era = EraMode::DualEra;
    cfg.legacy_versions = vec!["2025-06-18".into()];
    cfg.page_size = Some(2);
    cfg.capabilities.tools = Some(Default::default());
    let step = |progress: f64, message: Option<&str>| ProgressStep {
        progress,
        total: Some(3.0),
        message: message.map(str::to_string),
    };
    let simple = |name: &str, description: &str, result: &str| ToolSpec {
        name: name.into(),
        description: description.into(),
        input_schema: json!({"type": "object", "properties": {}}),
        result_text: result.into(),
        ..Default::default()
    };
    cfg.tools = vec![
        ToolSpec {
            name: "forecast".into(),
            description: "The forecast for a city, 1 to 7 days ahead.".into(),
            input_schema: json!({"type": "object", "properties": {
                "city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 7}
            }, "required": ["city", "days"]}),
            result_text: "{city}: rain for {days} days, then sun.".into(),
            errors: vec![ToolFailure {
                when: json!({"city": "Atlantis"}),
                message: "No weather station in {city}: pick a city on land.".into(),
            }],
            progress: vec![
                step(1.0, Some("fetching stations")),
                step(2.0, None),
                step(3.0, Some("done")),
            ],
            // Its progress arrives while it works, its result after 900 ms.
            duration_ms: Some(900),
            ..Default::default()
        },
        simple("stations", "The weather stations.", "Oslo, Lyon, Porto."),
        simple("alerts", "Weather alerts now.", "No alerts."),
    ];
    cfg
}

pub(super) const IDENTITIES: Definition = Definition {
    number: 30,
    id: "identities",
    title: en!("Who is calling: one server, callers with different rights"),
    summary: en!(
        "One notes server with a policy. Alice's token grants notes:write: she sees every \
        tool, gets her own notes and deletes one. Bob's read-only token does not show him \
        the export tool, so calling it anyway is -32602 Unknown tool, and deleting is 403 \
        insufficient_scope; over stdio, where the host launched the server as bob, the same \
        delete is a tool error. Carol sends no token: 401 with WWW-Authenticate."
    ),
    lanes: 4,
    setups: crate::scenarios::identities::setups,
};

pub(super) const GATEWAYS: Definition = Definition {
    number: 31,
    id: "gateways",
    title: en!("Registries and gateways: a gateway that filters and renames"),
    summary: en!(
        "The same weather server, reached straight and through a gateway. Straight, the \
        client sees three tools and can call reset_stations. Through the gateway every \
        message takes two hops: the list comes back without reset_stations and with the \
        other tools renamed weather_*, a call to weather_forecast is forwarded as \
        forecast, and a call to the hidden tool is answered -32602 Unknown tool by the \
        gateway itself. A legacy host over stdio passes its handshake through unchanged."
    ),
    lanes: 3,
    setups: crate::scenarios::gateways::setups,
};

//! The scenarios of the first lessons: discovery, capabilities, versions
//! and the eras (1 to 16).

// The catalog's helpers and imports.
use super::*;

pub(super) const DISCOVER: Definition = Definition {
    number: 1,
    id: "discover",
    title: en!("Discover"),
    summary: en!("One server/discover; read every field of the result."),
    lanes: 1,
    setups: || {
        vec![setup(
            "plain client discovers deploy-console",
            clients::plain(),
            servers::deploy_console(),
            STDIO,
            vec![Step::Discover { version: None }],
        )]
    },
};

pub(super) const CAPABILITY_PER_REQUEST: Definition = Definition {
    number: 2,
    id: "capability-per-request",
    title: en!("Capability per request"),
    summary: en!(
        "notify_oncall with {} gets -32021 naming elicitation; the retry \
        declaring it completes; dropping it later is refused again."
    ),
    lanes: 1,
    setups: || {
        let mut client = clients::rich();
        client.preset = "rich".into();
        vec![setup(
            "declare per request",
            client,
            servers::deploy_console(),
            STDIO,
            vec![
                call(
                    "notify_oncall",
                    json!({"incident": "INC-4211"}),
                    Some(ClientCapabilities::none()),
                    true,
                ),
                Step::Wait { ms: 1_000 },
                call(
                    "notify_oncall",
                    json!({"incident": "INC-4211"}),
                    Some(ClientCapabilities::none()),
                    false,
                ),
            ],
        )]
    },
};

pub(super) const PLAIN_VS_RICH: Definition = Definition {
    number: 3,
    id: "plain-vs-rich",
    title: en!("Plain vs rich client"),
    summary: en!(
        "confirm_order: -32021 for the plain client, an input_required \
        elicitation round trip with a new id for the rich one."
    ),
    lanes: 2,
    setups: || {
        vec![
            setup(
                "plain client",
                clients::plain(),
                servers::order_desk(),
                STDIO,
                vec![call(
                    "confirm_order",
                    json!({"order_id": "A-1042"}),
                    None,
                    true,
                )],
            ),
            setup(
                "rich client",
                clients::rich(),
                servers::order_desk(),
                STDIO,
                vec![call(
                    "confirm_order",
                    json!({"order_id": "A-1042"}),
                    None,
                    true,
                )],
            ),
        ]
    },
};

pub(super) const UNKNOWN_TOOL_VS_UNKNOWN_METHOD: Definition = Definition {
    number: 4,
    id: "unknown-tool-vs-unknown-method",
    title: en!("Unknown tool vs unknown method"),
    summary: en!("An unknown tool is -32602; an unknown method is -32601."),
    lanes: 2,
    setups: || {
        vec![
            setup(
                "unknown tool",
                clients::plain(),
                servers::deploy_console(),
                STDIO,
                vec![call("close_all_incidents", json!({}), None, true)],
            ),
            setup(
                "unknown method",
                clients::plain(),
                servers::deploy_console(),
                STDIO,
                vec![Step::request("incidents/close")],
            ),
        ]
    },
};

pub(super) const VERSION_RETRY: Definition = Definition {
    number: 5,
    id: "version-retry",
    title: en!("Version retry"),
    summary: en!("A modern request naming 2025-11-25 gets -32022 with \
        data.supported/requested; the client retries with a supported version \
        and a new id."),
    lanes: 1,
    setups: || {
        vec![setup(
            "discover naming 2025-11-25",
            clients::plain(),
            servers::deploy_console(),
            STDIO,
            vec![Step::Discover {
                version: Some("2025-11-25".into()),
            }],
        )]
    },
};

pub(super) const MISSING_META: Definition = Definition {
    number: 6,
    id: "missing-meta",
    title: en!("Missing _meta"),
    summary: en!(
        "A request without _meta, or missing either required key, is rejected \
        with -32602; clientInfo is optional."
    ),
    lanes: 4,
    setups: || {
        let broken = |label: &str, params: serde_json::Value, why: crate::note::Note| {
            let text = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
                .to_string();
            setup(
                label,
                clients::plain(),
                servers::deploy_console(),
                STDIO,
                vec![Step::Raw {
                    text,
                    headers: None,
                    violation: Some(why.clone()),
                    note: crate::note!(
                        "scenario.missing_meta.broken",
                        "A tools/list request with {why}.",
                        why = why
                    ),
                    rules: vec!["M-META-REQUIRED".into()],
                }],
            )
        };
        vec![
            broken("no _meta", json!({}), crate::note!("scenario.missing_meta.no_meta", "no params._meta at all")),
            broken("no protocolVersion", json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}), crate::note!("scenario.missing_meta.no_version", "_meta without io.modelcontextprotocol/protocolVersion")),
            broken("no clientCapabilities", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": ProtocolVersion::MODERN}}), crate::note!("scenario.missing_meta.no_caps", "_meta without io.modelcontextprotocol/clientCapabilities")),
            setup("no clientInfo (fine)", clients::plain(), servers::deploy_console(), STDIO, vec![Step::Raw {
                text: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": modern_meta()}}).to_string(),
                headers: None, violation: None,
                note: crate::note!("scenario.missing_meta.fine", "The same request with both required keys and no clientInfo: clientInfo is optional and a server must not require it."),
                rules: vec!["M-META-REQUIRED".into()],
            }]),
        ]
    },
};

pub(super) const ERA_PROBE_STDIO: Definition = Definition {
    number: 7,
    id: "era-probe-stdio",
    title: en!("Era probe on stdio"),
    summary: en!(
        "A dual-era client probes modern, legacy-answering, legacy-silent and \
        dual-era servers side by side."
    ),
    lanes: 4,
    setups: || probe_setups(STDIO),
};

pub(super) const ERA_PROBE_HTTP: Definition = Definition {
    number: 8,
    id: "era-probe-http",
    title: en!("Era probe on HTTP"),
    summary: en!("The same probe on Streamable HTTP, deciding from the status and the body."),
    lanes: 4,
    setups: || probe_setups(HTTP),
};

pub(super) const ERA_CACHE_AND_UPGRADE: Definition = Definition {
    number: 9,
    id: "era-cache-and-upgrade",
    title: en!("Era cache and upgrade"),
    summary: en!(
        "The era and discover result are cached, reused while fresh, re-probed \
        when ttlMs expires and when an upgraded server returns a version \
        error."
    ),
    lanes: 2,
    setups: || {
        let mut client = clients::dual_era();
        client.request_timeout_ms = Some(30_000);
        let list = || call("list_incidents", json!({}), None, true);
        let ttl = setup(
            "ttlMs expiry",
            client.clone(),
            servers::deploy_console(),
            STDIO,
            vec![
                list(),
                Step::Wait { ms: 600_000 },
                list(),
                Step::Wait { ms: 3_000_000 },
                list(),
            ],
        );
        // The same notes server, upgraded in place to modern-only (subscribe
        // is a legacy-only promise, so it goes).
        let mut upgraded = servers::notes();
        upgraded.era = EraMode::ModernOnly;
        upgraded.modern_versions = vec![ProtocolVersion::MODERN.into()];
        upgraded.legacy_versions = Vec::new();
        upgraded.info.version = "1.0".into();
        if let Some(resources) = upgraded.capabilities.resources.as_mut() {
            resources.subscribe = None;
        }
        let list_tools = || Step::request(methods::TOOLS_LIST);
        let mut upgrade = setup(
            "server upgraded underneath",
            client,
            servers::notes(),
            HTTP,
            vec![list_tools(), Step::Wait { ms: 60_000 }, list_tools()],
        );
        upgrade.server_events = vec![(
            SimTime::from_millis(30_000),
            ServerEvent::Upgrade {
                config: Box::new(upgraded),
            },
        )];
        vec![ttl, upgrade]
    },
};

pub(super) const COMPATIBILITY_MATRIX: Definition = Definition {
    number: 10,
    id: "compatibility-matrix",
    title: en!("Compatibility matrix"),
    summary: en!("The seven client/server era pairs and how each ends."),
    lanes: 7,
    setups: || {
        let mut modern_client = clients::plain();
        modern_client.discover_first = true;
        let list = || vec![Step::request(methods::TOOLS_LIST)];
        vec![
            setup(
                "modern client, modern server",
                modern_client.clone(),
                servers::deploy_console(),
                STDIO,
                list(),
            ),
            setup(
                "modern client, legacy server",
                modern_client,
                servers::notes(),
                STDIO,
                list(),
            ),
            setup(
                "dual-era client, modern server",
                clients::dual_era(),
                servers::deploy_console(),
                STDIO,
                list(),
            ),
            setup(
                "dual-era client, legacy server",
                clients::dual_era(),
                servers::notes(),
                STDIO,
                list(),
            ),
            setup(
                "legacy client, modern server",
                clients::legacy_host(),
                servers::deploy_console(),
                STDIO,
                list(),
            ),
            setup(
                "legacy client, dual-era server",
                clients::legacy_host(),
                servers::dual_era(),
                STDIO,
                list(),
            ),
            setup(
                "legacy client, legacy server",
                clients::legacy_host(),
                servers::notes(),
                STDIO,
                list(),
            ),
        ]
    },
};

pub(super) const LEGACY_HANDSHAKE: Definition = Definition {
    number: 11,
    id: "legacy-handshake",
    title: en!("Legacy handshake"),
    summary: en!(
        "initialize: version echo, counter-offer, and a client that cannot \
        speak the answer disconnects; initialized; instructions."
    ),
    lanes: 3,
    setups: || {
        let mut wants_newer = clients::legacy_host();
        wants_newer.legacy_versions = vec!["2025-11-25".into(), "2025-06-18".into()];
        let mut only_newer = clients::legacy_host();
        only_newer.legacy_versions = vec!["2025-11-25".into()];
        let script = || vec![Step::request(methods::TOOLS_LIST)];
        vec![
            setup(
                "version echoed",
                clients::legacy_host(),
                servers::notes(),
                STDIO,
                script(),
            ),
            setup(
                "counter-offer accepted",
                wants_newer,
                servers::notes(),
                STDIO,
                script(),
            ),
            setup(
                "counter-offer refused",
                only_newer,
                servers::notes(),
                STDIO,
                script(),
            ),
        ]
    },
};

pub(super) const LIST_CHANGED_DEBOUNCE: Definition = Definition {
    number: 12,
    id: "list-changed-debounce",
    title: en!("list_changed debounce"),
    summary: en!(
        "A burst of list_changed notices becomes one re-list (compared with \
        re-listing on every notice)."
    ),
    lanes: 2,
    setups: || {
        let mut naive = clients::legacy_host();
        naive.debounce_ms = 0;
        let burst = || {
            vec![
                (SimTime::from_millis(1_000), ServerEvent::ToolsChanged),
                (SimTime::from_millis(1_010), ServerEvent::ToolsChanged),
                (SimTime::from_millis(1_020), ServerEvent::ToolsChanged),
            ]
        };
        let mut debounced = setup(
            "debounced (200 ms)",
            clients::legacy_host(),
            servers::notes(),
            STDIO,
            vec![Step::request(methods::TOOLS_LIST)],
        );
        debounced.server_events = burst();
        let mut eager = setup(
            "re-list on every notice",
            naive,
            servers::notes(),
            STDIO,
            vec![Step::request(methods::TOOLS_LIST)],
        );
        eager.server_events = burst();
        vec![debounced, eager]
    },
};

pub(super) const ELICITATION_UNCHECKED: Definition = Definition {
    number: 13,
    id: "elicitation-unchecked",
    title: en!("Elicitation unchecked"),
    summary: en!(
        "A server takes a lock and then elicits from a client that never \
        declared it: -32601, silent drop (lock leaked, host kill at 600 s) and \
        disconnect."
    ),
    lanes: 3,
    setups: || {
        let mut server = servers::search_index();
        server.checks_capability_before_work = false;
        UndeclaredPolicy::ALL
            .into_iter()
            .map(|policy| {
                setup(
                    &format!("client {}", policy.label()),
                    clients::orchestrator_runtime(policy),
                    server.clone(),
                    STDIO,
                    vec![call(
                        "purge_index",
                        json!({"index": "prod-catalog"}),
                        None,
                        true,
                    )],
                )
            })
            .collect()
    },
};

pub(super) const ELICITATION_CHECKED: Definition = Definition {
    number: 14,
    id: "elicitation-checked",
    title: en!("Elicitation checked"),
    summary: en!(
        "The capability check runs before the lock: a precise tool error naming \
        retention_days, the re-call completes, nothing leaks."
    ),
    lanes: 3,
    setups: || {
        UndeclaredPolicy::ALL
            .into_iter()
            .map(|policy| {
                setup(
                    &format!("client that would {}", policy.verb()),
                    clients::orchestrator_runtime(policy),
                    servers::search_index(),
                    STDIO,
                    vec![
                        call("purge_index", json!({"index": "prod-catalog"}), None, true),
                        call(
                            "purge_index",
                            json!({"index": "prod-catalog", "retention_days": 0}),
                            None,
                            true,
                        ),
                    ],
                )
            })
            .collect()
    },
};

pub(super) const LEGACY_CLIENT_VS_MODERN_SERVER: Definition = Definition {
    number: 15,
    id: "legacy-client-vs-modern-server",
    title: en!("Legacy client, modern server"),
    summary: en!("initialize is refused with the supported versions named, on stdio and on HTTP."),
    lanes: 2,
    setups: || {
        vec![
            setup(
                "stdio",
                clients::legacy_host(),
                servers::deploy_console(),
                STDIO,
                vec![Step::request(methods::TOOLS_LIST)],
            ),
            setup(
                "Streamable HTTP",
                clients::legacy_host(),
                servers::deploy_console(),
                HTTP,
                vec![Step::request(methods::TOOLS_LIST)],
            ),
        ]
    },
};

pub(super) const HTTP_HEADER_MISMATCH: Definition = Definition {
    number: 16,
    id: "http-header-mismatch",
    title: en!("HTTP header mismatch"),
    summary: en!(
        "MCP-Protocol-Version header differs from _meta: 400 with -32020 (and \
        the matching request for comparison)."
    ),
    lanes: 2,
    setups: || {
        let body = |id: u32| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "list_incidents", "arguments": {}, "_meta": modern_meta()}})
            .to_string()
        };
        let headers = |version: &str| {
            vec![
                ("Content-Type".to_string(), "application/json".to_string()),
                (
                    "Accept".to_string(),
                    "application/json, text/event-stream".to_string(),
                ),
                ("MCP-Protocol-Version".to_string(), version.to_string()),
                ("Mcp-Method".to_string(), "tools/call".to_string()),
                ("Mcp-Name".to_string(), "list_incidents".to_string()),
            ]
        };
        vec![
            setup("header says 2025-11-25", clients::plain(), servers::deploy_console(), HTTP, vec![Step::Raw {
                text: body(1), headers: Some(headers("2025-11-25")),
                violation: Some(crate::note!("scenario.header_mismatch.violation", "MCP-Protocol-Version header (2025-11-25) differs from _meta's protocolVersion (2026-07-28)")),
                note: crate::note!("scenario.header_mismatch.mismatch", "The body says 2026-07-28 but the MCP-Protocol-Version header says 2025-11-25."),
                rules: vec!["H-HEADERS".into()],
            }]),
            setup("headers match", clients::plain(), servers::deploy_console(), HTTP, vec![Step::Raw {
                text: body(1), headers: Some(headers(ProtocolVersion::MODERN)), violation: None,
                note: crate::note!("scenario.header_mismatch.agree", "The same request with headers that mirror the body."),
                rules: vec!["H-HEADERS".into()],
            }]),
        ]
    },
};

pub(super) fn probe_setups(kind: TransportKind) -> Vec<Setup> {
    let script = || vec![Step::request(methods::TOOLS_LIST)];
    vec![
        setup(
            "modern server",
            clients::dual_era(),
            servers::deploy_console(),
            kind,
            script(),
        ),
        setup(
            "legacy server, answers an error",
            clients::dual_era(),
            servers::notes(),
            kind,
            script(),
        ),
        setup(
            "legacy server, silent",
            clients::dual_era(),
            legacy_silent(),
            kind,
            script(),
        ),
        setup(
            "dual-era server",
            clients::dual_era(),
            servers::dual_era(),
            kind,
            script(),
        ),
    ]
}

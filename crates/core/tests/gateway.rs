//! A gateway between the client and the server (issue 28, point 1): it
//! forwards each message on (G-FORWARD), hides tools and prompts
//! (G-FILTER) and renames the tools it exposes (G-REWRITE). Every hop is
//! a message between its two actors, and every message of every run
//! validates against the official schema of its revision.

mod common;

use mcp_lanes_core::export::mermaid;
use mcp_lanes_core::gateway::{Gateway, GatewayConfig, Passage};
use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::share::{self, LaneState, ShareState};
use mcp_lanes_core::sim::{Actor, Timeline};
use mcp_lanes_core::transport::http;
use serde_json::{json, Value};

use Actor::{Client as C, Gateway as G, Server as S};

/// A weather server with a prompt, in `era`.
fn server(era: &str) -> Value {
    json!({"id": "weather", "era": era,
    "tools": [
        {"name": "forecast", "result": "Rain, then sun."},
        {"name": "stations", "result": "Oslo, Lyon."},
        {"name": "reset_stations", "result": "Erased."}
    ],
    "prompts": [
        {"name": "brief", "messages": [{"role": "user", "text": "Brief me."}]},
        {"name": "internal_notes", "messages": [{"role": "user", "text": "Secret."}]}
    ]})
}

/// A file of one set-up through `gateway` (none when null).
fn scenario(era: &str, transport: &str, gateway: Value, steps: Value) -> Value {
    let mut setup =
        json!({"client": "c", "server": "weather", "transport": transport, "steps": steps});
    if !gateway.is_null() {
        setup["gateway"] = gateway;
    }
    let mut client = json!({"id": "c"});
    if era == "legacy" {
        client["era"] = json!("legacy");
    }
    json!({
        "format": file::FORMAT,
        "id": "t",
        "title": "t",
        "summary": "t",
        "servers": [server(era)],
        "clients": [client],
        "setups": [setup]
    })
}

/// Runs a file and checks every message against its revision's schema.
fn run(value: &Value) -> Timeline {
    common::run_file(value)
}

/// The messages between two actors, as JSON.
fn between(t: &Timeline, from: Actor, to: Actor) -> Vec<Value> {
    t.messages()
        .filter(|(_, m)| m.ends() == (from, to))
        .filter_map(|(_, m)| m.json.clone())
        .collect()
}

/// The tool names the client was shown.
fn listed(t: &Timeline) -> Vec<String> {
    between(t, G, C)
        .iter()
        .filter_map(|m| m.pointer("/result/tools")?.as_array().cloned())
        .flatten()
        .filter_map(|tool| tool.get("name")?.as_str().map(str::to_string))
        .collect()
}

fn shows(t: &Timeline, rule: &str) -> bool {
    t.events.iter().any(|e| e.rules.contains(&rule))
}

fn call(tool: &str) -> Value {
    json!({"do": "call", "tool": tool, "arguments": {}})
}

fn list(what: &str) -> Value {
    json!({"do": "list", "what": what})
}

const ERAS: [(&str, &str); 4] = [
    ("modern", "stdio"),
    ("modern", "http"),
    ("legacy", "stdio"),
    ("legacy", "http"),
];

#[test]
fn g_forward_every_message_takes_two_hops_each_between_its_two_actors() {
    for (era, transport) in ERAS {
        let t = run(&scenario(
            era,
            transport,
            json!({}),
            json!([list("tools"), call("forecast")]),
        ));
        assert_eq!(t.columns(), vec![C, G, S], "{era} {transport}");
        let ends: Vec<(Actor, Actor)> = t.messages().map(|(_, m)| m.ends()).collect();
        assert!(
            !ends.contains(&(C, S)) && !ends.contains(&(S, C)),
            "{ends:?}"
        );
        // Each hop of the client's is followed by the gateway's, each of
        // the server's too, and every message arrives.
        let to_gateway = ends.iter().filter(|e| e.1 == G).count();
        let from_gateway = ends.iter().filter(|e| e.0 == G).count();
        assert_eq!(to_gateway, from_gateway, "{era} {transport}: {ends:?}");
        assert!(t.messages().all(|(_, m)| m.delivered_at_ms.is_some()));
        assert!(shows(&t, "G-FORWARD"));
        // The call got its result, through the gateway.
        let results = between(&t, G, C);
        let last = results.last().expect("an answer");
        assert_eq!(
            last.pointer("/result/content/0/text"),
            Some(&json!("Rain, then sun.")),
            "{era} {transport}"
        );
    }
}

#[test]
fn g_forward_what_the_gateway_does_not_rewrite_passes_byte_for_byte() {
    for (era, transport) in ERAS {
        let t = run(&scenario(
            era,
            transport,
            json!({}),
            json!([list("tools"), call("forecast")]),
        ));
        let wires = |from, to| -> Vec<String> {
            t.messages()
                .filter(|(_, m)| m.ends() == (from, to))
                .map(|(_, m)| m.wire.clone())
                .collect()
        };
        assert_eq!(wires(C, G), wires(G, S), "{era} {transport}");
        assert_eq!(wires(S, G), wires(G, C), "{era} {transport}");
        // The client sees what it would see without a gateway.
        let straight = run(&scenario(
            era,
            transport,
            Value::Null,
            json!([list("tools"), call("forecast")]),
        ));
        let answers: Vec<String> = straight
            .messages()
            .filter(|(_, m)| m.ends() == (S, C))
            .map(|(_, m)| m.wire.clone())
            .collect();
        assert_eq!(wires(G, C), answers, "{era} {transport}");
        assert!(straight.actors.is_empty());
    }
}

#[test]
fn g_filter_a_hidden_tool_is_left_out_and_the_gateway_refuses_its_call_itself() {
    for (era, transport) in ERAS {
        let t = run(&scenario(
            era,
            transport,
            json!({"hide": ["reset_stations"]}),
            json!([list("tools"), call("reset_stations")]),
        ));
        assert_eq!(listed(&t), ["forecast", "stations"], "{era} {transport}");
        // The server lists all three; the client never learns of the third.
        let server_lists: Vec<Value> = between(&t, S, G)
            .into_iter()
            .filter_map(|m| m.pointer("/result/tools").cloned())
            .collect();
        assert_eq!(server_lists[0][2]["name"], json!("reset_stations"));
        // The call never reaches the server.
        let to_server = between(&t, G, S);
        assert!(
            to_server
                .iter()
                .all(|m| m.get("method") != Some(&json!("tools/call"))),
            "{era} {transport}: {to_server:?}"
        );
        let refusal = between(&t, G, C).into_iter().last().unwrap();
        assert_eq!(refusal.pointer("/error/code"), Some(&json!(-32602)));
        assert_eq!(
            refusal.pointer("/error/message"),
            Some(&json!("Unknown tool: reset_stations"))
        );
        assert!(shows(&t, "G-FILTER") && shows(&t, "M-UNKNOWN-TOOL"));
        // The lane's last word names who answered: the gateway, not the server.
        assert!(
            t.summary.outcome.contains("from the gateway"),
            "{era} {transport}: {}",
            t.summary.outcome
        );
        if transport == "http" {
            let status = t
                .messages()
                .filter(|(_, m)| m.ends() == (G, C))
                .last()
                .and_then(|(_, m)| m.http.as_ref()?.status);
            assert_eq!(status, Some(200), "-32602 is 200 on HTTP (H-STATUS)");
        }
    }
}

#[test]
fn g_filter_a_hidden_prompt_is_left_out_and_its_get_is_refused() {
    for (era, transport) in [("modern", "http"), ("legacy", "stdio")] {
        let t = run(&scenario(
            era,
            transport,
            json!({"hidePrompts": ["internal_notes"]}),
            json!([list("prompts"), {"do": "get-prompt", "name": "internal_notes"}]),
        ));
        let shown: Vec<Value> = between(&t, G, C)
            .iter()
            .filter_map(|m| m.pointer("/result/prompts").cloned())
            .collect();
        assert_eq!(shown[0].as_array().map(Vec::len), Some(1), "{shown:?}");
        assert_eq!(shown[0][0]["name"], json!("brief"));
        let refusal = between(&t, G, C).into_iter().last().unwrap();
        assert_eq!(refusal.pointer("/error/code"), Some(&json!(-32602)));
        assert_eq!(
            refusal.pointer("/error/message"),
            Some(&json!("Unknown prompt: internal_notes"))
        );
        assert!(between(&t, G, S)
            .iter()
            .all(|m| m.get("method") != Some(&json!("prompts/get"))));
    }
}

#[test]
fn g_rewrite_prefixed_names_are_listed_and_mapped_back_with_mcp_name_in_step() {
    for (era, transport) in ERAS {
        let t = run(&scenario(
            era,
            transport,
            json!({"prefix": "weather_"}),
            json!([list("tools"), call("weather_forecast")]),
        ));
        assert_eq!(
            listed(&t),
            [
                "weather_forecast",
                "weather_stations",
                "weather_reset_stations"
            ]
        );
        let forwarded: Vec<_> = t
            .messages()
            .filter(|(_, m)| m.ends() == (G, S) && m.label.contains("tools/call"))
            .collect();
        let (event, message) = forwarded[0];
        let body = message.json.as_ref().unwrap();
        assert_eq!(body.pointer("/params/name"), Some(&json!("forecast")));
        assert!(event.rules.contains(&"G-REWRITE"));
        if let (Some(info), "modern") = (&message.http, era) {
            assert_eq!(http::header_mismatch(&info.headers, body), None);
            let name = info
                .headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("Mcp-Name"))
                .map(|(_, v)| v.as_str());
            assert_eq!(name, Some("forecast"), "{era} {transport}");
        }
        let answer = between(&t, G, C).into_iter().last().unwrap();
        assert_eq!(
            answer.pointer("/result/content/0/text"),
            Some(&json!("Rain, then sun.")),
            "{era} {transport}"
        );
    }
}

#[test]
fn g_rewrite_a_name_without_the_prefix_is_unknown_to_the_gateway() {
    let mut gateway = Gateway::new(GatewayConfig {
        prefix: Some("weather_".into()),
        ..Default::default()
    });
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "forecast", "arguments": {}}});
    match gateway.from_client(&call.to_string()) {
        Passage::Answer { text, rules, .. } => {
            let answer: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(answer["id"], json!(7));
            assert_eq!(answer.pointer("/error/code"), Some(&json!(-32602)));
            assert_eq!(rules, ["G-REWRITE", "M-UNKNOWN-TOOL"]);
        }
        other => panic!("forwarded: {other:?}"),
    }
    // Not JSON, or not a request: on as it came.
    for text in [
        "{not json",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ] {
        match gateway.from_client(text) {
            Passage::Forward {
                text: on,
                rewritten,
                ..
            } => assert!(on == text && !rewritten),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn g_forward_the_scenario_draws_each_hop_between_its_actors_and_validates() {
    let timelines = scenarios::run("gateways").expect("scenario 31");
    assert_eq!(timelines.len(), 3);
    assert!(timelines[0].actors.is_empty(), "the straight lane");
    for t in &timelines {
        common::assert_timeline_valid(t);
    }
    for t in &timelines[1..] {
        assert_eq!(t.columns(), vec![C, G, S]);
        assert!(shows(t, "G-FILTER") && shows(t, "G-REWRITE"), "{}", t.label);
        assert_eq!(listed(t), ["weather_forecast", "weather_stations"]);
    }
    // The same run twice, byte for byte.
    let again = scenarios::run("gateways").unwrap();
    assert_eq!(
        serde_json::to_string(&timelines).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    // And it reads back as written (the page's recorded runs).
    let text = serde_json::to_string(&timelines).unwrap();
    assert_eq!(Timeline::from_json(&text).unwrap(), timelines);
}

#[test]
fn g_forward_mermaid_names_the_gateway_and_draws_each_hop() {
    let t = scenarios::run("gateways").unwrap().remove(1);
    let text = mermaid(&t);
    assert!(text.contains("participant C as plain-script"), "{text}");
    assert!(text.contains("participant G as gateway\n"), "{text}");
    assert!(text.contains("participant S as weather-station"), "{text}");
    for arrow in [
        "C->>G: tools/list (id 1)",
        "G->>S: tools/list (id 1)",
        "S-->>G: 200 result (id 1)",
        "G-->>C: 200 result (id 1)",
        "C->>G: tools/call (id 3)\n    G-->>C: 200 -32602 (id 3)",
    ] {
        assert!(text.contains(arrow), "{arrow} in {text}");
    }
    assert!(
        !text.contains("C->>S") && !text.contains("S-->>C"),
        "{text}"
    );
}

#[test]
fn g_forward_a_gateway_set_up_round_trips_through_a_permalink() {
    use mcp_lanes_core::settings::Setting;
    use mcp_lanes_core::transport::TransportKind;
    let state = ShareState {
        scenario: "gateways".into(),
        lanes: vec![
            LaneState::untouched(1),
            LaneState {
                base: 2,
                settings: vec![Setting::Transport(TransportKind::Http)],
                label: None,
            },
        ],
        step: 0,
        editor: None,
    };
    let fragment = share::to_fragment(&state);
    let back = share::from_fragment(&fragment).expect("decodes");
    assert_eq!(back, state);
    let setups = share::setups(&back);
    assert_eq!(setups.len(), 2);
    for setup in &setups {
        assert_eq!(
            setup.gateway.as_ref().and_then(|g| g.prefix.as_deref()),
            Some("weather_")
        );
        let t = mcp_lanes_core::sim::run(setup);
        common::assert_timeline_valid(&t);
        assert_eq!(t.columns(), vec![C, G, S]);
        assert_eq!(listed(&t), ["weather_forecast", "weather_stations"]);
    }
    // The legacy host's lane, moved to HTTP, keeps its gateway.
    assert_eq!(setups[1].channel.kind, TransportKind::Http);
}

#[test]
fn g_forward_a_scenario_file_writes_its_gateway_back() {
    let value = scenario(
        "modern",
        "http",
        json!({"hide": ["reset_stations"], "hidePrompts": ["internal_notes"], "prefix": "w_"}),
        json!([list("tools")]),
    );
    let loaded = file::load_value(&value).expect("loads");
    let gateway = loaded.setups[0].gateway.clone().expect("a gateway");
    assert_eq!(gateway.hide, ["reset_stations"]);
    assert_eq!(gateway.hide_prompts, ["internal_notes"]);
    assert_eq!(gateway.prefix.as_deref(), Some("w_"));
    let written = file::export("t", "t", "t", &loaded.setups);
    assert_eq!(
        written.pointer("/setups/0/gateway"),
        Some(
            &json!({"hide": ["reset_stations"], "hidePrompts": ["internal_notes"], "prefix": "w_"})
        ),
        "{written}"
    );
    for (gateway, why) in [
        (json!({"prefix": "has space"}), "gateway.prefix"),
        (json!({"hide": "forecast"}), "gateway.hide"),
        (json!({"hide": [""]}), "gateway.hide[0]"),
        (json!({"rename": {}}), "gateway.rename"),
        (json!([]), "gateway"),
    ] {
        let errors = file::load_value(&scenario("modern", "http", gateway.clone(), json!([])))
            .err()
            .unwrap_or_else(|| panic!("{gateway} loads"));
        assert!(
            errors.iter().any(|e| e.to_string().contains(why)),
            "{gateway}: {:?}",
            errors.iter().map(ToString::to_string).collect::<Vec<_>>()
        );
    }
}

#[test]
fn g_forward_a_protected_server_behind_a_gateway_is_drawn_with_the_gateway() {
    let mut setup = scenarios::setups("auth-happy-path").unwrap().remove(0);
    setup.gateway = Some(GatewayConfig::default());
    let t = mcp_lanes_core::sim::run(&setup);
    assert!(t.columns().contains(&G));
    assert!(!t
        .events
        .iter()
        .any(|e| e.note.contains("gateway is left out")));
    // No message goes between the client and the server directly.
    for (_, m) in t.messages() {
        assert!(!matches!(m.ends(), (C, S) | (S, C)), "{}", m.label);
    }
    common::assert_timeline_valid(&t);
}

#[test]
fn g_forward_the_grader_judges_what_the_client_saw_of_the_gateway() {
    use mcp_lanes_core::check::{self, Outcome};
    for t in scenarios::run("gateways").unwrap() {
        // As graded live and as a recording (RPC-ID among the recorded
        // checks: the gateway's hop to the server repeats the id).
        let recorded = check::grade_recorded(&t);
        let failed: Vec<_> = recorded
            .iter()
            .filter(|v| v.verdict == Outcome::Fail)
            .collect();
        assert!(failed.is_empty(), "{} (recorded): {failed:?}", t.label);
        let verdicts = check::grade(&t);
        let failed: Vec<_> = verdicts
            .iter()
            .filter(|v| v.verdict == Outcome::Fail)
            .collect();
        assert!(failed.is_empty(), "{}: {failed:?}", t.label);
        assert!(!verdicts.is_empty(), "{}", t.label);
    }
}

#[test]
fn g_rewrite_curl_replays_what_reached_the_server() {
    let t = scenarios::run("gateways").unwrap().remove(1);
    let script = mcp_lanes_core::export::curl(&t, "http://127.0.0.1:8931/mcp").expect("HTTP");
    // Two calls reached the server (the list and forecast); the hidden
    // tool's call never did, and no prefixed name is replayed.
    assert_eq!(script.matches("curl ").count(), 2, "{script}");
    assert!(script.contains("\"name\":\"forecast\""), "{script}");
    assert!(!script.contains("weather_"), "{script}");
}

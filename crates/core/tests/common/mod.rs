//! Shared helpers of the core's integration tests: where the official spec
//! folder is, a JSON Schema validator over it ([`schema`]), and small
//! builders for driving a [`Server`] by hand.

#![allow(dead_code)]

pub mod schema;

use std::path::PathBuf;

use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::scenarios;
use mcp_lanes_core::server::{presets, ConnId, Reply, Server, ServerOutput};
use mcp_lanes_core::sim::Timeline;
use mcp_lanes_core::transport::http::{self, HttpRequest, HttpResponse};
use serde_json::{json, Value};

/// The modern revision.
pub const MODERN: &str = "2026-07-28";

/// The folder holding `RULES.md` and `<revision>/schema.json`: the
/// repository's own `spec/` (see `spec/README.md`).
///
/// `MCP_LANES_SPEC_DIR` wins when set (to check against another copy of the
/// official schemas). A missing folder is a hard failure with a message
/// saying where it looked: the schema tests must never pass by skipping.
pub fn spec_dir() -> PathBuf {
    let (dir, how) = match std::env::var_os("MCP_LANES_SPEC_DIR") {
        Some(dir) if !dir.is_empty() => (PathBuf::from(dir), "MCP_LANES_SPEC_DIR"),
        _ => (repo_root().join("spec"), "<repository>/spec"),
    };
    assert!(
        dir.join("RULES.md").is_file() && dir.join(MODERN).join("schema.json").is_file(),
        "the MCP spec folder is missing: looked for RULES.md and {MODERN}/schema.json in {} ({how}). \
         The repository carries it in spec/; MCP_LANES_SPEC_DIR may point elsewhere.",
        dir.display()
    );
    dir
}

/// The repository root (the workspace holding `crates/`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

// ---- building messages -------------------------------------------------

/// `_meta` of a modern request: PV and CAPS (no clientInfo).
pub fn meta_of(version: &str, caps: Value) -> Value {
    json!({
        meta::PROTOCOL_VERSION: version,
        meta::CLIENT_CAPABILITIES: caps,
    })
}

/// A modern request naming 2026-07-28 and declaring `caps`; `params` (an
/// object, without `_meta`) gets the `_meta` added.
pub fn modern(id: Value, method: &str, params: Value, caps: Value) -> Value {
    modern_v(id, method, params, MODERN, caps)
}

/// Like [`modern`], naming `version`.
pub fn modern_v(id: Value, method: &str, params: Value, version: &str, caps: Value) -> Value {
    let mut params = if params.is_null() { json!({}) } else { params };
    params["_meta"] = meta_of(version, caps);
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A modern `tools/call`.
pub fn call(id: Value, tool: &str, arguments: Value, caps: Value) -> Value {
    modern(
        id,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
        caps,
    )
}

/// A legacy `initialize` request.
pub fn initialize(id: Value, version: &str, caps: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": version,
        "capabilities": caps,
        "clientInfo": {"name": "test-host", "version": "1.0"},
    }})
}

/// `notifications/initialized`.
pub fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

/// A plain (legacy-shaped) request without params.
pub fn plain(id: Value, method: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method})
}

// ---- driving a server --------------------------------------------------

/// A server of a preset.
pub fn server(preset: &str) -> Server {
    Server::new(presets::server(preset).unwrap_or_else(|| panic!("no server preset {preset}")))
}

/// Every server preset id.
pub fn server_presets() -> Vec<&'static str> {
    presets::PRESETS.iter().map(|(id, _)| *id).collect()
}

/// Hands one stdio line to the server on connection `stdio`.
pub fn send(server: &mut Server, message: &Value) -> Option<Reply> {
    server.handle_text(SimTime::ZERO, &ConnId::stdio(), &message.to_string())
}

/// Hands raw text to the server on connection `stdio`.
pub fn send_text(server: &mut Server, text: &str) -> Option<Reply> {
    server.handle_text(SimTime::ZERO, &ConnId::stdio(), text)
}

/// Sends and expects a reply; returns the reply's message.
pub fn reply(server: &mut Server, message: &Value) -> Value {
    send(server, message)
        .unwrap_or_else(|| panic!("no reply to {message}"))
        .message
}

/// Everything the server did on its own since the last drain.
pub fn drain(server: &mut Server) -> Vec<ServerOutput> {
    std::iter::from_fn(|| server.poll_output()).collect()
}

/// Runs the legacy handshake on stdio (initialize + initialized) and
/// returns the initialize result.
pub fn handshake(server: &mut Server, version: &str, caps: Value) -> Value {
    let answer = reply(server, &initialize(json!(0), version, caps));
    assert!(
        answer.get("result").is_some(),
        "initialize failed: {answer}"
    );
    assert!(send(server, &initialized()).is_none());
    drain(server);
    answer["result"].clone()
}

/// The `error.code` of a response, if it is an error.
pub fn code(message: &Value) -> Option<i64> {
    message.get("error")?.get("code")?.as_i64()
}

/// A POST of `message` with the headers a conforming modern client sends.
pub fn post(message: &Value) -> HttpRequest {
    HttpRequest::post(http::modern_headers(message), message.to_string())
}

/// A POST of `body` with exactly `headers`.
pub fn post_with(headers: &[(&str, &str)], body: &Value) -> HttpRequest {
    HttpRequest::post(
        headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body.to_string(),
    )
}

/// Sends an HTTP request; returns the response and its body as JSON (Null
/// when empty).
pub fn http(server: &mut Server, request: &HttpRequest) -> (HttpResponse, Value) {
    let response = server.handle_http(SimTime::ZERO, request).response;
    let body = if response.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&response.body)
            .unwrap_or_else(|e| panic!("HTTP body is not JSON ({e}): {}", response.body))
    };
    (response, body)
}

// ---- scenarios ---------------------------------------------------------

/// Runs a scenario of the catalog.
pub fn run(id: &str) -> Vec<Timeline> {
    scenarios::run(id).unwrap_or_else(|| panic!("no scenario {id}"))
}

/// The wire messages (parsed) of one timeline, in order.
pub fn wire(timeline: &Timeline) -> Vec<Value> {
    timeline
        .messages()
        .map(|(_, m)| m.json.clone().unwrap_or(Value::Null))
        .collect()
}

/// The ids of the scenario catalog.
pub fn scenario_ids() -> Vec<&'static str> {
    scenarios::CATALOG.iter().map(|s| s.id).collect()
}

// ---- driving a client by hand -------------------------------------------

use mcp_lanes_core::client::{
    Client, ClientAction, ClientConfig, ClientOutput, Step as ClientStep,
};
use mcp_lanes_core::sim::{EventKind, SimTime};
use mcp_lanes_core::transport::TransportKind;

/// A client driven by hand: the test plays the server and the clock.
pub struct Driver {
    /// The client.
    pub client: Client,
    /// Virtual time now.
    pub now: SimTime,
    /// Everything the client did, in order.
    pub outputs: Vec<ClientOutput>,
}

impl Driver {
    /// Starts `config` working through `script` at time 0.
    pub fn start(config: ClientConfig, script: Vec<ClientStep>, transport: TransportKind) -> Self {
        let mut client = Client::new(config, script, transport);
        client.start(SimTime::ZERO);
        let mut driver = Driver {
            client,
            now: SimTime::ZERO,
            outputs: Vec::new(),
        };
        driver.collect();
        driver
    }

    fn collect(&mut self) {
        while let Some(out) = self.client.poll_output() {
            self.outputs.push(out);
        }
    }

    /// Every message the client sent, parsed.
    pub fn sent(&self) -> Vec<Value> {
        self.outputs
            .iter()
            .filter_map(|o| match &o.action {
                ClientAction::Send { text, .. } => {
                    Some(serde_json::from_str(text).unwrap_or(Value::Null))
                }
                _ => None,
            })
            .collect()
    }

    /// The HTTP requests the client sent, in order.
    pub fn sent_http(&self) -> Vec<HttpRequest> {
        self.outputs
            .iter()
            .filter_map(|o| match &o.action {
                ClientAction::Send { http, .. } => http.clone(),
                _ => None,
            })
            .collect()
    }

    /// The last message sent.
    pub fn last_sent(&self) -> Value {
        self.sent()
            .last()
            .cloned()
            .expect("the client sent something")
    }

    /// Recorded events (not messages), with their rules and notes.
    pub fn records(&self) -> Vec<(EventKind, Vec<&'static str>, String)> {
        self.outputs
            .iter()
            .filter_map(|o| match &o.action {
                ClientAction::Record(kind) => {
                    Some((kind.clone(), o.rules.clone(), o.note.text().to_string()))
                }
                _ => None,
            })
            .collect()
    }

    /// The client's decisions so far: their rules and notes.
    pub fn decisions(&self) -> Vec<(Vec<&'static str>, String)> {
        self.records()
            .into_iter()
            .filter(|(k, _, _)| matches!(k, EventKind::Decision { .. }))
            .map(|(_, r, n)| (r, n))
            .collect()
    }

    /// Whether the client closed its connection.
    pub fn closed(&self) -> bool {
        self.outputs
            .iter()
            .any(|o| matches!(o.action, ClientAction::Close))
    }

    /// Moves the clock to `at` and hands the client a stdio line.
    pub fn receive(&mut self, at_ms: u64, message: &Value) {
        self.now = self.now.max(SimTime::from_millis(at_ms));
        self.client.handle_text(self.now, &message.to_string());
        self.collect();
    }

    /// Moves the clock to `at` and hands the client an HTTP response.
    pub fn receive_http(&mut self, at_ms: u64, response: &HttpResponse) {
        self.now = self.now.max(SimTime::from_millis(at_ms));
        self.client.handle_http(self.now, response);
        self.collect();
    }

    /// Lets time pass up to `until`, firing every deadline on the way.
    pub fn run_until(&mut self, until_ms: u64) {
        let until = SimTime::from_millis(until_ms);
        while let Some(deadline) = self.client.poll_timeout() {
            if deadline > until {
                break;
            }
            self.now = self.now.max(deadline);
            self.client.handle_timeout(self.now);
            self.collect();
        }
        self.now = self.now.max(until);
    }

    /// Answers the last request the client sent with `result`.
    pub fn answer(&mut self, at: u64, result: Value) {
        let id = self.last_sent()["id"].clone();
        self.receive(at, &json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    /// Tells the client the exchange it waits on failed below the protocol.
    pub fn transport_failure(
        &mut self,
        at_ms: u64,
        failure: &mcp_lanes_core::client::TransportFailure,
    ) {
        self.now = self.now.max(SimTime::from_millis(at_ms));
        self.client.handle_failure(self.now, failure);
        self.collect();
    }

    /// Answers the last request the client sent with an error.
    pub fn fail(&mut self, at: u64, code: i64, message: &str, data: Option<Value>) {
        let id = self.last_sent()["id"].clone();
        let mut error = json!({"code": code, "message": message});
        if let Some(data) = data {
            error["data"] = data;
        }
        self.receive(at, &json!({"jsonrpc": "2.0", "id": id, "error": error}));
    }
}

/// A DiscoverResult as a modern server sends it, with the given ttlMs (any
/// JSON value, or absent when `None`).
pub fn discover_result(ttl_ms: Option<Value>) -> Value {
    let mut result = json!({
        "resultType": "complete",
        "supportedVersions": [MODERN],
        "capabilities": {"tools": {}},
        "cacheScope": "public",
        "_meta": {meta::SERVER_INFO: {"name": "hand-written", "version": "1"}},
    });
    if let Some(ttl) = ttl_ms {
        result["ttlMs"] = ttl;
    }
    result
}

/// An `InitializeResult` naming `version`.
pub fn initialize_result(version: &str) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "hand-written", "version": "1"},
    })
}

// ---- timelines -------------------------------------------------------------

/// Messages one side sent in a timeline, parsed, with their times.
pub fn sent_by(timeline: &Timeline, side: mcp_lanes_core::sim::Side) -> Vec<(u64, Value)> {
    timeline
        .messages()
        // Sent by the side itself, not by a gateway playing its part.
        .filter(|(_, m)| m.from == side && m.ends().0 == mcp_lanes_core::sim::Actor::of(side))
        .map(|(e, m)| (e.at_ms, m.json.clone().unwrap_or(Value::Null)))
        .collect()
}

/// The methods of the requests and notifications in a list of messages.
pub fn methods(messages: &[(u64, Value)]) -> Vec<String> {
    messages
        .iter()
        .filter_map(|(_, m)| m.get("method").and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// The scenario file `value`, loaded; a reader error fails the test, with
/// every error the reader gave.
pub fn load_file(value: &Value) -> scenarios::file::ScenarioFile {
    match scenarios::file::load_value(value) {
        Ok(f) => f,
        Err(errors) => panic!(
            "{:?}",
            errors.iter().map(ToString::to_string).collect::<Vec<_>>()
        ),
    }
}

/// The runs of every set-up of `tests/lessons/NAME.json`, a course lesson.
pub fn lesson(name: &str) -> Vec<Timeline> {
    let path = repo_root().join(format!("tests/lessons/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let value: Value = serde_json::from_str(&text).expect("a lesson is JSON");
    scenarios::run_setups(&load_file(&value).setups)
}

/// Runs the first set-up of the scenario file `value` and checks every
/// message against its revision's schema.
pub fn run_file(value: &Value) -> Timeline {
    let timeline = scenarios::run_setups(&load_file(value).setups).remove(0);
    assert_timeline_valid(&timeline);
    timeline
}

/// Validates every message of a timeline against its revision's schema
/// (skipping deliberate violations and body-less HTTP responses).
pub fn assert_timeline_valid(timeline: &Timeline) {
    use std::collections::HashMap;
    let schemas = schema::schemas();
    let mut origin: HashMap<(mcp_lanes_core::sim::Side, String), String> = HashMap::new();
    for (index, (_, m)) in timeline.messages().enumerate() {
        let Some(json) = &m.json else { continue };
        // An authorization flow's hops to or from the authorization server,
        // and its HTTP exchanges that are not JSON-RPC (metadata documents,
        // token answers), have no MCP schema (as in `schema.rs`).
        let json_rpc = json.is_array() || json.get("jsonrpc").is_some();
        if !m.carries_mcp() || (!timeline.actors.is_empty() && !json_rpc) {
            continue;
        }
        let id = json.get("id").map(Value::to_string);
        if let (Some(method), Some(id)) = (json.get("method").and_then(Value::as_str), &id) {
            origin.insert((m.from, id.clone()), method.to_string());
        }
        if m.violation.is_some() {
            continue;
        }
        let from = if json.get("method").is_none() {
            id.as_ref()
                .and_then(|id| origin.get(&(m.from.peer(), id.clone())))
                .map(String::as_str)
        } else {
            None
        };
        if let Err(f) = schemas.validate_message(&m.revision, json, from) {
            panic!(
                "{} message #{index} ({}) of revision {} does not validate {f}\n  {json}",
                timeline.label, m.label, m.revision
            );
        }
    }
}

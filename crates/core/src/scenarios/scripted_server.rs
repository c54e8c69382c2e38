//! The set-ups of scenario 22: a listen stream that runs in the background
//! while calls go on, with notifications the set-up schedules, and a server
//! the set-up makes answer wrongly on purpose (each wrong message drawn as
//! a violation with its reason).

use serde_json::json;

use crate::client::presets as clients;
use crate::client::Step;
use crate::protocol::methods;
use crate::server::reference::reference;
use crate::server::ServerTrigger;
use crate::sim::engine::ServerEvent;
use crate::sim::scripted::{ScriptedNotice, ScriptedReply};
use crate::sim::{Setup, SimTime};
use crate::transport::{ChannelConfig, TransportKind};

fn call(tool: &str, meta: Option<serde_json::Value>) -> Step {
    let mut params = json!({"name": tool, "arguments": {}});
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
}

fn at(ms: u64, event: ServerEvent) -> (SimTime, ServerEvent) {
    (SimTime::from_millis(ms), event)
}

fn lane(label: &str, kind: TransportKind, script: Vec<Step>) -> Setup {
    Setup {
        label: label.into(),
        client: clients::plain(),
        server: reference(),
        channel: ChannelConfig::new(kind),
        script,
        server_events: Vec::new(),
        auth: None,
        gateway: None,
    }
}

/// A listen stream in the background, calls meanwhile, and notifications
/// at set times or tied to a request.
fn background_listen() -> Setup {
    let listen = Step::Request {
        method: methods::SUBSCRIPTIONS_LISTEN.into(),
        params: json!({"notifications": {
            "promptsListChanged": true,
            "resourceSubscriptions": ["test://watched-resource"]
        }}),
        declare: None,
        version: None,
        retry_on_missing_capability: true,
        follow_cursor: false,
        background: true,
    };
    let mut s = lane(
        "listen in the background, calls meanwhile",
        TransportKind::Stdio,
        vec![
            listen,
            call("test_simple_text", Some(json!({"logLevel": "info"}))),
            Step::Wait { ms: 700 },
            call("test_trigger_prompt_change", None),
            Step::Wait { ms: 300 },
        ],
    );
    let log = ScriptedNotice {
        message: json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "logger": "reference", "data": "test_simple_text started"}}),
        after: Some(methods::TOOLS_CALL.into()),
        violation: None,
        note: crate::note!(
            "scenario.scripted.log_tied",
            "The set-up ties a log message to the call: it asked for level info, so the server may tell it how the work goes before the result."
        ),
        rules: vec!["M-LOG-LEVEL".into()],
    };
    s.server_events = vec![
        at(0, ServerEvent::Notify(log)),
        at(400, ServerEvent::ToolsChanged),
        at(
            500,
            ServerEvent::Changed {
                change: ServerTrigger::ResourceUpdated {
                    uri: "test://watched-resource".into(),
                },
            },
        ),
    ];
    s
}

/// A server scripted to answer wrongly: a result without resultType, a
/// code 2026-07-28 retired, and a log message no request asked for.
fn wrong_replies() -> Setup {
    let mut s = lane(
        "a server scripted to answer wrongly",
        TransportKind::Http,
        vec![
            call("test_simple_text", None),
            Step::Request {
                method: methods::RESOURCES_READ.into(),
                params: json!({"uri": "test://missing"}),
                declare: None,
                version: None,
                retry_on_missing_capability: true,
                follow_cursor: false,
                background: false,
            },
            Step::Wait { ms: 300 },
            call("test_simple_text", None),
        ],
    );
    let no_result_type = ScriptedReply {
        method: methods::TOOLS_CALL.into(),
        tool: Some("test_simple_text".into()),
        reply: json!({"jsonrpc": "2.0", "result": {"content": [{"type": "text", "text": "Done."}]}}),
        status: None,
        violation: crate::note!(
            "scenario.scripted.no_result_type",
            "a 2026-07-28 result without resultType"
        ),
        note: crate::note!(
            "scenario.scripted.no_result_type_note",
            "The client treats a result without resultType as complete, as it would an older server's."
        ),
        rules: vec!["M-RESULT-TYPE".into()],
    };
    let retired_code = ScriptedReply {
        method: methods::RESOURCES_READ.into(),
        tool: None,
        reply: json!({"jsonrpc": "2.0", "error": {"code": -32002, "message": "Resource not found"}}),
        status: None,
        violation: crate::note!(
            "scenario.scripted.retired_code",
            "-32002 for an unknown resource, a code 2026-07-28 never emits (it answers -32602 with data.uri)"
        ),
        note: crate::note::Note::default(),
        rules: vec!["RPC-CODES".into(), "M-RESOURCES".into()],
    };
    let unasked_log = ScriptedNotice {
        message: json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "debug", "data": "cache warmed"}}),
        after: None,
        violation: Some(crate::note!(
            "scenario.scripted.unasked_log",
            "a log message that no request asked for (no logLevel in its _meta)"
        )),
        note: crate::note!(
            "scenario.scripted.unasked_log_note",
            "The set-up schedules a log message at 200 ms that nobody asked for; the client has no request to tie it to."
        ),
        rules: vec!["M-LOG-LEVEL".into()],
    };
    s.server_events = vec![
        at(0, ServerEvent::Reply(no_result_type)),
        at(0, ServerEvent::Reply(retired_code)),
        at(200, ServerEvent::Notify(unasked_log)),
    ];
    s
}

/// Scenario 22's two set-ups.
pub(super) fn setups() -> Vec<Setup> {
    vec![background_listen(), wrong_replies()]
}

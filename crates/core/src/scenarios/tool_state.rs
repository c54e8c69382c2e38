//! The set-ups of scenario 23: tools that remember their earlier calls.
//! A search limited to two calls a second, a file reader whose misuse
//! quarantines every tool, and an export started with one call and polled
//! with its handle until its virtual time has passed.

use serde_json::json;

use crate::client::presets as clients;
use crate::client::Step;
use crate::protocol::Implementation;
use crate::server::{
    Quarantine, QuarantineScope, RateLimit, Returns, ServerConfig, ToolSpec, ToolState, Uses,
};
use crate::sim::Setup;
use crate::transport::{ChannelConfig, TransportKind};

/// A tool with one string argument (or none) and this result.
fn tool(name: &str, description: &str, argument: Option<&str>, result: &str) -> ToolSpec {
    let input_schema = match argument {
        Some(a) => {
            json!({"type": "object", "properties": {a: {"type": "string"}}, "required": [a]})
        }
        None => json!({"type": "object", "properties": {}}),
    };
    ToolSpec {
        name: name.into(),
        description: description.into(),
        input_schema,
        result_text: result.into(),
        ..Default::default()
    }
}

/// The `workspace` server: its tools keep state between calls.
pub(crate) fn workspace() -> ServerConfig {
    let mut cfg = ServerConfig::new("workspace", Implementation::new("workspace", "1.0.0"));
    cfg.capabilities.tools = Some(Default::default());
    let mut search = tool(
        "search",
        "Search the workspace's files.",
        Some("q"),
        "3 files match {q}.",
    );
    search.state.rate_limit = Some(RateLimit {
        calls: 2,
        window_ms: 1000,
    });
    let mut read = tool(
        "read_file",
        "Read a file of the workspace.",
        Some("path"),
        "Contents of {path}.",
    );
    read.state.quarantine = Some(Quarantine {
        when: json!({"path": "/etc/shadow"}),
        violation: "reading {path}, outside the workspace".into(),
        scope: QuarantineScope::All,
    });
    let mut start = tool(
        "start_export",
        "Export the workspace; answers a job handle.",
        None,
        "Export started: {handle}.",
    );
    start.state.returns = Some(Returns {
        handle: "job".into(),
        runs_ms: Some(2000),
    });
    let mut status = tool(
        "export_status",
        "How an export job goes.",
        Some("job"),
        "{job}: done, 42 files exported.",
    );
    status.state = ToolState {
        uses: Some(Uses {
            handle: "job".into(),
            argument: "job".into(),
            while_running: Some("{job}: still running.".into()),
        }),
        ..Default::default()
    };
    cfg.tools = vec![search, read, start, status];
    cfg
}

fn lane(label: &str, kind: TransportKind, script: Vec<Step>) -> Setup {
    Setup {
        label: label.into(),
        client: clients::plain(),
        server: workspace(),
        channel: ChannelConfig::new(kind),
        script,
        server_events: Vec::new(),
        auth: None,
        gateway: None,
    }
}

/// Scenario 23's two set-ups.
pub(super) fn setups() -> Vec<Setup> {
    let search = |q: &str| Step::call_tool("search", json!({"q": q}));
    let read = |path: &str| Step::call_tool("read_file", json!({"path": path}));
    let status = |job: &str| Step::call_tool("export_status", json!({"job": job}));
    vec![
        lane(
            "a rate limit, then a quarantine",
            TransportKind::Stdio,
            vec![
                search("todo"),
                search("fixme"),
                search("hack"),
                Step::Wait { ms: 1000 },
                search("hack"),
                read("notes.txt"),
                read("/etc/shadow"),
                search("todo"),
            ],
        ),
        lane(
            "a job started and polled",
            TransportKind::Http,
            vec![
                Step::call_tool("start_export", json!({})),
                status("job-7"),
                status("job-1"),
                Step::Wait { ms: 1000 },
                status("job-1"),
                Step::Wait { ms: 1000 },
                status("job-1"),
            ],
        ),
    ]
}

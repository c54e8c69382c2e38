//! The bodies of the fuzz targets, one function per parser of untrusted
//! input. Each takes arbitrary bytes and must return without panicking or
//! hanging. The targets in `fuzz/fuzz_targets/` call them under libFuzzer
//! (`fuzz/src/lib.rs` includes this file); the regression test
//! `crates/cli/tests/fuzz_regressions.rs` calls them on every committed
//! reproducer and seed, on stable.
//!
//! To add a target: a function here, its name in [`TARGETS`] and in
//! [`run`], a three-line file in `fuzz/fuzz_targets/`, a `[[bin]]` in
//! `fuzz/Cargo.toml`, a seed folder `fuzz/seeds/NAME/`, and its name in
//! `scripts/fuzz.sh`.

use mcp_lanes_core::protocol::jsonrpc::Envelope;
use mcp_lanes_core::server::{presets, ConnId, Server};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::HttpRequest;
use mcp_lanes_core::{editor, share};
use serde_json::Value;

/// Every target, by name.
pub const TARGETS: &[&str] = &[
    "jsonrpc_classify",
    "server_text",
    "server_http",
    "share_decode",
    "editor_lint",
    "cli_request",
    "cli_connection",
    "scenario_file",
    "timeline_file",
    "import_file",
    "skill_file",
];

/// Runs target `name` on `data`; `false` if there is no such target.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "jsonrpc_classify" => jsonrpc_classify(data),
        "server_text" => server_text(data),
        "server_http" => server_http(data),
        "share_decode" => share_decode(data),
        "editor_lint" => editor_lint(data),
        "cli_request" => cli_request(data),
        "cli_connection" => cli_connection(data),
        "scenario_file" => scenario_file(data),
        "timeline_file" => timeline_file(data),
        "import_file" => import_file(data),
        "skill_file" => skill_file(data),
        _ => return false,
    }
    true
}

/// The server presets, picked by a byte.
const PRESETS: &[&str] = &[
    "deploy-console",
    "order-desk",
    "notes",
    "search-index",
    "dual-era",
    "reference",
];

/// A preset's server, picked by `pick`.
fn server(pick: u8) -> Option<Server> {
    let id = PRESETS[usize::from(pick) % PRESETS.len()];
    presets::server(id).map(Server::new)
}

/// JSON-RPC classification: any JSON value is a request, notification,
/// result, error, or invalid with a reason.
pub fn jsonrpc_classify(data: &[u8]) {
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        let _ = Envelope::classify(&value);
    }
}

/// The server's text entry: the first byte picks a preset, the rest is
/// split at newlines into messages handed to one connection in turn, with
/// every output polled; then the connection closes.
pub fn server_text(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(mut server) = server(pick) else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let conn = ConnId::stdio();
    for (now, line) in text.split('\n').enumerate() {
        let _ = server.handle_text(SimTime::from_millis(now as u64), &conn, line);
        while server.poll_output().is_some() {}
    }
    server.handle_disconnect(SimTime::ZERO, &conn);
    while server.poll_output().is_some() {}
}

/// The server's HTTP entry: the first byte picks a preset; the rest is a
/// sequence of requests separated by a NUL byte, each `METHOD PATH`,
/// header lines `Name: value`, an empty line and the body. Requests go to
/// one server in turn, so a session minted by one is used by the next.
pub fn server_http(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(mut server) = server(pick) else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    for (now, raw) in text.split('\0').enumerate() {
        let (head, body) = raw.split_once("\n\n").unwrap_or((raw, ""));
        let mut lines = head.lines();
        let first = lines.next().unwrap_or("");
        let (method, path) = first.split_once(' ').unwrap_or((first, "/mcp"));
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let request = HttpRequest {
            method: method.to_string(),
            path: path.to_string(),
            headers,
            body: body.to_string(),
        };
        let _ = server.handle_http(SimTime::from_millis(now as u64), &request);
        while server.poll_output().is_some() {}
    }
}

/// The permalink decoders (current and older formats); a state that
/// decodes is also expanded into set-ups and encoded again.
pub fn share_decode(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(state) = share::from_fragment(&text) {
        let _ = share::setups(&state);
        let _ = share::to_fragment(&state);
    }
    if let Ok(state) = share::decode(&text) {
        let _ = share::setups(&state);
    }
}

/// The editor's lint, for both eras, and the edits built on its parse.
pub fn editor_lint(data: &[u8]) {
    use mcp_lanes_core::protocol::version::EraMode;
    let text = String::from_utf8_lossy(data);
    let lint = editor::lint(&text);
    let _ = lint.refusal();
    let _ = editor::lint_for(&text, EraMode::LegacyOnly);
    let _ = editor::declared(&text);
    let _ = editor::headers_for(&text);
    let _ = editor::set_version(&text, "2025-11-25");
}

/// The CLI's conversion of an `http` request head and body into the
/// core's request, and one answer through the CLI's server pool.
pub fn cli_request(data: &[u8]) {
    mcp_lanes_cli::http::fuzzing::request(data);
}

/// A whole HTTP/1.1 connection to the CLI's server (hyper, the limits and
/// the service) fed `data` as the client's bytes, in memory.
pub fn cli_connection(data: &[u8]) {
    mcp_lanes_cli::http::fuzzing::connection(data);
}

/// The scenario-file loader (size, depth, JSON, then every field), and for
/// a file it accepts, the writer: what [`file::export`] writes from the
/// loaded set-ups must load again (the page's "save as file" feeds the
/// loader).
pub fn scenario_file(data: &[u8]) {
    use mcp_lanes_core::scenarios::file;
    let text = String::from_utf8_lossy(data);
    let Ok(loaded) = file::load(&text) else {
        return;
    };
    let written = file::export(&loaded.id, &loaded.title, &loaded.summary, &loaded.setups);
    if let Err(errors) = file::load_value(&written) {
        // Deliberate: a fuzz target reports a bug by panicking (libFuzzer
        // keeps the input); this code runs only under the fuzzer and the
        // regression tests, never in the page or the CLI.
        panic!("the writer wrote a file the loader refuses: {errors:?}\n{written}");
    }
}

/// The recorded-timeline loaders the page and `check` read (a `check --out`
/// report, or `client --out` timelines), then the grader on what they read;
/// a report that loads is written back and must load again.
pub fn timeline_file(data: &[u8]) {
    use mcp_lanes_core::check::{self, Report};
    use mcp_lanes_core::sim::Timeline;
    let text = String::from_utf8_lossy(data);
    if let Some(report) = Report::from_json(&text) {
        let _ = check::grade(&report.timeline);
        let written = report.to_json();
        if Report::from_json(&written).is_none() {
            // Deliberate, as in `scenario_file`: the fuzzer's bug report.
            panic!("a report that loaded does not load again once written:\n{written}");
        }
    }
    if let Some(timelines) = Timeline::from_json(&text) {
        for timeline in &timelines {
            let _ = check::grade(timeline);
        }
    }
}

/// The importer of recorded conversations (transcripts, `run --format
/// json` documents, HAR captures, timelines, reports), then the grader of
/// recordings on every lane and the report of them all; a lane written
/// back as a transcript must read again.
pub fn import_file(data: &[u8]) {
    use mcp_lanes_core::{check, import, transcript};
    let text = String::from_utf8_lossy(data);
    let Ok(imported) = import::read("fuzz.json", &text) else {
        return;
    };
    for lane in &imported.lanes {
        let _ = check::grade_recorded(lane);
        let written = transcript::transcript(lane).to_string();
        if lane.messages().next().is_some() && import::read("again.json", &written).is_err() {
            // Deliberate, as in `scenario_file`: the fuzzer's bug report.
            panic!("a lane written as a transcript does not read again:\n{written}");
        }
    }
    let _ = imported.report("fuzz.json").to_json();
}

/// A skill file as a server may serve it (the skills extension): checked
/// for size and digest against an entry, and as a `SKILL.md`: its
/// frontmatter block found, read by the CLI's YAML reader and compared
/// field by field with an entry's frontmatter.
pub fn skill_file(data: &[u8]) {
    use mcp_lanes_core::client::skill_verify::{self, SkillFile};
    let file = SkillFile {
        uri: "skill://fuzz/SKILL.md".into(),
        digest: skill_verify::sha256_digest(b"---\nname: fuzz\n---\n"),
        size: 19,
    };
    let _ = skill_verify::verify_bytes(&file, data);
    let entry = serde_json::json!({"name": "fuzz", "description": "a skill", "metadata": {"n": 1}});
    let entry = entry.as_object().cloned().unwrap_or_default();
    let checked =
        skill_verify::verify_frontmatter(&entry, data, Some(mcp_lanes_cli::frontmatter::read));
    if let Err(mismatch) = checked {
        let _ = mismatch.note(&file.uri);
    }
}

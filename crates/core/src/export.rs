//! Exports of a run: a Mermaid `sequenceDiagram`, and curl commands that
//! replay a Streamable HTTP run against `mcp-lanes serve --transport http`.
//! (The transcript JSON export is [`crate::transcript`].)

use crate::sim::{Actor, EventKind, MessageKind, Side, Timeline};

/// Text safe inside a Mermaid message or note: one line, no `;` or `#`
/// (Mermaid's statement separator and entity prefix) and no arrows.
fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => out.push_str("#35;"),
            ';' => out.push_str("#59;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    if out.chars().count() > 120 {
        out = out.chars().take(117).collect::<String>() + "...";
    }
    out
}

/// A Mermaid sequence diagram of one set-up: every participant (the
/// client and the server, and any other actor of the run), every message as
/// an arrow between its two actors (dashed for responses, crossed for
/// messages that never arrived) and the other events as notes over the
/// actor they concern.
pub fn mermaid(timeline: &Timeline) -> String {
    let mut out = String::from("sequenceDiagram\n");
    let columns = timeline.columns();
    for actor in &columns {
        let label = match actor {
            Actor::Client => mermaid_text(&timeline.client_label),
            Actor::Server => mermaid_text(&timeline.server_label),
            Actor::Gateway => "gateway".to_string(),
            Actor::AuthServer => "authorization server".to_string(),
        };
        out.push_str(&format!(
            "    participant {} as {label}\n",
            actor_letter(*actor)
        ));
    }
    out.push_str(&format!(
        "    Note over {},{}: {} ({})\n",
        actor_letter(columns[0]),
        actor_letter(columns[columns.len() - 1]),
        mermaid_text(&timeline.label),
        timeline.transport.name()
    ));
    for event in &timeline.events {
        let at = format!("t={} ms", event.at_ms);
        match &event.kind {
            EventKind::Message(m) => {
                let (from, to) = m.ends();
                let (from, to) = (actor_letter(from), actor_letter(to));
                let arrow = match (m.delivered_at_ms, m.kind) {
                    (None, _) => "-x",
                    (_, MessageKind::Result | MessageKind::Error) => "-->>",
                    (_, MessageKind::Other) if m.from == Side::Server => "-->>",
                    _ => "->>",
                };
                let id = m
                    .json
                    .as_ref()
                    .and_then(|v| v.get("id"))
                    .map(|id| format!(" (id {id})"))
                    .unwrap_or_default();
                let violation = if m.violation.is_some() {
                    " [deliberately broken]"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "    {from}{arrow}{to}: {}{}{violation}\n",
                    mermaid_text(&m.label),
                    mermaid_text(&id)
                ));
            }
            other => {
                let (over, what) = match other {
                    EventKind::Timeout { side, request_id } => (
                        side_letter(*side),
                        format!("timeout waiting for id {request_id}"),
                    ),
                    EventKind::Dropped { side, what } => {
                        (side_letter(*side), format!("silently dropped {what}"))
                    }
                    EventKind::Disconnected { side } => {
                        (side_letter(*side), "closes the connection".to_string())
                    }
                    EventKind::CacheHit { key } => ("C", format!("cache hit: {key}")),
                    EventKind::CacheMiss { key } => ("C", format!("cache miss: {key}")),
                    EventKind::CacheExpired { key } => ("C", format!("cache expired: {key}")),
                    EventKind::CacheStored { key, ttl_ms } => {
                        ("C", format!("cached {key} for {ttl_ms} ms"))
                    }
                    EventKind::LockTaken { name } => ("S", format!("takes {name}")),
                    EventKind::LockReleased { name } => ("S", format!("releases {name}")),
                    EventKind::HostKill => ("C", "host kills the run".to_string()),
                    EventKind::Decision { .. } | EventKind::Message(_) => continue,
                };
                let over = event.actor.map_or(over, actor_letter);
                out.push_str(&format!(
                    "    Note over {over}: {} ({at})\n",
                    mermaid_text(&what)
                ));
            }
        }
    }
    if timeline.summary.leaked_locks > 0 {
        out.push_str(&format!(
            "    Note over S: {} never released\n",
            crate::server::count(timeline.summary.leaked_locks as usize, "lock")
        ));
    }
    out
}

fn side_letter(side: Side) -> &'static str {
    actor_letter(Actor::of(side))
}

/// A participant's name in the diagram.
fn actor_letter(actor: Actor) -> &'static str {
    match actor {
        Actor::Client => "C",
        Actor::Gateway => "G",
        Actor::Server => "S",
        Actor::AuthServer => "A",
    }
}

/// Quotes a string for a POSIX shell (single quotes).
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// curl commands replaying the client's HTTP requests of a run, in order,
/// against `base_url` (e.g. `http://127.0.0.1:8931/mcp`). Returns `None`
/// for a stdio run. Each command prints the status line and the body.
///
/// A real server draws its own legacy session ids (L-SESSION-ID), so a run
/// with sessions does not replay the simulated ones: each command saves the
/// response's headers, the id the server minted is read from them into a
/// shell variable, and later requests send that variable instead.
pub fn curl(timeline: &Timeline, base_url: &str) -> Option<String> {
    use crate::transport::http::SESSION_HEADER;
    if timeline.transport != crate::transport::TransportKind::Http {
        return None;
    }
    let has_sessions = timeline.messages().any(|(_, m)| {
        m.http
            .as_ref()
            .is_some_and(|h| crate::transport::http::header(&h.headers, SESSION_HEADER).is_some())
    });
    let mut out = String::from("#!/bin/sh\n");
    out.push_str(&format!(
        "# {} — replay against: mcp-lanes serve --transport http --port PORT --preset PRESET\n",
        timeline.label.replace('\n', " ")
    ));
    if has_sessions {
        out.push_str("# The server mints its own session ids: each is read from the headers of the response that carried it.\nHEADERS=$(mktemp)\n");
    }
    // Simulated session ids seen so far, and their shell variables.
    let mut sessions: Vec<String> = Vec::new();
    let variable = |i: usize| format!("SESSION_{}", i + 1);
    for (_, m) in timeline.messages() {
        let Some(http) = &m.http else { continue };
        // Replayed against the server: only what reached it or came from
        // it (through a gateway, the gateway's hops to and from it).
        let (from, to) = m.ends();
        if from != Actor::Server && to != Actor::Server {
            continue;
        }
        if m.from == Side::Server {
            let minted = crate::transport::http::header(&http.headers, SESSION_HEADER);
            if let (Some(id), Some(_)) = (minted, http.status) {
                if !sessions.iter().any(|s| s == id) {
                    sessions.push(id.to_string());
                    out.push_str(&format!(
                        "{}=$(sed -n 's/^[Mm][Cc][Pp]-[Ss][Ee][Ss][Ss][Ii][Oo][Nn]-[Ii][Dd]: *//p' \"$HEADERS\" | tr -d '\\r')\n",
                        variable(sessions.len() - 1)
                    ));
                }
            }
            continue;
        }
        let mut cmd = format!(
            "curl -sS -w '\\nHTTP %{{http_code}}\\n' -X {} {}",
            http.method.as_deref().unwrap_or("POST"),
            shell_quote(base_url)
        );
        if has_sessions {
            cmd.push_str(" -D \"$HEADERS\"");
        }
        for (name, value) in &http.headers {
            let known = sessions.iter().position(|s| s == value);
            match known {
                Some(i) if name.eq_ignore_ascii_case(SESSION_HEADER) => {
                    cmd.push_str(&format!(" \\\n  -H \"{name}: ${}\"", variable(i)));
                }
                _ => cmd.push_str(&format!(
                    " \\\n  -H {}",
                    shell_quote(&format!("{name}: {value}"))
                )),
            }
        }
        cmd.push_str(&format!(" \\\n  --data-raw {}\n", shell_quote(&m.wire)));
        out.push_str(&format!("# {}\n{cmd}", m.label.replace('\n', " ")));
    }
    if has_sessions {
        out.push_str("rm -f \"$HEADERS\"\n");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mermaid_has_an_arrow_per_message_and_survives_hostile_labels() {
        let timelines = crate::scenarios::run("elicitation-unchecked").unwrap_or_default();
        let drop = &timelines[1];
        let diagram = mermaid(drop);
        assert!(diagram.starts_with("sequenceDiagram\n"));
        assert_eq!(
            diagram.matches("->>").count() + diagram.matches("-x").count(),
            drop.messages().count()
        );
        assert!(diagram.contains("never released"));
        assert_eq!(mermaid_text("a;b#c\nd"), "a#59;b#35;c d");
    }

    #[test]
    fn curl_replays_every_client_post_with_its_headers() {
        let timelines = crate::scenarios::run("http-header-mismatch").unwrap_or_default();
        let script = curl(&timelines[0], "http://127.0.0.1:1/mcp").unwrap_or_default();
        assert!(script.contains("-H 'MCP-Protocol-Version: 2025-11-25'"));
        assert!(script.contains("--data-raw '{\"jsonrpc\":\"2.0\""));
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert!(
            !script.contains("HEADERS"),
            "no sessions, no header capture"
        );
        let legacy = crate::scenarios::run("era-probe-http").unwrap_or_default();
        let with_session = legacy
            .iter()
            .filter_map(|t| curl(t, "http://127.0.0.1:1/mcp"))
            .find(|s| s.contains("SESSION_1="))
            .unwrap_or_default();
        assert!(
            with_session.contains("-H \"Mcp-Session-Id: $SESSION_1\""),
            "{with_session}"
        );
        assert!(!with_session.contains("session-1"), "{with_session}");
        let stdio = crate::scenarios::run("discover").unwrap_or_default();
        assert!(curl(&stdio[0], "x").is_none());
    }
}

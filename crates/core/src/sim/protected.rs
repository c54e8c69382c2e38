//! [`run`]: a set-up's run, whether its server is protected or not. A
//! set-up whose server is an OAuth protected resource (`Setup::auth`) is,
//! over HTTP, the authorization flow between the client, the server (and
//! its gateway, the resource the client sees: G-AUTH-RESOURCE) and the
//! authorization server ([`super::auth_flow`]), met by the set-up's first
//! request; once the client holds a token that request passes with, the
//! set-up's script runs in the engine, every request with the token
//! (A-BEARER). Over stdio authorization does not apply (A-HTTP-ONLY): the
//! run is the plain one, ending with a note that says so.

use super::auth_flow::{self, FirstRequest, FlowSetup};
use super::{engine, EventKind, Setup, Side, SimTime, Timeline};
use crate::client::{Client, ClientAction};
use crate::rules;
use crate::transport::TransportKind;

/// Runs a set-up to completion and returns its timeline.
pub fn run(setup: &Setup) -> Timeline {
    let launched = launched_as(setup);
    let setup = launched.as_ref().unwrap_or(setup);
    let Some(protection) = &setup.auth else {
        return engine::run(setup);
    };
    if setup.channel.kind == TransportKind::Http {
        let (request, say) = first_request(setup);
        let drawn_with_gateway = setup.gateway.is_some() && request.is_some();
        let (mut t, bearer) = auth_flow::grant(&FlowSetup {
            label: setup.label.clone(),
            registration: protection.registration,
            step_up: protection.step_up.clone(),
            broken: protection.broken,
            gateway: drawn_with_gateway,
            request,
            user: setup.client.identity.as_ref().map(|i| i.principal.clone()),
        });
        if setup.gateway.is_some() && !drawn_with_gateway {
            // Not drawn rather than drawn wrong: with no request of the
            // set-up's, the flow makes its own call, without the gateway.
            let note = crate::note!(
                "gateway.not_with_auth",
                "This set-up also names a gateway, but its client sends no request: the authorization flow is drawn with a call of its own between the client, the server and the authorization server, and the gateway is left out of this run."
            );
            decide(&mut t, rules::G_FORWARD, note);
        }
        // The run is the set-up's, under its own names, and the author's
        // first `say` comes with the first thing it makes happen: the
        // request that meets the 401.
        t.client_label = setup.client.label();
        t.server_label = setup.server.label();
        let said = match (say, first_client_message(&t)) {
            (Some(say), Some(i)) => {
                t.events[i].narration = Some(say.clone());
                Some(say)
            }
            _ => None,
        };
        if let Some(bearer) = bearer {
            let offset = bearer.offset_ms;
            let mut after = engine::run_authorized(setup, bearer);
            if let Some(say) = &said {
                // Said once: not again with the retried request.
                if let Some(e) = after
                    .events
                    .iter_mut()
                    .find(|e| e.narration.as_ref() == Some(say))
                {
                    e.narration = None;
                }
            }
            go_on(&mut t, after, offset);
        }
        return t;
    }
    let mut t = engine::run(setup);
    let note = crate::note!(
        "auth.stdio_no_auth",
        "Authorization applies to HTTP only: over stdio the server takes its credentials from its environment, and nothing here answers 401."
    );
    decide(&mut t, rules::A_HTTP_ONLY, note);
    t
}

/// The first HTTP request the set-up's client sends: what meets the
/// server's (or the gateway's) 401, with the author's `say` for it.
/// `None` when it sends none.
fn first_request(setup: &Setup) -> (Option<FirstRequest>, Option<String>) {
    let mut client = Client::new(
        setup.client.clone(),
        setup.script.clone(),
        TransportKind::Http,
    );
    client.start(SimTime::ZERO);
    let mut say = None;
    while let Some(out) = client.poll_output() {
        say = say.or(out.narration);
        if let ClientAction::Send { http: Some(r), .. } = out.action {
            let request = FirstRequest {
                method: r.method,
                path: r.path,
                headers: r.headers,
                body: r.body,
            };
            return (Some(request), say);
        }
    }
    (None, None)
}

/// The index of the first message the client sent in `t`.
fn first_client_message(t: &Timeline) -> Option<usize> {
    t.events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::Message(m) if m.from == Side::Client))
}

/// The engine's run `after`, which starts at `offset_ms` of the flow `t`,
/// appended to it: its events, its set-up's labels and its outcome.
fn go_on(t: &mut Timeline, after: Timeline, offset_ms: u64) {
    let first = t.events.len();
    for mut e in after.events {
        e.index += first;
        e.at_ms += offset_ms;
        if let EventKind::Message(m) = &mut e.kind {
            m.delivered_at_ms = m.delivered_at_ms.map(|d| d + offset_ms);
        }
        t.events.push(e);
    }
    t.client_label = after.client_label;
    t.server_label = after.server_label;
    t.summary = after.summary;
    t.summary.ended_at_ms = t
        .events
        .last()
        .map_or(offset_ms, |e| e.at_ms.max(offset_ms));
}

/// Adds a server's decision at the end of a run.
fn decide(t: &mut Timeline, rule: rules::RuleId, note: crate::note::Note) {
    let (note, note_msg) = note.into_parts();
    t.events.push(super::Event {
        index: t.events.len(),
        at_ms: t.summary.ended_at_ms,
        kind: EventKind::Decision { side: Side::Server },
        rules: vec![rule],
        note,
        note_msg,
        narration: None,
        actor: None,
    });
}

/// Over stdio, a server with a policy knows its caller by how the host
/// launched it (A-HTTP-ONLY): the set-up with the client's principal as the
/// server's `launchedAs`, or `None` when nothing changes.
fn launched_as(setup: &Setup) -> Option<Setup> {
    if setup.channel.kind != TransportKind::Stdio {
        return None;
    }
    let principal = setup.client.identity.as_ref()?.principal.clone();
    let mut setup = setup.clone();
    let policy = setup.server.policy.as_mut()?;
    policy.launched_as.get_or_insert(principal);
    Some(setup)
}

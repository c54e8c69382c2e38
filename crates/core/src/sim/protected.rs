//! [`run`]: a set-up's run, whether its server is protected or not. A
//! set-up whose server is an OAuth protected resource (`Setup::auth`) is,
//! over HTTP, the whole authorization flow between three actors
//! ([`super::auth_flow`]); over stdio authorization does not apply
//! (A-HTTP-ONLY): the run is the plain one, ending with a note that says so.

use super::auth_flow::{self, FlowSetup};
use super::{engine, EventKind, Setup, Side, Timeline};
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
        let mut t = auth_flow::run(&FlowSetup {
            label: setup.label.clone(),
            registration: protection.registration,
            step_up: protection.step_up.clone(),
            broken: protection.broken,
        });
        if setup.gateway.is_some() {
            // Not drawn rather than drawn wrong: the flow has no gateway.
            let note = crate::note!(
                "gateway.not_with_auth",
                "This set-up also names a gateway, but the authorization flow is drawn between the client, the server and the authorization server alone: the gateway is left out of this run."
            );
            decide(&mut t, rules::G_FORWARD, note);
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

#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! `subscriptions/listen` (2026-07-28): long-lived notification streams.
//!
//! A listen request opens a stream; the server acknowledges it first
//! (M-LISTEN-ACK), tags every notification on it with the listen request's
//! id (M-LISTEN-TAG) and sends only the kinds the client asked for and the
//! server supports (M-LISTEN-FILTER). The stream *is* the subscription: the
//! server keeps nothing else about the client, and forgets the
//! subscription when the stream closes (HTTP) or is cancelled (stdio).
//!
//! On HTTP the listen POST's response is an SSE stream that stays open
//! ([`HttpResponse::stream`](crate::transport::http::HttpResponse::stream),
//! key `listen-N`): its listener's connection is
//! [`ConnId::HttpStream`], and its later notifications are outputs tagged
//! with an [`SseEvent`](super::SseEvent) naming the key, like every other
//! stream's (see `streams.rs`); the driver writes them to that response
//! and calls [`Server::stream_closed`] when the client goes away.

use serde_json::{json, Map, Value};

use super::{ConnId, OutputKind, Server, ServerTrigger, SessionState};
use crate::protocol::capabilities::ListCapability;
use crate::protocol::jsonrpc::{self, RequestId};
use crate::protocol::{meta, methods, ProtocolVersion};
use crate::rules;

/// What a listen stream asked for and the server agreed to send.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Filter {
    pub tools: bool,
    pub prompts: bool,
    pub resources: bool,
    pub uris: Vec<String>,
}

impl Filter {
    /// The `notifications` object of the acknowledgement.
    fn to_json(&self) -> Value {
        let mut out = Map::new();
        if self.tools {
            out.insert("toolsListChanged".into(), json!(true));
        }
        if self.prompts {
            out.insert("promptsListChanged".into(), json!(true));
        }
        if self.resources {
            out.insert("resourcesListChanged".into(), json!(true));
        }
        if !self.uris.is_empty() {
            out.insert("resourceSubscriptions".into(), json!(self.uris));
        }
        Value::Object(out)
    }

    fn wants(&self, change: &ServerTrigger) -> bool {
        match change {
            ServerTrigger::ToolsChanged => self.tools,
            ServerTrigger::PromptsChanged => self.prompts,
            ServerTrigger::ResourcesChanged => self.resources,
            ServerTrigger::ResourceUpdated { uri } => self.uris.iter().any(|u| u == uri),
        }
    }
}

/// An open listen stream.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Listener {
    /// Where its notifications go: its own HTTP stream, or the stdio
    /// connection it was opened on.
    pub conn: ConnId,
    /// The listen request's id: the subscription id.
    pub id: RequestId,
    pub filter: Filter,
}

/// The notification announcing `change`, and its params.
fn notification_of(change: &ServerTrigger) -> (&'static str, Map<String, Value>) {
    let mut params = Map::new();
    let method = match change {
        ServerTrigger::ToolsChanged => methods::TOOLS_LIST_CHANGED,
        ServerTrigger::PromptsChanged => methods::PROMPTS_LIST_CHANGED,
        ServerTrigger::ResourcesChanged => methods::RESOURCES_LIST_CHANGED,
        ServerTrigger::ResourceUpdated { uri } => {
            params.insert("uri".into(), json!(uri));
            methods::RESOURCES_UPDATED
        }
    };
    (method, params)
}

impl Server {
    /// Opens a listen stream for request `id` on `conn` (stdio) or, when
    /// `over_http`, on a new stream of its own. Sends the acknowledgement
    /// and returns the stream's key on HTTP.
    pub(crate) fn listen(
        &mut self,
        conn: &ConnId,
        id: &RequestId,
        params: &Value,
        over_http: bool,
    ) -> Option<String> {
        let asked = params.get("notifications");
        let flag =
            |key: &str| asked.and_then(|a| a.get(key)).and_then(Value::as_bool) == Some(true);
        let caps = &self.config.capabilities;
        let list_changed = ListCapability::announces_changes;
        let subscribe = caps
            .resources
            .as_ref()
            .and_then(|r| r.subscribe)
            .unwrap_or(false);
        let filter = Filter {
            tools: flag("toolsListChanged") && list_changed(&caps.tools),
            prompts: flag("promptsListChanged") && list_changed(&caps.prompts),
            resources: flag("resourcesListChanged") && list_changed(&caps.resources),
            uris: if subscribe {
                asked
                    .and_then(|a| a.get("resourceSubscriptions"))
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|u| u.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
        };
        let (conn, key) = if over_http {
            self.next_stream += 1;
            let key = format!("listen-{}", self.next_stream);
            (ConnId::http_stream(&key), Some(key))
        } else {
            (conn.clone(), None)
        };
        let ack = jsonrpc::notification(
            methods::SUBSCRIPTIONS_ACKNOWLEDGED,
            json!({"_meta": {meta::SUBSCRIPTION_ID: id.to_json()}, "notifications": filter.to_json()}),
        );
        let agreed = filter.to_json();
        self.note(&conn, OutputKind::Send { message: ack, revision: ProtocolVersion::modern(), violation: None },
            &[rules::M_LISTEN_ACK, rules::M_LISTEN_FILTER, rules::M_LISTEN_TAG],
            crate::note!("server.subscriptions.stream_open_acknowledgement_comes", "The stream is open: the acknowledgement comes first, tagged with subscription id {id}, and names what the server agreed to send ({agreed}); nothing else will be sent on it.", id = id, agreed = agreed));
        self.listeners.push(Listener {
            conn,
            id: id.clone(),
            filter,
        });
        key
    }

    /// Ends the listen subscription `id` on `conn` (stdio cancellation).
    pub(crate) fn stop_listening(&mut self, conn: &ConnId, id: &RequestId) -> bool {
        let before = self.listeners.len();
        self.listeners.retain(|l| !(l.conn == *conn && l.id == *id));
        before != self.listeners.len()
    }

    /// Announces `change` on this server: every listen stream that asked for
    /// it, and every legacy session that gets it (L-LIST-CHANGED, L-SUBSCRIBE).
    pub(crate) fn announce(&mut self, change: &ServerTrigger) {
        let (method, params) = notification_of(change);
        let listeners: Vec<Listener> = self
            .listeners
            .iter()
            .filter(|l| l.filter.wants(change))
            .cloned()
            .collect();
        if listeners.is_empty() && self.config.era.speaks_modern() {
            self.note(&ConnId::http(), OutputKind::Decision, &[rules::M_LISTEN_FILTER],
                crate::note!("server.subscriptions.server_has_news_but", "The server has news for {method}, but no open listen stream asked for it: nothing is sent, and nobody is remembered.", method = method));
        }
        for l in listeners {
            let mut params = params.clone();
            params.insert(
                "_meta".into(),
                json!({meta::SUBSCRIPTION_ID: l.id.to_json()}),
            );
            let message = jsonrpc::notification(method, Value::Object(params));
            self.note(&l.conn, OutputKind::Send { message, revision: ProtocolVersion::modern(), violation: None },
                &[rules::M_LISTEN_TAG, rules::M_LISTEN_FILTER],
                crate::note!("server.subscriptions.goes_stream_subscription_asked", "{method} goes to the stream of subscription {id} (it asked for it), tagged with its id.", method = method, id = l.id));
        }
        match change {
            ServerTrigger::ToolsChanged
            | ServerTrigger::PromptsChanged
            | ServerTrigger::ResourcesChanged => self.legacy_list_changed(change, method),
            ServerTrigger::ResourceUpdated { uri } => self.legacy_resource_updated(uri),
        }
    }

    /// Tools, prompts or resources changed: operating legacy sessions hear
    /// `method` if the server declared listChanged for that list.
    fn legacy_list_changed(&mut self, change: &ServerTrigger, method: &str) {
        let caps = &self.config.capabilities;
        let cap = match change {
            ServerTrigger::ToolsChanged => &caps.tools,
            ServerTrigger::PromptsChanged => &caps.prompts,
            _ => &caps.resources,
        };
        if !ListCapability::announces_changes(cap) {
            return;
        }
        let note = match change {
            ServerTrigger::ToolsChanged => crate::note!("server.subscriptions.server_declared_tools_listchanged", "The server declared tools.listChanged, so it announces the change: a hint to re-list, not a new list."),
            _ => crate::note!("server.subscriptions.server_declared_listchanged_session", "The server declared listChanged, so the session hears {method}: a hint to re-list.", method = method),
        };
        self.notify_legacy_sessions(
            |s| s.state == SessionState::Operating,
            method,
            Value::Null,
            rules::L_LIST_CHANGED,
            note,
        );
    }

    /// A resource changed: legacy sessions subscribed to it hear of it.
    fn legacy_resource_updated(&mut self, uri: &str) {
        self.notify_legacy_sessions(
            |s| s.subscribed.iter().any(|u| u == uri),
            methods::RESOURCES_UPDATED,
            json!({"uri": uri}),
            rules::L_SUBSCRIBE,
            crate::note!(
                "server.subscriptions.session_subscribed_hears_notifications",
                "The session subscribed to {uri}, so it hears notifications/resources/updated.",
                uri = uri
            ),
        );
    }
}

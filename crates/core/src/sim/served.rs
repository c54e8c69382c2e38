//! A set-up's scripted server events for a server that runs for real
//! (`mcp-lanes serve --file`): the same `reply` and `notify` events, and
//! the list changes, that the engine applies in virtual time, applied on
//! the caller's clock. Sans-IO: the caller says what time it is (ms since
//! the server started) and moves the bytes; this decides which request a
//! scripted reply answers and which notification is due.

use serde_json::Value;

use super::engine::ServerEvent;
use super::scripted::{request_of, ScriptedNotice, ScriptedReply};
use super::SimTime;
use crate::server::ServerTrigger;

/// What the server is scripted to do now.
#[derive(Debug, Clone, PartialEq)]
pub enum Due {
    /// Send this notification (the author's message, as written).
    Notify(Value),
    /// Apply this change to the server ([`crate::server::Server::trigger`]).
    Trigger(ServerTrigger),
}

/// A scripted reply that takes the place of the server's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Replaced {
    /// The reply's text, with the request's id.
    pub text: String,
    /// Its HTTP status.
    pub status: u16,
    /// Why it is wrong (the author's words, in English).
    pub violation: String,
}

/// The scripted events of one set-up, as a real server plays them.
#[derive(Debug, Clone, Default)]
pub struct ServedScript {
    /// Events not yet due, in time order.
    timed: Vec<(SimTime, ServerEvent)>,
    /// Replies armed, in the order they were armed.
    armed: Vec<ScriptedReply>,
    /// Notifications tied to a request's method, with their delay.
    tied: Vec<(u64, ScriptedNotice)>,
    /// Tied notifications whose request came: sent at their time.
    scheduled: Vec<(SimTime, Value)>,
}

impl ServedScript {
    /// The script of a set-up's `server_events`. An upgrade cannot happen
    /// to a real process and is left out.
    pub fn new(events: &[(SimTime, ServerEvent)]) -> Self {
        let mut script = ServedScript::default();
        for (at, ev) in events {
            match ev {
                ServerEvent::Notify(n) if n.after.is_some() => {
                    script.tied.push((at.as_millis(), n.clone()))
                }
                ServerEvent::Upgrade { .. } => {}
                other => script.timed.push((*at, other.clone())),
            }
        }
        script.timed.sort_by_key(|(at, _)| *at);
        script
    }

    /// Whether there is nothing scripted at all.
    pub fn is_empty(&self) -> bool {
        self.timed.is_empty()
            && self.armed.is_empty()
            && self.tied.is_empty()
            && self.scheduled.is_empty()
    }

    /// The next time something is due, if anything is waiting for a time.
    pub fn next_at(&self) -> Option<SimTime> {
        let timed = self.timed.first().map(|(at, _)| *at);
        let scheduled = self.scheduled.iter().map(|(at, _)| *at).min();
        [timed, scheduled].into_iter().flatten().min()
    }

    /// What is due at `now`, in order; replies due are armed.
    pub fn due(&mut self, now: SimTime) -> Vec<Due> {
        let mut out = Vec::new();
        while self.timed.first().is_some_and(|(at, _)| *at <= now) {
            let (_, ev) = self.timed.remove(0);
            match ev {
                ServerEvent::Reply(r) => self.armed.push(r),
                ServerEvent::Notify(n) => out.push(Due::Notify(n.message)),
                ServerEvent::ToolsChanged => out.push(Due::Trigger(ServerTrigger::ToolsChanged)),
                ServerEvent::Changed { change } => out.push(Due::Trigger(change)),
                ServerEvent::Upgrade { .. } => {}
            }
        }
        let (now_due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.scheduled)
            .into_iter()
            .partition(|(at, _)| *at <= now);
        self.scheduled = later;
        out.extend(now_due.into_iter().map(|(_, m)| Due::Notify(m)));
        out
    }

    /// A request's text reached the server at `now` (after [`Self::due`] for
    /// that time, which arms the replies due): notifications tied to
    /// its method are scheduled (those without delay are returned, to go
    /// before the answer), and a reply armed for it is returned to send in
    /// the server's place (the server must not see the request).
    pub fn request(&mut self, now: SimTime, text: &str) -> (Vec<Value>, Option<Replaced>) {
        let mut at_once = Vec::new();
        let Some((id, method, params)) = request_of(text) else {
            return (at_once, None);
        };
        let mut i = 0;
        while i < self.tied.len() {
            if self.tied[i].1.after.as_deref() == Some(method.as_str()) {
                let (delay, notice) = self.tied.remove(i);
                if delay == 0 {
                    at_once.push(notice.message);
                } else {
                    self.scheduled
                        .push((now.plus_millis(delay), notice.message));
                }
            } else {
                i += 1;
            }
        }
        let replaced = self
            .armed
            .iter()
            .position(|r| r.answers(&method, &params))
            .map(|pos| {
                let r = self.armed.remove(pos);
                Replaced {
                    text: r.text_for(&id),
                    status: r.status.unwrap_or(200),
                    violation: r.violation.text().to_string(),
                }
            });
        (at_once, replaced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reply() -> ScriptedReply {
        ScriptedReply {
            method: "tools/call".into(),
            tool: Some("stock".into()),
            reply: json!({"jsonrpc": "2.0", "result": {}}),
            status: Some(200),
            violation: "wrong".into(),
            note: Default::default(),
            rules: Vec::new(),
        }
    }

    fn notice(after: Option<&str>) -> ScriptedNotice {
        ScriptedNotice {
            message: json!({"jsonrpc": "2.0", "method": "notifications/message"}),
            after: after.map(str::to_string),
            violation: None,
            note: Default::default(),
            rules: Vec::new(),
        }
    }

    const CALL: &str =
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"stock"}}"#;

    #[test]
    fn a_reply_answers_once_from_its_time_and_notices_come_at_theirs() {
        let t = SimTime::from_millis;
        let mut script = ServedScript::new(&[
            (t(100), ServerEvent::Reply(reply())),
            (t(50), ServerEvent::Notify(notice(None))),
            (t(30), ServerEvent::Notify(notice(Some("tools/call")))),
            (t(0), ServerEvent::ToolsChanged),
        ]);
        assert_eq!(script.next_at(), Some(t(0)));
        assert_eq!(
            script.due(t(0)),
            vec![Due::Trigger(ServerTrigger::ToolsChanged)]
        );
        // Before its time the reply is not armed; the tied notice is scheduled.
        let (now, replaced) = script.request(t(10), CALL);
        assert!(now.is_empty() && replaced.is_none());
        assert_eq!(script.next_at(), Some(t(40)));
        assert_eq!(script.due(t(40)).len(), 1);
        assert_eq!(script.due(t(50)).len(), 1);
        assert!(script.due(t(100)).is_empty());
        let (_, replaced) = script.request(t(100), CALL);
        let replaced = replaced.expect("armed");
        assert!(replaced.text.contains("\"id\":7"), "{}", replaced.text);
        assert!(script.request(t(101), CALL).1.is_none(), "once");
        assert!(script.is_empty());
    }
}

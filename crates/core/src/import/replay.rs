//! A recorded conversation played back as the server that recorded it:
//! each request a client sends is matched with a recorded one (the same
//! method and params, else the first unused one with the same method), and
//! answered with what the server sent after it in the recording, up to the
//! client's next message, the answer's id set to the new request's. What
//! the recording does not hold is refused with an error that says so.
//! Sans-IO: `mcp-lanes tap --replay FILE` moves the lines (regression tests
//! of a client against a server's recorded behaviour).

use serde_json::{json, Value};

use crate::sim::{Side, Timeline};

/// The JSON-RPC code of a request the recording has no answer for
/// (-32603, internal error: the replay, not the protocol, falls short).
const NOT_RECORDED: i64 = -32603;

/// One client message of the recording and what the server sent after it.
#[derive(Debug, Clone)]
struct Turn {
    /// The client's message (request or notification).
    message: Value,
    /// What the server sent next: each message's JSON and exact wire text.
    replies: Vec<(Value, String)>,
    /// Played back already.
    used: bool,
}

/// A recording ready to answer a client.
#[derive(Debug, Clone)]
pub struct Replay {
    turns: Vec<Turn>,
    /// What the server sent before the client's first message.
    opening: Vec<(Value, String)>,
}

/// What the replay sends for one client message: wire lines, in order.
pub type Lines = Vec<String>;

impl Replay {
    /// The replay of the messages of `timelines` (every lane, in order).
    pub fn new(timelines: &[Timeline]) -> Replay {
        let mut turns: Vec<Turn> = Vec::new();
        let mut opening = Vec::new();
        for timeline in timelines {
            for (_, m) in timeline.messages() {
                let Some(json) = m.json.clone() else {
                    continue;
                };
                match (m.undecided.is_some(), m.from) {
                    (true, _) => {}
                    (false, Side::Client) => turns.push(Turn {
                        message: json,
                        replies: Vec::new(),
                        used: false,
                    }),
                    (false, Side::Server) => {
                        // A response goes with the request it answers (a
                        // client may send several before the first answer
                        // comes); anything else with the client's last
                        // message before it.
                        let answered = answers(&json)
                            .and_then(|id| turns.iter().rposition(|t| awaits(t, id)))
                            .or_else(|| turns.len().checked_sub(1));
                        match answered {
                            Some(at) => turns[at].replies.push((json, m.wire.clone())),
                            None => opening.push((json, m.wire.clone())),
                        }
                    }
                }
            }
        }
        Replay { turns, opening }
    }

    /// How many client messages the recording holds.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether the recording holds no client message.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// What the server sent before the client said anything.
    pub fn opening(&self) -> Lines {
        self.opening.iter().map(|(_, wire)| wire.clone()).collect()
    }

    /// The lines that answer `message`, a client's: the recorded replies of
    /// the matching turn (the answer to the recorded request carrying the
    /// new request's id), or an error for a request the recording does not
    /// hold; nothing for an unmatched notification or a response.
    pub fn answer(&mut self, message: &Value) -> Lines {
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id").filter(|id| !id.is_null());
        let Some(method) = method else {
            return Vec::new();
        };
        let same = |t: &Turn| t.message.get("method").and_then(Value::as_str) == Some(method);
        let params = message.get("params");
        let found = self
            .turns
            .iter()
            .position(|t| !t.used && same(t) && t.message.get("params") == params)
            .or_else(|| self.turns.iter().position(|t| !t.used && same(t)));
        let Some(at) = found else {
            return match id {
                Some(id) => vec![not_recorded(id, method)],
                None => Vec::new(),
            };
        };
        let turn = &mut self.turns[at];
        turn.used = true;
        let recorded_id = turn.message.get("id").cloned();
        turn.replies
            .iter()
            .map(|(json, wire)| {
                let answers = json.get("method").is_none()
                    && recorded_id.is_some()
                    && json.get("id") == recorded_id.as_ref();
                match (answers, id) {
                    (true, Some(new)) if Some(new) != recorded_id.as_ref() => {
                        let mut json = json.clone();
                        json["id"] = new.clone();
                        json.to_string()
                    }
                    _ => wire.clone(),
                }
            })
            .collect()
    }
}

/// The id a response answers (a message with an id and no method).
fn answers(json: &Value) -> Option<&Value> {
    json.get("id")
        .filter(|id| !id.is_null() && json.get("method").is_none())
}

/// Whether `turn` is a request with `id` that has no response yet.
fn awaits(turn: &Turn, id: &Value) -> bool {
    turn.message.get("method").is_some()
        && turn.message.get("id") == Some(id)
        && !turn.replies.iter().any(|(r, _)| answers(r) == Some(id))
}

/// The error for a request the recording has no answer for.
fn not_recorded(id: &Value, method: &str) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": NOT_RECORDED,
            "message": format!("not in the recording: no unanswered {method} request is left to replay"),
            "data": {"method": method},
        }
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay() -> Replay {
        let transcript = json!([
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}},
            {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "a", "arguments": {}}},
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}},
            {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "A"}]}},
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "b", "arguments": {}}},
            {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "B"}]}}
        ]);
        let imported =
            crate::import::read("t.json", &transcript.to_string()).expect("a transcript");
        Replay::new(&imported.lanes)
    }

    fn lines(out: &Lines) -> Vec<Value> {
        out.iter()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect()
    }

    #[test]
    fn rpc_id_a_replayed_answer_carries_the_new_requests_id() {
        let mut r = replay();
        assert_eq!(r.len(), 4);
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
        let out = r.answer(&init);
        assert_eq!(lines(&out)[0]["result"]["serverInfo"]["name"], "s");
        assert!(r
            .answer(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .is_empty());
        // Asked in the other order and with other ids: matched by params,
        // the log message that came before the answer comes again.
        let b = r.answer(&json!({"jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {"name": "b", "arguments": {}}}));
        assert_eq!(
            lines(&b),
            vec![
                json!({"jsonrpc": "2.0", "id": "x", "result": {"content": [{"type": "text", "text": "B"}]}})
            ]
        );
        let a = lines(&r.answer(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "a", "arguments": {}}})));
        assert_eq!(a.len(), 2);
        assert_eq!(a[0]["method"], "notifications/message");
        assert_eq!(a[1]["id"], 9);
        assert_eq!(a[1]["result"]["content"][0]["text"], "A");
        // Nothing left: the error says so, with the request's id.
        let more = lines(&r.answer(
            &json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "a"}}),
        ));
        assert_eq!(more[0]["id"], 10);
        assert_eq!(more[0]["error"]["code"], NOT_RECORDED);
    }

    #[test]
    fn rpc_id_answers_to_pipelined_requests_go_with_their_requests() {
        // Both requests sent before either answer came, answered out of order.
        let transcript = json!([
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"},
            {"jsonrpc": "2.0", "id": 2, "result": {"prompts": []}},
            {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}
        ]);
        let imported =
            crate::import::read("t.json", &transcript.to_string()).expect("a transcript");
        let mut r = Replay::new(&imported.lanes);
        let tools = lines(&r.answer(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})));
        assert_eq!(
            tools,
            vec![json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": []}})]
        );
        let prompts =
            lines(&r.answer(&json!({"jsonrpc": "2.0", "id": 8, "method": "prompts/list"})));
        assert_eq!(
            prompts,
            vec![json!({"jsonrpc": "2.0", "id": 8, "result": {"prompts": []}})]
        );
    }

    #[test]
    fn the_same_id_replays_the_recorded_bytes() {
        let mut r = replay();
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
        let out = r.answer(&init);
        assert_eq!(
            out[0],
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#
        );
        // What is not a request (a response, no method) gets nothing.
        assert!(r
            .answer(&json!({"jsonrpc": "2.0", "id": 5, "result": {}}))
            .is_empty());
    }
}

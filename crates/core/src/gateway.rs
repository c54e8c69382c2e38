//! A gateway between a client and a server, sans-IO: a server to the
//! client and a client to the server. It forwards each message on
//! (G-FORWARD), hides tools and prompts (G-FILTER) and renames the tools
//! it exposes (G-REWRITE), deciding from the message text alone and what
//! it remembers of the requests it forwarded. The engine
//! (`sim/engine/gateway.rs`) carries its decisions as messages of their
//! own hops: client to gateway, gateway to server and back.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::note::Note;
use crate::protocol::methods;
use crate::rules::{self, RuleId};

/// What a gateway does to what passes through it. A gateway with nothing
/// set forwards everything unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayConfig {
    /// Tools of the server the client never sees (server names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide: Vec<String>,
    /// Prompts of the server the client never sees.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide_prompts: Vec<String>,
    /// A prefix on every tool name the gateway exposes (`weather_`), taken
    /// off again when it forwards a call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
}

impl GatewayConfig {
    /// Whether it changes anything (a gateway that only forwards does not).
    pub fn rewrites(&self) -> bool {
        !self.hide.is_empty() || !self.hide_prompts.is_empty() || self.prefix.is_some()
    }
}

/// What the gateway does with one message.
#[derive(Debug, Clone, PartialEq)]
pub enum Passage {
    /// Send this text on to the other side (the same text when nothing
    /// changed).
    Forward {
        /// The text it sends on.
        text: String,
        /// Whether it differs from what arrived.
        rewritten: bool,
        /// Why.
        rules: Vec<RuleId>,
        /// What the learner reads.
        note: Note,
    },
    /// Answer the sender itself; nothing goes on.
    Answer {
        /// The answer's text.
        text: String,
        /// Why.
        rules: Vec<RuleId>,
        /// What the learner reads.
        note: Note,
    },
}

/// A gateway in a run: its configuration and the requests it forwarded
/// to the server and awaits answers to (id, method).
#[derive(Debug, Clone, Default)]
pub struct Gateway {
    config: GatewayConfig,
    asked: Vec<(Value, String)>,
}

impl Gateway {
    /// A gateway doing what `config` says.
    pub fn new(config: GatewayConfig) -> Gateway {
        Gateway {
            config,
            asked: Vec::new(),
        }
    }

    /// Its configuration.
    pub fn config(&self) -> &GatewayConfig {
        &self.config
    }

    /// A message from the client: forwarded to the server (a tool's name
    /// mapped back), or answered by the gateway itself (a hidden tool or
    /// prompt, a name it does not expose).
    pub fn from_client(&mut self, text: &str) -> Passage {
        let Some(mut message) = serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_object)
        else {
            return unchanged(text, true);
        };
        let (Some(method), Some(id)) = (
            message
                .get("method")
                .and_then(Value::as_str)
                .map(str::to_string),
            message.get("id").cloned(),
        ) else {
            return unchanged(text, true);
        };
        let name = message
            .pointer("/params/name")
            .and_then(Value::as_str)
            .map(str::to_string);
        match (method.as_str(), name) {
            (methods::TOOLS_CALL, Some(name)) => {
                let own = match &self.config.prefix {
                    Some(prefix) => match name.strip_prefix(prefix.as_str()) {
                        Some(own) => own.to_string(),
                        None => {
                            let note = crate::note!("gateway.refuse_unprefixed", "No tool the gateway exposes is called {name}: every one starts with {prefix}. The gateway answers -32602 itself, as for any unknown tool, and forwards nothing.", name = name, prefix = prefix);
                            return refusal(
                                &id,
                                "tool",
                                &name,
                                vec![rules::G_REWRITE, rules::M_UNKNOWN_TOOL],
                                note,
                            );
                        }
                    },
                    None => name.clone(),
                };
                if self.config.hide.contains(&own) {
                    let note = crate::note!("gateway.refuse_hidden_tool", "The gateway hides the tool {name}: it answers -32602 Unknown tool itself, as a server answers a tool it does not have, so the refusal does not reveal that the tool exists. The server never sees the call.", name = name);
                    return refusal(
                        &id,
                        "tool",
                        &name,
                        vec![rules::G_FILTER, rules::M_UNKNOWN_TOOL],
                        note,
                    );
                }
                self.asked.push((id, method.clone()));
                if own == name {
                    return unchanged(text, true);
                }
                message["params"]["name"] = Value::String(own.clone());
                Passage::Forward {
                    text: message.to_string(),
                    rewritten: true,
                    rules: vec![rules::G_REWRITE],
                    note: crate::note!("gateway.call_renamed", "The gateway exposes the server's tool {own} as {name}: it maps the name back and forwards the call to the server.", own = own, name = name),
                }
            }
            (methods::PROMPTS_GET, Some(name)) if self.config.hide_prompts.contains(&name) => {
                let note = crate::note!("gateway.refuse_hidden_prompt", "The gateway hides the prompt {name}: it answers -32602 itself, as a server answers a prompt it does not have, and the server never sees the request.", name = name);
                refusal(&id, "prompt", &name, vec![rules::G_FILTER], note)
            }
            _ => {
                self.asked.push((id, method));
                unchanged(text, true)
            }
        }
    }

    /// A message from the server, passed back to the client: the tool and
    /// prompt lists it answers filtered and renamed, anything else as it
    /// came.
    pub fn from_server(&mut self, text: &str) -> Passage {
        let Some(mut message) = serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_object)
        else {
            return unchanged(text, false);
        };
        if message.get("method").is_some() {
            return unchanged(text, false);
        }
        let Some(pos) = message
            .get("id")
            .and_then(|id| self.asked.iter().position(|(asked, _)| asked == id))
        else {
            return unchanged(text, false);
        };
        let (_, method) = self.asked.remove(pos);
        let (key, hidden, prefix) = match method.as_str() {
            methods::TOOLS_LIST => ("tools", &self.config.hide, self.config.prefix.as_deref()),
            methods::PROMPTS_LIST => ("prompts", &self.config.hide_prompts, None),
            _ => return unchanged(text, false),
        };
        let Some(list) = message
            .get_mut("result")
            .and_then(|r| r.get_mut(key))
            .and_then(Value::as_array_mut)
        else {
            return unchanged(text, false);
        };
        let before: Vec<String> = names(list);
        list.retain(|item| {
            !item
                .get("name")
                .and_then(Value::as_str)
                .is_some_and(|n| hidden.iter().any(|h| h == n))
        });
        let left_out: Vec<String> = before
            .iter()
            .filter(|n| hidden.contains(n))
            .cloned()
            .collect();
        if let Some(prefix) = prefix {
            for item in list.iter_mut() {
                if let Some(name) = item.get("name").and_then(Value::as_str) {
                    item["name"] = Value::String(format!("{prefix}{name}"));
                }
            }
        }
        if left_out.is_empty() && prefix.is_none() {
            return unchanged(text, false);
        }
        let shown = names(list).join(", ");
        let mut rules = Vec::new();
        if !left_out.is_empty() {
            rules.push(rules::G_FILTER);
        }
        if prefix.is_some() {
            rules.push(rules::G_REWRITE);
        }
        let note = if left_out.is_empty() {
            crate::note!("gateway.list_renamed", "The gateway renames what the {method} result lists before passing it back: the client sees {shown}.", method = method, shown = shown)
        } else {
            crate::note!("gateway.list_filtered", "The gateway rewrites the {method} result before passing it back: the client sees {shown}, and never {hidden}.", method = method, shown = shown, hidden = left_out.join(", "))
        };
        Passage::Forward {
            text: message.to_string(),
            rewritten: true,
            rules,
            note,
        }
    }
}

/// The names of a list's entries.
fn names(list: &[Value]) -> Vec<String> {
    list.iter()
        .filter_map(|item| item.get("name").and_then(Value::as_str))
        .map(str::to_string)
        .collect()
}

/// The text forwarded as it came (G-FORWARD): to the server, or back to
/// the client.
fn unchanged(text: &str, to_server: bool) -> Passage {
    let note = if to_server {
        crate::note!(
            "gateway.forwards",
            "The gateway forwards the message to the server unchanged."
        )
    } else {
        crate::note!(
            "gateway.passes_back",
            "The gateway passes the server's message back to the client unchanged."
        )
    };
    Passage::Forward {
        text: text.to_string(),
        rewritten: false,
        rules: vec![rules::G_FORWARD],
        note,
    }
}

/// The gateway's own answer to a request naming a tool or prompt it does
/// not expose: -32602, as a server answers an unknown name
/// (M-UNKNOWN-TOOL).
fn refusal(id: &Value, what: &str, name: &str, rules: Vec<RuleId>, note: Note) -> Passage {
    let message = match what {
        "tool" => format!("Unknown tool: {name}"),
        _ => format!("Unknown prompt: {name}"),
    };
    let answer = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": message}});
    Passage::Answer {
        text: answer.to_string(),
        rules,
        note,
    }
}

//! A scenario file's definitions as JSON: each object's keys in the order
//! the README documents them, numbers as an author writes them.

use serde_json::{Map, Value};

use super::read::{era_name, FORMAT, UNDECLARED};
use super::types::*;
use crate::protocol::{ClientCapabilities, ServerCapabilities};
use crate::server::{CacheScope, QuarantineScope, UnknownMethodPolicy};
use crate::transport::TransportKind;

/// An object built key by key, in the order written.
#[derive(Default)]
struct Obj(Map<String, Value>);

impl Obj {
    fn put(&mut self, key: &str, value: impl Into<Value>) -> &mut Self {
        self.0.insert(key.into(), value.into());
        self
    }
    fn opt<T: Into<Value>>(&mut self, key: &str, value: Option<T>) -> &mut Self {
        if let Some(v) = value {
            self.0.insert(key.into(), v.into());
        }
        self
    }
    fn done(&mut self) -> Value {
        Value::Object(std::mem::take(&mut self.0))
    }
}

fn strings(list: &[String]) -> Value {
    Value::from(list.to_vec())
}

/// A file as JSON, keys in the order the README documents them.
pub(super) fn to_value(file: &FileDef) -> Value {
    let mut o = Obj::default();
    o.put("format", FORMAT)
        .put("id", file.id.as_str())
        .put("title", file.title.as_str());
    if !file.summary.is_empty() {
        o.put("summary", file.summary.as_str());
    }
    if !file.servers.is_empty() {
        o.put(
            "servers",
            file.servers.iter().map(server_value).collect::<Vec<_>>(),
        );
    }
    if !file.clients.is_empty() {
        o.put(
            "clients",
            file.clients.iter().map(client_value).collect::<Vec<_>>(),
        );
    }
    o.put(
        "setups",
        file.setups.iter().map(setup_value).collect::<Vec<_>>(),
    );
    o.done()
}

/// The keys a server and a client have alike, in the README's order.
fn peer_value<C>(p: &PeerDef<C>, caps: impl Fn(&C) -> Value) -> Obj {
    let mut o = Obj::default();
    o.put("id", p.id.as_str())
        .opt("preset", p.preset.clone())
        .opt("name", p.name.clone())
        .opt("version", p.version.clone())
        .opt("era", p.era.map(era_name))
        .opt("modernVersions", p.modern_versions.as_deref().map(strings))
        .opt("legacyVersions", p.legacy_versions.as_deref().map(strings))
        .opt("capabilities", p.capabilities.as_ref().map(caps));
    o
}

fn server_value(s: &ServerDef) -> Value {
    let mut o = peer_value(&s.peer, ServerCapabilities::to_json);
    o.opt(
        "instructions",
        s.instructions
            .clone()
            .map(|i| i.map_or(Value::Null, Value::from)),
    );
    if s.ttl_ms.is_some() || s.cache_scope.is_some() {
        let mut c = Obj::default();
        c.opt("ttlMs", s.ttl_ms).opt(
            "scope",
            s.cache_scope.map(|scope| match scope {
                CacheScope::Public => "public",
                CacheScope::Private => "private",
            }),
        );
        o.put("cache", c.done());
    }
    o.opt(
        "tools",
        s.tools
            .as_ref()
            .map(|t| t.iter().map(tool_value).collect::<Vec<_>>()),
    )
    .opt(
        "resources",
        s.resources.as_ref().map(|r| {
            r.iter()
                .map(|r| {
                    Obj::default()
                        .put("uri", r.uri.as_str())
                        .opt("name", r.name.clone())
                        .opt("description", r.description.clone())
                        .opt("mimeType", r.mime_type.clone())
                        .opt("text", r.text.clone())
                        .done()
                })
                .collect::<Vec<_>>()
        }),
    )
    .opt(
        "resourceTemplates",
        s.resource_templates.as_ref().map(|list| {
            list.iter()
                .map(|t| {
                    Obj::default()
                        .put("uriTemplate", t.uri_template.as_str())
                        .put("name", t.name.as_str())
                        .put("description", t.description.as_str())
                        .put("mimeType", t.mime_type.as_str())
                        .put("text", t.text.as_str())
                        .done()
                })
                .collect::<Vec<_>>()
        }),
    )
    .opt(
        "prompts",
        s.prompts.as_ref().map(|p| {
            p.iter()
                .map(|p| {
                    let mut o = Obj::default();
                    o.put("name", p.name.as_str())
                        .opt("description", p.description.clone());
                    if !p.arguments.is_empty() {
                        let args: Vec<Value> = p
                            .arguments
                            .iter()
                            .map(|a| {
                                let mut arg = Obj::default();
                                arg.put("name", a.name.as_str());
                                if !a.description.is_empty() {
                                    arg.put("description", a.description.as_str());
                                }
                                if a.required {
                                    arg.put("required", true);
                                }
                                arg.done()
                            })
                            .collect();
                        o.put("arguments", args);
                    }
                    if !p.messages.is_empty() {
                        let messages: Vec<Value> = p
                            .messages
                            .iter()
                            .map(|m| {
                                serde_json::json!({
                                    "role": m.get("role").cloned().unwrap_or(Value::Null),
                                    "text": m.pointer("/content/text").cloned().unwrap_or(Value::Null),
                                })
                            })
                            .collect();
                        o.put("messages", messages);
                    }
                    o.done()
                })
                .collect::<Vec<_>>()
        }),
    )
    .opt(
        "checksCapabilityBeforeWork",
        s.checks_capability_before_work,
    )
    .opt(
        "unknownMethods",
        s.unknown_methods.map(|p| match p {
            UnknownMethodPolicy::Answer => "answer",
            UnknownMethodPolicy::Silent => "silent",
        }),
    )
    .opt("firstRequestId", s.first_request_id)
    .opt("pageSize", s.page_size)
    .opt("policy", s.policy.as_ref().map(policy_value))
    .done()
}

fn tool_value(t: &ToolDef) -> Value {
    Obj::default()
        .put("name", t.name.as_str())
        .opt("description", t.description.clone())
        .opt("title", t.shown.get("title").cloned())
        .opt("inputSchema", t.input_schema.clone())
        .opt(
            "requires",
            t.requires.as_ref().map(ClientCapabilities::to_json),
        )
        .opt(
            "asks",
            t.asks.as_ref().map(|q| {
                Obj::default()
                    .put("message", q.message.as_str())
                    .put("requestedSchema", q.requested_schema.clone())
                    .opt("url", q.url.clone())
                    .opt("argument", q.argument.clone())
                    .opt("fallbackError", q.fallback_error.clone())
                    .done()
            }),
        )
        .opt("refusalMessage", t.refusal_message.clone())
        .opt("sideEffect", t.side_effect.clone())
        .opt("result", t.result.clone())
        .opt(
            "errors",
            t.errors.as_ref().map(|list| {
                list.iter()
                    .map(|f| serde_json::json!({"when": f.when, "message": f.message}))
                    .collect::<Vec<_>>()
            }),
        )
        .opt(
            "progress",
            t.progress.as_ref().map(|list| {
                list.iter()
                    .map(|p| {
                        let mut o = Obj::default();
                        o.put("progress", whole(p.progress))
                            .opt("total", p.total.map(whole))
                            .opt("message", p.message.clone());
                        o.done()
                    })
                    .collect::<Vec<_>>()
            }),
        )
        .opt("durationMs", t.duration_ms)
        .opt("annotations", t.shown.get("annotations").cloned())
        .opt("icons", t.shown.get("icons").cloned())
        .opt("_meta", t.shown.get("_meta").cloned())
        .opt(
            "rateLimit",
            t.state
                .rate_limit
                .map(|r| serde_json::json!({"calls": r.calls, "windowMs": r.window_ms})),
        )
        .opt(
            "returns",
            t.state.returns.as_ref().map(|r| {
                Obj::default()
                    .put("handle", r.handle.as_str())
                    .opt("runsMs", r.runs_ms)
                    .done()
            }),
        )
        .opt(
            "uses",
            t.state.uses.as_ref().map(|u| {
                Obj::default()
                    .put("handle", u.handle.as_str())
                    .put("argument", u.argument.as_str())
                    .opt("whileRunning", u.while_running.clone())
                    .done()
            }),
        )
        .opt(
            "quarantine",
            t.state.quarantine.as_ref().map(|q| {
                let scope = match q.scope {
                    QuarantineScope::Tool => "tool",
                    QuarantineScope::All => "all",
                };
                serde_json::json!({"when": q.when, "violation": q.violation, "scope": scope})
            }),
        )
        .done()
}

/// A number as an author writes it: `3`, not `3.0`.
fn whole(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Value::from(n as i64)
    } else {
        Value::from(n)
    }
}

fn client_value(c: &ClientDef) -> Value {
    let nullable = |v: Option<Option<u64>>| v.map(|v| v.map_or(Value::Null, Value::from));
    peer_value(&c.peer, ClientCapabilities::to_json)
        .opt("discoverFirst", c.discover_first)
        .opt(
            "undeclaredRequests",
            c.undeclared_requests
                .and_then(|p| UNDECLARED.iter().find(|(_, u)| *u == p))
                .map(|(n, _)| *n),
        )
        .opt("requestTimeoutMs", nullable(c.request_timeout_ms))
        .opt("probeTimeoutMs", c.probe_timeout_ms)
        .opt("hostKillMs", nullable(c.host_kill_ms))
        .opt("debounceMs", c.debounce_ms)
        .opt("firstId", c.first_id)
        .opt(
            "principal",
            c.identity.as_ref().map(|i| i.principal.clone()),
        )
        .opt(
            "token",
            c.identity
                .as_ref()
                .and_then(|i| i.token.as_ref())
                .map(|t| serde_json::json!({"scopes": t.scopes})),
        )
        .done()
}

/// A server's `policy` as the file writes it.
fn policy_value(p: &crate::server::Policy) -> Value {
    let tools: Vec<Value> = p
        .tools
        .iter()
        .map(|t| {
            let results: Map<String, Value> = t
                .results
                .iter()
                .map(|r| (r.principal.clone(), Value::from(r.result.clone())))
                .collect();
            Obj::default()
                .put("tool", t.tool.as_str())
                .opt("visibleTo", t.visible_to.as_deref().map(strings))
                .opt("callableBy", t.callable_by.as_deref().map(strings))
                .opt("scopes", (!t.scopes.is_empty()).then(|| strings(&t.scopes)))
                .opt(
                    "results",
                    (!results.is_empty()).then_some(Value::Object(results)),
                )
                .done()
        })
        .collect();
    serde_json::json!({"tools": tools})
}

fn setup_value(s: &SetupDef) -> Value {
    let kind = match s.transport.kind {
        TransportKind::Stdio => "stdio",
        TransportKind::Http => "http",
    };
    let t = &s.transport;
    let transport =
        if t.latency_ms.is_none() && t.lose_from_client.is_empty() && t.lose_from_server.is_empty()
        {
            Value::from(kind)
        } else {
            let mut o = Obj::default();
            o.put("kind", kind).opt("latencyMs", t.latency_ms);
            if !t.lose_from_client.is_empty() {
                o.put("loseFromClient", t.lose_from_client.clone());
            }
            if !t.lose_from_server.is_empty() {
                o.put("loseFromServer", t.lose_from_server.clone());
            }
            o.done()
        };
    let mut o = Obj::default();
    o.put("label", s.label.as_str())
        .put("client", s.client.as_str())
        .put("server", s.server.as_str())
        .put("transport", transport)
        .put("steps", s.steps.iter().map(step_value).collect::<Vec<_>>());
    if !s.server_events.is_empty() {
        let events: Vec<Value> = s
            .server_events
            .iter()
            .map(|e| match e {
                ServerEventDef::ToolsChanged { at_ms } => Obj::default()
                    .put("atMs", *at_ms)
                    .put("event", "tools-changed")
                    .done(),
                ServerEventDef::Upgrade { at_ms, to } => Obj::default()
                    .put("atMs", *at_ms)
                    .put("event", "upgrade")
                    .put("to", to.as_str())
                    .done(),
                ServerEventDef::Reply { at_ms, reply } => {
                    let mut o = Obj::default();
                    o.put("atMs", *at_ms)
                        .put("event", "reply")
                        .put("method", reply.method.as_str())
                        .opt("tool", reply.tool.as_deref())
                        .put("reply", reply.reply.clone())
                        .opt("status", reply.status)
                        .put("violation", reply.violation.text());
                    scripted_tail(&mut o, &reply.note, &reply.rules)
                }
                ServerEventDef::Notify { at_ms, notice } => {
                    let mut o = Obj::default();
                    o.put("atMs", *at_ms)
                        .put("event", "notify")
                        .put("message", notice.message.clone())
                        .opt("after", notice.after.as_deref())
                        .opt("violation", notice.violation.as_ref().map(|v| v.text()));
                    scripted_tail(&mut o, &notice.note, &notice.rules)
                }
                ServerEventDef::Changed { at_ms, change } => {
                    let (event, uri) = match change {
                        crate::server::ServerTrigger::ToolsChanged => ("tools-changed", None),
                        crate::server::ServerTrigger::PromptsChanged => ("prompts-changed", None),
                        crate::server::ServerTrigger::ResourcesChanged => {
                            ("resources-changed", None)
                        }
                        crate::server::ServerTrigger::ResourceUpdated { uri } => {
                            ("resource-updated", Some(uri.as_str()))
                        }
                    };
                    match uri {
                        Some(uri) => Obj::default()
                            .put("atMs", *at_ms)
                            .put("event", event)
                            .put("uri", uri)
                            .done(),
                        None => Obj::default()
                            .put("atMs", *at_ms)
                            .put("event", event)
                            .done(),
                    }
                }
            })
            .collect();
        o.put("serverEvents", events);
    }
    if let Some(auth) = &s.auth {
        let mut a = Obj::default();
        a.put("registration", auth.registration.name())
            .opt("stepUp", auth.step_up.as_deref())
            .opt("break", auth.broken.map(|b| b.name()));
        o.put("auth", a.done());
    }
    if let Some(gateway) = &s.gateway {
        let mut g = Obj::default();
        if !gateway.hide.is_empty() {
            g.put("hide", gateway.hide.clone());
        }
        if !gateway.hide_prompts.is_empty() {
            g.put("hidePrompts", gateway.hide_prompts.clone());
        }
        g.opt("prefix", gateway.prefix.as_deref());
        o.put("gateway", g.done());
    }
    o.done()
}

fn options_into(o: &mut Obj, options: &RequestOptions) {
    o.opt(
        "declare",
        options.declare.as_ref().map(ClientCapabilities::to_json),
    )
    .opt("version", options.version.clone())
    .opt(
        "retryOnMissingCapability",
        options.retry_on_missing_capability,
    )
    .opt("background", options.background.then_some(true));
}

fn step_value(s: &StepDef) -> Value {
    let mut o = Obj::default();
    match &s.action {
        ActionDef::Discover { version } => {
            o.put("do", "discover").opt("version", version.clone());
        }
        ActionDef::List {
            what,
            options,
            follow,
        } => {
            o.put("do", "list").put("what", what.as_str());
            if *follow {
                o.put("follow", true);
            }
            options_into(&mut o, options);
        }
        ActionDef::Call {
            tool,
            arguments,
            meta,
            options,
        } => {
            o.put("do", "call")
                .put("tool", tool.as_str())
                .put("arguments", arguments.clone())
                .opt("_meta", meta.clone());
            options_into(&mut o, options);
        }
        ActionDef::Read { uri, options } => {
            o.put("do", "read").put("uri", uri.as_str());
            options_into(&mut o, options);
        }
        ActionDef::GetPrompt {
            name,
            arguments,
            options,
        } => {
            o.put("do", "get-prompt")
                .put("name", name.as_str())
                .opt("arguments", arguments.clone());
            options_into(&mut o, options);
        }
        ActionDef::Request {
            method,
            params,
            options,
        } => {
            o.put("do", "request")
                .put("method", method.as_str())
                .put("params", params.clone());
            options_into(&mut o, options);
        }
        ActionDef::Send {
            text,
            headers,
            violation,
            note,
            rules,
        } => {
            o.put("do", "send").put("text", text.as_str());
            if let Some(headers) = headers {
                let unique = headers
                    .iter()
                    .enumerate()
                    .all(|(i, (n, _))| headers[..i].iter().all(|(m, _)| m != n));
                let value = if unique {
                    let mut h = Obj::default();
                    for (n, v) in headers {
                        h.put(n, v.as_str());
                    }
                    h.done()
                } else {
                    Value::from(
                        headers
                            .iter()
                            .map(|(n, v)| Value::from(vec![n.clone(), v.clone()]))
                            .collect::<Vec<_>>(),
                    )
                };
                o.put("headers", value);
            }
            o.opt("violation", violation.clone())
                .opt("note", note.clone());
            if !rules.is_empty() {
                o.put("rules", rules.clone());
            }
        }
        ActionDef::Declare { capabilities } => {
            o.put("do", "declare").put(
                "capabilities",
                capabilities
                    .as_ref()
                    .map_or(Value::from("all"), ClientCapabilities::to_json),
            );
        }
        ActionDef::Drop { capability } => {
            o.put("do", "drop").put("capability", capability.as_str());
        }
        ActionDef::Wait { ms } => {
            o.put("do", "wait").put("ms", *ms);
        }
        ActionDef::Disconnect => {
            o.put("do", "disconnect");
        }
        ActionDef::Say => {
            o.put("do", "say")
                .put("text", s.say.clone().unwrap_or_default());
            return o.done();
        }
    }
    if let Some(say) = &s.say {
        // `say` reads best first: what the reader is told, then what happens.
        let mut first = Obj::default();
        first.put("say", say.as_str());
        for (k, v) in std::mem::take(&mut o.0) {
            first.0.insert(k, v);
        }
        return first.done();
    }
    o.done()
}

/// The `note` and `rules` a scripted event ends with, when it has them.
fn scripted_tail(o: &mut Obj, note: &crate::note::Note, rules: &[String]) -> Value {
    if !note.text().is_empty() {
        o.put("note", note.text());
    }
    if !rules.is_empty() {
        o.put("rules", strings(rules));
    }
    o.done()
}

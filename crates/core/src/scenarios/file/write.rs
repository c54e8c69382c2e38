//! Export: set-ups to a scenario file, as small as the defaults allow. A
//! server or client equal to a preset is named by the preset's id; one that
//! differs is defined once, as its preset plus the fields that differ.
//! Reading the result back gives the same set-ups, field for field (a test
//! checks it for the whole catalog).

use serde_json::{Map, Value};

use super::build::*;
use super::read::{era_name, FORMAT, LISTS, UNDECLARED};
use super::types::*;
use crate::client::{presets as clients, ClientConfig, Step};
use crate::protocol::{methods, ClientCapabilities, ServerCapabilities};
use crate::server::{presets as servers, CacheScope, ServerConfig, ToolSpec, UnknownMethodPolicy};
use crate::sim::engine::ServerEvent;
use crate::sim::Setup;
use crate::transport::TransportKind;

/// Names configs: a preset's id when equal to it, else a definition.
struct Names<T> {
    /// (config, the id set-ups use, whether it needs a definition).
    seen: Vec<(T, String, bool)>,
}

impl<T: PartialEq + Clone> Names<T> {
    fn name(&mut self, cfg: &T, preset: &str, is_preset: impl Fn(&str) -> Option<T>) -> String {
        if let Some((_, id, _)) = self.seen.iter().find(|(c, _, _)| c == cfg) {
            return id.clone();
        }
        if is_preset(preset).as_ref() == Some(cfg) {
            self.seen.push((cfg.clone(), preset.to_string(), false));
            return preset.to_string();
        }
        let taken = |id: &str, seen: &[(T, String, bool)]| {
            is_preset(id).is_some() || seen.iter().any(|(_, n, _)| n == id)
        };
        let id = if !taken(preset, &self.seen) {
            preset.to_string()
        } else {
            (2..)
                .map(|n| format!("{preset}-{n}"))
                .find(|id| !taken(id, &self.seen))
                .unwrap_or_default()
        };
        self.seen.push((cfg.clone(), id.clone(), true));
        id
    }

    fn defined(&self) -> impl Iterator<Item = (&T, &String)> {
        self.seen
            .iter()
            .filter(|(_, _, def)| *def)
            .map(|(c, id, _)| (c, id))
    }
}

/// Exports set-ups as a scenario file.
pub(super) fn file(id: &str, title: &str, summary: &str, setups: &[Setup]) -> FileDef {
    let mut server_names = Names { seen: Vec::new() };
    let mut client_names = Names { seen: Vec::new() };
    let mut defs = Vec::new();
    for setup in setups {
        let server = server_names.name(&setup.server, &setup.server.preset, servers::server);
        let client = client_names.name(&setup.client, &setup.client.preset, clients::client);
        let server_events = setup
            .server_events
            .iter()
            .map(|(at, ev)| match ev {
                ServerEvent::ToolsChanged => ServerEventDef::ToolsChanged {
                    at_ms: at.as_millis(),
                },
                ServerEvent::Changed { change } => match change {
                    crate::server::ServerTrigger::ToolsChanged => ServerEventDef::ToolsChanged {
                        at_ms: at.as_millis(),
                    },
                    change => ServerEventDef::Changed {
                        at_ms: at.as_millis(),
                        change: change.clone(),
                    },
                },
                ServerEvent::Upgrade { config } => ServerEventDef::Upgrade {
                    at_ms: at.as_millis(),
                    to: server_names.name(config, &config.preset, servers::server),
                },
            })
            .collect();
        defs.push(SetupDef {
            label: setup.label.clone(),
            client,
            server,
            transport: TransportDef {
                kind: setup.channel.kind,
                latency_ms: (setup.channel.latency_ms != 20).then_some(setup.channel.latency_ms),
                lose_from_client: setup.channel.lose_from_client.clone(),
                lose_from_server: setup.channel.lose_from_server.clone(),
            },
            steps: steps(&setup.script),
            server_events,
        });
    }
    FileDef {
        id: id.into(),
        title: title.into(),
        summary: summary.into(),
        servers: server_names
            .defined()
            .map(|(cfg, id)| server_def(cfg, id))
            .collect(),
        clients: client_names
            .defined()
            .map(|(cfg, id)| client_def(cfg, id))
            .collect(),
        setups: defs,
        // A catalog scenario's other languages are the page's catalogs.
        translations: Vec::new(),
    }
}

fn differs<T: PartialEq + Clone>(value: &T, base: &T) -> Option<T> {
    (value != base).then(|| value.clone())
}

/// The shared part of the definition of `cfg` named `id`: its preset when
/// it came from one, and each field that differs from what that preset (or
/// a blank config) and its era imply; with that base, for the rest.
fn peer_def<P: PeerConfig>(cfg: &P, id: &str) -> (PeerDef<P::Caps>, P) {
    let shared = cfg.shared();
    let preset = P::preset(&shared.preset).map(|_| shared.preset.clone());
    let base = P::base(preset.as_deref(), id);
    let from = base.shared();
    let (modern, legacy) = versions_for(
        from.era,
        (&from.modern_versions, &from.legacy_versions),
        shared.era,
        P::SERVER,
    );
    let def = PeerDef {
        id: id.into(),
        preset,
        name: differs(&shared.info.name, &from.info.name),
        version: differs(&shared.info.version, &from.info.version),
        era: differs(&shared.era, &from.era),
        modern_versions: differs(&shared.modern_versions, &modern),
        legacy_versions: differs(&shared.legacy_versions, &legacy),
        capabilities: differs(cfg.capabilities(), &P::implied_capabilities(&base, cfg)),
    };
    (def, base)
}

fn server_def(cfg: &ServerConfig, id: &str) -> ServerDef {
    let (peer, base) = peer_def(cfg, id);
    ServerDef {
        peer,
        instructions: differs(&cfg.instructions, &base.instructions),
        ttl_ms: differs(&cfg.ttl_ms, &base.ttl_ms),
        cache_scope: differs(&cfg.cache_scope, &base.cache_scope),
        tools: (cfg.tools != base.tools).then(|| cfg.tools.iter().map(tool_def).collect()),
        resources: (cfg.resources != base.resources).then(|| {
            cfg.resources
                .iter()
                .map(|r| ResourceDef {
                    uri: r.uri.clone(),
                    name: differs(&r.name, &r.uri),
                    text: differs(&r.text, &String::new()),
                })
                .collect()
        }),
        prompts: (cfg.prompts != base.prompts).then(|| {
            cfg.prompts
                .iter()
                .map(|p| PromptDef {
                    name: p.name.clone(),
                    description: differs(&p.description, &String::new()),
                    arguments: p.arguments.clone(),
                    messages: p.messages.clone(),
                })
                .collect()
        }),
        checks_capability_before_work: differs(
            &cfg.checks_capability_before_work,
            &base.checks_capability_before_work,
        ),
        unknown_methods: differs(&cfg.unknown_method, &base.unknown_method),
        first_request_id: differs(&cfg.first_request_id, &base.first_request_id),
        page_size: differs(&cfg.page_size, &base.page_size).flatten(),
    }
}

fn tool_def(tool: &ToolSpec) -> ToolDef {
    ToolDef {
        name: tool.name.clone(),
        description: differs(&tool.description, &String::new()),
        input_schema: differs(&tool.input_schema, &default_input_schema()),
        requires: differs(&tool.requires, &ClientCapabilities::none()),
        asks: tool.asks.as_ref().map(|q| QuestionDef {
            message: q.message.clone(),
            requested_schema: q.requested_schema.clone(),
            argument: q.argument.clone(),
            fallback_error: q.fallback_error.clone(),
        }),
        refusal_message: tool.refusal_message.clone(),
        side_effect: tool.side_effect.clone(),
        result: differs(&tool.result_text, &DEFAULT_RESULT.to_string()),
        errors: (!tool.errors.is_empty()).then(|| tool.errors.clone()),
        progress: (!tool.progress.is_empty()).then(|| tool.progress.clone()),
    }
}

fn client_def(cfg: &ClientConfig, id: &str) -> ClientDef {
    let (peer, base) = peer_def(cfg, id);
    ClientDef {
        peer,
        discover_first: differs(&cfg.discover_first, &base.discover_first),
        undeclared_requests: differs(&cfg.undeclared, &base.undeclared),
        request_timeout_ms: differs(&cfg.request_timeout_ms, &base.request_timeout_ms),
        probe_timeout_ms: differs(&cfg.probe_timeout_ms, &base.probe_timeout_ms),
        host_kill_ms: differs(&cfg.host_kill_ms, &base.host_kill_ms),
        debounce_ms: differs(&cfg.debounce_ms, &base.debounce_ms),
        first_id: differs(&cfg.first_id, &base.first_id),
    }
}

fn steps(script: &[Step]) -> Vec<StepDef> {
    let mut out = Vec::new();
    let mut say: Option<String> = None;
    for step in script {
        if let Some(text) = say.take() {
            if let Step::Narrate { .. } = step {
                out.push(StepDef {
                    say: Some(text),
                    action: ActionDef::Say,
                });
            } else {
                out.push(StepDef {
                    say: Some(text),
                    action: action(step),
                });
                continue;
            }
        }
        match step {
            Step::Narrate { text } => say = Some(text.clone()),
            other => out.push(StepDef {
                say: None,
                action: action(other),
            }),
        }
    }
    if let Some(text) = say {
        out.push(StepDef {
            say: Some(text),
            action: ActionDef::Say,
        });
    }
    out
}

fn plain_name(value: &Value) -> Option<String> {
    value
        .as_str()
        .filter(|s| !s.is_empty() && s.chars().count() <= super::limits::MAX_NAME)
        .filter(|s| !s.chars().any(char::is_control))
        .map(str::to_string)
}

fn action(step: &Step) -> ActionDef {
    match step {
        Step::Discover { version } => ActionDef::Discover {
            version: version.clone(),
        },
        Step::Request {
            method,
            params,
            declare,
            version,
            retry_on_missing_capability,
            follow_cursor,
        } => {
            let options = RequestOptions {
                declare: declare.clone(),
                version: version.clone(),
                retry_on_missing_capability: (!retry_on_missing_capability).then_some(false),
            };
            let keys: Vec<&str> = params
                .as_object()
                .map(|m| m.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let field = |key: &str| params.get(key);
            if let Some((what, _)) = LISTS.iter().find(|(_, m)| m == method) {
                if keys.is_empty() && params.is_object() {
                    return ActionDef::List {
                        what: what.to_string(),
                        options,
                        follow: *follow_cursor,
                    };
                }
            }
            let name = field("name").and_then(plain_name);
            let arguments = field("arguments").filter(|a| a.is_object()).cloned();
            match (method.as_str(), keys.as_slice(), name, arguments) {
                (methods::TOOLS_CALL, ["name", "arguments"], Some(tool), Some(arguments)) => {
                    return ActionDef::Call {
                        tool,
                        arguments,
                        meta: None,
                        options,
                    }
                }
                (methods::PROMPTS_GET, ["name"], Some(name), None) => {
                    return ActionDef::GetPrompt {
                        name,
                        arguments: None,
                        options,
                    }
                }
                (methods::PROMPTS_GET, ["name", "arguments"], Some(name), Some(arguments)) => {
                    return ActionDef::GetPrompt {
                        name,
                        arguments: Some(arguments),
                        options,
                    }
                }
                (methods::RESOURCES_READ, ["uri"], _, _) => {
                    if let Some(uri) = field("uri").and_then(plain_name) {
                        return ActionDef::Read { uri, options };
                    }
                }
                _ => {}
            }
            ActionDef::Request {
                method: method.clone(),
                params: params.clone(),
                options,
            }
        }
        Step::Raw {
            text,
            headers,
            violation,
            note,
            rules,
        } => ActionDef::Send {
            text: text.clone(),
            headers: headers.clone(),
            violation: violation.as_ref().map(|v| v.text().to_string()),
            note: (!note.is_empty()).then(|| note.text().to_string()),
            rules: rules.clone(),
        },
        Step::Wait { ms } => ActionDef::Wait { ms: *ms },
        Step::Disconnect => ActionDef::Disconnect,
        Step::Narrate { .. } => ActionDef::Say,
        // Steps of the CLI's flows against real servers (`mcp-lanes
        // client`), never in the catalog or a file: files have no action
        // for them, so they write as narration only.
        Step::CallListed { .. } | Step::EchoSchema { .. } => ActionDef::Say,
    }
}

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
                        .opt("text", r.text.clone())
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
    .done()
}

fn tool_value(t: &ToolDef) -> Value {
    Obj::default()
        .put("name", t.name.as_str())
        .opt("description", t.description.clone())
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
        .done()
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
    );
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

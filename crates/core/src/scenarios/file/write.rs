//! Export: set-ups to a scenario file, as small as the defaults allow. A
//! server or client equal to a preset is named by the preset's id; one that
//! differs is defined once, as its preset plus the fields that differ.
//! Reading the result back gives the same set-ups, field for field (a test
//! checks it for the whole catalog).

use serde_json::Value;

use super::build::*;
use super::read::LISTS;
use super::types::*;
use crate::client::{presets as clients, ClientConfig, Step};
use crate::protocol::{methods, ClientCapabilities};
use crate::server::{presets as servers, ServerConfig, ToolSpec};
use crate::sim::engine::ServerEvent;
use crate::sim::Setup;

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
                ServerEvent::Reply(reply) => ServerEventDef::Reply {
                    at_ms: at.as_millis(),
                    reply: reply.clone(),
                },
                ServerEvent::Notify(notice) => ServerEventDef::Notify {
                    at_ms: at.as_millis(),
                    notice: notice.clone(),
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
            auth: setup.auth.clone(),
            gateway: setup.gateway.clone(),
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
                    description: r.description.clone(),
                    mime_type: r.mime_type.clone(),
                })
                .collect()
        }),
        resource_templates: (cfg.resource_templates != base.resource_templates)
            .then(|| cfg.resource_templates.clone()),
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
        policy: differs(&cfg.policy, &base.policy).flatten(),
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
            url: q.url.clone(),
        }),
        refusal_message: tool.refusal_message.clone(),
        side_effect: tool.side_effect.clone(),
        result: differs(&tool.result_text, &DEFAULT_RESULT.to_string()),
        errors: (!tool.errors.is_empty()).then(|| tool.errors.clone()),
        progress: (!tool.progress.is_empty()).then(|| tool.progress.clone()),
        duration_ms: tool.duration_ms,
        state: tool.state.clone(),
        shown: tool.shown.clone(),
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
        identity: differs(&cfg.identity, &base.identity).flatten(),
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
            background,
        } => {
            let options = RequestOptions {
                declare: declare.clone(),
                version: version.clone(),
                retry_on_missing_capability: (!retry_on_missing_capability).then_some(false),
                background: *background,
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
        Step::CallListed { .. } | Step::EchoSchema { .. } | Step::LoadSkill { .. } => {
            ActionDef::Say
        }
    }
}

//! Conversion of a read file into the core's [`Setup`]s: presets and
//! defaults fill in what the author left out, references between set-ups,
//! servers and clients are resolved (a dangling one is an error with its
//! path), and `declare`/`drop` steps become each request's declaration.
//! `write.rs` is the inverse; both use the defaults defined here.

use serde_json::{json, Map, Value};

use super::read::{child, Errors, LISTS};
use super::types::*;
use super::ScenarioFile;
use crate::client::{presets as clients, ClientConfig, Step};
use crate::note;
use crate::protocol::capabilities::ListCapability;
use crate::protocol::version::EraMode;
use crate::protocol::{
    methods, ClientCapabilities, Implementation, ProtocolVersion, ServerCapabilities,
};
use crate::server::{
    presets as servers, PromptSpec, Question, ResourceSpec, ServerConfig, ToolSpec,
};
use crate::sim::engine::ServerEvent;
use crate::sim::{Setup, SimTime};
use crate::transport::ChannelConfig;

/// The version lists of a peer of `era` that names none (modern, legacy).
pub(super) fn era_versions(era: EraMode, server: bool) -> (Vec<String>, Vec<String>) {
    let modern = || vec![ProtocolVersion::MODERN.to_string()];
    let legacy = vec![ProtocolVersion::LEGACY_FALLBACK.to_string()];
    match era {
        EraMode::ModernOnly => (modern(), Vec::new()),
        EraMode::LegacyOnly => (Vec::new(), legacy),
        EraMode::DualEra if server => (
            modern(),
            vec![
                ProtocolVersion::NEWEST_LEGACY.to_string(),
                ProtocolVersion::LEGACY_FALLBACK.to_string(),
            ],
        ),
        EraMode::DualEra => (modern(), legacy),
    }
}

/// The fields a server's and a client's config share that a file can
/// write (besides capabilities, whose defaults differ).
#[derive(Debug, Clone)]
pub(super) struct Shared {
    /// The preset id (or the file's id of a peer without one).
    pub(super) preset: String,
    /// serverInfo or clientInfo.
    pub(super) info: Implementation,
    /// Which eras it speaks.
    pub(super) era: EraMode,
    /// Modern versions.
    pub(super) modern_versions: Vec<String>,
    /// Legacy versions.
    pub(super) legacy_versions: Vec<String>,
}

/// A server's or a client's config as the file sees both: a preset or a
/// blank config to start from, shared fields, and capabilities.
pub(super) trait PeerConfig: Clone + PartialEq {
    /// Its capabilities' type.
    type Caps: Clone + PartialEq;
    /// Whether it is a server (a dual-era server names two legacy versions).
    const SERVER: bool;
    /// The preset `id`, if there is one.
    fn preset(id: &str) -> Option<Self>;
    /// What a definition without `preset` starts from.
    fn blank(id: &str) -> Self;
    /// The capabilities `cfg`, made from `base`, has when the file names
    /// none.
    fn implied_capabilities(base: &Self, cfg: &Self) -> Self::Caps;
    /// Its shared fields.
    fn shared(&self) -> Shared;
    /// Replaces its shared fields.
    fn set_shared(&mut self, shared: Shared);
    /// Its capabilities.
    fn capabilities(&self) -> &Self::Caps;
    /// Replaces its capabilities.
    fn set_capabilities(&mut self, caps: Self::Caps);

    /// The base of a definition: its preset, or a blank config.
    fn base(preset: Option<&str>, id: &str) -> Self {
        preset
            .and_then(Self::preset)
            .unwrap_or_else(|| Self::blank(id))
    }
}

/// Implements [`PeerConfig`] for a config type: the field names are the
/// same in `ServerConfig` and `ClientConfig`.
macro_rules! peer_config {
    ($config:ty, $caps:ty, server: $server:literal, presets: $presets:path, blank: $blank:expr, implied: $implied:expr) => {
        impl PeerConfig for $config {
            type Caps = $caps;
            const SERVER: bool = $server;
            fn preset(id: &str) -> Option<Self> {
                $presets(id)
            }
            fn blank(id: &str) -> Self {
                $blank(id)
            }
            fn implied_capabilities(base: &Self, cfg: &Self) -> $caps {
                $implied(base, cfg)
            }
            fn shared(&self) -> Shared {
                Shared {
                    preset: self.preset.clone(),
                    info: self.info.clone(),
                    era: self.era,
                    modern_versions: self.modern_versions.clone(),
                    legacy_versions: self.legacy_versions.clone(),
                }
            }
            fn set_shared(&mut self, shared: Shared) {
                self.preset = shared.preset;
                self.info = shared.info;
                self.era = shared.era;
                self.modern_versions = shared.modern_versions;
                self.legacy_versions = shared.legacy_versions;
            }
            fn capabilities(&self) -> &$caps {
                &self.capabilities
            }
            fn set_capabilities(&mut self, caps: $caps) {
                self.capabilities = caps;
            }
        }
    };
}

peer_config!(
    ServerConfig,
    ServerCapabilities,
    server: true,
    presets: servers::server,
    blank: |id| ServerConfig::new(id, Implementation::new(id, "1.0.0")),
    implied: |base: &ServerConfig, cfg| derived_capabilities(&base.capabilities, cfg)
);

peer_config!(
    ClientConfig,
    ClientCapabilities,
    server: false,
    presets: clients::client,
    blank: |id| ClientConfig::new(id, Implementation::new(id, "1.0.0"), ClientCapabilities::none()),
    implied: |base: &ClientConfig, _| base.capabilities.clone()
);

/// `base`'s capabilities plus `{}` for each of tools, resources and prompts
/// the server has but does not announce: what a server whose author wrote
/// no `capabilities` announces.
pub(super) fn derived_capabilities(
    base: &ServerCapabilities,
    cfg: &ServerConfig,
) -> ServerCapabilities {
    let mut caps = base.clone();
    let fill = |slot: &mut Option<ListCapability>, has: bool| {
        if has && slot.is_none() {
            *slot = Some(ListCapability::default());
        }
    };
    fill(&mut caps.tools, !cfg.tools.is_empty());
    fill(
        &mut caps.resources,
        !cfg.resources.is_empty() || !cfg.resource_templates.is_empty(),
    );
    fill(&mut caps.prompts, !cfg.prompts.is_empty());
    caps
}

/// The versions a peer based on `base` has once its era is `era`: the
/// base's when the era is unchanged, else the era's defaults.
pub(super) fn versions_for(
    base_era: EraMode,
    base: (&[String], &[String]),
    era: EraMode,
    server: bool,
) -> (Vec<String>, Vec<String>) {
    if era == base_era {
        (base.0.to_vec(), base.1.to_vec())
    } else {
        era_versions(era, server)
    }
}

/// The default text of a tool's result.
pub(super) const DEFAULT_RESULT: &str = "Done.";

/// The default input schema of a tool.
pub(super) fn default_input_schema() -> Value {
    json!({"type": "object", "properties": {}})
}

/// Sets `slot` to what the file wrote, if it wrote anything.
fn set<T: Clone>(slot: &mut T, written: &Option<T>) {
    if let Some(value) = written {
        *slot = value.clone();
    }
}

/// A config from a definition: its base (preset or blank) with the shared
/// fields the file wrote, then `own` (the kind's own fields), then its
/// capabilities: the written ones, else those the result implies.
fn config<P: PeerConfig>(def: &PeerDef<P::Caps>, own: impl FnOnce(&mut P)) -> P {
    let base = P::base(def.preset.as_deref(), &def.id);
    let mut cfg = base.clone();
    let from = base.shared();
    let mut shared = from.clone();
    shared.preset = def.preset.clone().unwrap_or_else(|| def.id.clone());
    set(&mut shared.info.name, &def.name);
    set(&mut shared.info.version, &def.version);
    if let Some(era) = def.era {
        shared.era = era;
        (shared.modern_versions, shared.legacy_versions) = versions_for(
            from.era,
            (&from.modern_versions, &from.legacy_versions),
            era,
            P::SERVER,
        );
    }
    set(&mut shared.modern_versions, &def.modern_versions);
    set(&mut shared.legacy_versions, &def.legacy_versions);
    cfg.set_shared(shared);
    own(&mut cfg);
    let caps = match &def.capabilities {
        Some(caps) => caps.clone(),
        None => P::implied_capabilities(&base, &cfg),
    };
    cfg.set_capabilities(caps);
    cfg
}

fn server_config(def: &ServerDef) -> ServerConfig {
    config(&def.peer, |cfg: &mut ServerConfig| {
        set(&mut cfg.instructions, &def.instructions);
        set(&mut cfg.ttl_ms, &def.ttl_ms);
        set(&mut cfg.cache_scope, &def.cache_scope);
        if let Some(tools) = &def.tools {
            cfg.tools = tools.iter().map(tool_spec).collect();
        }
        if let Some(resources) = &def.resources {
            cfg.resources = resources
                .iter()
                .map(|r| ResourceSpec {
                    uri: r.uri.clone(),
                    name: r.name.clone().unwrap_or_else(|| r.uri.clone()),
                    text: r.text.clone().unwrap_or_default(),
                    description: r.description.clone(),
                    mime_type: r.mime_type.clone(),
                    ..Default::default()
                })
                .collect();
        }
        if let Some(templates) = &def.resource_templates {
            cfg.resource_templates = templates.clone();
        }
        if let Some(prompts) = &def.prompts {
            cfg.prompts = prompts
                .iter()
                .map(|p| PromptSpec {
                    name: p.name.clone(),
                    description: p.description.clone().unwrap_or_default(),
                    arguments: p.arguments.clone(),
                    messages: p.messages.clone(),
                    ..Default::default()
                })
                .collect();
        }
        set(
            &mut cfg.checks_capability_before_work,
            &def.checks_capability_before_work,
        );
        set(&mut cfg.unknown_method, &def.unknown_methods);
        set(&mut cfg.first_request_id, &def.first_request_id);
        if def.page_size.is_some() {
            cfg.page_size = def.page_size;
        }
        if def.policy.is_some() {
            cfg.policy = def.policy.clone();
        }
    })
}

fn tool_spec(def: &ToolDef) -> ToolSpec {
    ToolSpec {
        name: def.name.clone(),
        description: def.description.clone().unwrap_or_default(),
        input_schema: def
            .input_schema
            .clone()
            .unwrap_or_else(default_input_schema),
        requires: def.requires.clone().unwrap_or_default(),
        asks: def.asks.as_ref().map(|q| Question {
            argument: q.argument.clone(),
            message: q.message.clone(),
            requested_schema: q.requested_schema.clone(),
            fallback_error: q.fallback_error.clone(),
            url: q.url.clone(),
        }),
        refusal_message: def.refusal_message.clone(),
        side_effect: def.side_effect.clone(),
        result_text: def.result.clone().unwrap_or_else(|| DEFAULT_RESULT.into()),
        behaviour: None,
        errors: def.errors.clone().unwrap_or_default(),
        progress: def.progress.clone().unwrap_or_default(),
        duration_ms: def.duration_ms,
        state: def.state.clone(),
        shown: def.shown.clone(),
    }
}

fn client_config(def: &ClientDef) -> ClientConfig {
    config(&def.peer, |cfg: &mut ClientConfig| {
        set(&mut cfg.discover_first, &def.discover_first);
        set(&mut cfg.undeclared, &def.undeclared_requests);
        set(&mut cfg.request_timeout_ms, &def.request_timeout_ms);
        set(&mut cfg.probe_timeout_ms, &def.probe_timeout_ms);
        set(&mut cfg.host_kill_ms, &def.host_kill_ms);
        set(&mut cfg.debounce_ms, &def.debounce_ms);
        set(&mut cfg.first_id, &def.first_id);
        if def.identity.is_some() {
            cfg.identity = def.identity.clone();
        }
    })
}

fn preset_ids(list: &[(&str, &str)]) -> String {
    list.iter()
        .map(|(id, _)| *id)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The config a set-up names by `id`: one the file defines, else a preset.
fn find<P: PeerConfig>(defined: &[(String, P)], id: &str) -> Option<P> {
    defined
        .iter()
        .find(|(d, _)| d == id)
        .map(|(_, c)| c.clone())
        .or_else(|| P::preset(id))
}

/// Resolves references and builds every set-up; every dangling reference
/// is reported.
pub(super) fn scenario(e: &mut Errors, file: &FileDef) -> Option<ScenarioFile> {
    let server_defs: Vec<(String, ServerConfig)> = file
        .servers
        .iter()
        .map(|d| (d.peer.id.clone(), server_config(d)))
        .collect();
    let client_defs: Vec<(String, ClientConfig)> = file
        .clients
        .iter()
        .map(|d| (d.peer.id.clone(), client_config(d)))
        .collect();
    let find_server = |id: &str| find(&server_defs, id);
    let find_client = |id: &str| find(&client_defs, id);
    let no_server = |id: &str| {
        note!(
            "file.no_server",
            "no server \"{id}\": define it under \"servers\" or name a server preset ({presets})",
            id = id,
            presets = preset_ids(servers::PRESETS)
        )
    };
    // Every server the file names, by id, in order (for `serve --file`
    // and the editor's targets).
    let mut named: Vec<(String, ServerConfig)> = server_defs.clone();
    let mut name_server = |id: &str, cfg: &ServerConfig| {
        if !named.iter().any(|(n, _)| n == id) {
            named.push((id.to_string(), cfg.clone()));
        }
    };
    let mut setups = Vec::new();
    for (i, def) in file.setups.iter().enumerate() {
        let path = format!("setups[{i}]");
        let client = find_client(&def.client);
        if client.is_none() {
            e.at(
                &child(&path, "client"),
                note!(
                    "file.no_client",
                    "no client \"{id}\": define it under \"clients\" or name a client preset ({presets})",
                    id = def.client,
                    presets = preset_ids(clients::PRESETS)
                ),
            );
        }
        let server = find_server(&def.server);
        match &server {
            Some(cfg) => name_server(&def.server, cfg),
            None => e.at(&child(&path, "server"), no_server(&def.server)),
        }
        let mut events = Vec::new();
        for (j, ev) in def.server_events.iter().enumerate() {
            match ev {
                ServerEventDef::ToolsChanged { at_ms } => {
                    events.push((SimTime::from_millis(*at_ms), ServerEvent::ToolsChanged))
                }
                ServerEventDef::Changed { at_ms, change } => events.push((
                    SimTime::from_millis(*at_ms),
                    ServerEvent::Changed {
                        change: change.clone(),
                    },
                )),
                ServerEventDef::Upgrade { at_ms, to } => match find_server(to) {
                    Some(cfg) => {
                        name_server(to, &cfg);
                        events.push((
                            SimTime::from_millis(*at_ms),
                            ServerEvent::Upgrade {
                                config: Box::new(cfg),
                            },
                        ))
                    }
                    None => e.at(&format!("{path}.serverEvents[{j}].to"), no_server(to)),
                },
                ServerEventDef::Reply { at_ms, reply } => events.push((
                    SimTime::from_millis(*at_ms),
                    ServerEvent::Reply(reply.clone()),
                )),
                ServerEventDef::Notify { at_ms, notice } => events.push((
                    SimTime::from_millis(*at_ms),
                    ServerEvent::Notify(notice.clone()),
                )),
            }
        }
        let (Some(client), Some(server)) = (client, server) else {
            continue;
        };
        let mut channel = ChannelConfig::new(def.transport.kind);
        if let Some(latency) = def.transport.latency_ms {
            channel.latency_ms = latency;
        }
        channel.lose_from_client = def.transport.lose_from_client.clone();
        channel.lose_from_server = def.transport.lose_from_server.clone();
        let script = script(&def.steps, &client.capabilities);
        setups.push(Setup {
            label: def.label.clone(),
            client,
            server,
            channel,
            script,
            server_events: events,
            auth: def.auth.clone(),
            gateway: def.gateway.clone(),
        });
    }
    let translations = translations(e, &file.translations, &setups);
    e.0.is_empty().then(|| ScenarioFile {
        id: file.id.clone(),
        title: file.title.clone(),
        summary: file.summary.clone(),
        translations,
        setups,
        servers: named,
    })
}

/// The file's translations, each key checked against what the file says: a
/// label a set-up has, a narration a step says.
fn translations(
    e: &mut Errors,
    list: &[super::Translation],
    setups: &[Setup],
) -> Vec<super::Translation> {
    for t in list {
        let at = child(&child("translations", &t.tag), "labels");
        for (label, _) in &t.labels {
            if !setups.iter().any(|s| &s.label == label) {
                e.at(
                    &child(&at, label),
                    note!(
                        "file.no_label",
                        "no set-up is labelled {label}",
                        label = format!("{label:?}")
                    ),
                );
            }
        }
        let at = child(&child("translations", &t.tag), "say");
        for (said, _) in &t.say {
            let says = setups
                .iter()
                .flat_map(|s| &s.script)
                .any(|step| matches!(step, Step::Narrate { text } if text == said));
            if !says {
                e.at(
                    &child(&at, said),
                    note!(
                        "file.no_say",
                        "no step says {said}",
                        said = format!("{said:?}")
                    ),
                );
            }
        }
    }
    list.to_vec()
}

/// Removes one top-level capability.
fn without(mut caps: ClientCapabilities, name: &str) -> ClientCapabilities {
    match name {
        "elicitation" => caps.elicitation = None,
        "sampling" => caps.sampling = None,
        "roots" => caps.roots = None,
        "extensions" => caps.extensions = None,
        _ => caps.experimental = None,
    }
    caps
}

fn request(
    method: &str,
    params: Value,
    options: &RequestOptions,
    current: &Option<ClientCapabilities>,
) -> Step {
    Step::Request {
        method: method.into(),
        params,
        declare: options.declare.clone().or_else(|| current.clone()),
        version: options.version.clone(),
        retry_on_missing_capability: options.retry_on_missing_capability.unwrap_or(true),
        follow_cursor: false,
        background: options.background,
    }
}

fn script(steps: &[StepDef], has: &ClientCapabilities) -> Vec<Step> {
    let mut out = Vec::new();
    // What requests declare from now on (`None`: everything the client has).
    let mut current: Option<ClientCapabilities> = None;
    for step in steps {
        if let Some(text) = &step.say {
            out.push(Step::Narrate { text: text.clone() });
        }
        match &step.action {
            ActionDef::Discover { version } => out.push(Step::Discover {
                version: version.clone(),
            }),
            ActionDef::List {
                what,
                options,
                follow,
            } => {
                let method = LISTS
                    .iter()
                    .find(|(n, _)| n == what)
                    .map(|(_, m)| *m)
                    .unwrap_or(methods::TOOLS_LIST);
                let mut step = request(method, json!({}), options, &current);
                if let Step::Request { follow_cursor, .. } = &mut step {
                    *follow_cursor = *follow;
                }
                out.push(step);
            }
            ActionDef::Call {
                tool,
                arguments,
                meta,
                options,
            } => {
                let mut params = json!({"name": tool, "arguments": arguments});
                if let Some(meta) = meta {
                    params["_meta"] = meta.clone();
                }
                out.push(request(methods::TOOLS_CALL, params, options, &current))
            }
            ActionDef::Read { uri, options } => out.push(request(
                methods::RESOURCES_READ,
                json!({"uri": uri}),
                options,
                &current,
            )),
            ActionDef::GetPrompt {
                name,
                arguments,
                options,
            } => {
                let mut params = Map::new();
                params.insert("name".into(), Value::from(name.as_str()));
                if let Some(arguments) = arguments {
                    params.insert("arguments".into(), arguments.clone());
                }
                out.push(request(
                    methods::PROMPTS_GET,
                    Value::Object(params),
                    options,
                    &current,
                ));
            }
            ActionDef::Request {
                method,
                params,
                options,
            } => out.push(request(method, params.clone(), options, &current)),
            ActionDef::Send {
                text,
                headers,
                violation,
                note,
                rules,
            } => out.push(Step::Raw {
                text: text.clone(),
                headers: headers.clone(),
                violation: violation.clone().map(crate::note::Note::from),
                note: crate::scenarios::catalog::catalog_note(note.as_deref().unwrap_or_default()),
                rules: rules.clone(),
            }),
            ActionDef::Declare { capabilities } => current = capabilities.clone(),
            ActionDef::Drop { capability } => {
                let from = current.take().unwrap_or_else(|| has.clone());
                current = Some(without(from, capability));
            }
            ActionDef::Wait { ms } => out.push(Step::Wait { ms: *ms }),
            ActionDef::Disconnect => out.push(Step::Disconnect),
            ActionDef::Say => {}
        }
    }
    out
}

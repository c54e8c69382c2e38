//! Set-ups: which client meets which server over which transport, and
//! the server events scheduled in them.

use super::*;

pub(super) fn setup(e: &mut Errors, path: &str, value: &Value) -> Option<SetupDef> {
    const KEYS: &[&str] = &[
        "label",
        "client",
        "server",
        "transport",
        "steps",
        "serverEvents",
        "auth",
        "gateway",
    ];
    let f = fields(e, path, value, &note!("file.what.setup", "a set-up"), KEYS)?;
    let before = e.0.len();
    let label = name(e, &f, "label", false);
    let client = id(e, &f, "client", true);
    let server = id(e, &f, "server", true);
    let transport = match f.get("transport") {
        None => Some(TransportDef {
            kind: TransportKind::Stdio,
            latency_ms: None,
            lose_from_client: Vec::new(),
            lose_from_server: Vec::new(),
        }),
        Some(v) => transport(e, &f.path("transport"), v),
    };
    let steps = match f.get("steps") {
        None => {
            let what = note!(
                "file.what.steps_array",
                "an array of steps such as [{{\"do\": \"discover\"}}]"
            );
            missing(e, &f, "steps", &what);
            None
        }
        Some(_) => {
            let what = note!("file.what.steps", "steps");
            items(e, &f, "steps", &what, MAX_STEPS, step)
        }
    };
    let events = items(
        e,
        &f,
        "serverEvents",
        &note!("file.what.server_events", "server events"),
        MAX_LIST,
        server_event,
    );
    let auth = f
        .get("auth")
        .and_then(|v| protection(e, &f.path("auth"), v));
    if let (Some(_), Some(t)) = (f.get("auth"), &transport) {
        if t.kind != TransportKind::Http {
            e.at(
                &f.path("auth"),
                note!(
                    "file.auth_http_only",
                    "authorization applies to HTTP only (A-HTTP-ONLY): set \"transport\" to \"http\""
                ),
            );
        }
    }
    let gateway = f
        .get("gateway")
        .and_then(|v| gateway(e, &f.path("gateway"), v));
    if e.0.len() != before {
        return None;
    }
    let (client, server) = (client?, server?);
    Some(SetupDef {
        label: label.unwrap_or_else(|| format!("{client} and {server}")),
        client,
        server,
        transport: transport?,
        steps: steps?,
        server_events: events.unwrap_or_default(),
        auth,
        gateway,
    })
}

/// A gateway between the client and the server (`"gateway": {"hide",
/// "hidePrompts", "prefix"}`, each optional; `{}` forwards everything).
fn gateway(e: &mut Errors, path: &str, value: &Value) -> Option<crate::gateway::GatewayConfig> {
    let what = note!("file.what.gateway", "a gateway (an object)");
    let f = fields(e, path, value, &what, &["hide", "hidePrompts", "prefix"])?;
    let before = e.0.len();
    let names = note!("file.what.tool_names", "tool or prompt names");
    let mut listed = |key: &str| items(e, &f, key, &names, MAX_LIST, tool_name_at);
    let hide = listed("hide");
    let hide_prompts = listed("hidePrompts");
    let prefix = f.get("prefix").and_then(|v| match v.as_str() {
        Some(text) if text.len() <= 32 && is_tool_name(text) => Some(text.to_string()),
        _ => {
            let what = note!(
                "file.what.prefix",
                "a prefix of 1 to 32 letters, digits, '_', '-' or '.', such as \"weather_\""
            );
            e.at(&f.path("prefix"), expected(&what, v));
            None
        }
    });
    (e.0.len() == before).then(|| crate::gateway::GatewayConfig {
        hide: hide.unwrap_or_default(),
        hide_prompts: hide_prompts.unwrap_or_default(),
        prefix,
    })
}

/// A protected server's authorization (`"auth": {"registration",
/// "stepUp", "break"}`, each optional).
fn protection(e: &mut Errors, path: &str, value: &Value) -> Option<crate::auth::Protection> {
    let what = note!("file.what.auth", "an authorization (an object)");
    let f = fields(e, path, value, &what, &["registration", "stepUp", "break"])?;
    let before = e.0.len();
    let registration = choice(e, &f, "registration", &crate::auth::Registration::ALL);
    let broken = choice(e, &f, "break", &crate::auth::Break::ALL);
    let step_up = id_like_scope(e, &f);
    (e.0.len() == before).then(|| crate::auth::Protection {
        registration: registration.unwrap_or_default(),
        step_up,
        broken,
    })
}

/// A scope of `stepUp`: letters, digits and `:._-`.
fn id_like_scope(e: &mut Errors, f: &Fields) -> Option<String> {
    let v = f.get("stepUp")?;
    let what = note!("file.what.scope", "a scope such as \"files:write\"");
    let ok = v.as_str().filter(|s| {
        (1..=64).contains(&s.len())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || ":._-".contains(c))
    });
    if ok.is_none() {
        e.at(&f.path("stepUp"), expected(&what, v));
    }
    ok.map(str::to_string)
}

pub(super) const TRANSPORTS: &[(&str, TransportKind)] = &[
    ("stdio", TransportKind::Stdio),
    ("http", TransportKind::Http),
];

pub(super) fn transport(e: &mut Errors, path: &str, value: &Value) -> Option<TransportDef> {
    if let Some(kind) = value.as_str() {
        let Some((_, kind)) = TRANSPORTS.iter().find(|(n, _)| *n == kind) else {
            let what = note!(
                "file.what.transport_kind",
                "\"stdio\", \"http\" or an object such as {{\"kind\": \"http\", \"latencyMs\": 20}}"
            );
            e.at(path, expected(&what, value));
            return None;
        };
        return Some(TransportDef {
            kind: *kind,
            latency_ms: None,
            lose_from_client: Vec::new(),
            lose_from_server: Vec::new(),
        });
    }
    let keys = &["kind", "latencyMs", "loseFromClient", "loseFromServer"];
    let what = note!(
        "file.what.transport",
        "a transport (\"stdio\", \"http\" or an object)"
    );
    let f = fields(e, path, value, &what, keys)?;
    let kind = choice(e, &f, "kind", TRANSPORTS);
    if f.get("kind").is_none() {
        missing(e, &f, "kind", &quoted_list(&["stdio", "http"]));
    }
    let latency_ms = uint(e, &f, "latencyMs", 60_000);
    let ordinals = note!("file.what.ordinals", "message ordinals");
    let mut lost = |key: &str| {
        items(e, &f, key, &ordinals, MAX_LIST, |e, p, v| {
            integer(e, p, v, 1, MAX_ORDINAL).map(|n| n as u32)
        })
    };
    let lose_from_client = lost("loseFromClient");
    let lose_from_server = lost("loseFromServer");
    Some(TransportDef {
        kind: kind?,
        latency_ms,
        lose_from_client: lose_from_client.unwrap_or_default(),
        lose_from_server: lose_from_server.unwrap_or_default(),
    })
}

pub(super) fn server_event(e: &mut Errors, path: &str, value: &Value) -> Option<ServerEventDef> {
    let what = note!("file.what.server_event", "a server event");
    let keys: &[&str] = match value.get("event").and_then(Value::as_str) {
        Some("reply") => scripted::REPLY_KEYS,
        Some("notify") => scripted::NOTIFY_KEYS,
        _ => &["atMs", "event", "to", "uri"],
    };
    let f = fields(e, path, value, &what, keys)?;
    let at = match f.get("atMs") {
        None => {
            let what = note!("file.what.at_ms", "the virtual time in ms");
            missing(e, &f, "atMs", &what);
            None
        }
        Some(_) => uint(e, &f, "atMs", MAX_MS),
    };
    // 0 tools, 1 upgrade, 2 prompts, 3 resources, 4 one resource,
    // 5 a scripted reply, 6 a scripted notification.
    let kind = choice(
        e,
        &f,
        "event",
        &[
            ("tools-changed", 0u8),
            ("upgrade", 1),
            ("prompts-changed", 2),
            ("resources-changed", 3),
            ("resource-updated", 4),
            ("reply", 5),
            ("notify", 6),
        ],
    );
    if f.get("event").is_none() {
        let events = [
            "tools-changed",
            "upgrade",
            "prompts-changed",
            "resources-changed",
            "resource-updated",
            "reply",
            "notify",
        ];
        missing(e, &f, "event", &quoted_list(&events));
    }
    match kind {
        Some(5) => return scripted::reply(e, &f, at),
        Some(6) => return scripted::notify(e, &f, at),
        _ => {}
    }
    let to = id(e, &f, "to", false);
    let uri = text(e, &f, "uri", false);
    let kind = kind?;
    if kind != 1 && to.is_some() {
        e.at(
            &f.path("to"),
            note!(
                "file.only_upgrade",
                "only an \"upgrade\" event names a server to become"
            ),
        );
        return None;
    }
    if kind != 4 && uri.is_some() {
        e.at(
            &f.path("uri"),
            note!(
                "file.only_resource_updated",
                "only a \"resource-updated\" event names a resource"
            ),
        );
        return None;
    }
    let at_ms = at?;
    let change = |change| Some(ServerEventDef::Changed { at_ms, change });
    match kind {
        0 => Some(ServerEventDef::ToolsChanged { at_ms }),
        1 => match to {
            Some(to) => Some(ServerEventDef::Upgrade { at_ms, to }),
            None => {
                let what = note!("file.what.upgrade_to", "the id of the server it becomes");
                missing(e, &f, "to", &what);
                None
            }
        },
        2 => change(ServerTrigger::PromptsChanged),
        3 => change(ServerTrigger::ResourcesChanged),
        _ => match uri {
            Some(uri) => change(ServerTrigger::ResourceUpdated { uri }),
            None => {
                let what = note!(
                    "file.what.updated_uri",
                    "the URI of the resource that changed"
                );
                missing(e, &f, "uri", &what);
                None
            }
        },
    }
}

/// What each step's `do` allows besides `do` and `say`.
pub(super) const ACTIONS: &[(&str, &[&str])] = &[
    ("discover", &["version"]),
    (
        "list",
        &[
            "what",
            "follow",
            "declare",
            "version",
            "retryOnMissingCapability",
            "background",
        ],
    ),
    (
        "call",
        &[
            "tool",
            "arguments",
            "_meta",
            "declare",
            "version",
            "retryOnMissingCapability",
            "background",
        ],
    ),
    (
        "read",
        &[
            "uri",
            "declare",
            "version",
            "retryOnMissingCapability",
            "background",
        ],
    ),
    (
        "get-prompt",
        &[
            "name",
            "arguments",
            "declare",
            "version",
            "retryOnMissingCapability",
            "background",
        ],
    ),
    (
        "request",
        &[
            "method",
            "params",
            "declare",
            "version",
            "retryOnMissingCapability",
            "background",
        ],
    ),
    ("send", &["text", "headers", "violation", "note", "rules"]),
    ("declare", &["capabilities"]),
    ("drop", &["capability"]),
    ("wait", &["ms"]),
    ("disconnect", &[]),
    ("say", &["text"]),
];

/// The lists a `list` step can ask for, with their methods.
pub(in crate::scenarios::file) const LISTS: &[(&str, &str)] = &[
    ("tools", crate::protocol::methods::TOOLS_LIST),
    ("resources", crate::protocol::methods::RESOURCES_LIST),
    ("prompts", crate::protocol::methods::PROMPTS_LIST),
    (
        "resource-templates",
        crate::protocol::methods::RESOURCES_TEMPLATES_LIST,
    ),
];

/// The top-level client capabilities a `drop` step can name.
pub(in crate::scenarios::file) const DROPPABLE: &[&str] = &[
    "elicitation",
    "sampling",
    "roots",
    "extensions",
    "experimental",
];

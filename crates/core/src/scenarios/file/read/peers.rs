//! The file's servers (tools, questions, resources, prompts) and clients,
//! each from a preset or written out.

use super::*;

pub(super) fn preset(
    e: &mut Errors,
    f: &Fields,
    known: &[(&str, &str)],
    what: &Note,
) -> Option<String> {
    let v = f.get("preset")?;
    let ids: Vec<&str> = known.iter().map(|(id, _)| *id).collect();
    match v.as_str() {
        Some(s) if ids.contains(&s) => Some(s.to_string()),
        _ => {
            e.at(
                &f.path("preset"),
                note!(
                    "file.preset",
                    "expected {what}: {list}, got {got}",
                    what = what,
                    list = quoted_list(&ids),
                    got = got(v)
                ),
            );
            None
        }
    }
}

/// The keys of a server and a client definition alike, in the README's
/// order (each kind's own keys follow).
pub(super) const PEER_KEYS: &[&str] = &[
    "id",
    "preset",
    "name",
    "version",
    "era",
    "modernVersions",
    "legacyVersions",
    "capabilities",
];

/// Reads what a server and a client definition share but the id, which
/// the caller reads last (`presets`: the kind's presets, `what`: "a server
/// preset", `caps`: its capability reader).
pub(super) fn peer<C>(
    e: &mut Errors,
    f: &Fields,
    presets: &[(&str, &str)],
    what: &Note,
    caps: fn(&mut Errors, &str, &Value) -> Option<C>,
) -> PeerDef<C> {
    PeerDef {
        id: String::new(),
        preset: preset(e, f, presets, what),
        name: name(e, f, "name", false),
        version: name(e, f, "version", false),
        era: choice(e, f, "era", ERAS),
        modern_versions: versions(e, f, "modernVersions"),
        legacy_versions: versions(e, f, "legacyVersions"),
        capabilities: f
            .get("capabilities")
            .and_then(|v| caps(e, &f.path("capabilities"), v)),
    }
}

pub(super) fn server(e: &mut Errors, path: &str, value: &Value) -> Option<ServerDef> {
    const KEYS: &[&str] = &[
        "instructions",
        "cache",
        "tools",
        "resources",
        "resourceTemplates",
        "prompts",
        "checksCapabilityBeforeWork",
        "unknownMethods",
        "firstRequestId",
        "pageSize",
        "policy",
    ];
    let what = note!("file.what.server", "a server");
    let f = fields(e, path, value, &what, &[PEER_KEYS, KEYS].concat())?;
    let before = e.0.len();
    let mut def = ServerDef {
        peer: peer(
            e,
            &f,
            crate::server::presets::PRESETS,
            &note!("file.what.server_preset", "a server preset"),
            server_caps,
        ),
        instructions: match f.get("instructions") {
            None => None,
            Some(Value::Null) => Some(None),
            Some(v) => check_text(
                e,
                &f.path("instructions"),
                v,
                &note!("file.what.text_or_null", "a text or null"),
                MAX_TEXT,
                false,
            )
            .map(Some),
        },
        tools: items(
            e,
            &f,
            "tools",
            &note!("file.what.tools", "tools"),
            MAX_ITEMS,
            tool,
        ),
        resources: items(
            e,
            &f,
            "resources",
            &note!("file.what.resources", "resources"),
            MAX_ITEMS,
            resource,
        ),
        resource_templates: items(
            e,
            &f,
            "resourceTemplates",
            &note!("file.what.resource_templates", "resource templates"),
            MAX_ITEMS,
            template,
        ),
        prompts: items(
            e,
            &f,
            "prompts",
            &note!("file.what.prompts", "prompts"),
            MAX_ITEMS,
            prompt,
        ),
        checks_capability_before_work: boolean(e, &f, "checksCapabilityBeforeWork"),
        unknown_methods: choice(
            e,
            &f,
            "unknownMethods",
            &[
                ("answer", UnknownMethodPolicy::Answer),
                ("silent", UnknownMethodPolicy::Silent),
            ],
        ),
        first_request_id: uint(e, &f, "firstRequestId", MAX_FIRST_ID as u64).map(|n| n as i64),
        page_size: f
            .get("pageSize")
            .and_then(|v| integer(e, &f.path("pageSize"), v, 1, MAX_ITEMS as u64))
            .map(|n| n as usize),
        policy: f
            .get("policy")
            .and_then(|v| super::identity::policy(e, &f.path("policy"), v)),
        ..ServerDef::default()
    };
    if let Some(v) = f.get("cache") {
        let what = note!("file.what.cache", "a cache hint");
        if let Some(c) = fields(e, &f.path("cache"), v, &what, &["ttlMs", "scope"]) {
            def.ttl_ms = uint(e, &c, "ttlMs", MAX_TTL_MS);
            def.cache_scope = choice(
                e,
                &c,
                "scope",
                &[
                    ("public", CacheScope::Public),
                    ("private", CacheScope::Private),
                ],
            );
        }
    }
    if let Some(tools) = &def.tools {
        unique(
            e,
            &f.path("tools"),
            tools.iter().map(|t| t.name.as_str()),
            "name",
            &note!("file.what.the_tool", "the tool"),
        );
    }
    if let Some(tools) = &def.tools {
        handles_returned(e, &f.path("tools"), tools);
    }
    if let Some(prompts) = &def.prompts {
        unique(
            e,
            &f.path("prompts"),
            prompts.iter().map(|p| p.name.as_str()),
            "name",
            &note!("file.what.the_prompt", "the prompt"),
        );
    }
    if let Some(resources) = &def.resources {
        unique(
            e,
            &f.path("resources"),
            resources.iter().map(|r| r.uri.as_str()),
            "uri",
            &note!("file.what.the_resource", "the resource"),
        );
    }
    def.peer.id = id(e, &f, "id", true)?;
    (e.0.len() == before).then_some(def)
}

/// Each handle a tool `uses` is one some tool of the same server
/// `returns` (M-TOOL-HANDLE): else no call could ever pass it, and every
/// call of the tool would be refused. `path`: the server's `tools`.
fn handles_returned(e: &mut Errors, path: &str, tools: &[ToolDef]) {
    let returned: Vec<&str> = tools
        .iter()
        .filter_map(|t| t.state.returns.as_ref().map(|r| r.handle.as_str()))
        .collect();
    for (n, tool) in tools.iter().enumerate() {
        let Some(uses) = &tool.state.uses else {
            continue;
        };
        if returned.contains(&uses.handle.as_str()) {
            continue;
        }
        e.at(
            &format!("{}.uses.handle", item(path, n)),
            note!(
                "file.uses_unreturned",
                "the tool {tool} uses a \"{handle}\" handle, which no tool of this server returns: give the tool that makes one \"returns\": {{\"handle\": \"{handle}\"}}",
                tool = tool.name.clone(),
                handle = uses.handle.clone()
            ),
        );
    }
}

pub(super) fn tool(e: &mut Errors, path: &str, value: &Value) -> Option<ToolDef> {
    const KEYS: &[&str] = &[
        "name",
        "description",
        "inputSchema",
        "requires",
        "asks",
        "refusalMessage",
        "sideEffect",
        "result",
        "errors",
        "progress",
        "durationMs",
        "rateLimit",
        "returns",
        "uses",
        "quarantine",
        "title",
        "annotations",
        "icons",
        "_meta",
    ];
    let f = fields(e, path, value, &note!("file.what.tool", "a tool"), KEYS)?;
    let before = e.0.len();
    let result = text(e, &f, "result", false);
    let state = super::state::tool_state(e, &f, result.as_deref());
    let def = ToolDef {
        name: tool_name(e, &f, "name").unwrap_or_default(),
        description: text(e, &f, "description", false),
        input_schema: object_schema(e, &f, "inputSchema"),
        requires: f
            .get("requires")
            .and_then(|v| client_caps(e, &f.path("requires"), v)),
        asks: f.get("asks").and_then(|v| question(e, &f.path("asks"), v)),
        refusal_message: text(e, &f, "refusalMessage", false),
        side_effect: name(e, &f, "sideEffect", false),
        result,
        errors: items(
            e,
            &f,
            "errors",
            &note!("file.what.tool_failures", "failures"),
            MAX_LIST,
            failure,
        ),
        progress: f
            .get("progress")
            .and_then(|v| progress(e, &f.path("progress"), v)),
        duration_ms: uint(e, &f, "durationMs", MAX_MS),
        state,
        shown: shown(e, &f),
    };
    (e.0.len() == before).then_some(def)
}

/// What a tool's listing shows as written: `title` (text), `annotations`
/// and `_meta` (objects), `icons` (a list of objects, each with a `src`).
fn shown(e: &mut Errors, f: &Fields) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(title) = text(e, f, "title", false) {
        out.insert("title".into(), Value::String(title));
    }
    let what = note!("file.what.shown_object", "an object");
    for key in ["annotations", "_meta"] {
        if let Some(v) = object(e, f, key, &what) {
            out.insert(key.into(), v);
        }
    }
    if let Some(v) = f.get("icons") {
        let fine = v.as_array().is_some_and(|list| {
            list.len() <= MAX_LIST
                && list
                    .iter()
                    .all(|i| i.get("src").is_some_and(Value::is_string))
        });
        if fine {
            out.insert("icons".into(), v.clone());
        } else {
            let what = note!(
                "file.what.icons",
                "a list of icons, each an object with a \"src\" URL"
            );
            e.at(&f.path("icons"), expected(&what, v));
        }
    }
    out
}

/// A failure a tool declares: `{"when": {…arguments…}, "message": "…"}`.
pub(super) fn failure(e: &mut Errors, path: &str, value: &Value) -> Option<ToolFailure> {
    let what = note!(
        "file.what.tool_failure",
        "a failure ({{\"when\": {{…}}, \"message\": \"…\"}})"
    );
    let f = fields(e, path, value, &what, &["when", "message"])?;
    let args = note!(
        "file.what.failure_when",
        "the arguments that make the tool fail"
    );
    let when = object(e, &f, "when", &args).unwrap_or_else(|| Value::Object(Map::new()));
    let message = text(e, &f, "message", true)?;
    Some(ToolFailure { when, message })
}

/// A tool's progress: a count of notifications, or the notifications
/// (`{"progress": 1, "total": 3, "message": "…"}`), at most [`MAX_LIST`].
pub(super) fn progress(e: &mut Errors, path: &str, value: &Value) -> Option<Vec<ProgressStep>> {
    if value.is_number() {
        let count = integer(e, path, value, 1, MAX_LIST as u64)?;
        return Some(
            (1..=count)
                .map(|i| ProgressStep {
                    progress: i as f64,
                    total: Some(count as f64),
                    message: None,
                })
                .collect(),
        );
    }
    let what = note!(
        "file.what.progress",
        "a count of progress notifications, or a list of them"
    );
    let Some(list) = value.as_array() else {
        e.at(path, expected(&what, value));
        return None;
    };
    if list.len() > MAX_LIST {
        e.at(path, too_many(list.len(), &what, MAX_LIST));
        return None;
    }
    let before = e.0.len();
    let mut out = Vec::new();
    let mut last = f64::NEG_INFINITY;
    for (i, v) in list.iter().enumerate() {
        let at = item(path, i);
        let one = note!(
            "file.what.progress_step",
            "a progress notification ({{\"progress\": 1, \"total\": 3, \"message\": \"…\"}})"
        );
        let Some(f) = fields(e, &at, v, &one, &["progress", "total", "message"]) else {
            continue;
        };
        let number = |e: &mut Errors, key: &str| -> Option<f64> {
            let v = f.get(key)?;
            match v.as_f64() {
                Some(n) if n >= 0.0 && n.is_finite() => Some(n),
                _ => {
                    let what = note!("file.what.progress_number", "a number, 0 or more");
                    e.at(&f.path(key), expected(&what, v));
                    None
                }
            }
        };
        let progress = number(e, "progress");
        if f.get("progress").is_none() {
            let what = note!("file.what.progress_number", "a number, 0 or more");
            missing(e, &f, "progress", &what);
        }
        let total = number(e, "total");
        let message = text(e, &f, "message", false);
        if let Some(progress) = progress {
            if progress <= last {
                e.at(
                    &f.path("progress"),
                    note!(
                        "file.progress_grows",
                        "progress must grow from one notification to the next"
                    ),
                );
            }
            last = progress;
            out.push(ProgressStep {
                progress,
                total,
                message,
            });
        }
    }
    (e.0.len() == before).then_some(out)
}

pub(super) fn question(e: &mut Errors, path: &str, value: &Value) -> Option<QuestionDef> {
    const KEYS: &[&str] = &[
        "message",
        "requestedSchema",
        "url",
        "argument",
        "fallbackError",
    ];
    let f = fields(
        e,
        path,
        value,
        &note!("file.what.question", "a question"),
        KEYS,
    )?;
    let message = text(e, &f, "message", true);
    // URL mode: a page to open, no fields to fill.
    let url = text(e, &f, "url", false);
    if let Some(u) = &url {
        if !(u.starts_with("https://") || u.starts_with("http://")) {
            let what = note!("file.what.elicitation_url", "an http or https URL");
            e.at(&f.path("url"), expected(&what, &Value::String(u.clone())));
        }
    }
    let schema = match f.get("requestedSchema") {
        None if url.is_some() => Some(serde_json::json!({"type": "object", "properties": {}})),
        None => {
            let what = note!("file.what.object_schema", "a JSON Schema of an object");
            missing(e, &f, "requestedSchema", &what);
            None
        }
        Some(_) => object_schema(e, &f, "requestedSchema"),
    };
    let argument = name(e, &f, "argument", false);
    let fallback_error = text(e, &f, "fallbackError", false);
    Some(QuestionDef {
        message: message?,
        requested_schema: schema?,
        argument,
        fallback_error,
        url,
    })
}

pub(super) fn resource(e: &mut Errors, path: &str, value: &Value) -> Option<ResourceDef> {
    let what = note!("file.what.resource", "a resource");
    let f = fields(
        e,
        path,
        value,
        &what,
        &["uri", "name", "text", "description", "mimeType"],
    )?;
    let uri = name(e, &f, "uri", true);
    let name = name(e, &f, "name", false);
    let description = text(e, &f, "description", false);
    let mime_type = text(e, &f, "mimeType", false);
    let text = text(e, &f, "text", false);
    Some(ResourceDef {
        uri: uri?,
        name,
        text,
        description,
        mime_type,
    })
}

/// A resource template: `{uriTemplate, name, description, mimeType, text}`,
/// `{name}` placeholders of the template filled into `text` on a read.
pub(super) fn template(
    e: &mut Errors,
    path: &str,
    value: &Value,
) -> Option<crate::server::config::TemplateSpec> {
    let what = note!("file.what.resource_template", "a resource template");
    let f = fields(
        e,
        path,
        value,
        &what,
        &["uriTemplate", "name", "description", "mimeType", "text"],
    )?;
    let uri_template = text(e, &f, "uriTemplate", true);
    let name = name(e, &f, "name", false);
    let description = text(e, &f, "description", false);
    let mime_type = text(e, &f, "mimeType", false);
    let text = text(e, &f, "text", false);
    let uri_template = uri_template?;
    Some(crate::server::config::TemplateSpec {
        name: name.unwrap_or_else(|| uri_template.clone()),
        uri_template,
        description: description.unwrap_or_default(),
        mime_type: mime_type.unwrap_or_else(|| "text/plain".into()),
        text: text.unwrap_or_default(),
    })
}

pub(super) fn prompt(e: &mut Errors, path: &str, value: &Value) -> Option<PromptDef> {
    let what = note!("file.what.prompt", "a prompt");
    let f = fields(
        e,
        path,
        value,
        &what,
        &["name", "description", "arguments", "messages"],
    )?;
    let name = name(e, &f, "name", true);
    let description = text(e, &f, "description", false);
    let arguments = items(
        e,
        &f,
        "arguments",
        &note!("file.what.prompt_argument_list", "prompt arguments"),
        MAX_LIST,
        prompt_argument,
    );
    let messages = items(
        e,
        &f,
        "messages",
        &note!("file.what.prompt_message_list", "prompt messages"),
        MAX_LIST,
        prompt_message,
    );
    Some(PromptDef {
        name: name?,
        description,
        arguments: arguments.unwrap_or_default(),
        messages: messages.unwrap_or_default(),
    })
}

/// A prompt argument: `{"name": "city", "description": "…", "required": true}`.
fn prompt_argument(e: &mut Errors, path: &str, value: &Value) -> Option<PromptArgument> {
    let what = note!("file.what.prompt_argument", "a prompt argument");
    let f = fields(e, path, value, &what, &["name", "description", "required"])?;
    let name = name(e, &f, "name", true);
    let description = text(e, &f, "description", false);
    let required = boolean(e, &f, "required");
    Some(PromptArgument {
        name: name?,
        description: description.unwrap_or_default(),
        required: required.unwrap_or(false),
        values: Vec::new(),
    })
}

/// A prompt message: `{"role": "user", "text": "…{city}…"}`.
fn prompt_message(e: &mut Errors, path: &str, value: &Value) -> Option<Value> {
    let what = note!(
        "file.what.prompt_message",
        "a prompt message ({{\"role\": \"user\", \"text\": \"…\"}})"
    );
    let f = fields(e, path, value, &what, &["role", "text"])?;
    let role = choice(
        e,
        &f,
        "role",
        &[("user", "user"), ("assistant", "assistant")],
    );
    if f.get("role").is_none() {
        missing(e, &f, "role", &quoted_list(&["user", "assistant"]));
    }
    let text = text(e, &f, "text", true);
    Some(serde_json::json!({"role": role?, "content": {"type": "text", "text": text?}}))
}

pub(super) fn client(e: &mut Errors, path: &str, value: &Value) -> Option<ClientDef> {
    const KEYS: &[&str] = &[
        "discoverFirst",
        "undeclaredRequests",
        "requestTimeoutMs",
        "probeTimeoutMs",
        "hostKillMs",
        "debounceMs",
        "firstId",
        "principal",
        "token",
    ];
    let what = note!("file.what.client", "a client");
    let f = fields(e, path, value, &what, &[PEER_KEYS, KEYS].concat())?;
    let before = e.0.len();
    let mut def = ClientDef {
        peer: peer(
            e,
            &f,
            crate::client::presets::PRESETS,
            &note!("file.what.client_preset", "a client preset"),
            client_caps,
        ),
        discover_first: boolean(e, &f, "discoverFirst"),
        undeclared_requests: choice(e, &f, "undeclaredRequests", UNDECLARED),
        request_timeout_ms: nullable_uint(e, &f, "requestTimeoutMs", MAX_MS),
        probe_timeout_ms: uint(e, &f, "probeTimeoutMs", MAX_MS),
        host_kill_ms: nullable_uint(e, &f, "hostKillMs", MAX_MS),
        debounce_ms: uint(e, &f, "debounceMs", MAX_MS),
        first_id: uint(e, &f, "firstId", MAX_FIRST_ID as u64).map(|n| n as i64),
        identity: super::identity::identity(e, &f),
    };
    def.peer.id = id(e, &f, "id", true)?;
    (e.0.len() == before).then_some(def)
}

/// The file's words for what a client does with an undeclared request.
pub(in crate::scenarios::file) const UNDECLARED: &[(&str, UndeclaredPolicy)] = &[
    ("method-not-found", UndeclaredPolicy::MethodNotFound),
    ("drop", UndeclaredPolicy::Drop),
    ("close", UndeclaredPolicy::Close),
];

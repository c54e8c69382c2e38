//! What each field of a message means: for every key a message can carry
//! (every property the official schemas define, the reserved `_meta` keys,
//! the error codes and their `data`, the HTTP headers the simulator
//! draws), a short explanation, the rules that govern it and the spec
//! section that defines it.
//!
//! An explanation is a catalog entry (`field.<key>` in
//! `www/i18n/<tag>.rules.json`, beside the rules' summaries, fetched with
//! them); its English is [`Field::text`] (left out of WebAssembly unless
//! the `text` feature asks, as the summaries are). Explanations are
//! shared by key name where the meaning is the same; where a name means
//! different things, the object it sits in decides (`error.code`, a
//! capability, a schema keyword, a name the tool's author chose).
//!
//! [`step`] explains one key given where it sits; [`walk`] explains every
//! key of a message, each with its path (`result.ttlMs`,
//! `params._meta["io.modelcontextprotocol/protocolVersion"]`).

mod table;

use serde_json::Value;

use crate::rules::RuleId;

pub use table::{ABBREVIATIONS, ABBRS, CODES, FIELDS, HEADERS};

/// One explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The catalog key without its `field.` prefix (`ttlMs`,
    /// `meta.protocolVersion`, `code.-32022`, `header.mcp-method`).
    pub key: &'static str,
    /// What it means, in English (the catalog's `field.<key>`).
    pub text: &'static str,
    /// The rules that govern it (may be none).
    pub rules: &'static [RuleId],
    /// The spec section that defines it (`2026-07-28/server/utilities/caching`).
    pub section: &'static str,
}

impl Field {
    /// The key in the page's catalogs (`field.<key>`).
    pub fn catalog_key(&self) -> String {
        format!("field.{}", self.key)
    }

    /// A link to the spec section (empty when there is none).
    pub fn spec_url(&self) -> String {
        if self.section.is_empty() {
            String::new()
        } else if self.section.starts_with("http") {
            self.section.to_string()
        } else {
            format!(
                "https://modelcontextprotocol.io/specification/{}",
                self.section
            )
        }
    }
}

/// The explanation with catalog key `key` (without `field.`).
pub fn find(key: &str) -> Option<&'static Field> {
    all().find(|f| f.key == key)
}

fn must(key: &str) -> &'static Field {
    // The table holds every key this module names (a test says so).
    find(key).unwrap_or(&table::UNKNOWN)
}

/// Every explanation there is, in catalog order.
pub fn all() -> impl Iterator<Item = &'static Field> {
    FIELDS.iter().chain(CODES).chain(HEADERS).chain(ABBRS)
}

/// What an abbreviation of the rules and notes stands for (`PV`, `MRTR`).
pub fn abbreviation(abbr: &str) -> Option<&'static Field> {
    find(&format!("abbr.{abbr}"))
}

/// What an error code means (`None` for a code MCP and JSON-RPC do not
/// define).
pub fn code(code: i64) -> Option<&'static Field> {
    find(&format!("code.{code}"))
}

/// What an HTTP header means (any case; `Mcp-Param-*` share one).
pub fn header(name: &str) -> Option<&'static Field> {
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("mcp-param-") {
        return find("header.mcp-param");
    }
    find(&format!("header.{lower}"))
}

/// Where a key sits, which decides what its name means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctx {
    /// An object of the protocol (the message, its params or result, ...).
    Message,
    /// A `_meta` object.
    Meta,
    /// A capabilities object: its keys are capability names.
    Caps,
    /// Inside one capability (`elicitation.form`, `tools.listChanged`).
    Capability,
    /// A JSON Schema node (`inputSchema`, `requestedSchema`, ...).
    Schema,
    /// An object whose keys someone chose (a tool's arguments, a schema's
    /// property names): each key is explained as what it is an entry of.
    Names(Free),
    /// Data inside such an entry: any key is part of that value.
    Data(Free),
}

/// What a chosen name is an entry of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Free {
    /// A tool call's `arguments`.
    Argument,
    /// A schema's `properties`.
    Property,
    /// A tool result's `structuredContent`.
    Structured,
    /// An elicitation answer's `content`.
    Answer,
    /// A `_meta` key MCP does not reserve.
    Meta,
    /// `experimental` capabilities.
    Experimental,
    /// `extensions`.
    Extension,
    /// The keys of `inputRequests` / `inputResponses`.
    InputKey,
    /// A value inside a schema keyword (`default`, `enum`, `const`).
    Value,
}

impl Free {
    fn key(self) -> &'static str {
        match self {
            Free::Argument => "any.argument",
            Free::Property => "any.property",
            Free::Structured => "any.structured",
            Free::Answer => "any.answer",
            Free::Meta => "any.meta",
            Free::Experimental => "any.experimental",
            Free::Extension => "any.extension",
            Free::InputKey => "any.input",
            Free::Value => "any.value",
        }
    }
}

/// The JSON Schema keywords a schema node may use (explained as
/// `schema.<keyword>`).
const SCHEMA_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "description",
    "title",
    "items",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "const",
    "default",
    "format",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "additionalProperties",
    "$schema",
    "$ref",
    "$defs",
    "pattern",
    "x-mcp-header",
];

/// Explains `key` (with its `value`) inside an object at `ctx` whose own
/// key was `parent`; gives the explanation and where the value's keys sit.
pub fn step(ctx: Ctx, parent: Option<&str>, key: &str, value: &Value) -> (&'static Field, Ctx) {
    match ctx {
        Ctx::Names(free) => {
            let inside = match free {
                Free::Property => Ctx::Schema,
                Free::InputKey => Ctx::Message,
                other => Ctx::Data(other),
            };
            (must(free.key()), inside)
        }
        Ctx::Data(free) => (must(free.key()), Ctx::Data(free)),
        Ctx::Meta => match key {
            crate::protocol::meta::PROTOCOL_VERSION => (must("meta.protocolVersion"), Ctx::Message),
            crate::protocol::meta::CLIENT_CAPABILITIES => {
                (must("meta.clientCapabilities"), Ctx::Caps)
            }
            crate::protocol::meta::CLIENT_INFO => (must("meta.clientInfo"), Ctx::Message),
            crate::protocol::meta::SERVER_INFO => (must("meta.serverInfo"), Ctx::Message),
            crate::protocol::meta::LOG_LEVEL => (must("meta.logLevel"), Ctx::Message),
            crate::protocol::meta::SUBSCRIPTION_ID => (must("meta.subscriptionId"), Ctx::Message),
            crate::protocol::meta::TASKS_EXTENSION => {
                (must("meta.tasks"), Ctx::Data(Free::Extension))
            }
            crate::protocol::meta::PROGRESS_TOKEN => (must("progressToken"), Ctx::Message),
            _ => (must("any.meta"), Ctx::Data(Free::Meta)),
        },
        Ctx::Caps => match key {
            "experimental" => (must("cap.experimental"), Ctx::Names(Free::Experimental)),
            "extensions" => (must("cap.extensions"), Ctx::Names(Free::Extension)),
            _ => match find(&format!("cap.{key}")) {
                Some(f) => (f, Ctx::Capability),
                None => (must("any.unknown"), Ctx::Data(Free::Value)),
            },
        },
        Ctx::Capability => {
            let qualified = parent.and_then(|p| find(&format!("capsub.{p}.{key}")));
            match qualified.or_else(|| find(&format!("capsub.{key}"))) {
                Some(f) => (f, Ctx::Capability),
                None => message(parent, key, value),
            }
        }
        Ctx::Schema => {
            if key == "properties" {
                (must("schema.properties"), Ctx::Names(Free::Property))
            } else if SCHEMA_KEYWORDS.contains(&key) {
                let inside = match key {
                    "items" | "additionalProperties" | "oneOf" | "anyOf" | "$defs" => Ctx::Schema,
                    _ => Ctx::Data(Free::Value),
                };
                (must(&format!("schema.{key}")), inside)
            } else {
                (must("schema.other"), Ctx::Data(Free::Value))
            }
        }
        Ctx::Message => message(parent, key, value),
    }
}

fn message(parent: Option<&str>, key: &str, value: &Value) -> (&'static Field, Ctx) {
    let inside = match key {
        "_meta" => Ctx::Meta,
        "capabilities" | "requiredCapabilities" => Ctx::Caps,
        "inputSchema" | "outputSchema" | "requestedSchema" => Ctx::Schema,
        "arguments" | "input" if value.is_object() => Ctx::Names(Free::Argument),
        "metadata" => Ctx::Data(Free::Value),
        "structuredContent" => Ctx::Names(Free::Structured),
        "content" if value.is_object() => Ctx::Names(Free::Answer),
        "experimental" => Ctx::Names(Free::Experimental),
        "extensions" => Ctx::Names(Free::Extension),
        "inputRequests" | "inputResponses" => Ctx::Names(Free::InputKey),
        _ => Ctx::Message,
    };
    if parent == Some("error") && key == "code" {
        if let Some(f) = value.as_i64().and_then(code) {
            return (f, inside);
        }
    }
    if key == "content" && value.is_object() {
        return (must("content.answer"), inside);
    }
    let field = parent
        .and_then(|p| find(&format!("{p}.{key}")))
        .or_else(|| find(key))
        .unwrap_or(&table::UNKNOWN);
    (field, inside)
}

/// One explained key of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// Where it is (`result.ttlMs`, `result.tools[0].name`).
    pub path: String,
    /// The key as written (`ttlMs`, `io.modelcontextprotocol/protocolVersion`).
    pub key: String,
    /// What it means.
    pub field: &'static Field,
}

/// Appends `key` to a path: `.key`, or `["key"]` when it is not a plain
/// name (the first key has no dot).
pub fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '-');
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        path.push_str("[\"");
        for c in key.chars() {
            if c == '"' || c == '\\' {
                path.push('\\');
            }
            path.push(c);
        }
        path.push_str("\"]");
    }
}

/// Appends an array index to a path: `[i]`.
pub fn push_index(path: &mut String, i: usize) {
    path.push_str(&format!("[{i}]"));
}

/// Every key of a message (its parsed body), in document order, each with
/// its path and explanation.
pub fn walk(message: &Value) -> Vec<Explained> {
    let mut out = Vec::new();
    walk_into(message, Ctx::Message, None, &mut String::new(), &mut out);
    out
}

fn walk_into(
    value: &Value,
    ctx: Ctx,
    parent: Option<&str>,
    path: &mut String,
    out: &mut Vec<Explained>,
) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                let (field, inside) = step(ctx, parent, key, v);
                let len = path.len();
                push_key(path, key);
                out.push(Explained {
                    path: path.clone(),
                    key: key.clone(),
                    field,
                });
                walk_into(v, inside, Some(key), path, out);
                path.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let len = path.len();
                push_index(path, i);
                walk_into(v, ctx, parent, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;

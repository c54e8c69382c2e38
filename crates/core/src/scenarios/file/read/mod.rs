//! The validator: reads a parsed file into the types of `types.rs` and
//! collects every problem on the way, each with its JSON path and a
//! sentence (hand-written checks, like `protocol::shape`: a JSON Schema
//! engine would cost about 720 KB gzip in the browser). Reading goes on
//! after a problem so one pass reports them all; the caller builds nothing
//! unless the list is empty.

use serde_json::{Map, Value};

use super::limits::*;
use super::types::*;
use super::FileError;
use crate::client::UndeclaredPolicy;
use crate::note;
use crate::note::{IntoArg, Note};
use crate::protocol::capabilities::ListCapability;
use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, ServerCapabilities};
use crate::server::{
    CacheScope, ProgressStep, PromptArgument, ServerTrigger, ToolFailure, UnknownMethodPolicy,
};
use crate::transport::TransportKind;

mod caps;
mod identity;
mod peers;
mod scripted;
mod setups;
mod state;
mod steps;
mod translations;

use caps::*;
use peers::*;
use setups::*;
use steps::*;
use translations::*;

pub(super) use caps::client_caps;
pub(super) use peers::UNDECLARED;
pub(super) use setups::{DROPPABLE, LISTS};

/// The value of the file's `format` key.
pub const FORMAT: &str = "mcp-lanes-scenario/1";

/// Longest protocol version string.
const MAX_VERSION: usize = 40;

/// The problems found so far.
#[derive(Debug, Default)]
pub(super) struct Errors(pub(super) Vec<FileError>);

impl Errors {
    pub(super) fn at(&mut self, path: &str, message: Note) {
        self.0.push(FileError::new(path, message));
    }
}

/// Appends `.key` (or `["key"]` when the key is not a plain name) to a path.
pub(crate) fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !key.starts_with(|c: char| c.is_ascii_digit());
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        path.push('[');
        path.push_str(&Value::from(key).to_string());
        path.push(']');
    }
}

pub(super) fn child(path: &str, key: &str) -> String {
    let mut out = path.to_string();
    push_key(&mut out, key);
    out
}

fn item(path: &str, index: usize) -> String {
    format!("{path}[{index}]")
}

/// A short rendering of what was found, for "got ...".
pub(super) fn got(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        text
    } else {
        let short: String = text.chars().take(57).collect();
        format!("{short}…")
    }
}

/// `"a", "b" or "c"` (the names are said as they are).
pub(super) fn quoted_list(names: &[&str]) -> Note {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.into_arg(),
        Some((last, rest)) => note!(
            "file.or",
            "{list} or {last}",
            list = rest.join(", "),
            last = last
        ),
        None => "".into_arg(),
    }
}

/// Edit distance, for "did you mean" (names are short).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn suggestion(key: &str, known: &[&str]) -> Note {
    known
        .iter()
        .map(|k| (distance(&key.to_lowercase(), &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| note!("file.did_you_mean", " (did you mean \"{name}\"?)", name = k))
        .unwrap_or_else(|| "".into_arg())
}

/// An object whose keys were checked against the ones allowed.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Fields<'a> {
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }
    fn path(&self, key: &str) -> String {
        child(&self.path, key)
    }
}

/// Checks that `value` is an object (`what`, e.g. "a server") with no keys
/// besides `keys`; each unknown key is its own error.
fn fields<'a>(
    e: &mut Errors,
    path: &str,
    value: &'a Value,
    what: &Note,
    keys: &[&str],
) -> Option<Fields<'a>> {
    let Some(map) = value.as_object() else {
        e.at(path, expected_object(what, value));
        return None;
    };
    for key in map.keys() {
        if !keys.contains(&key.as_str()) {
            e.at(
                &child(path, key),
                note!(
                    "file.unknown_key",
                    "unknown key in {what}{suggestion}; expected one of: {keys}",
                    what = what,
                    suggestion = suggestion(key, keys),
                    keys = keys.join(", ")
                ),
            );
        }
    }
    Some(Fields {
        map,
        path: path.to_string(),
    })
}

fn missing(e: &mut Errors, f: &Fields, key: &str, what: &Note) {
    e.at(
        &f.path(key),
        note!("file.required", "required: {what}", what = what),
    );
}

/// "expected `what`, got `value`".
fn expected(what: &Note, value: &Value) -> Note {
    note!(
        "file.expected",
        "expected {what}, got {got}",
        what = what,
        got = got(value)
    )
}

/// "expected `what` (an object), got `value`".
fn expected_object(what: &Note, value: &Value) -> Note {
    note!(
        "file.expected_object",
        "expected {what} (an object), got {got}",
        what = what,
        got = got(value)
    )
}

/// "`count` `what`, more than the limit of `max`".
fn too_many(count: usize, what: &Note, max: usize) -> Note {
    note!(
        "file.too_many",
        "{count} {what}, more than the limit of {max}",
        count = count,
        what = what,
        max = max
    )
}

/// Checks a string against a length limit (in characters) and, for short
/// names, control characters.
fn check_text(
    e: &mut Errors,
    path: &str,
    value: &Value,
    what: &Note,
    max: usize,
    single_line: bool,
) -> Option<String> {
    let Some(text) = value.as_str() else {
        e.at(path, expected(what, value));
        return None;
    };
    let count = text.chars().count();
    if count > max {
        e.at(
            path,
            note!(
                "file.too_long",
                "{count} characters, more than the limit of {max} for {what}",
                count = count,
                max = max,
                what = what
            ),
        );
        return None;
    }
    if single_line && text.chars().any(char::is_control) {
        e.at(
            path,
            note!(
                "file.one_line",
                "expected {what} on one line, without control characters",
                what = what
            ),
        );
        return None;
    }
    Some(text.to_string())
}

fn a_text() -> Note {
    note!("file.what.text", "a text")
}

fn text(e: &mut Errors, f: &Fields, key: &str, required: bool) -> Option<String> {
    match f.get(key) {
        None if required => {
            missing(e, f, key, &a_text());
            None
        }
        None => None,
        Some(v) => check_text(e, &f.path(key), v, &a_text(), MAX_TEXT, false),
    }
}

fn name(e: &mut Errors, f: &Fields, key: &str, required: bool) -> Option<String> {
    match f.get(key) {
        None if required => {
            missing(
                e,
                f,
                key,
                &note!("file.what.name_string", "a name (a string)"),
            );
            None
        }
        None => None,
        Some(v) => {
            let what = note!("file.what.name", "a name");
            let name = check_text(e, &f.path(key), v, &what, MAX_NAME, true)?;
            if name.is_empty() {
                e.at(
                    &f.path(key),
                    note!("file.empty_name", "expected a name, got an empty string"),
                );
                return None;
            }
            Some(name)
        }
    }
}

fn is_id(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn id(e: &mut Errors, f: &Fields, key: &str, required: bool) -> Option<String> {
    let what = note!(
        "file.what.id",
        "an id of lowercase letters, digits and '-', such as \"weather-2\""
    );
    match f.get(key) {
        None if required => {
            missing(e, f, key, &what);
            None
        }
        None => None,
        Some(v) => {
            let path = f.path(key);
            let text = check_text(e, &path, v, &what, MAX_ID, true)?;
            if !is_id(&text) {
                e.at(&path, expected(&what, v));
                return None;
            }
            Some(text)
        }
    }
}

fn is_tool_name(text: &str) -> bool {
    (1..=128).contains(&text.len())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn a_tool_name() -> Note {
    note!(
        "file.what.tool_name",
        "a tool name of 1 to 128 letters, digits, '_', '-' or '.', such as \"forecast\""
    )
}

fn tool_name(e: &mut Errors, f: &Fields, key: &str) -> Option<String> {
    let Some(v) = f.get(key) else {
        missing(e, f, key, &a_tool_name());
        return None;
    };
    tool_name_at(e, &f.path(key), v)
}

/// A tool name at `path` (an item of a list).
fn tool_name_at(e: &mut Errors, path: &str, v: &Value) -> Option<String> {
    match v.as_str() {
        Some(text) if is_tool_name(text) => Some(text.to_string()),
        _ => {
            e.at(path, expected(&a_tool_name(), v));
            None
        }
    }
}

fn integer(e: &mut Errors, path: &str, value: &Value, min: u64, max: u64) -> Option<u64> {
    match value.as_u64() {
        Some(n) if (min..=max).contains(&n) => Some(n),
        Some(n) if n > max => {
            e.at(
                path,
                note!(
                    "file.over_limit",
                    "{n} is more than the limit of {max}",
                    n = n,
                    max = max
                ),
            );
            None
        }
        _ => {
            e.at(
                path,
                note!(
                    "file.expected_number",
                    "expected a whole number from {min} to {max}, got {got}",
                    min = min,
                    max = max,
                    got = got(value)
                ),
            );
            None
        }
    }
}

fn uint(e: &mut Errors, f: &Fields, key: &str, max: u64) -> Option<u64> {
    integer(e, &f.path(key), f.get(key)?, 0, max)
}

/// A number or `null` (`Some(None)`).
fn nullable_uint(e: &mut Errors, f: &Fields, key: &str, max: u64) -> Option<Option<u64>> {
    match f.get(key)? {
        Value::Null => Some(None),
        v => integer(e, &f.path(key), v, 1, max).map(Some),
    }
}

fn boolean(e: &mut Errors, f: &Fields, key: &str) -> Option<bool> {
    let v = f.get(key)?;
    let b = v.as_bool();
    if b.is_none() {
        e.at(
            &f.path(key),
            note!(
                "file.expected_bool",
                "expected true or false, got {got}",
                got = got(v)
            ),
        );
    }
    b
}

fn choice<T: Copy>(e: &mut Errors, f: &Fields, key: &str, choices: &[(&str, T)]) -> Option<T> {
    let v = f.get(key)?;
    let found = v
        .as_str()
        .and_then(|s| choices.iter().find(|(name, _)| *name == s));
    if found.is_none() {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        e.at(&f.path(key), expected(&quoted_list(&names), v));
    }
    found.map(|(_, t)| *t)
}

/// An array of at most `max` items (`what`: "steps", "tools", ...).
fn list<'a>(
    e: &mut Errors,
    f: &Fields<'a>,
    key: &str,
    what: &Note,
    max: usize,
) -> Option<&'a Vec<Value>> {
    let v = f.get(key)?;
    let Some(items) = v.as_array() else {
        e.at(
            &f.path(key),
            note!(
                "file.expected_array",
                "expected an array of {what}, got {got}",
                what = what,
                got = got(v)
            ),
        );
        return None;
    };
    if items.len() > max {
        e.at(&f.path(key), too_many(items.len(), what, max));
        return None;
    }
    Some(items)
}

/// An object of any content (arguments, params, a JSON Schema).
fn object(e: &mut Errors, f: &Fields, key: &str, what: &Note) -> Option<Value> {
    let v = f.get(key)?;
    if !v.is_object() {
        e.at(&f.path(key), expected_object(what, v));
        return None;
    }
    Some(v.clone())
}

/// A JSON Schema of an object (a tool's inputSchema, a requestedSchema).
fn object_schema(e: &mut Errors, f: &Fields, key: &str) -> Option<Value> {
    let what = note!(
        "file.what.schema",
        "a JSON Schema of an object, such as {{\"type\": \"object\", \"properties\": {{}}}}"
    );
    let v = object(e, f, key, &what)?;
    if v.get("type") != Some(&Value::from("object")) {
        e.at(
            &f.path(key),
            note!(
                "file.schema_type",
                "expected {what}: \"type\" must be \"object\"",
                what = what
            ),
        );
        return None;
    }
    if let Some(p) = v.get("properties") {
        if !p.is_object() {
            let what = note!("file.what.properties", "an object of property schemas");
            e.at(&child(&f.path(key), "properties"), expected(&what, p));
            return None;
        }
    }
    Some(v)
}

fn versions(e: &mut Errors, f: &Fields, key: &str) -> Option<Vec<String>> {
    let what = note!("file.what.versions", "protocol versions");
    let items = list(e, f, key, &what, MAX_VERSIONS)?;
    let path = f.path(key);
    let mut out = Vec::new();
    for (i, v) in items.iter().enumerate() {
        if let Some(text) = check_text(e, &item(&path, i), v, &a_version(), MAX_VERSION, true) {
            out.push(text);
        }
    }
    (out.len() == items.len()).then_some(out)
}

fn a_version() -> Note {
    note!(
        "file.what.version",
        "a protocol version such as \"2026-07-28\""
    )
}

fn version(e: &mut Errors, f: &Fields, key: &str) -> Option<String> {
    check_text(
        e,
        &f.path(key),
        f.get(key)?,
        &a_version(),
        MAX_VERSION,
        true,
    )
}

const ERAS: &[(&str, EraMode)] = &[
    ("modern", EraMode::ModernOnly),
    ("legacy", EraMode::LegacyOnly),
    ("dual", EraMode::DualEra),
];

/// The file's word for an era.
pub(super) fn era_name(era: EraMode) -> &'static str {
    ERAS.iter()
        .find(|(_, e)| *e == era)
        .map(|(n, _)| *n)
        .unwrap_or("modern")
}

/// Reads items of an array with `read`, keeping the array only if every
/// item was read.
fn items<T>(
    e: &mut Errors,
    f: &Fields,
    key: &str,
    what: &Note,
    max: usize,
    mut read: impl FnMut(&mut Errors, &str, &Value) -> Option<T>,
) -> Option<Vec<T>> {
    let values = list(e, f, key, what, max)?;
    let path = f.path(key);
    let mut out = Vec::new();
    for (i, v) in values.iter().enumerate() {
        if let Some(t) = read(e, &item(&path, i), v) {
            out.push(t);
        }
    }
    (out.len() == values.len()).then_some(out)
}

/// Reports names used twice in a list (`what` names the items).
fn unique<'a>(
    e: &mut Errors,
    path: &str,
    names: impl Iterator<Item = &'a str>,
    key: &str,
    what: &Note,
) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, name) in names.enumerate() {
        if let Some(first) = seen.iter().position(|n| *n == name) {
            e.at(
                &child(&item(path, i), key),
                note!(
                    "file.duplicate",
                    "{what} \"{name}\" is already defined at {first}",
                    what = what,
                    name = name,
                    first = item(path, first)
                ),
            );
        }
        seen.push(name);
    }
}

/// Reads a whole file.
pub(super) fn file(e: &mut Errors, value: &Value) -> Option<FileDef> {
    const KEYS: &[&str] = &[
        "$schema",
        "format",
        "id",
        "title",
        "summary",
        "servers",
        "clients",
        "setups",
        "translations",
    ];
    let what = note!("file.what.file", "a scenario file");
    let f = fields(e, "", value, &what, KEYS)?;
    match f.get("format") {
        Some(v) if v.as_str() == Some(FORMAT) => {}
        Some(v) => e.at(
            &f.path("format"),
            note!(
                "file.format",
                "expected \"{format}\" (the only format this version reads), got {got}",
                format = FORMAT,
                got = got(v)
            ),
        ),
        None => missing(e, &f, "format", &format!("\"{FORMAT}\"").into_arg()),
    }
    if let Some(v) = f.get("$schema") {
        let what = note!("file.what.schema_url", "a schema URL");
        check_text(e, &f.path("$schema"), v, &what, MAX_NAME, true);
    }
    let id = id(e, &f, "id", true);
    let title = name(e, &f, "title", false);
    let summary = text(e, &f, "summary", false);
    let what = note!("file.what.servers", "servers");
    let servers = items(e, &f, "servers", &what, MAX_DEFS, server).unwrap_or_default();
    let what = note!("file.what.clients", "clients");
    let clients = items(e, &f, "clients", &what, MAX_DEFS, client).unwrap_or_default();
    let setups = match f.get("setups") {
        None => {
            let what = note!(
                "file.what.setups_array",
                "an array of 1 to {max} set-ups",
                max = MAX_SETUPS
            );
            missing(e, &f, "setups", &what);
            None
        }
        Some(Value::Array(list)) if list.is_empty() => {
            e.at(
                &f.path("setups"),
                note!("file.no_setups", "expected at least one set-up, got []"),
            );
            None
        }
        Some(_) => {
            let what = note!("file.what.setups", "set-ups");
            items(e, &f, "setups", &what, MAX_SETUPS, setup)
        }
    };
    unique(
        e,
        &f.path("servers"),
        servers.iter().map(|s| s.peer.id.as_str()),
        "id",
        &note!("file.what.server_id", "the server id"),
    );
    unique(
        e,
        &f.path("clients"),
        clients.iter().map(|c| c.peer.id.as_str()),
        "id",
        &note!("file.what.client_id", "the client id"),
    );
    let translations = translations(e, &f);
    let id = id?;
    Some(FileDef {
        title: title.unwrap_or_else(|| id.clone()),
        id,
        summary: summary.unwrap_or_default(),
        servers,
        clients,
        setups: setups?,
        translations,
    })
}

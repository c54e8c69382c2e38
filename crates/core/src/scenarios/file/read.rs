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
use crate::server::{CacheScope, ServerTrigger, UnknownMethodPolicy};
use crate::transport::TransportKind;

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

fn tool_name(e: &mut Errors, f: &Fields, key: &str) -> Option<String> {
    let what = note!(
        "file.what.tool_name",
        "a tool name of 1 to 128 letters, digits, '_', '-' or '.', such as \"forecast\""
    );
    let Some(v) = f.get(key) else {
        missing(e, f, key, &what);
        return None;
    };
    match v.as_str() {
        Some(text) if is_tool_name(text) => Some(text.to_string()),
        _ => {
            e.at(&f.path(key), expected(&what, v));
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

fn caps_example() -> Note {
    note!(
        "file.what.caps",
        "an object of capabilities such as {{\"elicitation\": {{}}}}"
    )
}

/// A settings object inside capabilities (`{}` or with settings).
fn settings(e: &mut Errors, path: &str, value: &Value) -> bool {
    if value.is_object() {
        true
    } else {
        e.at(
            path,
            note!(
                "file.expected_settings",
                "expected an object (use {{}} to declare it), got {got}",
                got = got(value)
            ),
        );
        false
    }
}

/// ClientCapabilities (a tool's `requires`, a client's `capabilities`, a
/// step's `declare`). Unknown capability names are errors: a typo would
/// otherwise declare nothing.
pub(super) fn client_caps(e: &mut Errors, path: &str, value: &Value) -> Option<ClientCapabilities> {
    const KNOWN: &[&str] = &[
        "elicitation",
        "sampling",
        "roots",
        "extensions",
        "experimental",
    ];
    let Some(map) = value.as_object() else {
        e.at(path, expected(&caps_example(), value));
        return None;
    };
    let before = e.0.len();
    for (key, v) in map {
        let at = child(path, key);
        match key.as_str() {
            "elicitation" => {
                if settings(e, &at, v) {
                    for (mode, settings_value) in v.as_object().into_iter().flatten() {
                        let mode_path = child(&at, mode);
                        if mode == "form" || mode == "url" {
                            settings(e, &mode_path, settings_value);
                        } else {
                            e.at(
                                &mode_path,
                                note!(
                                    "file.elicitation_mode",
                                    "unknown elicitation mode; expected \"form\" or \"url\""
                                ),
                            );
                        }
                    }
                }
            }
            "sampling" | "roots" | "extensions" | "experimental" => {
                settings(e, &at, v);
            }
            _ => e.at(
                &at,
                note!(
                    "file.unknown_client_cap",
                    "unknown client capability{suggestion}; expected {list}",
                    suggestion = suggestion(key, KNOWN),
                    list = quoted_list(KNOWN)
                ),
            ),
        }
    }
    (e.0.len() == before).then(|| ClientCapabilities::from_json(value))
}

fn list_capability(
    e: &mut Errors,
    path: &str,
    value: &Value,
    subscribe: bool,
) -> Option<ListCapability> {
    let keys: &[&str] = if subscribe {
        &["listChanged", "subscribe"]
    } else {
        &["listChanged"]
    };
    let what = note!("file.what.capability", "a capability object");
    let f = fields(e, path, value, &what, keys)?;
    Some(ListCapability {
        list_changed: boolean(e, &f, "listChanged"),
        subscribe: if subscribe {
            boolean(e, &f, "subscribe")
        } else {
            None
        },
    })
}

fn server_caps(e: &mut Errors, path: &str, value: &Value) -> Option<ServerCapabilities> {
    const KNOWN: &[&str] = &[
        "tools",
        "resources",
        "prompts",
        "completions",
        "logging",
        "extensions",
    ];
    let Some(map) = value.as_object() else {
        let what = note!(
            "file.what.server_caps",
            "an object of server capabilities such as {{\"tools\": {{}}}}"
        );
        e.at(path, expected(&what, value));
        return None;
    };
    let before = e.0.len();
    let mut caps = ServerCapabilities::default();
    for (key, v) in map {
        let at = child(path, key);
        let object = || v.as_object().cloned();
        match key.as_str() {
            "tools" => caps.tools = list_capability(e, &at, v, false),
            "prompts" => caps.prompts = list_capability(e, &at, v, false),
            "resources" => caps.resources = list_capability(e, &at, v, true),
            "completions" if settings(e, &at, v) => caps.completions = object(),
            "logging" if settings(e, &at, v) => caps.logging = object(),
            "extensions" if settings(e, &at, v) => caps.extensions = object(),
            "completions" | "logging" | "extensions" => {}
            _ => e.at(
                &at,
                note!(
                    "file.unknown_server_cap",
                    "unknown server capability{suggestion}; expected {list}",
                    suggestion = suggestion(key, KNOWN),
                    list = quoted_list(KNOWN)
                ),
            ),
        }
    }
    (e.0.len() == before).then_some(caps)
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

/// Most languages a file translates its text into.
const MAX_LANGUAGES: usize = 16;

/// Whether `tag` is a language tag: `zh`, `pt-BR`, `zh-Hans-CN`.
fn language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let first = parts.next().unwrap_or_default();
    (2..=8).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `translations`: per language tag, the file's title, summary, set-up
/// labels and narration in that language (the keys of `labels` and `say`
/// are the file's own text; `build` checks that they are).
fn translations(e: &mut Errors, f: &Fields) -> Vec<super::Translation> {
    let Some(value) = f.get("translations") else {
        return Vec::new();
    };
    let path = f.path("translations");
    let Some(map) = value.as_object() else {
        let what = note!(
            "file.what.translations",
            "translations (an object of language tags such as \"zh\")"
        );
        e.at(&path, expected(&what, value));
        return Vec::new();
    };
    if map.len() > MAX_LANGUAGES {
        let what = note!("file.what.languages", "languages");
        e.at(&path, too_many(map.len(), &what, MAX_LANGUAGES));
        return Vec::new();
    }
    let mut out = Vec::new();
    for (tag, value) in map {
        let at = child(&path, tag);
        if !language_tag(tag) {
            e.at(
                &at,
                note!(
                    "file.language_tag",
                    "expected a language tag as the key, such as \"zh\" or \"pt-BR\""
                ),
            );
            continue;
        }
        const KEYS: &[&str] = &["title", "summary", "labels", "say"];
        let what = note!("file.what.translation", "a translation");
        let Some(t) = fields(e, &at, value, &what, KEYS) else {
            continue;
        };
        out.push(super::Translation {
            tag: tag.clone(),
            title: name(e, &t, "title", false),
            summary: text(e, &t, "summary", false),
            labels: pairs(e, &t, "labels", MAX_SETUPS, MAX_NAME, true),
            say: pairs(e, &t, "say", MAX_STEPS, MAX_TEXT, false),
        });
    }
    out
}

/// An object of the file's own text to its translation (`labels`, `say`).
fn pairs(
    e: &mut Errors,
    f: &Fields,
    key: &str,
    most: usize,
    longest: usize,
    single_line: bool,
) -> Vec<(String, String)> {
    let Some(value) = f.get(key) else {
        return Vec::new();
    };
    let path = f.path(key);
    let Some(map) = value.as_object() else {
        let what = note!(
            "file.what.pairs",
            "an object of the file's text to its translation"
        );
        e.at(&path, expected(&what, value));
        return Vec::new();
    };
    if map.len() > most {
        let what = note!("file.what.entries", "entries");
        e.at(&path, too_many(map.len(), &what, most));
        return Vec::new();
    }
    let what = note!("file.what.translation_string", "a translation (a string)");
    map.iter()
        .filter_map(|(k, v)| {
            let said = check_text(e, &child(&path, k), v, &what, longest, single_line)?;
            Some((k.clone(), said))
        })
        .collect()
}

fn preset(e: &mut Errors, f: &Fields, known: &[(&str, &str)], what: &Note) -> Option<String> {
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
const PEER_KEYS: &[&str] = &[
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
fn peer<C>(
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

fn server(e: &mut Errors, path: &str, value: &Value) -> Option<ServerDef> {
    const KEYS: &[&str] = &[
        "instructions",
        "cache",
        "tools",
        "resources",
        "prompts",
        "checksCapabilityBeforeWork",
        "unknownMethods",
        "firstRequestId",
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

fn tool(e: &mut Errors, path: &str, value: &Value) -> Option<ToolDef> {
    const KEYS: &[&str] = &[
        "name",
        "description",
        "inputSchema",
        "requires",
        "asks",
        "refusalMessage",
        "sideEffect",
        "result",
    ];
    let f = fields(e, path, value, &note!("file.what.tool", "a tool"), KEYS)?;
    let before = e.0.len();
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
        result: text(e, &f, "result", false),
    };
    (e.0.len() == before).then_some(def)
}

fn question(e: &mut Errors, path: &str, value: &Value) -> Option<QuestionDef> {
    const KEYS: &[&str] = &["message", "requestedSchema", "argument", "fallbackError"];
    let f = fields(
        e,
        path,
        value,
        &note!("file.what.question", "a question"),
        KEYS,
    )?;
    let message = text(e, &f, "message", true);
    let schema = match f.get("requestedSchema") {
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
    })
}

fn resource(e: &mut Errors, path: &str, value: &Value) -> Option<ResourceDef> {
    let what = note!("file.what.resource", "a resource");
    let f = fields(e, path, value, &what, &["uri", "name", "text"])?;
    let uri = name(e, &f, "uri", true);
    let name = name(e, &f, "name", false);
    let text = text(e, &f, "text", false);
    Some(ResourceDef {
        uri: uri?,
        name,
        text,
    })
}

fn prompt(e: &mut Errors, path: &str, value: &Value) -> Option<PromptDef> {
    let what = note!("file.what.prompt", "a prompt");
    let f = fields(e, path, value, &what, &["name", "description"])?;
    let name = name(e, &f, "name", true);
    let description = text(e, &f, "description", false);
    Some(PromptDef {
        name: name?,
        description,
    })
}

fn client(e: &mut Errors, path: &str, value: &Value) -> Option<ClientDef> {
    const KEYS: &[&str] = &[
        "discoverFirst",
        "undeclaredRequests",
        "requestTimeoutMs",
        "probeTimeoutMs",
        "hostKillMs",
        "debounceMs",
        "firstId",
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
    };
    def.peer.id = id(e, &f, "id", true)?;
    (e.0.len() == before).then_some(def)
}

/// The file's words for what a client does with an undeclared request.
pub(super) const UNDECLARED: &[(&str, UndeclaredPolicy)] = &[
    ("method-not-found", UndeclaredPolicy::MethodNotFound),
    ("drop", UndeclaredPolicy::Drop),
    ("close", UndeclaredPolicy::Close),
];

fn setup(e: &mut Errors, path: &str, value: &Value) -> Option<SetupDef> {
    const KEYS: &[&str] = &[
        "label",
        "client",
        "server",
        "transport",
        "steps",
        "serverEvents",
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
    })
}

const TRANSPORTS: &[(&str, TransportKind)] = &[
    ("stdio", TransportKind::Stdio),
    ("http", TransportKind::Http),
];

fn transport(e: &mut Errors, path: &str, value: &Value) -> Option<TransportDef> {
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

fn server_event(e: &mut Errors, path: &str, value: &Value) -> Option<ServerEventDef> {
    let what = note!("file.what.server_event", "a server event");
    let f = fields(e, path, value, &what, &["atMs", "event", "to", "uri"])?;
    let at = match f.get("atMs") {
        None => {
            let what = note!("file.what.at_ms", "the virtual time in ms");
            missing(e, &f, "atMs", &what);
            None
        }
        Some(_) => uint(e, &f, "atMs", MAX_MS),
    };
    // 0 tools, 1 upgrade, 2 prompts, 3 resources, 4 one resource.
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
        ],
    );
    if f.get("event").is_none() {
        let events = [
            "tools-changed",
            "upgrade",
            "prompts-changed",
            "resources-changed",
            "resource-updated",
        ];
        missing(e, &f, "event", &quoted_list(&events));
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
const ACTIONS: &[(&str, &[&str])] = &[
    ("discover", &["version"]),
    (
        "list",
        &["what", "declare", "version", "retryOnMissingCapability"],
    ),
    (
        "call",
        &[
            "tool",
            "arguments",
            "declare",
            "version",
            "retryOnMissingCapability",
        ],
    ),
    (
        "read",
        &["uri", "declare", "version", "retryOnMissingCapability"],
    ),
    (
        "get-prompt",
        &[
            "name",
            "arguments",
            "declare",
            "version",
            "retryOnMissingCapability",
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
pub(super) const LISTS: &[(&str, &str)] = &[
    ("tools", crate::protocol::methods::TOOLS_LIST),
    ("resources", crate::protocol::methods::RESOURCES_LIST),
    ("prompts", crate::protocol::methods::PROMPTS_LIST),
    (
        "resource-templates",
        crate::protocol::methods::RESOURCES_TEMPLATES_LIST,
    ),
];

/// The top-level client capabilities a `drop` step can name.
pub(super) const DROPPABLE: &[&str] = &[
    "elicitation",
    "sampling",
    "roots",
    "extensions",
    "experimental",
];

fn step(e: &mut Errors, path: &str, value: &Value) -> Option<StepDef> {
    let Some(map) = value.as_object() else {
        let what = note!(
            "file.what.step_object",
            "a step (an object such as {{\"do\": \"discover\"}})"
        );
        e.at(path, expected(&what, value));
        return None;
    };
    let names: Vec<&str> = ACTIONS.iter().map(|(n, _)| *n).collect();
    let Some((action, allowed)) = map
        .get("do")
        .and_then(Value::as_str)
        .and_then(|d| ACTIONS.iter().find(|(n, _)| *n == d))
    else {
        let at = child(path, "do");
        match map.get("do") {
            None => {
                let what = note!(
                    "file.what.step_does",
                    "what the step does: {list}",
                    list = quoted_list(&names)
                );
                e.at(&at, note!("file.required", "required: {what}", what = what))
            }
            Some(v) => e.at(&at, expected(&quoted_list(&names), v)),
        }
        return None;
    };
    let mut keys = vec!["do"];
    if *action != "say" {
        keys.push("say");
    }
    keys.extend_from_slice(allowed);
    let what = note!("file.what.step", "a \"{action}\" step", action = action);
    let f = fields(e, path, value, &what, &keys)?;
    let before = e.0.len();
    let say = if *action == "say" {
        text(e, &f, "text", true)
    } else {
        text(e, &f, "say", false)
    };
    let action = match *action {
        "discover" => Some(ActionDef::Discover {
            version: version(e, &f, "version"),
        }),
        "list" => {
            let lists: Vec<(&str, &str)> = LISTS.iter().map(|(n, _)| (*n, *n)).collect();
            let what = choice(e, &f, "what", &lists);
            if f.get("what").is_none() {
                let names: Vec<&str> = LISTS.iter().map(|(n, _)| *n).collect();
                missing(e, &f, "what", &quoted_list(&names));
            }
            let options = options(e, &f);
            Some(ActionDef::List {
                what: what.unwrap_or_default().to_string(),
                options,
            })
        }
        "call" => {
            let tool = match f.get("tool") {
                None => {
                    let what = note!("file.what.tool_to_call", "the name of the tool to call");
                    missing(e, &f, "tool", &what);
                    None
                }
                Some(_) => name(e, &f, "tool", true),
            };
            let what = note!("file.what.tool_arguments", "the tool's arguments");
            let arguments = object(e, &f, "arguments", &what);
            let options = options(e, &f);
            Some(ActionDef::Call {
                tool: tool.unwrap_or_default(),
                arguments: arguments.unwrap_or_else(|| Value::Object(Map::new())),
                options,
            })
        }
        "read" => {
            let uri = name(e, &f, "uri", true);
            let options = options(e, &f);
            Some(ActionDef::Read {
                uri: uri.unwrap_or_default(),
                options,
            })
        }
        "get-prompt" => {
            let name = name(e, &f, "name", true);
            let what = note!("file.what.prompt_arguments", "the prompt's arguments");
            let arguments = object(e, &f, "arguments", &what);
            let options = options(e, &f);
            Some(ActionDef::GetPrompt {
                name: name.unwrap_or_default(),
                arguments,
                options,
            })
        }
        "request" => {
            let method = name(e, &f, "method", true);
            let what = note!("file.what.request_params", "the request's params");
            let params = object(e, &f, "params", &what);
            let options = options(e, &f);
            Some(ActionDef::Request {
                method: method.unwrap_or_default(),
                params: params.unwrap_or_else(|| Value::Object(Map::new())),
                options,
            })
        }
        "send" => {
            let text_value = text(e, &f, "text", true);
            let headers = f
                .get("headers")
                .and_then(|v| headers(e, &f.path("headers"), v));
            let violation = text(e, &f, "violation", false);
            let note = text(e, &f, "note", false);
            let what = note!("file.what.rule_ids", "rule ids");
            let rule_id = note!(
                "file.what.rule_id",
                "a rule id of spec/RULES.md such as \"M-META-REQUIRED\""
            );
            let rules = items(e, &f, "rules", &what, MAX_VERSIONS, |e, p, v| {
                match v.as_str().and_then(crate::rules::find) {
                    Some(rule) => Some(rule.id.to_string()),
                    None => {
                        e.at(p, expected(&rule_id, v));
                        None
                    }
                }
            });
            Some(ActionDef::Send {
                text: text_value.unwrap_or_default(),
                headers,
                violation,
                note,
                rules: rules.unwrap_or_default(),
            })
        }
        "declare" => match f.get("capabilities") {
            None => {
                let what = note!(
                    "file.what.caps_or_all",
                    "{caps}, or \"all\"",
                    caps = caps_example()
                );
                missing(e, &f, "capabilities", &what);
                None
            }
            Some(Value::String(s)) if s == "all" => Some(ActionDef::Declare { capabilities: None }),
            Some(v) => client_caps(e, &f.path("capabilities"), v).map(|caps| ActionDef::Declare {
                capabilities: Some(caps),
            }),
        },
        "drop" => {
            let pairs: Vec<(&str, &str)> = DROPPABLE.iter().map(|n| (*n, *n)).collect();
            if f.get("capability").is_none() {
                missing(e, &f, "capability", &quoted_list(DROPPABLE));
            }
            choice(e, &f, "capability", &pairs).map(|c| ActionDef::Drop {
                capability: c.to_string(),
            })
        }
        "wait" => {
            if f.get("ms").is_none() {
                let what = note!("file.what.wait_ms", "how long to wait, in virtual ms");
                missing(e, &f, "ms", &what);
            }
            uint(e, &f, "ms", MAX_MS).map(|ms| ActionDef::Wait { ms })
        }
        "disconnect" => Some(ActionDef::Disconnect),
        _ => Some(ActionDef::Say),
    };
    if e.0.len() != before {
        return None;
    }
    Some(StepDef {
        say,
        action: action?,
    })
}

fn options(e: &mut Errors, f: &Fields) -> RequestOptions {
    RequestOptions {
        declare: f
            .get("declare")
            .and_then(|v| client_caps(e, &f.path("declare"), v)),
        version: version(e, f, "version"),
        retry_on_missing_capability: boolean(e, f, "retryOnMissingCapability"),
    }
}

/// HTTP headers: an object `{"Name": "value"}`, or `[["Name", "value"], ...]`
/// when a name repeats.
fn headers(e: &mut Errors, path: &str, value: &Value) -> Option<Vec<(String, String)>> {
    let count = match value {
        Value::Object(map) => map.len(),
        Value::Array(list) => list.len(),
        other => {
            let what = note!(
                "file.what.headers",
                "HTTP headers: an object such as {{\"MCP-Protocol-Version\": \"2026-07-28\"}} or an array of [name, value] pairs"
            );
            e.at(path, expected(&what, other));
            return None;
        }
    };
    if count > MAX_LIST {
        let what = note!("file.what.header_count", "headers");
        e.at(path, too_many(count, &what, MAX_LIST));
        return None;
    }
    let before = e.0.len();
    let mut out = Vec::new();
    let header_name = note!("file.what.header_name", "a header name");
    let header_value = note!("file.what.header_value", "a header value (a string)");
    let mut header = |e: &mut Errors, at: &str, name: Option<String>, v: &Value| {
        let v = check_text(e, at, v, &header_value, MAX_TEXT, true);
        if let (Some(name), Some(v)) = (name, v) {
            out.push((name, v));
        }
    };
    match value {
        Value::Object(map) => {
            for (name, v) in map {
                let at = child(path, name);
                let name = check_text(
                    e,
                    &at,
                    &Value::from(name.as_str()),
                    &header_name,
                    MAX_NAME,
                    true,
                );
                header(e, &at, name, v);
            }
        }
        Value::Array(list) => {
            for (i, pair) in list.iter().enumerate() {
                let at = item(path, i);
                match pair.as_array().map(Vec::as_slice) {
                    Some([n, v]) => {
                        let name = check_text(e, &at, n, &header_name, MAX_NAME, true);
                        header(e, &at, name, v);
                    }
                    _ => {
                        let what =
                            note!("file.what.header_pair", "a [name, value] pair of strings");
                        e.at(&at, expected(&what, pair))
                    }
                }
            }
        }
        _ => {}
    }
    (e.0.len() == before).then_some(out)
}

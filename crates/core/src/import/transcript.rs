//! Transcripts: a JSON array of JSON-RPC messages in wire order, each bare
//! or wrapped as `{"message": M, …}` with what [`crate::transcript`]
//! writes (`direction`, `at_ms`, `legacy`, `violation`, `http`) and a
//! hand-written `from` (`"client"` or `"server"`, which settles who sent
//! it). `M` is the message (any JSON; a string is its text when it is not
//! JSON), or null for an HTTP answer without a body. The keys mcp-lanes
//! writes are read as written: with `direction`, a message without
//! `"legacy": true` is a modern one. The `run --format
//! json` document holds one transcript per set-up.

use serde_json::{Map, Value};

use super::build::{self, Entry};
use super::detect::{self, type_name};
use super::{Format, ImportError, Imported, Notice, MAX_MESSAGES};
use crate::note::Note;
use crate::sim::{HttpInfo, Side};

/// Reads one entry of a transcript, or says why it is not one.
pub(super) fn fits(v: &Value) -> Result<Entry, Note> {
    let Some(map) = v.as_object() else {
        return Err(crate::note!(
            "import.entry_not_object",
            "it is {kind}, not an object",
            kind = type_name(v)
        ));
    };
    match map.get("message") {
        Some(message) => wrapper(map, message),
        None if map.contains_key("left") => departure(map),
        None if is_json_rpc(map) => Ok(Entry {
            wire: v.to_string(),
            ..Entry::default()
        }),
        None => Err(crate::note!(
            "import.entry_not_message",
            "it is an object that is neither a JSON-RPC message (no jsonrpc, method, result or error) nor a {{\"message\": …}} wrapper"
        )),
    }
}

/// Whether an object is shaped as a JSON-RPC message.
fn is_json_rpc(map: &Map<String, Value>) -> bool {
    map.contains_key("jsonrpc")
        || map.get("method").is_some_and(Value::is_string)
        || (map.contains_key("id") && (map.contains_key("result") || map.contains_key("error")))
}

/// A wrong field of a wrapper: `field` is `got`, not `want`.
fn wrong(field: &str, got: &Value, want: Note) -> Note {
    crate::note!(
        "import.wrapper_field",
        "its `{field}` is {got}, not {want}",
        field = field,
        got = type_name(got),
        want = want
    )
}

/// A `{"message": …}` wrapper.
fn wrapper(map: &Map<String, Value>, message: &Value) -> Result<Entry, Note> {
    let mut entry = Entry {
        wire: match message {
            Value::String(text) => text.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        },
        ..Entry::default()
    };
    match map.get("direction") {
        None | Some(Value::Null) => {}
        Some(Value::String(d)) if d == "client->server" => entry.from = Some(Side::Client),
        Some(Value::String(d)) if d == "server->client" => entry.from = Some(Side::Server),
        Some(Value::String(d)) if d == "undecided" => entry.undecided = true,
        Some(other) => {
            return Err(wrong(
                "direction",
                other,
                crate::note!(
                    "import.want_direction",
                    "\"client->server\", \"server->client\" or \"undecided\""
                ),
            ))
        }
    }
    match map.get("from") {
        None | Some(Value::Null) => {}
        Some(Value::String(f)) if f == "client" => {
            entry.from = Some(Side::Client);
            entry.undecided = false;
        }
        Some(Value::String(f)) if f == "server" => {
            entry.from = Some(Side::Server);
            entry.undecided = false;
        }
        Some(other) => {
            return Err(wrong(
                "from",
                other,
                crate::note!("import.want_from", "\"client\" or \"server\""),
            ))
        }
    }
    match map.get("between") {
        None | Some(Value::Null) => {}
        Some(v) => {
            let pair = v
                .as_str()
                .and_then(|s| s.split_once("->"))
                .and_then(|(a, b)| {
                    Some((crate::sim::Actor::named(a)?, crate::sim::Actor::named(b)?))
                });
            entry.between = Some(pair.ok_or_else(|| {
                wrong(
                    "between",
                    v,
                    crate::note!(
                        "import.want_between",
                        "two actors such as \"client->gateway\""
                    ),
                )
            })?);
        }
    }
    entry.at_ms = at_ms(map)?;
    match map.get("legacy") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => entry.legacy = Some(*b),
        Some(other) => {
            return Err(wrong(
                "legacy",
                other,
                crate::note!("import.want_bool", "true or false"),
            ))
        }
    }
    match map.get("violation") {
        None | Some(Value::Null) => {}
        Some(Value::String(why)) => entry.violation = Some(why.clone()),
        Some(other) => {
            return Err(wrong(
                "violation",
                other,
                crate::note!("import.want_why", "a string (why it is wrong)"),
            ))
        }
    }
    entry.http = http_of(map)?;
    // What mcp-lanes writes is taken as written: with its `direction`, an
    // absent `legacy` means a modern message.
    if entry.legacy.is_none() && map.contains_key("direction") {
        entry.legacy = Some(false);
    }
    Ok(entry)
}

/// A side that left: `left` (`"client"` or `"server"`), `at_ms`, and how
/// (`why`: `closed_stdin`, `stopped_reading`, `before_answer`,
/// `mid_stream`; `request`, the HTTP request it left during, `events`,
/// the messages of its answer passed), `http` its session's headers.
fn departure(map: &Map<String, Value>) -> Result<Entry, Note> {
    let side = match map.get("left") {
        Some(Value::String(f)) if f == "client" => Side::Client,
        Some(Value::String(f)) if f == "server" => Side::Server,
        other => {
            return Err(wrong(
                "left",
                other.unwrap_or(&Value::Null),
                crate::note!("import.want_from", "\"client\" or \"server\""),
            ))
        }
    };
    let (at_ms, http) = (at_ms(map)?, http_of(map)?);
    let request = map
        .get("request")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    let events = map.get("events").and_then(Value::as_u64).unwrap_or(0);
    let how = match map.get("why").and_then(Value::as_str) {
        Some("closed_stdin") => crate::note!(
            "import.left_closed_stdin",
            "it closed its end of stdio (tap's stdin): it exited, was killed or closed the pipe"
        ),
        Some("stopped_reading") => crate::note!(
            "import.left_stopped_reading",
            "it stopped reading what the server sends (tap's stdout was closed)"
        ),
        Some("before_answer") => crate::note!(
            "import.left_before_answer",
            "it dropped its HTTP connection before the answer to {request} came",
            request = request
        ),
        Some("mid_stream") if events == 1 => crate::note!(
            "import.left_mid_stream_one",
            "it dropped its HTTP connection during the answer to {request}, after its first message",
            request = request
        ),
        Some("mid_stream") => crate::note!(
            "import.left_mid_stream",
            "it dropped its HTTP connection during the answer to {request}, after {events} messages of it",
            request = request,
            events = events
        ),
        _ => crate::note!("import.left_unsaid", "the recording does not say how"),
    };
    let note = match side {
        Side::Client => crate::note!(
            "import.client_left",
            "Recorded: the client left ({how}). A request still waiting gets no answer it can read.",
            how = how
        ),
        Side::Server => crate::note!(
            "import.server_left",
            "Recorded: the server left ({how}).",
            how = how
        ),
    };
    Ok(Entry {
        from: Some(side),
        at_ms,
        http,
        departure: Some(note),
        ..Entry::default()
    })
}

/// An entry's `at_ms`, if it has one.
fn at_ms(map: &Map<String, Value>) -> Result<Option<u64>, Note> {
    match map.get("at_ms") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            wrong(
                "at_ms",
                v,
                crate::note!("import.want_ms", "a whole number of milliseconds"),
            )
        }),
    }
}

/// An entry's `http`, if it has one.
fn http_of(map: &Map<String, Value>) -> Result<Option<HttpInfo>, Note> {
    match map.get("http") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(h)) => http(h).map(Some),
        Some(other) => Err(wrong(
            "http",
            other,
            crate::note!("import.type_object", "an object"),
        )),
    }
}

/// A wrapper's `http`: `headers` (an object of strings), `status`,
/// `method`, `url` (read, not kept: a timeline has no URL).
fn http(h: &Map<String, Value>) -> Result<HttpInfo, Note> {
    let mut headers = Vec::new();
    match h.get("headers") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (name, value) in map {
                let Some(value) = value.as_str() else {
                    return Err(wrong(
                        "http.headers",
                        value,
                        crate::note!("import.want_headers", "an object of strings"),
                    ));
                };
                headers.push((name.clone(), value.to_string()));
            }
        }
        Some(other) => {
            return Err(wrong(
                "http.headers",
                other,
                crate::note!("import.want_headers", "an object of strings"),
            ))
        }
    }
    let status = match h.get("status") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|s| u16::try_from(s).ok())
                .filter(|s| (100..=599).contains(s))
                .ok_or_else(|| {
                    wrong(
                        "http.status",
                        v,
                        crate::note!("import.want_status", "an HTTP status (100 to 599)"),
                    )
                })?,
        ),
    };
    let text = |key: &str| match h.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(wrong(
            &format!("http.{key}"),
            other,
            crate::note!("import.type_string", "a string"),
        )),
    };
    let method = text("method")?;
    text("url")?;
    Ok(HttpInfo {
        method,
        status,
        headers,
        event_id: None,
    })
}

/// A lane's entries up to the first that does not fit (and a notice naming
/// it). `count` is the messages read so far, over every lane.
fn entries(
    source: &str,
    lane: usize,
    label: &str,
    values: &[Value],
    count: &mut usize,
    notices: &mut Vec<Notice>,
) -> Result<Vec<Entry>, ImportError> {
    let mut out = Vec::new();
    for (index, v) in values.iter().enumerate() {
        match fits(v) {
            Ok(entry) => {
                *count += 1;
                if *count > MAX_MESSAGES {
                    return Err(detect::too_many(source));
                }
                out.push(entry);
            }
            Err(why) => {
                notices.push(Notice {
                    lane,
                    entry: Some(index),
                    note: crate::note!(
                        "import.entry_malformed",
                        "Entry {index} of {lane} does not fit ({why}): the lane is drawn up to the entry before it.",
                        index = index,
                        lane = label,
                        why = why
                    ),
                });
                break;
            }
        }
    }
    Ok(out)
}

/// A transcript: the array `values`. Its first entry decides whether it is
/// one: if it does not fit, the file is refused whole.
pub(super) fn read(source: &str, values: &[Value]) -> Result<Imported, ImportError> {
    if let Some(Err(why)) = values.first().map(fits) {
        return Err(detect::unrecognised(
            source,
            crate::note!(
                "import.first_entry",
                "entry 0 does not fit ({why})",
                why = why
            ),
        ));
    }
    let mut notices = Vec::new();
    let mut count = 0;
    let list = entries(source, 0, source, values, &mut count, &mut notices)?;
    // Over HTTP with several sessions: a lane each.
    let groups = super::sessions::split(list);
    let several = groups.len() > 1;
    let mut lanes = Vec::with_capacity(groups.len());
    for (n, (session, group)) in groups.into_iter().enumerate() {
        let label = match session {
            Some(id) if several => super::sessions::title(source, &id),
            _ => source.to_string(),
        };
        let lane = build::lane(&label, source, group);
        super::undecided_notices(n, &lane, true, &mut notices);
        lanes.push(lane);
    }
    Ok(Imported {
        format: Format::Transcript,
        lanes,
        notices,
        report: None,
    })
}

/// The `run --format json` document: a lane per set-up.
pub(super) fn run_document(source: &str, value: &Value) -> Result<Imported, ImportError> {
    let Some(setups) = value.get("setups").and_then(Value::as_array) else {
        return Err(detect::unrecognised(
            source,
            crate::note!(
                "import.setups_not_array",
                "its `setups` is not an array of {{\"label\", \"transcript\"}}"
            ),
        ));
    };
    let mut lanes = Vec::new();
    let mut notices = Vec::new();
    let mut count = 0;
    for (n, setup) in setups.iter().enumerate() {
        let transcript = setup.get("transcript").and_then(Value::as_array);
        let Some(transcript) = transcript else {
            if n == 0 {
                return Err(detect::unrecognised(
                    source,
                    crate::note!(
                        "import.setup_not_transcript",
                        "set-up {index} has no `transcript` array (a scenario file? run it with `mcp-lanes run --file`)",
                        index = n
                    ),
                ));
            }
            notices.push(Notice {
                lane: n,
                entry: None,
                note: crate::note!(
                    "import.setup_malformed",
                    "Set-up {index} has no `transcript` array: the set-ups before it are drawn.",
                    index = n
                ),
            });
            break;
        };
        let label = setup
            .get("label")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| format!("{source} #{n}"));
        let list = entries(source, n, &label, transcript, &mut count, &mut notices)?;
        let lane = build::lane(&label, source, list);
        super::undecided_notices(n, &lane, true, &mut notices);
        lanes.push(lane);
    }
    if lanes.is_empty() {
        return Err(detect::empty(source));
    }
    Ok(Imported {
        format: Format::RunDocument,
        lanes,
        notices,
        report: None,
    })
}

//! A set-up's steps: requests (with their declarations and versions),
//! hand-written messages, waits, narration, and their HTTP headers.

use super::*;

pub(super) fn step(e: &mut Errors, path: &str, value: &Value) -> Option<StepDef> {
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
            let follow = boolean(e, &f, "follow");
            let options = options(e, &f);
            Some(ActionDef::List {
                what: what.unwrap_or_default().to_string(),
                options,
                follow: follow.unwrap_or(false),
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
            let extra = note!(
                "file.what.request_meta",
                "extra _meta keys (an object such as {{\"progressToken\": \"p1\"}})"
            );
            let meta = object(e, &f, "_meta", &extra);
            let options = options(e, &f);
            Some(ActionDef::Call {
                tool: tool.unwrap_or_default(),
                arguments: arguments.unwrap_or_else(|| Value::Object(Map::new())),
                meta,
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

pub(super) fn options(e: &mut Errors, f: &Fields) -> RequestOptions {
    RequestOptions {
        declare: f
            .get("declare")
            .and_then(|v| client_caps(e, &f.path("declare"), v)),
        version: version(e, f, "version"),
        retry_on_missing_capability: boolean(e, f, "retryOnMissingCapability"),
        background: boolean(e, f, "background").unwrap_or(false),
    }
}

/// HTTP headers: an object `{"Name": "value"}`, or `[["Name", "value"], ...]`
/// when a name repeats.
pub(super) fn headers(e: &mut Errors, path: &str, value: &Value) -> Option<Vec<(String, String)>> {
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

//! Capabilities as a file writes them: a client's and a server's, with
//! the lists' `listChanged` and resources' `subscribe`.

use super::*;

pub(super) fn caps_example() -> Note {
    note!(
        "file.what.caps",
        "an object of capabilities such as {{\"elicitation\": {{}}}}"
    )
}

/// A settings object inside capabilities (`{}` or with settings).
pub(super) fn settings(e: &mut Errors, path: &str, value: &Value) -> bool {
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
pub(in crate::scenarios::file) fn client_caps(
    e: &mut Errors,
    path: &str,
    value: &Value,
) -> Option<ClientCapabilities> {
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

pub(super) fn list_capability(
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

pub(super) fn server_caps(e: &mut Errors, path: &str, value: &Value) -> Option<ServerCapabilities> {
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

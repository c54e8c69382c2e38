//! What a permalink carries: the scenario, every setting of every set-up
//! (including "compare" duplicates), the editor's content and the playback
//! position, as compact JSON, deflated and base64url-encoded into the URL
//! fragment (`#v1.<data>`). Decoding is defensive: a mangled, truncated,
//! huge or hostile fragment gives an error the UI turns into a notice and
//! defaults; nothing in it is ever executed or rendered as HTML.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::client::UndeclaredPolicy;
use crate::protocol::version::EraMode;
use crate::settings::{Capability, Setting};
use crate::transport::TransportKind;

/// Prefix of a version-1 fragment.
pub const PREFIX: &str = "v1.";
/// Longest fragment accepted (characters).
pub const MAX_FRAGMENT: usize = 512 * 1024;
/// Largest decompressed state accepted (bytes).
pub const MAX_STATE: usize = 2 * 1024 * 1024;
/// At most this many set-ups (originals plus compares).
pub const MAX_SETUPS: usize = 12;
/// At most this many settings per set-up.
pub const MAX_SETTINGS: usize = 32;

/// One lane: which set-up of the scenario it starts from and what was changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneState {
    /// Index of the scenario's set-up it is based on.
    pub base: usize,
    /// Settings applied on top, in order.
    #[serde(default)]
    pub settings: Vec<Setting>,
    /// Label for a "compare" duplicate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// The editor's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EditorState {
    /// Server preset id (or "setup" for the viewed set-up's server).
    pub target: String,
    /// Transport.
    pub transport: TransportKind,
    /// The request text.
    pub text: String,
    /// Extra or edited HTTP headers.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
}

/// Everything a link restores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareState {
    /// Scenario id.
    pub scenario: String,
    /// The lanes, in display order.
    pub lanes: Vec<LaneState>,
    /// Playback position (event step).
    #[serde(default)]
    pub step: usize,
    /// The editor, if it has content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editor: Option<EditorState>,
}

/// Why a fragment could not be restored (shown to the person as a notice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareError(pub String);

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Encodes a state as a URL fragment (without the `#`).
pub fn encode(state: &ShareState) -> String {
    let json = serde_json::to_vec(state).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!(
        "{PREFIX}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
    )
}

/// Decodes a URL fragment (with or without the leading `#`) and checks it
/// against the scenario catalog.
pub fn decode(fragment: &str) -> Result<ShareState, ShareError> {
    let fail = |why: &str| Err(ShareError(why.to_string()));
    let fragment = fragment.trim_start_matches('#');
    if fragment.len() > MAX_FRAGMENT {
        return fail("the link is too long to be a mcp-lanes link");
    }
    let Some(data) = fragment.strip_prefix(PREFIX) else {
        return fail("the link's state is not in a format this version understands");
    };
    let Ok(packed) =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(data.trim_end_matches('='))
    else {
        return fail("the link's state is damaged (not valid base64url); was it cut short?");
    };
    let Ok(json) = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_STATE) else {
        return fail("the link's state is damaged or too large to unpack");
    };
    let state: ShareState = match serde_json::from_slice(&json) {
        Ok(s) => s,
        Err(_) => return fail("the link's state does not have the expected shape"),
    };
    validate(state)
}

/// Prefix of a version-2 fragment ([`to_fragment`], [`from_fragment`]).
pub const PREFIX_V2: &str = "v2.";

const ERAS: [EraMode; 3] = [EraMode::ModernOnly, EraMode::LegacyOnly, EraMode::DualEra];
const POLICIES: [UndeclaredPolicy; 3] = [
    UndeclaredPolicy::MethodNotFound,
    UndeclaredPolicy::Drop,
    UndeclaredPolicy::Close,
];
const TRANSPORTS: [TransportKind; 2] = [TransportKind::Stdio, TransportKind::Http];

fn index_of<T: PartialEq>(all: &[T], x: &T) -> usize {
    all.iter().position(|a| a == x).unwrap_or(0)
}

/// A setting as a short positional array: `[kind, value]` or
/// `[kind, value, on]`, enums as indexes.
fn setting_value(setting: &Setting) -> Value {
    match setting {
        Setting::ClientEra(e) => json!([0, index_of(&ERAS, e)]),
        Setting::ClientCapability(c, on) => json!([1, index_of(&Capability::ALL, c), on]),
        Setting::PreferredVersion(v) => json!([2, v]),
        Setting::ServerEra(e) => json!([3, index_of(&ERAS, e)]),
        Setting::ServerVersion(v, on) => json!([4, v, on]),
        Setting::Transport(t) => json!([5, index_of(&TRANSPORTS, t)]),
        Setting::Undeclared(p) => json!([6, index_of(&POLICIES, p)]),
        Setting::ChecksBeforeWork(on) => json!([7, on]),
    }
}

fn setting_from(value: &Value) -> Option<Setting> {
    let a = value.as_array()?;
    let pick = |i: usize| a.get(i);
    let index = || pick(1)?.as_u64().map(|i| i as usize);
    let text = || pick(1)?.as_str().map(str::to_string);
    let on = |i: usize| pick(i)?.as_bool();
    Some(match pick(0)?.as_u64()? {
        0 => Setting::ClientEra(*ERAS.get(index()?)?),
        1 => Setting::ClientCapability(*Capability::ALL.get(index()?)?, on(2)?),
        2 => Setting::PreferredVersion(text()?),
        3 => Setting::ServerEra(*ERAS.get(index()?)?),
        4 => Setting::ServerVersion(text()?, on(2)?),
        5 => Setting::Transport(*TRANSPORTS.get(index()?)?),
        6 => Setting::Undeclared(*POLICIES.get(index()?)?),
        7 => Setting::ChecksBeforeWork(on(1)?),
        _ => return None,
    })
}

/// Encodes a state as a compact URL fragment (without the `#`): `v2.` and
/// the base64url of a positional JSON array
/// `[scenario, step, [[base, label|null, setting...]...], editor?]` where
/// the editor is `[target, transport, text, [[name, value]...]]`.
/// Unlike [`encode`] it needs no deflate and no serde derives, which keeps
/// the browser's WebAssembly small; links are short anyway (a few settings).
pub fn to_fragment(state: &ShareState) -> String {
    let lanes: Vec<Value> = state
        .lanes
        .iter()
        .map(|lane| {
            let mut v = vec![json!(lane.base), json!(lane.label)];
            v.extend(lane.settings.iter().map(setting_value));
            Value::Array(v)
        })
        .collect();
    let mut doc = vec![
        json!(state.scenario),
        json!(state.step),
        Value::Array(lanes),
    ];
    if let Some(e) = &state.editor {
        let headers: Vec<Value> = e.headers.iter().map(|(k, v)| json!([k, v])).collect();
        doc.push(json!([
            e.target,
            index_of(&TRANSPORTS, &e.transport),
            e.text,
            headers
        ]));
    }
    format!(
        "{PREFIX_V2}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Value::Array(doc).to_string())
    )
}

fn state_from(doc: &Value) -> Option<ShareState> {
    let doc = doc.as_array()?;
    let text = |v: &Value| v.as_str().map(str::to_string);
    let lanes = doc
        .get(2)?
        .as_array()?
        .iter()
        .map(|lane| {
            let lane = lane.as_array()?;
            let label = match lane.get(1)? {
                Value::Null => None,
                v => Some(text(v)?),
            };
            Some(LaneState {
                base: lane.first()?.as_u64()? as usize,
                settings: lane[2..].iter().map(setting_from).collect::<Option<_>>()?,
                label,
            })
        })
        .collect::<Option<_>>()?;
    let editor = match doc.get(3) {
        None => None,
        Some(e) => {
            let e = e.as_array()?;
            let headers = e
                .get(3)?
                .as_array()?
                .iter()
                .map(|h| Some((text(h.get(0)?)?, text(h.get(1)?)?)))
                .collect::<Option<_>>()?;
            Some(EditorState {
                target: text(e.first()?)?,
                transport: *TRANSPORTS.get(e.get(1)?.as_u64()? as usize)?,
                text: text(e.get(2)?)?,
                headers,
            })
        }
    };
    Some(ShareState {
        scenario: text(doc.first()?)?,
        lanes,
        step: doc.get(1)?.as_u64()? as usize,
        editor,
    })
}

/// Decodes a [`to_fragment`] fragment (with or without the leading `#`),
/// as defensively as [`decode`]: length, base64url, JSON, shape and the
/// scenario catalog are checked; nothing in it is ever executed.
pub fn from_fragment(fragment: &str) -> Result<ShareState, ShareError> {
    let fail = |why: &str| Err(ShareError(why.to_string()));
    let fragment = fragment.trim_start_matches('#');
    if fragment.len() > MAX_FRAGMENT {
        return fail("the link is too long to be a mcp-lanes link");
    }
    let Some(data) = fragment.strip_prefix(PREFIX_V2) else {
        return fail("the link's state is not in a format this version understands");
    };
    let Ok(json) =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(data.trim_end_matches('='))
    else {
        return fail("the link's state is damaged (not valid base64url); was it cut short?");
    };
    match serde_json::from_slice(&json)
        .ok()
        .as_ref()
        .and_then(state_from)
    {
        Some(state) => validate(state),
        None => fail("the link's state is damaged or does not have the expected shape"),
    }
}

fn validate(state: ShareState) -> Result<ShareState, ShareError> {
    let Some(setups) = crate::scenarios::setups(&state.scenario) else {
        return Err(ShareError(
            "the link names a scenario that does not exist".into(),
        ));
    };
    if state.lanes.is_empty() || state.lanes.len() > MAX_SETUPS {
        return Err(ShareError("the link has no lanes, or too many".into()));
    }
    for lane in &state.lanes {
        if lane.base >= setups.len() || lane.settings.len() > MAX_SETTINGS {
            return Err(ShareError(
                "the link's lanes do not match this scenario".into(),
            ));
        }
        if lane.label.as_ref().is_some_and(|l| l.chars().count() > 200) {
            return Err(ShareError("a lane label in the link is too long".into()));
        }
        if lane.settings.iter().any(|s| matches!(s, Setting::PreferredVersion(v) | Setting::ServerVersion(v, _) if v.len() > 40)) {
            return Err(ShareError("the link names an implausible protocol version".into()));
        }
    }
    if state
        .editor
        .as_ref()
        .is_some_and(|e| e.text.len() > crate::editor::MAX_REQUEST_BYTES || e.headers.len() > 64)
    {
        return Err(ShareError(
            "the editor content in the link is too large".into(),
        ));
    }
    Ok(state)
}

/// Rebuilds the set-ups a state describes (originals and compares, with
/// their settings applied).
pub fn setups(state: &ShareState) -> Vec<crate::sim::Setup> {
    let Some(base) = crate::scenarios::setups(&state.scenario) else {
        return Vec::new();
    };
    state
        .lanes
        .iter()
        .filter_map(|lane| {
            let mut setup = base.get(lane.base)?.clone();
            for setting in &lane.settings {
                crate::settings::apply(&mut setup, setting);
            }
            if let Some(label) = &lane.label {
                setup.label = label.clone();
            }
            Some(setup)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ShareState {
        ShareState {
            scenario: "plain-vs-rich".into(),
            lanes: vec![
                LaneState {
                    base: 0,
                    settings: vec![],
                    label: None,
                },
                LaneState {
                    base: 0,
                    settings: vec![Setting::ClientCapability(Capability::ElicitationForm, true)],
                    label: Some("plain · elicitation.form on <script>".into()),
                },
            ],
            step: 7,
            editor: Some(EditorState {
                target: "order-desk".into(),
                transport: TransportKind::Http,
                text: "{\"jsonrpc\":\"2.0\"}".into(),
                headers: vec![("X-Trace".into(), "1".into())],
            }),
        }
    }

    #[test]
    fn a_state_round_trips_through_the_fragment() {
        let state = sample();
        let fragment = encode(&state);
        assert!(fragment.starts_with(PREFIX));
        assert!(fragment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)));
        assert_eq!(decode(&format!("#{fragment}")), Ok(state.clone()));
        let lanes = setups(&state);
        assert_eq!(lanes.len(), 2);
        let last = crate::sim::run(&lanes[1]);
        assert_eq!(
            last.messages().last().map(|(_, m)| m.label.as_str()),
            Some("result")
        );
    }

    #[test]
    fn hostile_or_mangled_fragments_are_refused_cleanly() {
        let good = encode(&sample());
        let cases = vec![
            String::new(),
            "<script>alert(1)</script>".to_string(),
            format!("{PREFIX}!!!!"),
            good[..good.len() / 2].to_string(),
            format!("{PREFIX}{}", "A".repeat(MAX_FRAGMENT)),
            "v2.abc".to_string(),
        ];
        for case in cases {
            assert!(decode(&case).is_err(), "{case:.40}");
        }
        let mut wrong = sample();
        wrong.scenario = "no-such".into();
        assert!(decode(&encode(&wrong)).is_err());
        let mut wrong = sample();
        wrong.lanes[0].base = 9;
        assert!(decode(&encode(&wrong)).is_err());
        // A zip bomb: tiny fragment, huge state.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; MAX_STATE * 2], 9);
        let bomb = format!(
            "{PREFIX}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bomb)
        );
        assert!(decode(&bomb).is_err());
    }

    #[test]
    fn the_compact_fragment_round_trips_every_setting_and_the_editor() {
        let mut state = sample();
        state.lanes[1].settings.extend([
            Setting::ClientEra(EraMode::DualEra),
            Setting::PreferredVersion("2025-11-25".into()),
            Setting::ServerEra(EraMode::LegacyOnly),
            Setting::ServerVersion("2025-06-18".into(), false),
            Setting::Transport(TransportKind::Http),
            Setting::Undeclared(UndeclaredPolicy::Close),
            Setting::ChecksBeforeWork(false),
        ]);
        let fragment = to_fragment(&state);
        assert!(fragment.starts_with(PREFIX_V2));
        assert!(fragment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)));
        assert_eq!(from_fragment(&format!("#{fragment}")), Ok(state.clone()));
        state.editor = None;
        assert_eq!(from_fragment(&to_fragment(&state)), Ok(state));
    }

    #[test]
    fn hostile_or_mangled_compact_fragments_are_refused_cleanly() {
        let good = to_fragment(&sample());
        let b64 = |s: &str| {
            format!(
                "{PREFIX_V2}{}",
                base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
            )
        };
        let cases = vec![
            String::new(),
            "<script>alert(1)</script>".to_string(),
            format!("{PREFIX_V2}<script>alert(1)</script>"),
            format!("{PREFIX_V2}!!!!"),
            good[..good.len() / 2].to_string(),
            format!("{PREFIX_V2}{}", "A".repeat(MAX_FRAGMENT)),
            encode(&sample()),
            b64("{}"),
            b64("[\"discover\",0,[]]"),
            b64("[\"discover\",0,[[0,null,[9,1]]]]"),
            b64("[\"discover\",0,[[0,null,[0,7]]]]"),
            b64("[\"discover\",-1,[[0,null]]]"),
            b64("[\"no-such\",0,[[0,null]]]"),
            b64("[\"discover\",0,[[5,null]]]"),
            b64(&format!(
                "[\"discover\",0,[[0,null]],{}",
                "[".repeat(10_000)
            )),
        ];
        for case in cases {
            assert!(from_fragment(&case).is_err(), "{case:.60}");
        }
        assert!(from_fragment(&b64("[\"discover\",3,[[0,null]]]")).is_ok());
    }
}

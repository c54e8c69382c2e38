//! What a permalink carries: the scenario, every setting of every set-up
//! (including "compare" duplicates), the editor's content and the playback
//! position, as compact JSON, deflated and base64url-encoded into the URL
//! fragment (`#v1.<data>`). Decoding is defensive: a mangled, truncated,
//! huge or hostile fragment gives an error the UI turns into a notice and
//! defaults; nothing in it is ever executed or rendered as HTML.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::Break;
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

impl LaneState {
    /// Set-up `base` as the scenario defines it: nothing changed, not a
    /// compared copy.
    pub fn untouched(base: usize) -> LaneState {
        LaneState {
            base,
            settings: Vec::new(),
            label: None,
        }
    }

    /// Whether a setting was changed or the lane is a compared copy (only
    /// the simulator can show such a lane).
    pub fn is_changed(&self) -> bool {
        !self.settings.is_empty() || self.label.is_some()
    }
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShareError {
    /// Longer than any link mcp-lanes writes.
    TooLong,
    /// Not a prefix this version reads.
    UnknownFormat,
    /// Not base64url.
    NotBase64,
    /// Damaged, or would unpack to more than the limit.
    TooLarge,
    /// The compressed state does not unpack.
    DoesNotUnpack,
    /// The unpacked state is not a state.
    BadShape,
    /// A version-1 state that is not a state.
    OldShape,
    /// It names a scenario the catalog does not have.
    UnknownScenario,
    /// It is for another scenario than the open file's.
    OtherScenario,
    /// No lanes, or more than a page shows.
    LaneCount,
    /// Its lanes name set-ups the scenario does not have.
    LanesMismatch,
    /// A lane label over 200 characters.
    LabelTooLong,
    /// A protocol version over 40 characters.
    ImplausibleVersion,
    /// The editor's content is over the editor's limits.
    EditorTooLarge,
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ShareError::TooLong => "the link is too long to be a mcp-lanes link",
            ShareError::UnknownFormat => {
                "the link's state is not in a format this version understands"
            }
            ShareError::NotBase64 => {
                "the link's state is damaged (not valid base64url); was it cut short?"
            }
            ShareError::TooLarge => "the link's state is damaged or too large to unpack",
            ShareError::DoesNotUnpack => {
                "the link's state is damaged (it does not unpack); was it cut short?"
            }
            ShareError::BadShape => {
                "the link's state is damaged or does not have the expected shape"
            }
            ShareError::OldShape => "the link's state does not have the expected shape",
            ShareError::UnknownScenario => "the link names a scenario that does not exist",
            ShareError::OtherScenario => "the link is for another scenario than this file's",
            ShareError::LaneCount => "the link has no lanes, or too many",
            ShareError::LanesMismatch => "the link's lanes do not match this scenario",
            ShareError::LabelTooLong => "a lane label in the link is too long",
            ShareError::ImplausibleVersion => "the link names an implausible protocol version",
            ShareError::EditorTooLarge => "the editor content in the link is too large",
        })
    }
}

impl std::error::Error for ShareError {}

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
    let fragment = fragment.trim_start_matches('#');
    if fragment.len() > MAX_FRAGMENT {
        return Err(ShareError::TooLong);
    }
    let Some(data) = fragment.strip_prefix(PREFIX) else {
        return Err(ShareError::UnknownFormat);
    };
    let Ok(packed) =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(data.trim_end_matches('='))
    else {
        return Err(ShareError::NotBase64);
    };
    let Ok(json) = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_STATE) else {
        return Err(ShareError::TooLarge);
    };
    let state: ShareState = match serde_json::from_slice(&json) {
        Ok(s) => s,
        Err(_) => return Err(ShareError::OldShape),
    };
    let Some(setups) = crate::scenarios::setups(&state.scenario) else {
        return Err(ShareError::UnknownScenario);
    };
    validate(state, setups.len())
}

/// Prefix of a version-2 fragment ([`to_fragment`], [`from_fragment`]).
pub const PREFIX_V2: &str = "v2.";
/// Prefix of a version-3 fragment: the v2 positional JSON, LZ4-compressed
/// (size prepended), then base64url. Written by [`to_fragment`]; v2 links
/// are still read.
pub const PREFIX_V3: &str = "v3.";

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

/// Appends `,` and a string as JSON.
fn push_text(out: &mut String, text: &str) {
    out.push(',');
    out.push_str(&Value::from(text).to_string());
}

/// Appends `,` and a number or `true`/`false`.
fn push_raw(out: &mut String, raw: &str) {
    out.push(',');
    out.push_str(raw);
}

fn bool_text(on: bool) -> &'static str {
    if on {
        "true"
    } else {
        "false"
    }
}

/// A setting as a short positional array: `[kind, value]` or
/// `[kind, value, on]`, enums as indexes.
fn push_setting(out: &mut String, setting: &Setting) {
    let (kind, index, text, on) = match setting {
        Setting::ClientEra(e) => (0, index_of(&ERAS, e), None, None),
        Setting::ClientCapability(c, on) => (1, index_of(&Capability::ALL, c), None, Some(*on)),
        Setting::PreferredVersion(v) => (2, 0, Some(v), None),
        Setting::ServerEra(e) => (3, index_of(&ERAS, e), None, None),
        Setting::ServerVersion(v, on) => (4, 0, Some(v), Some(*on)),
        Setting::Transport(t) => (5, index_of(&TRANSPORTS, t), None, None),
        Setting::Undeclared(p) => (6, index_of(&POLICIES, p), None, None),
        Setting::ChecksBeforeWork(on) => (7, 0, None, Some(*on)),
        // 0: nothing broken, else 1 + its place in `Break::ALL`.
        Setting::AuthBreak(b) => (
            8,
            b.map_or(0, |b| 1 + index_of(&Break::ALL.map(|(_, b)| b), &b)),
            None,
            None,
        ),
        Setting::GatewayHides(tool, on) => (9, 0, Some(tool), Some(*on)),
    };
    out.push_str(",[");
    out.push_str(&kind.to_string());
    match (text, on) {
        (Some(text), _) => push_text(out, text),
        (None, Some(on)) if kind == 7 => push_raw(out, bool_text(on)),
        _ => push_raw(out, &index.to_string()),
    }
    if let (Some(on), false) = (on, kind == 7) {
        push_raw(out, bool_text(on));
    }
    out.push(']');
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
        8 => Setting::AuthBreak(match index()? {
            0 => None,
            i => Some(Break::ALL.get(i - 1)?.1),
        }),
        9 => Setting::GatewayHides(text()?, on(2)?),
        _ => return None,
    })
}

/// Encodes a state as a compact URL fragment (without the `#`): `v3.` and
/// the base64url of an LZ4-compressed positional JSON array
/// `[scenario, step, [[base, label|null, setting...]...], editor?]` where
/// the editor is `[target, transport, text, [[name, value]...]]`.
/// Unlike [`encode`] it needs no deflate and no serde derives, which keeps
/// the browser's WebAssembly small; links are short anyway (a few settings).
pub fn to_fragment(state: &ShareState) -> String {
    let mut out = String::from("[");
    out.push_str(&Value::from(state.scenario.as_str()).to_string());
    push_raw(&mut out, &state.step.to_string());
    out.push_str(",[");
    for (i, lane) in state.lanes.iter().enumerate() {
        out.push_str(if i == 0 { "[" } else { ",[" });
        out.push_str(&lane.base.to_string());
        match &lane.label {
            Some(label) => push_text(&mut out, label),
            None => push_raw(&mut out, "null"),
        }
        for setting in &lane.settings {
            push_setting(&mut out, setting);
        }
        out.push(']');
    }
    out.push(']');
    if let Some(e) = &state.editor {
        out.push_str(",[");
        out.push_str(&Value::from(e.target.as_str()).to_string());
        push_raw(&mut out, &index_of(&TRANSPORTS, &e.transport).to_string());
        push_text(&mut out, &e.text);
        out.push_str(",[");
        for (i, (name, value)) in e.headers.iter().enumerate() {
            out.push_str(if i == 0 { "[" } else { ",[" });
            out.push_str(&Value::from(name.as_str()).to_string());
            push_text(&mut out, value);
            out.push(']');
        }
        out.push_str("]]");
    }
    out.push(']');
    let packed = lz4_flex::block::compress_prepend_size(out.as_bytes());
    format!(
        "{PREFIX_V3}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
    )
}

/// base64url without padding, decoded by hand (the `base64` crate's
/// decoder is several KB of WebAssembly); `None` on any other character.
fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut bits, mut count) = (0u32, 0u32);
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    Some(out)
}

fn state_from(doc: &Value) -> Option<ShareState> {
    let doc = doc.as_array()?;
    let text = |v: Option<&Value>| v?.as_str().map(str::to_string);
    let mut lanes = Vec::new();
    for lane in doc.get(2)?.as_array()? {
        let lane = lane.as_array()?;
        let label = match lane.get(1)? {
            Value::Null => None,
            v => Some(text(Some(v))?),
        };
        let mut settings = Vec::new();
        for s in &lane[2..] {
            settings.push(setting_from(s)?);
        }
        lanes.push(LaneState {
            base: lane.first()?.as_u64()? as usize,
            settings,
            label,
        });
    }
    let editor = match doc.get(3) {
        None => None,
        Some(e) => {
            let mut headers = Vec::new();
            for h in e.get(3)?.as_array()? {
                headers.push((text(h.get(0))?, text(h.get(1))?));
            }
            Some(EditorState {
                target: text(e.get(0))?,
                transport: *TRANSPORTS.get(e.get(1)?.as_u64()? as usize)?,
                text: text(e.get(2))?,
                headers,
            })
        }
    };
    Some(ShareState {
        scenario: text(doc.first())?,
        lanes,
        step: doc.get(1)?.as_u64()? as usize,
        editor,
    })
}

/// Decodes a [`to_fragment`] fragment (with or without the leading `#`),
/// as defensively as [`decode`]: length, base64url, JSON, shape and the
/// scenario catalog are checked; nothing in it is ever executed.
pub fn from_fragment(fragment: &str) -> Result<ShareState, ShareError> {
    let state = unpack(fragment)?;
    // The count only: the catalog knows it without building the set-ups
    // (the page's lite bundle decodes links without linking them).
    let Some(info) = crate::scenarios::find(&state.scenario).filter(|i| i.id == state.scenario)
    else {
        return Err(ShareError::UnknownScenario);
    };
    validate(state, info.lanes)
}

/// Decodes a [`to_fragment`] fragment of a page that shows a scenario
/// file (`?scenario-url=`): checked like [`from_fragment`], against the
/// file's id and its number of set-ups instead of the catalog.
pub fn from_fragment_for(
    fragment: &str,
    scenario: &str,
    setups: usize,
) -> Result<ShareState, ShareError> {
    let state = unpack(fragment)?;
    if state.scenario != scenario {
        return Err(ShareError::OtherScenario);
    }
    validate(state, setups)
}

/// Length, base64url, LZ4 and shape checks of a `v2.`/`v3.` fragment.
fn unpack(fragment: &str) -> Result<ShareState, ShareError> {
    let fragment = fragment.trim_start_matches('#');
    if fragment.len() > MAX_FRAGMENT {
        return Err(ShareError::TooLong);
    }
    let (data, packed) = match (
        fragment.strip_prefix(PREFIX_V3),
        fragment.strip_prefix(PREFIX_V2),
    ) {
        (Some(data), _) => (data, true),
        (None, Some(data)) => (data, false),
        (None, None) => return Err(ShareError::UnknownFormat),
    };
    let Some(bytes) = base64url_decode(data.trim_end_matches('=')) else {
        return Err(ShareError::NotBase64);
    };
    let json = if packed {
        // The size comes first: refuse a "zip bomb" before unpacking it.
        let declared = bytes
            .get(..4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
        match declared {
            Some(size) if size <= MAX_STATE => {}
            _ => return Err(ShareError::TooLarge),
        }
        match lz4_flex::block::decompress_size_prepended(&bytes) {
            Ok(json) => json,
            Err(_) => return Err(ShareError::DoesNotUnpack),
        }
    } else {
        bytes
    };
    let json = String::from_utf8(json).unwrap_or_default();
    match serde_json::from_str(&json)
        .ok()
        .as_ref()
        .and_then(state_from)
    {
        Some(state) => Ok(state),
        None => Err(ShareError::BadShape),
    }
}

fn validate(state: ShareState, setups: usize) -> Result<ShareState, ShareError> {
    if state.lanes.is_empty() || state.lanes.len() > MAX_SETUPS {
        return Err(ShareError::LaneCount);
    }
    for lane in &state.lanes {
        if lane.base >= setups || lane.settings.len() > MAX_SETTINGS {
            return Err(ShareError::LanesMismatch);
        }
        if lane.label.as_ref().is_some_and(|l| l.chars().count() > 200) {
            return Err(ShareError::LabelTooLong);
        }
        if lane.settings.iter().any(|s| matches!(s, Setting::PreferredVersion(v) | Setting::ServerVersion(v, _) if v.len() > 40)) {
            return Err(ShareError::ImplausibleVersion);
        }
        // A tool name is at most 128 characters.
        if lane
            .settings
            .iter()
            .any(|s| matches!(s, Setting::GatewayHides(t, _) if t.len() > 128))
        {
            return Err(ShareError::BadShape);
        }
    }
    if state
        .editor
        .as_ref()
        .is_some_and(|e| e.text.len() > crate::editor::MAX_REQUEST_BYTES || e.headers.len() > 64)
    {
        return Err(ShareError::EditorTooLarge);
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
            Setting::AuthBreak(Some(crate::auth::Break::ExpiredToken)),
            Setting::AuthBreak(None),
            Setting::GatewayHides("reset_stations".into(), false),
            Setting::GatewayHides("forecast".into(), true),
        ]);
        let fragment = to_fragment(&state);
        assert!(fragment.starts_with(PREFIX_V3));
        assert!(fragment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)));
        assert_eq!(from_fragment(&format!("#{fragment}")), Ok(state.clone()));
        state.editor = None;
        assert_eq!(from_fragment(&to_fragment(&state)), Ok(state));
    }

    #[test]
    fn v3_fragments_are_compressed_and_v2_links_still_open() {
        let mut state = sample();
        if let Some(e) = state.editor.as_mut() {
            e.text = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "confirm_order", "arguments": {"order_id": "A-1042"},
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}}})
            .to_string()
            .repeat(4);
        }
        let v3 = to_fragment(&state);
        // The same state as uncompressed v2 text, for comparison and to
        // check that old links still open.
        let plain = lz4_flex::block::decompress_size_prepended(
            &base64url_decode(v3.trim_start_matches(PREFIX_V3)).unwrap_or_default(),
        )
        .unwrap_or_default();
        let v2 = format!(
            "{PREFIX_V2}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&plain)
        );
        assert!(
            v3.len() * 2 < v2.len(),
            "compressed: {} vs {} characters",
            v3.len(),
            v2.len()
        );
        assert_eq!(from_fragment(&v2), Ok(state.clone()));
        assert_eq!(from_fragment(&v3), Ok(state));
        // A bomb: a tiny v3 fragment that declares a huge state.
        let mut bomb = ((MAX_STATE + 1) as u32).to_le_bytes().to_vec();
        bomb.extend_from_slice(&[0x1f, b'x', 0, 0]);
        let bomb = format!(
            "{PREFIX_V3}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bomb)
        );
        assert!(from_fragment(&bomb).is_err());
        // Damaged v3 data of every length never panics.
        for cut in 0..v3.len() {
            let _ = from_fragment(&v3[..cut]);
        }
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

    #[test]
    fn the_hand_written_base64url_decoder_agrees_with_the_base64_crate() {
        let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        for len in 0..70u8 {
            let bytes: Vec<u8> = (0..len)
                .map(|i| i.wrapping_mul(97).wrapping_add(len))
                .collect();
            let text = engine.encode(&bytes);
            assert_eq!(base64url_decode(&text), Some(bytes), "{text}");
        }
        assert_eq!(base64url_decode("ab+c"), None);
        assert_eq!(base64url_decode("ab c"), None);
    }
}

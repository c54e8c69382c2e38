//! What a permalink carries: the scenario, every setting of every set-up
//! (including "compare" duplicates), the editor's content and the playback
//! position, as compact JSON, deflated and base64url-encoded into the URL
//! fragment (`#v1.<data>`). Decoding is defensive: a mangled, truncated,
//! huge or hostile fragment gives an error the UI turns into a notice and
//! defaults; nothing in it is ever executed or rendered as HTML.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::settings::Setting;
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
    use crate::settings::Capability;

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
}

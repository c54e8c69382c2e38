//! What the views' tests share: the lite page's state over a run recorded
//! in `www/timelines/`, with the English catalog installed (as the page
//! does before its first render).

use crate::i18n;
use crate::runs;
use crate::state::State;

/// A hostile label: markup and both quotes, which must come out as text.
pub const HOSTILE: &str = "<img src=x onerror=alert(1)> \"q\" 'a'";

/// The lite bundle's state for scenario `id`, whose recorded runs are
/// `text` (`www/timelines/<id>.json`, fetched by the lite bundle).
pub fn lite(id: &str, text: &str) -> State {
    i18n::install("en", include_str!("../../www/i18n/en.json"), None);
    assert!(runs::keep(id, text), "the recorded runs of {id} read");
    State::load(Some(id), None)
}

/// `discover`, recorded.
pub fn discover() -> State {
    lite(
        "discover",
        include_str!("../../www/timelines/discover.json"),
    )
}

/// `discover` with its lane and first message labelled [`HOSTILE`].
pub fn hostile_discover() -> State {
    let json = serde_json::to_string(HOSTILE).unwrap_or_default();
    let inner = &json[1..json.len() - 1];
    let text = include_str!("../../www/timelines/discover.json")
        .replace("plain client discovers deploy-console", inner)
        .replace(
            "\"label\":\"server/discover\"",
            &format!("\"label\":{json}"),
        );
    assert!(text.contains("onerror"));
    lite("discover", &text)
}

/// Asserts that `html` has [`HOSTILE`] only as escaped text.
pub fn escaped(html: &str) {
    assert!(!html.contains("<img"), "markup from a label: {html}");
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{html}"
    );
    assert!(!html.contains("\"q\""), "an unescaped quote: {html}");
}

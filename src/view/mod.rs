//! Views as markup text: what the lite page draws, as pure functions of the
//! page's state (`maud` templates, every text and attribute value escaped by
//! construction). Native too: their tests run with `cargo test`.
//!
//! The lite page (`bundle/lite/page`) renders [`page::page`] into its root and
//! patches the live DOM to match (`morph`), so that focus, scroll and open
//! `<details>` survive a render. The DOM is the same as the full bundle's Yew
//! components draw (the two bundles hand over to each other and the browser
//! tests run against both).
//!
//! # What an element does: `data-act`
//!
//! No element carries a handler. The lite page listens on its root and reads
//! `data-act` (and `data-arg`) on the element an event reached:
//!
//! | `data-act` | element | event | does |
//! |---|---|---|---|
//! | `play`, `pause`, `restart`, `back`, `forward`, `end` | button | click | the player's buttons |
//! | `seek` | `input type=range` | input | playhead to the input's value |
//! | `speed` | `select` | change | speed index to the select's value |
//! | `inspect` | message or marker `g` | click, Enter, Space | `data-arg` = `"{lane}:{event}"` |
//! | `close-inspector` | button | click | closes the inspector |
//! | `help` / `help-close` | button | click | opens / closes the keyboard help |
//! | `remove-lane` | button | click | `data-arg` = lane position: removes that added lane |
//! | `theme` | button | click | light or dark |
//! | `copy-link` | button | click | copies the permalink |
//! | `scenario` | `a` | plain click | `data-arg` = scenario id (other clicks follow the link) |
//! | `tab` | button | click | `data-arg` = `lanes` or `editor` |
//! | `handover` | `details` | toggle (open) | hands the page to the full bundle (exports, check, a lane's settings) |

pub mod diagram;
pub mod figure;
pub mod help;
pub mod inspector;
pub mod lane;
pub mod narration;
pub mod page;
pub mod picker;
pub mod player;

#[cfg(test)]
mod testing;

use maud::Markup;

/// A coordinate with one decimal, without float formatting (which would
/// pull `core::fmt`'s float code into the bundle).
pub fn num(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    let t = tenths.unsigned_abs();
    format!("{sign}{}.{}", t / 10, t % 10)
}

/// A class list from optional parts (`None` and empty parts are left out,
/// as yew's `classes!` leaves them out).
pub fn classes(parts: &[Option<&str>]) -> String {
    let mut out = String::new();
    for part in parts.iter().flatten().filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

/// What the page shows besides its state.
pub struct Ui<'a> {
    /// The page's or figure's options.
    pub config: &'a crate::config::Config,
    /// The dark theme is on.
    pub dark: bool,
    /// What the last "Copy link" said.
    pub copied: &'a Copied,
    /// The complete figure's whole run (`figure::transcript`): drawn after
    /// the lanes, with every lane drawn complete (`None`: the page as the
    /// state is now).
    pub transcript: Option<&'a Markup>,
}

/// What the last "Copy link" said.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Copied {
    /// Catalog key of what it said (`None`: nothing copied yet).
    pub text: Option<&'static str>,
    /// The link to copy by hand: the clipboard refused.
    pub manual: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_have_one_decimal() {
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(-0.06), "-0.1");
        assert_eq!(num(0.0), "0.0");
    }

    #[test]
    fn classes_leave_out_missing_parts() {
        assert_eq!(classes(&[Some("a"), None, Some("b")]), "a b");
        assert_eq!(classes(&[None]), "");
        assert_eq!(classes(&[Some("envelope"), Some(""), None]), "envelope");
    }
}

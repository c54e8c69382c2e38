//! Views as markup text: every region of the page, as pure functions of
//! the page's state (`maud` templates, every text and attribute value
//! escaped by construction). Native too: their tests run with `cargo test`.
//!
//! One renderer: the build's drawn figure (`figure`, played by
//! `www/figure.js`) and both bundles' runtime (`runtime`, which renders
//! [`page::page`] and patches the live DOM to match with `morph`, so that
//! focus, scroll and open `<details>` survive a render) draw the page with
//! these views. Where the full bundle has something really interactive (a
//! lane's settings, the exports, the check panel, the editor) the views
//! draw a host (`data-island`, [`Ui::islands`]) that its Yew islands mount
//! into; elsewhere a stand-in that hands over to it.
//!
//! # What an element does: `data-act`
//!
//! No element carries a handler. The runtime listens on its root and reads
//! `data-act` (and `data-arg`) on the element an event reached (never
//! inside an island):
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
//! | `show-failure` | button | click | `data-arg` = `"{lane}:{event}"`: "What to fix" shows that exchange |
//! | `handover` | `details` | toggle (open) | hands the page to the full bundle (exports, check, a lane's settings) |

pub mod check;
pub mod diagram;
pub mod fields;
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
/// as Yew's `classes!` leaves them out).
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
    /// The whole run with every field explained, drawn after the lanes
    /// for print only (`figure::print_run`; the bundles draw it while the
    /// page prints).
    pub print: Option<&'a Markup>,
    /// The full bundle's page: a lane's settings, "Export a run", "Check a
    /// server" and the editor's panel are island hosts (`data-island`,
    /// where the bundle mounts its Yew islands) instead of the stand-ins
    /// that hand over to it.
    pub islands: bool,
    /// Every lane drawn whole with its position marks, as in the complete
    /// figure, for the runtime to show at the state's position
    /// (`runtime::marks`); the rest of the page as the state is now.
    pub marked: bool,
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

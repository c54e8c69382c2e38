//! The keyboard help as markup text: a `<dialog>`, closed. The runtime finds it by its test id, opens
//! it with `showModal`, closes it with `close`, and hears its `close` event
//! (Esc) to turn `help_open` off: the view never has `open` (a modal
//! dialog is the browser's to open; the morph leaves `open` alone).

use crate::i18n::t;
use maud::{html, Markup};

/// The shortcuts as catalog keys of (keys, what they do): the help lists
/// them, `hooks::use_shortcuts` and the lite runtime hear them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("shortcut.1.key", "shortcut.1.does"),
    ("shortcut.2.key", "shortcut.2.does"),
    ("shortcut.3.key", "shortcut.3.does"),
    ("shortcut.4.key", "shortcut.4.does"),
    ("shortcut.5.key", "shortcut.5.does"),
    ("shortcut.6.key", "shortcut.6.does"),
    ("shortcut.7.key", "shortcut.7.does"),
    ("shortcut.8.key", "shortcut.8.does"),
    ("shortcut.9.key", "shortcut.9.does"),
    ("shortcut.10.key", "shortcut.10.does"),
    ("shortcut.11.key", "shortcut.11.does"),
    ("shortcut.12.key", "shortcut.12.does"),
    ("shortcut.13.key", "shortcut.13.does"),
];

/// The keyboard help dialog, closed.
pub fn help() -> Markup {
    html! {
        dialog class="help" data-testid="help-dialog" aria-labelledby="help-title" {
            h2 id="help-title" { (t("help.title")) }
            p { (t("help.where")) }
            table class="shortcuts" {
                thead { tr { th scope="col" { (t("help.key")) } th scope="col" { (t("help.does")) } } }
                tbody {
                    @for (key, what) in SHORTCUTS {
                        tr { td { kbd { (t(key)) } } td { (t(what)) } }
                    }
                }
            }
            p { (t("help.tab")) }
            div class="dialog-actions" {
                button type="button" data-testid="help-close" data-act="help-close" { (t("help.close")) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialog_is_closed_and_lists_every_shortcut() {
        let text = help().into_string();
        assert!(text.starts_with(
            "<dialog class=\"help\" data-testid=\"help-dialog\" aria-labelledby=\"help-title\""
        ));
        assert!(!text.contains(" open"), "{text}");
        assert_eq!(text.matches("<kbd>").count(), SHORTCUTS.len());
        assert!(text.contains(&format!("<kbd>{}</kbd>", t("shortcut.1.key"))));
        assert!(text.contains(&format!("<td>{}</td>", t("shortcut.13.does"))));
        assert!(text.contains(
            "<button type=\"button\" data-testid=\"help-close\" data-act=\"help-close\">"
        ));
        assert!(!text.contains("shortcut.1.key"), "every key has a text");
    }
}

//! Every key the page and a figure answer, as data: the runtime's
//! listener (`shortcuts::action_for`) reads it, and the drawn figure
//! carries it for `figure.js`.

use super::Action;

/// Every key the page and a figure answer, and what it does, by the name
/// a figure's controls use (`data-act`, control messages). The drawn
/// figure carries this table for `figure.js`, so a key is added here once.
pub const KEYS: &[(&str, &str)] = &[
    (" ", "toggle"),
    ("Spacebar", "toggle"),
    ("k", "toggle"),
    ("K", "toggle"),
    ("ArrowRight", "forward"),
    ("ArrowLeft", "back"),
    ("Home", "restart"),
    ("End", "end"),
    ("+", "faster"),
    ("=", "faster"),
    ("-", "slower"),
    ("_", "slower"),
    ("?", "help"),
    ("e", "editor"),
    ("E", "editor"),
    ("Escape", "close-inspector"),
];

/// Keys that act only when focus is not on a control: space there
/// presses the focused button.
pub const OFF_CONTROL: &[&str] = &[" ", "Spacebar"];

/// The action a key's name in [`KEYS`] stands for.
pub fn action(name: &str) -> Option<Action> {
    Some(match name {
        "toggle" => Action::TogglePlay,
        "forward" => Action::StepForward,
        "back" => Action::StepBack,
        "restart" => Action::Restart,
        "end" => Action::JumpToEnd,
        "faster" => Action::Faster,
        "slower" => Action::Slower,
        "help" => Action::Help(true),
        "editor" => Action::ShowEditor(true),
        "close-inspector" => Action::Inspect(None),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_names_an_action() {
        for (key, name) in KEYS {
            assert!(
                action(name).is_some(),
                "{key:?} names {name:?}, which is no action"
            );
        }
        // E opens the editor (never closes it: it puts the cursor there).
        let editor = KEYS.iter().filter(|(k, _)| *k == "e" || *k == "E");
        for (_, name) in editor {
            assert!(matches!(action(name), Some(Action::ShowEditor(true))));
        }
        for key in OFF_CONTROL {
            assert!(KEYS.iter().any(|(k, _)| k == key), "{key:?} is not in KEYS");
        }
    }
}

//! The learner's sentence of a timeline event, as a catalog message: a
//! stable key, its English template and named arguments.
//!
//! Every note site says all three with [`note!`](crate::note!):
//! `note!("srv.discover", "... {version} ...", version = v)`. The English
//! text is rendered at once (the CLI, transcripts and exports print it as
//! before); the key and arguments ([`Msg`]) travel with it into the
//! timeline (`Event::note_msg`), so a view can render the template of
//! another language (`www/i18n/<tag>.notes.json`, `note.<key>`). A
//! template's `{name}` is replaced by its argument; an argument is plain
//! text (an MCP term, an id, a number: never translated) or a message of
//! its own. `crates/cli/tests/i18n_catalogs.rs` reads every `note!` of
//! this crate's source into `www/i18n/en.notes.json`.
//!
//! A note made from a plain string ([`Note::from`]) has no message: a view
//! shows its English text.

use std::fmt;
use std::ops::Deref;

use serde::{Serialize, Serializer};
use serde_json::Value;

/// A note: the English text, and the message it was rendered from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Note {
    text: String,
    msg: Option<Msg>,
}

/// A catalog message: how a note is said in any language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// Text said as it is (an MCP term, an id, a number, a server's words).
    Text(String),
    /// A template of the catalog and its arguments.
    Keyed {
        /// The catalog key (without the `note.` prefix).
        key: String,
        /// Named arguments, in the order the site gave them.
        args: Vec<(String, Msg)>,
    },
    /// Sentences said one after the other.
    Seq(Vec<Msg>),
}

impl Note {
    /// A note from a key, its English template and its arguments (what
    /// [`note!`](crate::note!) expands to).
    pub fn keyed(
        key: &'static str,
        template: &'static str,
        args: Vec<(&'static str, Note)>,
    ) -> Note {
        let english: Vec<(&str, String)> = args.iter().map(|(n, a)| (*n, a.text.clone())).collect();
        let text = substitute(template, &english);
        let args = args
            .into_iter()
            .map(|(n, a)| (n.to_string(), a.msg.unwrap_or(Msg::Text(a.text))))
            .collect();
        Note {
            text,
            msg: Some(Msg::Keyed {
                key: key.to_string(),
                args,
            }),
        }
    }

    /// The English text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The message, if the note was made from one.
    pub fn msg(&self) -> Option<&Msg> {
        self.msg.as_ref()
    }

    /// The English text and the message as a timeline records it (JSON:
    /// a view renders it with [`render`], without this module's types).
    pub fn into_parts(self) -> (String, Option<Value>) {
        (self.text, self.msg.as_ref().map(Msg::to_value))
    }

    /// A note from its parts (as a timeline records them).
    pub fn from_parts(text: String, msg: Option<Msg>) -> Note {
        Note { text, msg }
    }

    /// Drops the English text's final periods (a note quoted inside
    /// another sentence); the message stays as it is.
    pub fn trim_end_period(&mut self) {
        let len = self.text.trim_end_matches('.').len();
        self.text.truncate(len);
    }

    /// Appends a sentence (English: after a space).
    pub fn push(&mut self, more: Note) {
        if more.text.is_empty() {
            return;
        }
        if self.text.is_empty() {
            *self = more;
            return;
        }
        self.text.push(' ');
        self.text.push_str(&more.text);
        let first = self.msg.take().unwrap_or_else(|| Msg::Text(String::new()));
        let mut parts = match first {
            Msg::Seq(parts) => parts,
            other => vec![other],
        };
        parts.push(more.msg.unwrap_or(Msg::Text(more.text)));
        self.msg = Some(Msg::Seq(parts));
    }

    /// Whether every part of the message is keyed (plain text only as an
    /// argument): what a catalog can translate whole.
    pub fn is_keyed(&self) -> bool {
        self.msg.as_ref().is_some_and(Msg::is_keyed)
    }
}

impl Msg {
    /// See [`Note::is_keyed`].
    pub fn is_keyed(&self) -> bool {
        match self {
            Msg::Text(_) => false,
            Msg::Keyed { args, .. } => args.iter().all(|(_, a)| match a {
                Msg::Text(_) => true,
                other => other.is_keyed(),
            }),
            Msg::Seq(parts) => parts.iter().all(Msg::is_keyed),
        }
    }

    /// Every key of the message and of the messages in its arguments.
    pub fn keys(&self, out: &mut Vec<String>) {
        match self {
            Msg::Text(_) => {}
            Msg::Keyed { key, args } => {
                out.push(key.clone());
                for (_, a) in args {
                    a.keys(out);
                }
            }
            Msg::Seq(parts) => parts.iter().for_each(|p| p.keys(out)),
        }
    }

    /// The message in another language (see [`render`]).
    pub fn render(&self, template: &dyn Fn(&str) -> Option<String>, sep: &str) -> Option<String> {
        render(&self.to_value(), template, sep)
    }

    /// The message as JSON: a string for [`Msg::Text`], `{"key", "args"}`
    /// (args left out when there are none) for [`Msg::Keyed`], an array
    /// for [`Msg::Seq`].
    pub fn to_value(&self) -> Value {
        match self {
            Msg::Text(text) => Value::String(text.clone()),
            Msg::Keyed { key, args } => {
                let mut map = serde_json::Map::new();
                map.insert("key".into(), Value::String(key.clone()));
                if !args.is_empty() {
                    let args = args
                        .iter()
                        .map(|(n, m)| (n.clone(), m.to_value()))
                        .collect();
                    map.insert("args".into(), Value::Object(args));
                }
                Value::Object(map)
            }
            Msg::Seq(parts) => Value::Array(parts.iter().map(Msg::to_value).collect()),
        }
    }

    /// Reads what [`Msg::to_value`] wrote.
    pub fn from_value(v: &Value) -> Option<Msg> {
        Some(match v {
            Value::String(s) => Msg::Text(s.clone()),
            Value::Array(parts) => {
                Msg::Seq(parts.iter().map(Msg::from_value).collect::<Option<_>>()?)
            }
            Value::Object(o) => Msg::Keyed {
                key: o.get("key")?.as_str()?.to_string(),
                args: match o.get("args") {
                    None => Vec::new(),
                    Some(a) => a
                        .as_object()?
                        .iter()
                        .map(|(n, m)| Some((n.clone(), Msg::from_value(m)?)))
                        .collect::<Option<_>>()?,
                },
            },
            _ => return None,
        })
    }
}

/// A recorded message (what [`Note::into_parts`] gives, a timeline's
/// `note_msg`) in another language: `template(key)` gives a key's
/// template, `sep` joins sentences; a string is said as it is. `None` when
/// a template is missing or the JSON is not a message (the view then shows
/// the English text: never a blank).
pub fn render(msg: &Value, template: &dyn Fn(&str) -> Option<String>, sep: &str) -> Option<String> {
    match msg {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => parts
            .iter()
            .map(|p| render(p, template, sep))
            .collect::<Option<Vec<_>>>()
            .map(|parts| parts.join(sep)),
        Value::Object(o) => {
            let text = template(o.get("key")?.as_str()?)?;
            let args = match o.get("args") {
                None => Vec::new(),
                Some(args) => args
                    .as_object()?
                    .iter()
                    .map(|(n, a)| Some((n.as_str(), render(a, template, sep)?)))
                    .collect::<Option<Vec<_>>>()?,
            };
            Some(substitute(&text, &args))
        }
        _ => None,
    }
}

/// `template` with each `{name}` replaced by its value, in one pass (a
/// value's own braces stay as they are; `{{` and `}}` are braces).
pub fn substitute(template: &str, args: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let (brace, after) = (&rest[at..at + 1], &rest[at + 1..]);
        if after.starts_with(brace) {
            out.push_str(brace);
            rest = &after[1..];
            continue;
        }
        let found = (brace == "{")
            .then(|| after.find('}'))
            .flatten()
            .and_then(|close| {
                args.iter()
                    .find(|(n, _)| *n == &after[..close])
                    .map(|a| (close, a))
            });
        match found {
            Some((close, (_, value))) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(brace);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A note travels in a scenario file as its English text (a file's
/// notes are the author's own words, never keyed).
impl Serialize for Note {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> serde::Deserialize<'de> for Note {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Note, D::Error> {
        String::deserialize(d).map(Note::from)
    }
}

impl Deref for Note {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl From<String> for Note {
    /// A note without a message (a view shows this English text).
    fn from(text: String) -> Note {
        Note { text, msg: None }
    }
}

impl From<&str> for Note {
    fn from(text: &str) -> Note {
        Note::from(text.to_string())
    }
}

impl PartialEq<&str> for Note {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

/// What a [`note!`](crate::note!) argument can be: any displayable value
/// (said as it is, never translated), or a note (its message nested).
pub trait IntoArg {
    /// The argument as a note.
    fn into_arg(self) -> Note;
}

impl<T: fmt::Display> IntoArg for T {
    fn into_arg(self) -> Note {
        let text = self.to_string();
        Note {
            msg: Some(Msg::Text(text.clone())),
            text,
        }
    }
}

impl IntoArg for Note {
    fn into_arg(self) -> Note {
        self
    }
}

impl IntoArg for &Note {
    fn into_arg(self) -> Note {
        self.clone()
    }
}

impl IntoArg for &&Note {
    fn into_arg(self) -> Note {
        (*self).clone()
    }
}

/// A [`Note`] from a catalog key, its English template and named
/// arguments: `note!("srv.x", "Session {id} ends.", id = id)`. The key is
/// stable (a catalog's `note.<key>`); the template is a string literal
/// (`crates/cli/tests/i18n_catalogs.rs` reads it from the source); each
/// argument is a displayable value or a [`Note`] ([`IntoArg`]).
#[macro_export]
macro_rules! note {
    ($key:literal, $template:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::note::Note::keyed(
            $key,
            $template,
            vec![$((stringify!($name), $crate::note::IntoArg::into_arg(&$value))),*],
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_renders_english_and_keeps_its_message() {
        let inner = crate::note!("t.inner", "inner {x}", x = 1);
        let note = crate::note!(
            "t.outer",
            "A {{b}} {id}: {inner}.",
            id = "s-1",
            inner = inner
        );
        assert_eq!(note.text(), "A {b} s-1: inner 1.");
        let zh = |k: &str| match k {
            "t.outer" => Some("甲 {id}：{inner}。".to_string()),
            "t.inner" => Some("内 {x}".to_string()),
            _ => None,
        };
        assert_eq!(
            note.msg().and_then(|m| m.render(&zh, "")).as_deref(),
            Some("甲 s-1：内 1。")
        );
        let none = |_: &str| None;
        assert_eq!(note.msg().and_then(|m| m.render(&none, "")), None);
        let json = note.msg().map(Msg::to_value).unwrap_or_default();
        assert_eq!(Msg::from_value(&json).as_ref(), note.msg());
        assert!(note.is_keyed());
    }

    #[test]
    fn pushed_sentences_join() {
        let mut note = crate::note!("t.a", "A.");
        note.push(crate::note!("t.b", "B."));
        assert_eq!(note.text(), "A. B.");
        assert!(note.is_keyed());
        note.push(Note::from("C."));
        assert_eq!(note.text(), "A. B. C.");
        assert!(!note.is_keyed());
    }
}

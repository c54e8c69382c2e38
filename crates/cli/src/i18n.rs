//! `--lang`: the text output in a language of the page's catalogs
//! (`www/i18n/`, embedded at build time by `build.rs`). The core's English
//! stays the reference: JSON output and transcripts are unchanged;
//! scenario titles and summaries (and the `list` descriptions of
//! scenarios), the notes of a run's events, its outcome and its set-up
//! labels (`<tag>.notes.json`) come from the catalog, English where it
//! has no text.

use mcp_lanes_core::note;
use serde_json::{Map, Value};

include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// A language's catalog, for the text output.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    entries: Map<String, Value>,
    english: bool,
    tag: String,
}

/// The languages `--lang` accepts, comma separated.
pub fn tags() -> String {
    CATALOGS
        .iter()
        .map(|(tag, ..)| *tag)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Catalog {
    /// The catalog of `tag` (`zh`, or `zh-CN` for `zh`); `None` when there is
    /// no such language.
    pub fn load(tag: &str) -> Option<Catalog> {
        let wanted = tag.trim().to_ascii_lowercase();
        let primary = wanted.split(['-', '_']).next().unwrap_or_default();
        let (tag, text, notes, rules) = CATALOGS
            .iter()
            .find(|(t, ..)| *t == wanted)
            .or_else(|| CATALOGS.iter().find(|(t, ..)| *t == primary))?;
        match serde_json::from_str(text) {
            Ok(Value::Object(mut entries)) => {
                for more in [notes, rules] {
                    if let Ok(Value::Object(more)) = serde_json::from_str(more) {
                        entries.extend(more);
                    }
                }
                Some(Catalog {
                    entries,
                    english: *tag == "en",
                    tag: tag.to_string(),
                })
            }
            _ => None,
        }
    }

    /// The catalog of `tag`, English when there is none (or no tag).
    pub fn or_english(tag: Option<&str>) -> Catalog {
        tag.and_then(Catalog::load)
            .or_else(|| Catalog::load("en"))
            .unwrap_or_default()
    }

    /// The language's tag (`zh`).
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// A note (or an outcome) in the language: `english` when the
    /// language is English, there is no message, or a template is missing.
    pub fn note(&self, english: &str, msg: Option<&Value>) -> String {
        if self.english {
            return english.to_string();
        }
        let template = |key: &str| {
            self.entries
                .get(&format!("note.{key}"))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let join = self.text("notes.join", " ");
        msg.and_then(|m| note::render(m, &template, &join))
            .unwrap_or_else(|| english.to_string())
    }

    /// A set-up label in the language (`label.<English>`), else as it is.
    pub fn label(&self, english: &str) -> String {
        if self.english {
            return english.to_string();
        }
        self.text(&format!("label.{english}"), english)
    }

    /// A peer's label ("name version (era)", as the core writes it) with
    /// the era's name in the language.
    pub fn peer(&self, text: &str) -> String {
        let era = text
            .rsplit_once(" (")
            .and_then(|(head, era)| Some((head, era.strip_suffix(')')?)));
        match era {
            Some((head, era)) if !self.english => format!("{head} ({})", self.label(era)),
            _ => text.to_string(),
        }
    }

    /// The text of `key` (or `english`) with each `{name}` of `args`
    /// replaced by its value.
    pub fn fill(&self, key: &str, english: &str, args: &[(&str, String)]) -> String {
        note::substitute(&self.text(key, english), args)
    }

    /// A rule's summary (`rule.<ID>`), or `english`.
    pub fn rule(&self, id: &str, english: &str) -> String {
        self.text(&format!("rule.{id}"), english)
    }

    /// The text of `key`, or `english` when the catalog has none.
    pub fn text(&self, key: &str, english: &str) -> String {
        self.entries
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or(english)
            .to_string()
    }
}

/// A message of the catalogs, not yet said in a language: its key, its
/// English template and the values of its `{placeholders}` (option names,
/// values, ids: said as they are in every language). What a usage error
/// is until `main` knows the language to say it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keyed {
    /// The catalog key (`cli.usage.*`).
    pub key: &'static str,
    /// The English template, as `en.json` has it.
    pub template: &'static str,
    /// The values of its placeholders.
    pub args: Vec<(&'static str, String)>,
}

impl Keyed {
    /// The message of `key` (English `template`) with `args`.
    pub fn new(key: &'static str, template: &'static str, args: &[(&'static str, String)]) -> Self {
        Keyed {
            key,
            template,
            args: args.to_vec(),
        }
    }

    /// The message in `lang`'s language (English without one, or where
    /// the catalog has no text).
    pub fn say(&self, lang: Option<&Catalog>) -> String {
        match lang {
            Some(c) => c.fill(self.key, self.template, &self.args),
            None => note::substitute(self.template, &self.args),
        }
    }
}

impl std::fmt::Display for Keyed {
    /// The English message.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.say(None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_language_is_embedded() {
        assert!(CATALOGS.iter().any(|(t, ..)| *t == "en"));
        assert!(CATALOGS.iter().any(|(t, ..)| *t == "zh"));
        let zh = Catalog::load("zh-CN").expect("zh");
        assert_eq!(zh.text("player.play", "Play"), "播放");
        assert_eq!(zh.text("no.such.key", "fallback"), "fallback");
        assert!(Catalog::load("xx").is_none());
        let note = mcp_lanes_core::note!("sim.side_client", "client");
        let msg = note.msg().map(mcp_lanes_core::note::Msg::to_value);
        assert_eq!(zh.note(note.text(), msg.as_ref()), "客户端");
        assert_eq!(zh.note("plain", None), "plain");
        assert_eq!(zh.label("plain client"), "普通客户端");
        let en = Catalog::load("en").expect("en");
        assert_eq!(en.note(note.text(), msg.as_ref()), "client");
    }
}

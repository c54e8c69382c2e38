//! `--lang`: the text output in a language of the page's catalogs
//! (`www/i18n/`, embedded at build time by `build.rs`). The core's English
//! stays the reference: JSON output, notes and transcripts are unchanged;
//! scenario titles and summaries (and the `list` descriptions of
//! scenarios) come from the catalog, English where it has no text.

use serde_json::{Map, Value};

include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// A language's catalog, for the text output.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    entries: Map<String, Value>,
}

/// The languages `--lang` accepts, comma separated.
pub fn tags() -> String {
    CATALOGS
        .iter()
        .map(|(tag, _)| *tag)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Catalog {
    /// The catalog of `tag` (`zh`, or `zh-CN` for `zh`); `None` when there is
    /// no such language.
    pub fn load(tag: &str) -> Option<Catalog> {
        let wanted = tag.trim().to_ascii_lowercase();
        let primary = wanted.split(['-', '_']).next().unwrap_or_default();
        let (_, text) = CATALOGS
            .iter()
            .find(|(t, _)| *t == wanted)
            .or_else(|| CATALOGS.iter().find(|(t, _)| *t == primary))?;
        match serde_json::from_str(text) {
            Ok(Value::Object(entries)) => Some(Catalog { entries }),
            _ => None,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_language_is_embedded() {
        assert!(CATALOGS.iter().any(|(t, _)| *t == "en"));
        assert!(CATALOGS.iter().any(|(t, _)| *t == "zh"));
        let zh = Catalog::load("zh-CN").expect("zh");
        assert_eq!(zh.text("player.play", "Play"), "播放");
        assert_eq!(zh.text("no.such.key", "fallback"), "fallback");
        assert!(Catalog::load("xx").is_none());
    }
}

//! Scenario files: the JSON format course authors write (documented in
//! README.md, described by `schemas/scenario.schema.json`), read into the
//! core's [`Setup`]s, and written from them.
//!
//! A layer of its own, in the author's words rather than the core's:
//! servers and clients are presets with overrides (or written from
//! scratch), set-ups refer to them by id, and a script is a list of steps
//! such as `{"do": "call", "tool": "forecast", "arguments": {...}}`, each
//! with the narration (`say`) the reader sees when it begins.
//!
//! - `types.rs`: the file's model;
//! - `read.rs`: the validator (every problem with its JSON path);
//! - `limits.rs`: size, count and depth limits;
//! - `build.rs`: presets and defaults, references, conversion to set-ups;
//! - `write.rs`: export of set-ups (every catalog scenario round-trips).
//!
//! **Invariant:** loading never panics and never returns part of a
//! scenario: either every set-up is built, or every problem is reported.

mod build;
mod limits;
mod read;
mod to_json;
mod types;
mod write;

use serde_json::Value;

pub use limits::*;
pub use read::FORMAT;

use super::ScenarioInfo;
use crate::note;
use crate::note::{Msg, Note};
use crate::server::ServerConfig;
use crate::sim::Setup;

/// One problem of a file: where (a JSON path such as
/// `servers[0].tools[1].requires`; empty for the file as a whole) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// JSON path of the offending value (empty: the whole file).
    pub path: String,
    /// One sentence: what was expected, what was found, or which limit
    /// (English).
    pub message: String,
    /// `message` as a catalog message (`file.*` keys, see [`crate::note`]),
    /// so a view can say it in another language; the author's values and
    /// paths in it are said as they are.
    pub message_msg: Option<Msg>,
}

impl FileError {
    /// A problem at `path` (empty: the whole file).
    pub fn new(path: impl Into<String>, message: Note) -> FileError {
        let (message, msg) = (message.text().to_string(), message.msg().cloned());
        FileError {
            path: path.into(),
            message,
            message_msg: msg,
        }
    }

    /// The message as a note (its English and its catalog message).
    pub fn message_note(&self) -> Note {
        Note::from_parts(self.message.clone(), self.message_msg.clone())
    }

    /// The whole line, `path: message` (`(file): message` for the whole
    /// file), as a note: what the page and the CLI show, in the reader's
    /// language (the path stays as it is).
    pub fn note(&self) -> Note {
        let message = self.message_note();
        if self.path.is_empty() {
            note!("file.whole", "(file): {message}", message = message)
        } else {
            note!(
                "file.at",
                "{path}: {message}",
                path = self.path,
                message = message
            )
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.note().text())
    }
}

impl std::error::Error for FileError {}

/// A loaded scenario file: everything the page and the CLI need.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioFile {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its summary.
    pub summary: String,
    /// The set-ups, side by side, ready for [`crate::sim::run`].
    pub setups: Vec<Setup>,
    /// Every server the file defines or uses, by the id the file knows it
    /// by (its own servers first, then the presets its set-ups name).
    pub servers: Vec<(String, ServerConfig)>,
    /// The author's own text in other languages (`translations`).
    pub translations: Vec<Translation>,
}

/// A scenario file's own text in another language (`translations.<tag>`):
/// what the author wrote for a reader of that language. Labels and
/// narration are keyed by the file's own text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Translation {
    /// The language tag (`zh`, `pt-BR`).
    pub tag: String,
    /// The title.
    pub title: Option<String>,
    /// The summary.
    pub summary: Option<String>,
    /// A set-up's label, by the file's label.
    pub labels: Vec<(String, String)>,
    /// A step's narration (`say`), by the file's text.
    pub say: Vec<(String, String)>,
}

impl ScenarioFile {
    /// The server the file knows as `id`.
    pub fn server(&self, id: &str) -> Option<&ServerConfig> {
        self.servers.iter().find(|(n, _)| n == id).map(|(_, c)| c)
    }

    /// The file as a reader of `tag` sees it: its title, summary, set-up
    /// labels and narration from the translation for that language (the
    /// tag itself, else its primary language: `zh-CN` reads `zh`), the
    /// file's own text where the translation has none. Only text changes:
    /// the runs are the same.
    pub fn localized(&self, tag: &str) -> ScenarioFile {
        let mut out = self.clone();
        let Some(t) = self.translation(tag) else {
            return out;
        };
        let find = |list: &[(String, String)], text: &str| {
            list.iter().find(|(k, _)| k == text).map(|(_, v)| v.clone())
        };
        if let Some(title) = &t.title {
            out.title = title.clone();
        }
        if let Some(summary) = &t.summary {
            out.summary = summary.clone();
        }
        for setup in &mut out.setups {
            if let Some(label) = find(&t.labels, &setup.label) {
                setup.label = label;
            }
            for step in &mut setup.script {
                if let crate::client::Step::Narrate { text } = step {
                    if let Some(said) = find(&t.say, text) {
                        *text = said;
                    }
                }
            }
        }
        out
    }

    /// The translation for `tag`, or for its primary language.
    fn translation(&self, tag: &str) -> Option<&Translation> {
        let wanted = tag.trim().to_ascii_lowercase();
        let primary = |t: &str| t.split(['-', '_']).next().unwrap_or_default().to_string();
        self.translations
            .iter()
            .find(|t| t.tag.to_ascii_lowercase() == wanted)
            .or_else(|| {
                self.translations
                    .iter()
                    .find(|t| primary(&t.tag.to_ascii_lowercase()) == primary(&wanted))
            })
    }
}

/// Loads a scenario file from its text: size, nesting depth and JSON are
/// checked before the content, and every problem of the content is
/// reported.
pub fn load(text: &str) -> Result<ScenarioFile, Vec<FileError>> {
    let whole = |message: Note| vec![FileError::new("", message)];
    if text.len() > MAX_FILE_BYTES {
        return Err(whole(note!(
            "file.too_big",
            "{bytes} bytes, more than the limit of {max} bytes for a scenario file",
            bytes = text.len(),
            max = MAX_FILE_BYTES
        )));
    }
    if let Some((line, column)) = limits::too_deep(text) {
        return Err(whole(note!(
            "file.too_deep_at",
            "nested more than {max} levels deep (the limit) at line {line} column {column}",
            max = MAX_DEPTH,
            line = line,
            column = column
        )));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => load_value(&value),
        Err(err) => Err(whole(note!(
            "file.not_json",
            "not valid JSON: {why}",
            why = json_problem(&err)
        ))),
    }
}

/// serde_json's words for a parse error (English, as they were), with a
/// message another language says without them: the kind of problem and
/// where.
fn json_problem(err: &serde_json::Error) -> Note {
    let (line, column) = (err.line(), err.column());
    let msg = if err.is_eof() {
        note!(
            "file.json_eof",
            "the text ends too early, at line {line} column {column}",
            line = line,
            column = column
        )
    } else {
        note!(
            "file.json_syntax",
            "a syntax error at line {line} column {column}",
            line = line,
            column = column
        )
    };
    Note::from_parts(err.to_string(), msg.msg().cloned())
}

/// Loads a scenario file already parsed (e.g. an object handed over by a
/// web page): the same checks as [`load`] besides the text's size.
pub fn load_value(value: &Value) -> Result<ScenarioFile, Vec<FileError>> {
    if let Some(path) = limits::deep_path(value) {
        return Err(vec![FileError::new(
            path,
            note!(
                "file.too_deep",
                "nested more than {max} levels deep (the limit)",
                max = MAX_DEPTH
            ),
        )]);
    }
    let mut errors = read::Errors::default();
    let file = read::file(&mut errors, value);
    let loaded = match file {
        Some(file) if errors.0.is_empty() => build::scenario(&mut errors, &file),
        _ => None,
    };
    match loaded {
        Some(loaded) if errors.0.is_empty() => Ok(loaded),
        _ if errors.0.is_empty() => Err(vec![FileError::new(
            "",
            note!("file.unreadable", "the file could not be read"),
        )]),
        _ => Err(errors.0),
    }
}

/// Writes set-ups as a scenario file (the smallest the defaults allow).
pub fn export(id: &str, title: &str, summary: &str, setups: &[Setup]) -> Value {
    to_json::to_value(&write::file(id, title, summary, setups))
}

/// Writes a catalog scenario as a scenario file.
pub fn export_scenario(info: &ScenarioInfo) -> Value {
    export(
        info.id,
        info.title,
        info.summary,
        &super::setups(info.id).unwrap_or_default(),
    )
}

#[cfg(test)]
mod tests;

//! Where `run` and `serve` get what they run: a catalog scenario or a
//! server preset by id, or a scenario file read from disk and checked by
//! the core (`scenarios::file`). An unknown id or an invalid file is a
//! usage error (exit status 2) listing every problem.

use std::io::Read;

use mcp_lanes_core::note;
use mcp_lanes_core::note::Msg;
use mcp_lanes_core::scenarios::file::{self, FileError, ScenarioFile, MAX_FILE_BYTES};
use mcp_lanes_core::server::{presets, ServerConfig};
use mcp_lanes_core::sim::served::ServedScript;

use crate::i18n::Catalog;
use crate::{list, Failure};

/// Which server `serve` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerSource {
    /// A server preset id as typed (checked when served).
    Preset(String),
    /// A server of a scenario file.
    File {
        /// The file.
        path: String,
        /// The server's id in it.
        server: String,
    },
}

/// Reads and loads a scenario file; every problem is in the error, in
/// `lang`'s language (`--lang`; English without one).
pub fn load(path: &str, lang: Option<&Catalog>) -> Result<ScenarioFile, Failure> {
    let cannot_read = |err: std::io::Error| {
        // The system's words, but for the two a reader meets most.
        let why = match err.kind() {
            std::io::ErrorKind::NotFound => {
                say(lang, "cli.file.not_found", "there is no such file", &[])
            }
            std::io::ErrorKind::PermissionDenied => {
                say(lang, "cli.file.no_permission", "permission denied", &[])
            }
            _ => err.to_string(),
        };
        Failure::Usage(say(
            lang,
            "cli.file.cannot_read",
            "cannot read the scenario file {path}: {why}",
            &[("path", format!("{path:?}")), ("why", why)],
        ))
    };
    let opened = std::fs::File::open(path).map_err(cannot_read)?;
    // Read one byte past the limit at most: a huge file is not read whole.
    let mut bytes = Vec::new();
    opened
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot_read)?;
    let problems = |errors: Vec<FileError>| {
        let lines: Vec<String> = errors
            .iter()
            .map(|e| {
                let note = e.note();
                match lang {
                    Some(c) => c.note(note.text(), note.msg().map(Msg::to_value).as_ref()),
                    None => note.text().to_string(),
                }
            })
            .collect();
        let count = lines.len().to_string();
        let (key, english) = if lines.len() == 1 {
            (
                "cli.file.invalid_one",
                "{path} is not a valid scenario file (1 problem):",
            )
        } else {
            (
                "cli.file.invalid",
                "{path} is not a valid scenario file ({count} problems):",
            )
        };
        let head = say(
            lang,
            key,
            english,
            &[("path", path.to_string()), ("count", count)],
        );
        Failure::Usage(format!("{head}\n  {}", lines.join("\n  ")))
    };
    if bytes.len() > MAX_FILE_BYTES {
        return Err(problems(vec![FileError::new(
            "",
            note!(
                "file.too_big_read",
                "more than the limit of {max} bytes for a scenario file",
                max = MAX_FILE_BYTES
            ),
        )]));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        problems(vec![FileError::new(
            "",
            note!("file.not_utf8", "not UTF-8 text"),
        )])
    })?;
    // A recording is not a scenario: say where it goes.
    let recording = serde_json::from_str::<serde_json::Value>(&text)
        .is_ok_and(|v| mcp_lanes_core::import::is_recording(&v));
    if recording {
        return Err(Failure::Usage(say(
            lang,
            "cli.file.is_recording",
            "{path} is a recorded conversation (a transcript, a HAR capture or a `run --format json` document), not a scenario file: grade it with `mcp-lanes check --transcript {path}`",
            &[("path", path.to_string())],
        )));
    }
    file::load(&text).map_err(problems)
}

/// The text of `key` in `lang`'s catalog (`english` without one).
fn say(lang: Option<&Catalog>, key: &str, english: &str, args: &[(&str, String)]) -> String {
    match lang {
        Some(c) => c.fill(key, english, args),
        None => note::substitute(english, args),
    }
}

/// The server `serve` runs, and the scripted events it plays: those of
/// the first set-up of the file that uses it (a preset plays none).
pub fn server(source: &ServerSource) -> Result<(ServerConfig, ServedScript), Failure> {
    match source {
        ServerSource::Preset(id) => presets::server(id)
            .map(|config| (config, ServedScript::default()))
            .ok_or_else(|| {
                Failure::Usage(format!(
                    "unknown server preset {id:?}; valid server presets: {}",
                    list::server_ids()
                ))
            }),
        ServerSource::File { path, server } => {
            let loaded = load(path, None)?;
            let config = loaded.server(server).cloned().ok_or_else(|| {
                let ids: Vec<&str> = loaded.servers.iter().map(|(id, _)| id.as_str()).collect();
                Failure::Usage(format!(
                    "{path} has no server {server:?}; its servers: {}",
                    ids.join(", ")
                ))
            })?;
            let events = loaded
                .setups
                .iter()
                .find(|s| s.server == config)
                .map(|s| s.server_events.as_slice())
                .unwrap_or_default();
            Ok((config, ServedScript::new(events)))
        }
    }
}

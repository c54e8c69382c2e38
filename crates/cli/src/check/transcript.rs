//! `mcp-lanes check --transcript FILE`: a recorded conversation graded
//! offline, by the grader of a live check. The core reads the file
//! (`mcp_lanes_core::import`: a transcript, the `run --format json`
//! document, a HAR capture, timelines or a check report, recognised from
//! the content) and grades it (`check::grade_recorded`); this module reads
//! the bytes (a file, or stdin for `-`), adds S-SCHEMA, and prints the
//! report as `check` does.
//!
//! Exit status: 0 when no rule failed (an expected failure, at a message
//! the recording marks as a deliberate violation, is not one), 1 when one
//! did, 2 for a file that cannot be read or is no recording.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use mcp_lanes_core::check;
use mcp_lanes_core::import::{self, MAX_BYTES};
use mcp_lanes_core::note::{Msg, Note};
use serde_json::Value;

use super::{junit, render, ReportFormat};
use crate::i18n::Catalog;
use crate::Failure;

/// What `check --transcript` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptArgs {
    /// The recording's path, or `-` for stdin.
    pub path: String,
    /// `--format`.
    pub format: ReportFormat,
    /// `--out`: where to write the report as JSON.
    pub out: Option<PathBuf>,
    /// `--lang`: the language of the text report (a catalog's tag, checked).
    pub lang: Option<String>,
}

/// A note in the language.
fn said(lang: &Catalog, note: &Note) -> String {
    lang.note(note.text(), note.msg().map(Msg::to_value).as_ref())
}

/// The bytes of `path` (stdin for `-`), one past the limit at most.
fn bytes(path: &str) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let limit = MAX_BYTES as u64 + 1;
    if path == "-" {
        std::io::stdin().lock().take(limit).read_to_end(&mut out)?;
    } else {
        std::fs::File::open(path)?
            .take(limit)
            .read_to_end(&mut out)?;
    }
    Ok(out)
}

/// Reads the recording at `path` (stdin for `-`) with the core's
/// importer: the name it goes by and what it holds. A file that cannot be
/// read, is not UTF-8 or is no recording is a usage error (exit 2), said
/// in `lang`. (`tap --replay` reads its recording here too.)
pub fn read_recording(path: &str, lang: &Catalog) -> Result<(String, import::Imported), Failure> {
    let source = if path == "-" { "stdin" } else { path };
    let bytes = bytes(path).map_err(|err| {
        let why = match err.kind() {
            std::io::ErrorKind::NotFound => {
                lang.text("cli.file.not_found", "there is no such file")
            }
            std::io::ErrorKind::PermissionDenied => {
                lang.text("cli.file.no_permission", "permission denied")
            }
            _ => err.to_string(),
        };
        Failure::Usage(lang.fill(
            "cli.check.transcript_unreadable",
            "cannot read the recording {path}: {why}",
            &[("path", format!("{source:?}")), ("why", why)],
        ))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        Failure::Usage(lang.fill(
            "cli.check.transcript_not_utf8",
            "{path} is not UTF-8 text, so it is no recording",
            &[("path", source.to_string())],
        ))
    })?;
    let imported = import::read(source, &text).map_err(|e| Failure::Usage(said(lang, &e.note)))?;
    Ok((source.to_string(), imported))
}

/// Reads, grades and prints the recording; writes `--out`.
pub fn check(args: &TranscriptArgs) -> Result<(), Failure> {
    let lang = Catalog::or_english(args.lang.as_deref());
    let (source, imported) = read_recording(&args.path, &lang)?;
    let source = source.as_str();
    let mut report = imported.report(source);
    if imported.report.is_none() {
        let schema = check::schema::verdicts(&report.timeline);
        check::add_schema(&report.timeline, &mut report.verdicts, schema);
    }
    let notices: Vec<Note> = imported.notices.iter().map(|n| n.note.clone()).collect();
    let json = || {
        // The report `check` writes, and what the reader said about the file.
        let mut value: Value = serde_json::from_str(&report.to_json()).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            map.insert("format".into(), Value::from(imported.format.as_str()));
            map.insert(
                "notices".into(),
                Value::Array(
                    imported
                        .notices
                        .iter()
                        .map(|n| {
                            serde_json::json!({
                                "lane": n.lane,
                                "entry": n.entry,
                                "text": n.note.text(),
                                "msg": n.note.msg().map(Msg::to_value),
                            })
                        })
                        .collect(),
                ),
            );
        }
        let mut text = value.to_string();
        text.push('\n');
        text
    };
    if let Some(path) = &args.out {
        std::fs::write(path, json())
            .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    let out = match args.format {
        ReportFormat::Json => json(),
        ReportFormat::Junit => junit::xml(&report, Duration::ZERO),
        ReportFormat::Text => render::text(&report, &[], &[], None, &notices, &lang),
    };
    crate::print(&out)?;
    super::verdict(&report, source, &lang)
}

//! `mcp-lanes run`: play a scenario on the virtual clock and print it;
//! `mcp-lanes export`: print a catalog scenario as a scenario file.

use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{Actor, Event, EventKind, MessageEvent, Side, Timeline};
use mcp_lanes_core::transcript;

use crate::i18n::Catalog;
use crate::{list, source, Failure};

/// Output format of `run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The readable sequence listing.
    Text,
    /// The transcript document of DESIGN.md.
    Json,
}

/// Where `run` finds its scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scenario {
    /// A catalog id (or number) as typed (checked when run).
    Builtin(String),
    /// A scenario file.
    File(String),
}

/// What the text listing's first lines say about the scenario.
pub struct Heading {
    /// Its id.
    pub id: String,
    /// `scenario N` for a catalog scenario, the file's path for a file.
    pub origin: String,
    /// Its title.
    pub title: String,
    /// Its summary.
    pub summary: String,
}

fn unknown(id: &str, lang: Option<&Catalog>) -> Failure {
    Failure::Usage(said(
        lang,
        "cli.run.unknown",
        "unknown scenario {id}; valid scenario ids: {ids}",
        &[("id", format!("{id:?}")), ("ids", list::scenario_ids())],
    ))
}

/// Runs a catalog scenario (an id or its catalog number) or a scenario
/// file and renders it; with `lang` (`--lang`), a catalog scenario's title
/// and summary in its language (JSON is the same in every language), the
/// JSON output's secrets (tokens, codes, verifiers) redacted unless
/// `keep_secrets` (`--keep-secrets`).
pub fn run(
    scenario: &Scenario,
    format: Format,
    lang: Option<&Catalog>,
    keep_secrets: bool,
) -> Result<String, Failure> {
    let (heading, timelines) = match scenario {
        Scenario::Builtin(id) => {
            let info = scenarios::find(id).ok_or_else(|| unknown(id, lang))?;
            let timelines = scenarios::run(info.id).ok_or_else(|| unknown(id, lang))?;
            let heading = Heading {
                id: info.id.into(),
                origin: format!("scenario {}", info.number),
                title: match lang {
                    Some(c) => c.text(&format!("scenario.{}.title", info.id), info.title),
                    None => info.title.into(),
                },
                summary: match lang {
                    Some(c) => c.text(&format!("scenario.{}.summary", info.id), info.summary),
                    None => info.summary.into(),
                },
            };
            (heading, timelines)
        }
        Scenario::File(path) => {
            let loaded = source::load(path, lang)?;
            // The author's text in the language, where the file has it
            // (the text output only: JSON does not change with --lang).
            let loaded = match (lang, format) {
                (Some(c), Format::Text) => loaded.localized(c.tag()),
                _ => loaded,
            };
            let timelines = scenarios::run_setups(&loaded.setups);
            let heading = Heading {
                id: loaded.id,
                origin: format!("file {path}"),
                title: loaded.title,
                summary: loaded.summary,
            };
            (heading, timelines)
        }
    };
    match format {
        Format::Json => {
            let timelines = mcp_lanes_core::redact::timelines(&timelines, keep_secrets);
            let doc = transcript::scenario_document(&heading.id, &timelines);
            let mut text = serde_json::to_string_pretty(&doc)
                .map_err(|err| Failure::Io(format!("cannot encode the transcript: {err}")))?;
            text.push('\n');
            Ok(text)
        }
        Format::Text => Ok(render_text(&heading, &timelines, lang)),
    }
}

/// A catalog scenario as a scenario file (pretty JSON).
pub fn export(id: &str) -> Result<String, Failure> {
    let info = scenarios::find(id).ok_or_else(|| unknown(id, None))?;
    let mut text = serde_json::to_string_pretty(&file::export_scenario(info))
        .map_err(|err| Failure::Io(format!("cannot encode the file: {err}")))?;
    text.push('\n');
    Ok(text)
}

/// Column where labels start: `{time:>9} ms  {arrow:11}  `.
const LABEL_COLUMN: usize = 9 + 3 + 2 + 11 + 2;

/// The readable listing: per set-up, one entry per event with its virtual
/// time, a direction arrow between the client (C) and server (S) columns,
/// a label, the rule IDs and the note; then the set-up's summary.
pub fn render_text(heading: &Heading, timelines: &[Timeline], lang: Option<&Catalog>) -> String {
    let mut out = format!(
        "{} ({}): {}\n{}\n",
        heading.id,
        heading.origin,
        one_line(&heading.title),
        one_line(&heading.summary)
    );
    let count = timelines.len();
    for (n, t) in timelines.iter().enumerate() {
        let label = one_line(&lang.map_or_else(|| t.label.clone(), |c| c.label(&t.label)));
        out.push('\n');
        out.push_str(&said(
            lang,
            "cli.run.setup",
            "== set-up {n}/{count}: {label} ==",
            &[
                ("n", (n + 1).to_string()),
                ("count", count.to_string()),
                ("label", label),
            ],
        ));
        out.push('\n');
        out.push_str(&render_timeline_in(t, lang));
    }
    out
}

/// The text of `key` in `lang`'s catalog (the English given without one),
/// with its `{name}`s filled.
fn said(lang: Option<&Catalog>, key: &str, english: &str, args: &[(&str, String)]) -> String {
    match lang {
        Some(c) => c.fill(key, english, args),
        None => mcp_lanes_core::note::substitute(english, args),
    }
}

/// One timeline as the readable listing: its client, server and transport,
/// one entry per event (narration, time, arrow, label, rule IDs, note), its
/// summary; the notes and the outcome in `lang`'s language (`--lang`;
/// `None`: the core's English).
pub fn render_timeline_in(t: &Timeline, lang: Option<&Catalog>) -> String {
    let say = |english: &str, msg| match lang {
        Some(c) => c.note(english, msg),
        None => english.to_string(),
    };
    let mut out = String::new();
    let line = |key: &str, english: &str, name: &str, value: String| {
        said(lang, key, english, &[(name, value)]) + "\n"
    };
    let peer = |text: &str| one_line(&lang.map_or_else(|| text.to_string(), |c| c.peer(text)));
    out += &line(
        "cli.run.client",
        "client:    {label}",
        "label",
        peer(&t.client_label),
    );
    out += &line(
        "cli.run.server",
        "server:    {label}",
        "label",
        peer(&t.server_label),
    );
    out += &line(
        "cli.run.transport",
        "transport: {name}",
        "name",
        t.transport.name().to_string(),
    );
    out.push('\n');
    for event in &t.events {
        if let Some(say) = &event.narration {
            out.push_str(&format!("{:LABEL_COLUMN$}", ""));
            out += &line("cli.run.say", "say: {text}", "text", one_line(say));
        }
        out.push_str(&event_line(event, lang));
        if !event.rules.is_empty() {
            out.push_str(&format!("  [{}]", event.rules.join(", ")));
        }
        out.push('\n');
        if let Some(m) = event.message() {
            if let Some(why) = &m.violation {
                let why = say(why, m.violation_msg.as_ref());
                out.push_str(&format!("{:LABEL_COLUMN$}", ""));
                out += &line(
                    "cli.run.violation",
                    "violation: {text}",
                    "text",
                    one_line(&why),
                );
            }
        }
        if !event.note.is_empty() {
            let note = say(&event.note, event.note_msg.as_ref());
            out.push_str(&format!("{:LABEL_COLUMN$}{}\n", "", one_line(&note)));
        }
    }
    let s = &t.summary;
    out.push_str(&said(
        lang,
        "cli.run.summary",
        "summary: {outcome} (ended at {ms} ms; leaked locks: {locks})",
        &[
            (
                "outcome",
                one_line(&say(&s.outcome, s.outcome_msg.as_ref())),
            ),
            ("ms", s.ended_at_ms.to_string()),
            ("locks", s.leaked_locks.to_string()),
        ],
    ));
    out.push('\n');
    out
}

/// An event as one line of the listing: its time, the arrow between the
/// sides and what it is, in `lang`'s language (what `tap` prints for each
/// message too).
pub fn event_line(event: &Event, lang: Option<&Catalog>) -> String {
    let (arrow, label) = describe(event, lang);
    let arrow = match (event.message(), event.actor) {
        (Some(m), _) if !m.is_mcp() => hop_arrow(m),
        // A marker on another actor's column (the authorization server's
        // consent, a gateway's decision): its letter, not the server's.
        (None, Some(actor)) if !matches!(actor, Actor::Client | Actor::Server) => {
            format!("        * {}", letter(actor))
        }
        _ => arrow.to_string(),
    };
    format!("{:>9} ms  {arrow}  {}", event.at_ms, one_line(&label))
}

/// The letter of an actor's column in the listing.
fn letter(actor: Actor) -> char {
    match actor {
        Actor::Client => 'C',
        Actor::Gateway => 'G',
        Actor::Server => 'S',
        Actor::AuthServer => 'A',
    }
}

/// The arrow of a message between other actors than the MCP client and
/// server (a gateway `G`, an authorization server `A`), as wide as the
/// others: `C ------> G`, `G <------ S`, lost `C ---x    G`.
fn hop_arrow(m: &MessageEvent) -> String {
    let order = |a: Actor| Actor::ALL.iter().position(|x| *x == a);
    let (from, to) = m.ends();
    let rightwards = order(from) < order(to);
    let (left, right) = if rightwards { (from, to) } else { (to, from) };
    let shaft = match (rightwards, m.delivered_at_ms.is_some()) {
        (true, true) => "------>",
        (true, false) => "---x   ",
        (false, true) => "<------",
        (false, false) => "   x---",
    };
    format!("{} {shaft} {}", letter(left), letter(right))
}

/// `text` on one line of a terminal: line breaks and tabs become spaces,
/// other control characters (a server's escape sequences) U+FFFD.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => ' ',
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// The arrow (11 columns wide) and the label of an event, in `lang`'s
/// language.
fn describe(event: &Event, lang: Option<&Catalog>) -> (&'static str, String) {
    let say = |key: &str, english: &str, args: &[(&str, String)]| said(lang, key, english, args);
    match &event.kind {
        EventKind::Message(m) => message(m, lang),
        EventKind::Timeout { side, request_id } => (
            mark(*side),
            say(
                "cli.run.timeout",
                "timeout waiting for the answer to id {id}",
                &[("id", request_id.to_string())],
            ),
        ),
        EventKind::Dropped { side, what } => (
            mark(*side),
            say("cli.run.drops", "drops {what}", &[("what", what.clone())]),
        ),
        EventKind::Disconnected { side } => (
            mark(*side),
            say("cli.run.closes", "closes the connection", &[]),
        ),
        EventKind::CacheHit { key } => (
            mark(Side::Client),
            say(
                "cli.run.cache_hit",
                "cache hit: {key}",
                &[("key", key.clone())],
            ),
        ),
        EventKind::CacheMiss { key } => (
            mark(Side::Client),
            say(
                "cli.run.cache_miss",
                "cache miss: {key}",
                &[("key", key.clone())],
            ),
        ),
        EventKind::CacheExpired { key } => (
            mark(Side::Client),
            say(
                "cli.run.cache_expired",
                "cache expired: {key}",
                &[("key", key.clone())],
            ),
        ),
        EventKind::CacheStored { key, ttl_ms } => (
            mark(Side::Client),
            say(
                "cli.run.cache_stored",
                "cache stored: {key} (fresh for {ms} ms)",
                &[("key", key.clone()), ("ms", ttl_ms.to_string())],
            ),
        ),
        EventKind::LockTaken { name } => (
            mark(Side::Server),
            say("cli.run.takes", "takes {lock}", &[("lock", name.clone())]),
        ),
        EventKind::LockReleased { name } => (
            mark(Side::Server),
            say(
                "cli.run.releases",
                "releases {lock}",
                &[("lock", name.clone())],
            ),
        ),
        EventKind::HostKill => (
            mark(Side::Client),
            say("cli.run.host_kill", "the host kills the run", &[]),
        ),
        EventKind::Decision { side } => (mark(*side), say("cli.run.decides", "decides", &[])),
        // A kind this listing does not draw yet: its name as the timeline's
        // JSON spells it (the note beside it still says what happened).
        kind => (NEUTRAL, kind_name(kind)),
    }
}

/// The mark of an event that belongs to neither side in particular.
const NEUTRAL: &str = "     *     ";

/// `"host_kill"` for [`EventKind::HostKill`]: the `type` of its JSON.
fn kind_name(kind: &EventKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v["type"].as_str().map(str::to_string))
        .unwrap_or_default()
}

fn mark(side: Side) -> &'static str {
    match side {
        Side::Client => "C *        ",
        Side::Server => "        * S",
    }
}

fn message(m: &MessageEvent, lang: Option<&Catalog>) -> (&'static str, String) {
    let delivered = m.delivered_at_ms.is_some();
    let arrow = match (m.from, delivered) {
        (Side::Client, true) => "C ------> S",
        (Side::Client, false) => "C ---x    S",
        (Side::Server, true) => "C <------ S",
        (Side::Server, false) => "C    x--- S",
    };
    let mut label = m.label.clone();
    if let Some(http) = &m.http {
        // A hop's label may name its method already ("GET AS metadata").
        if let Some(method) = http
            .method
            .as_ref()
            .filter(|m| !label.starts_with(&format!("{m} ")))
        {
            label = format!("{method} {label}");
        }
    }
    if !delivered {
        label.push_str(&said(
            lang,
            "cli.run.never_arrives",
            " (never arrives)",
            &[],
        ));
    }
    if m.violation.is_some() {
        label.push_str(&said(
            lang,
            "cli.run.deliberate",
            " (deliberate violation)",
            &[],
        ));
    }
    (arrow, label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_renders_as_text_and_json() {
        for info in scenarios::CATALOG {
            let scenario = Scenario::Builtin(info.id.into());
            let text = run(&scenario, Format::Text, None, false)
                .ok()
                .unwrap_or_default();
            assert!(text.starts_with(info.id), "{}", info.id);
            assert!(text.contains("summary: "), "{}", info.id);
            let json = run(&scenario, Format::Json, None, false)
                .ok()
                .unwrap_or_default();
            let doc: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
            assert_eq!(doc["scenario"], info.id);
            // --lang: the heading in the language, the JSON the same.
            let zh = Catalog::load("zh");
            let text = run(&scenario, Format::Text, zh.as_ref(), false)
                .ok()
                .unwrap_or_default();
            let title = zh
                .as_ref()
                .map(|c| c.text(&format!("scenario.{}.title", info.id), ""));
            assert!(
                text.lines()
                    .next()
                    .is_some_and(|l| l.ends_with(title.as_deref().unwrap_or("?"))),
                "{text}"
            );
            assert_eq!(
                run(&scenario, Format::Json, zh.as_ref(), false)
                    .ok()
                    .unwrap_or_default(),
                json
            );
        }
    }

    #[test]
    fn catalog_numbers_are_accepted_and_unknown_ids_are_usage_errors() {
        let builtin = |id: &str| Scenario::Builtin(id.into());
        let by_number = run(&builtin("1"), Format::Json, None, false)
            .ok()
            .unwrap_or_default();
        assert!(by_number.contains("\"scenario\": \"discover\""));
        assert!(
            matches!(run(&builtin("nope"), Format::Text, None, false), Err(Failure::Usage(msg)) if msg.contains("discover"))
        );
    }

    #[test]
    fn marks_line_up_with_arrows() {
        assert_eq!(mark(Side::Client).len(), "C ------> S".len());
        assert_eq!(mark(Side::Server).len(), "C ------> S".len());
        assert_eq!(NEUTRAL.len(), "C ------> S".len());
        assert_eq!(kind_name(&EventKind::HostKill), "host_kill");
    }
}

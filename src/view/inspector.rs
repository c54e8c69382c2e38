//! The inspector as markup text: everything about the selected message or
//! event (with a check's verdicts on it), and the pieces the editor's reply
//! pane draws too (the rules, the headers).
//!
//! The rules' summaries come in their own catalog, fetched the first time
//! rules are on screen ([`wants_rules`]); until it is here a summary is
//! drawn empty, and the next render after it came draws it.

use crate::i18n::{self, t, tf};
use maud::{html, Markup};
use mcp_lanes_core::explain;
use mcp_lanes_core::rules::{self, RuleId};
use mcp_lanes_core::sim::{Event, EventKind, MessageEvent, Side};

use super::fields::Draw;
use crate::model::columns::actor_name;
use crate::model::{clock, event_kind_name, event_title, kind_name, pretty_wire};
use crate::state::{Lane, State};

/// When a message arrives ("never" when it is lost).
pub fn arrives(message: &MessageEvent) -> String {
    match message.delivered_at_ms {
        Some(ms) => clock(ms),
        None => t("inspector.never"),
    }
}

/// Which way a message goes.
pub fn direction(message: &MessageEvent) -> String {
    if let Some(why) = crate::view::diagram::undecided_why(message) {
        return tf("inspector.undecided", &[("why", &why)]);
    }
    if !message.is_mcp() {
        let (from, to) = message.ends();
        return tf(
            "inspector.actor_to_actor",
            &[("from", &actor_name(from)), ("to", &actor_name(to))],
        );
    }
    match message.from {
        Side::Client => t("inspector.client_to_server"),
        Side::Server => t("inspector.server_to_client"),
    }
}

/// What the revision of a message is called: what a client message asks
/// for and what a server message speaks are different things (lesson 07),
/// never one word.
pub fn revision_term(message: &MessageEvent) -> String {
    match message.from {
        Side::Client => t("inspector.client_asks"),
        Side::Server => t("inspector.server_speaks"),
    }
}

/// A message's revision, marked when it is a legacy one.
pub fn revision(message: &MessageEvent) -> String {
    if message.legacy {
        format!("{} ({})", message.revision, t("inspector.legacy"))
    } else {
        message.revision.clone()
    }
}

/// The inspector's heading for an event: what it is and when.
pub fn heading(event: &Event) -> String {
    tf(
        "inspector.at",
        &[
            ("event", &event_title(event)),
            ("time", &clock(event.at_ms)),
        ],
    )
}

/// Text cut at its backticks: (whether the part is code, the part).
pub fn code_parts(text: &str) -> impl Iterator<Item = (bool, &str)> {
    text.split('`')
        .enumerate()
        .map(|(i, part)| (i % 2 == 1, part))
}

/// The selected event with its lane (position and lane), if any.
pub fn selected(state: &State) -> Option<(usize, &Lane, &Event)> {
    let sel = state.selected?;
    let lane = state.lanes.get(sel.lane)?;
    lane.timeline
        .events
        .get(sel.event)
        .map(|event| (sel.lane, lane, event))
}

/// Whether the page must fetch the rules' catalog now: the inspector shows
/// an event with rules, or a message whose fields explain themselves, and
/// the catalog (summaries and explanations) is not here yet.
pub fn wants_rules(state: &State) -> bool {
    !i18n::has_rules() && selected(state).is_some_and(|(_, _, e)| needs_catalog(e))
}

/// Whether drawing `event` in the inspector uses the rules' catalog.
pub fn needs_catalog(event: &Event) -> bool {
    !event.rules.is_empty() || matches!(&event.kind, EventKind::Message(_))
}

/// HTTP headers as a two-column table (nothing when there are none).
pub fn headers_table(headers: &[(String, String)]) -> Markup {
    html! {
        @if !headers.is_empty() {
            table class="headers" {
                tbody {
                    @for (k, v) in headers {
                        tr { th scope="row" { (super::fields::header_name(k)) } td { (v) } }
                    }
                }
            }
        }
    }
}

/// Whether `text` has `word` as a word of its own.
fn word_at(text: &str, at: usize, word: &str) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + word.len()..].chars().next();
    let edge =
        |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    edge(before) && edge(after)
}

/// The abbreviations (`PV`, `MRTR`, ...) `text` uses, in the core's order.
pub fn abbrs_in(text: &str) -> Vec<&'static str> {
    explain::ABBREVIATIONS
        .iter()
        .copied()
        .filter(|a| text.match_indices(a).any(|(at, _)| word_at(text, at, a)))
        .collect()
}

/// Text with each abbreviation in an `abbr` that spells it out.
fn with_abbrs(text: &str) -> Markup {
    let mut parts: Vec<(bool, &str)> = Vec::new();
    let mut rest = 0;
    let mut at = 0;
    while at < text.len() {
        let hit = explain::ABBREVIATIONS
            .iter()
            .find(|a| text[at..].starts_with(**a) && word_at(text, at, a));
        match hit {
            Some(a) => {
                parts.push((false, &text[rest..at]));
                parts.push((true, &text[at..at + a.len()]));
                at += a.len();
                rest = at;
            }
            None => at += text[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    parts.push((false, &text[rest..]));
    html! {
        @for (abbr, part) in parts {
            @if abbr { abbr title=(i18n::field(&format!("abbr.{part}"))) { (part) } } @else { (part) }
        }
    }
}

/// The abbreviations a text uses, spelled out where a tap cannot hover.
fn abbr_list(text: &str) -> Markup {
    let found = abbrs_in(text);
    html! {
        @if !found.is_empty() {
            span class="rule-abbrs" data-testid="rule-abbrs" {
                @for a in found { span { (i18n::field(&format!("abbr.{a}"))) } " " }
            }
        }
    }
}

/// "Why: the rules": each rule ID with its one-sentence summary (its
/// abbreviations spelled out) and a link to the spec (nothing when there
/// are none).
pub fn rule_list(ids: &[RuleId], testid: &str) -> Markup {
    rules_drawn(ids, testid, true)
}

/// [`rule_list`], its abbreviations spelled out or not (not in a complete
/// figure's transcript, to keep it small).
fn rules_drawn(ids: &[RuleId], testid: &str, spelled: bool) -> Markup {
    html! {
        @if !ids.is_empty() {
            h3 { (t("inspector.rules")) }
            ul class="rules" data-testid=(testid) {
                @for id in ids {
                    li data-rule=(id) {
                        code class="rule-id" { (id) }
                        @if let Some(rule) = rules::find(id) {
                            @let summary = i18n::rule(rule.id);
                            span class="rule-summary" {
                                @for (code, part) in code_parts(&summary) {
                                    @if code { code { (part) } } @else if spelled { (with_abbrs(part)) } @else { (part) }
                                }
                            }
                            @if spelled { (abbr_list(&summary)) }
                            @if rule.spec_url.is_empty() {
                                span class="rule-source" { (tf("inspector.source", &[("source", rule.source)])) }
                            } @else {
                                a href=(rule.spec_url) target="_blank" rel="noopener" {
                                    (tf("inspector.spec", &[("source", rule.source)]))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn message_details(message: &MessageEvent, draw: Draw) -> Markup {
    html! {
        dl class="facts" {
            dt { (t("inspector.kind")) } dd data-testid="inspector-kind" { (kind_name(message.kind)) }
            dt { (t("inspector.from")) } dd data-testid="inspector-direction" { (direction(message)) }
            dt { (t("inspector.arrives")) } dd { (arrives(message)) }
            dt { (revision_term(message)) } dd data-testid="inspector-revision" { (revision(message)) }
        }
        @if let Some(why) = &message.violation {
            p class="violation" data-testid="inspector-violation" {
                strong { (t("inspector.broken")) } (i18n::note_text(why, message.violation_msg.as_ref()))
            }
        }
        @if let Some(http) = &message.http {
            section class="http" data-testid="inspector-http" aria-label="HTTP" {
                h3 { "HTTP" }
                p class="http-line" {
                    @if let Some(m) = &http.method { span { (m) " /mcp" } }
                    @if let Some(s) = http.status {
                        span data-testid="inspector-status" { (tf("inspector.status", &[("status", &s.to_string())])) }
                    }
                }
                (headers_table(&http.headers))
            }
        }
        h3 { (t("inspector.wire")) }
        pre class="wire" data-testid="inspector-json" tabindex="0" aria-label=(t("inspector.wire_label")) {
            @match &message.json {
                Some(json) => code { (super::fields::json(json, draw)) },
                _ => code { (pretty_wire(message)) },
            }
        }
        @if draw.explain && message.json.is_some() { (super::fields::hint()) }
    }
}

/// The inspector panel (`aside`): the selected event, or a hint. Every
/// key of a message explains itself; the one `state.field` names is shown
/// open (after a hand-over, until the reader selects again, it is drawn as
/// the figure drew it: `State::plain_inspector`).
pub fn inspector(state: &State) -> Markup {
    if state.plain_inspector {
        return transcribed(state);
    }
    let base = state.base_fragment();
    drawn(
        state,
        Draw {
            explain: true,
            open: state.open_field(),
            link: state.selected.map(|s| (base.as_str(), s.lane, s.event)),
        },
    )
}

/// The inspector as a complete figure's transcript draws it: the JSON as
/// plain text and the rules without their abbreviations spelled out, which
/// keeps the first visit small (the bundles' inspector explains each field).
pub fn transcribed(state: &State) -> Markup {
    drawn(
        state,
        Draw {
            explain: false,
            open: None,
            link: None,
        },
    )
}

/// The inspector as the print view draws it: every key with its
/// explanation, no field links.
pub fn explained(state: &State) -> Markup {
    drawn(
        state,
        Draw {
            explain: true,
            open: None,
            link: None,
        },
    )
}

fn drawn(state: &State, draw: Draw) -> Markup {
    let selected = selected(state);
    html! {
        aside class="inspector" data-testid="inspector" aria-labelledby="inspector-heading" {
            div class="inspector-head" {
                h2 id="inspector-heading" { (t("inspector.title")) }
                @if selected.is_some() {
                    button type="button" data-testid="inspector-close" aria-label=(t("inspector.close_label"))
                        data-act="close-inspector" { (t("inspector.close")) }
                }
            }
            @match selected {
                None => { p class="inspector-empty" { (t("inspector.empty")) } }
                Some((n, lane, event)) => {
                    div class="inspector-body" data-lane=(n) data-event=(event.index)
                        data-kind=(event_kind_name(&event.kind)) {
                        p class="inspector-lane" { (i18n::setup_label(&lane.timeline.label)) }
                        h3 class="inspector-title" data-testid="inspector-title" { (heading(event)) }
                        p class="note" data-testid="inspector-note" { (i18n::event_note(event)) }
                        @if let EventKind::Message(m) = &event.kind { (message_details(m, draw)) }
                        @if crate::bundle::CHECKS { (super::check::list(&lane.verdicts, event.index)) }
                        (rules_drawn(&event.rules, "inspector-rules", draw.explain))
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, Selection};
    use crate::view::testing::{hostile, lite, HOSTILE, HOSTILE_ESCAPED};

    fn inspecting(mut state: State, lane: usize, event: usize) -> State {
        state.update(Action::JumpToEnd);
        state.update(Action::Inspect(Some(Selection { lane, event })));
        state
    }

    #[test]
    fn nothing_selected_shows_the_hint_without_a_close_button() {
        let state = lite("elicitation-unchecked");
        let text = inspector(&state).into_string();
        assert!(text.starts_with(
            "<aside class=\"inspector\" data-testid=\"inspector\" aria-labelledby=\"inspector-heading\"><div class=\"inspector-head\"><h2 id=\"inspector-heading\">"
        ));
        assert!(text.contains("<p class=\"inspector-empty\">"));
        assert!(!text.contains("inspector-close"));
        assert!(!text.contains("inspector-body"));
        assert!(!wants_rules(&state));
    }

    #[test]
    fn a_broken_message_shows_its_facts_violation_wire_and_rules() {
        let state = inspecting(lite("elicitation-unchecked"), 0, 8);
        let text = inspector(&state).into_string();
        assert!(
            text.contains("<button type=\"button\" data-testid=\"inspector-close\" aria-label=")
        );
        assert!(text.contains("data-act=\"close-inspector\">"));
        assert!(text.contains(
            "<div class=\"inspector-body\" data-lane=\"0\" data-event=\"8\" data-kind=\"request\">"
        ));
        for id in [
            "inspector-title",
            "inspector-note",
            "inspector-violation",
            "inspector-json",
        ] {
            assert!(text.contains(&format!("data-testid=\"{id}\"")), "{id}");
        }
        assert!(text.contains("<dd data-testid=\"inspector-kind\">request</dd>"));
        assert!(text.contains(&format!(
            "<dd data-testid=\"inspector-revision\">{}</dd>",
            maud::html! { (revision(state.lanes[0].timeline.events[8].message().expect("a message"))) }.into_string()
        )));
        assert!(text.contains("(legacy)"), "a legacy message says so");
        assert!(!text.contains("inspector-http"));
        assert!(text.contains(
            "<pre class=\"wire\" data-testid=\"inspector-json\" tabindex=\"0\" aria-label="
        ));
        assert!(text.contains("<ul class=\"rules\" data-testid=\"inspector-rules\">"));
        for id in ["L-CAP-SESSION", "L-UNDECLARED", "M-CAP-BEFORE-WORK"] {
            assert!(text.contains(&format!(
                "<li data-rule=\"{id}\"><code class=\"rule-id\">{id}</code><span class=\"rule-summary\">"
            )));
        }
        // A summary's backticks are code.
        assert!(text.contains("<code>elicitation/create</code>"));
    }

    #[test]
    fn an_http_message_shows_its_status_and_headers() {
        let state = inspecting(lite("http-header-mismatch"), 0, 1);
        let text = inspector(&state).into_string();
        assert!(text.contains(
            "<section class=\"http\" data-testid=\"inspector-http\" aria-label=\"HTTP\"><h3>HTTP</h3><p class=\"http-line\">"
        ));
        assert!(text.contains("<span data-testid=\"inspector-status\">"));
        assert!(text.contains("<table class=\"headers\"><tbody><tr><th scope=\"row\">"));
        let request = inspector(&inspecting(lite("http-header-mismatch"), 0, 0)).into_string();
        assert!(request.contains("<span>POST /mcp</span>"));
    }

    #[test]
    fn an_event_that_is_not_a_message_has_no_facts() {
        let state = inspecting(lite("elicitation-unchecked"), 0, 7);
        let text = inspector(&state).into_string();
        assert!(text.contains("data-kind=\"lock-taken\""), "{text}");
        assert!(!text.contains("inspector-kind"));
        assert!(!text.contains("inspector-json"));
        assert!(text.contains("<li data-rule=\"M-CAP-BEFORE-WORK\">"));
    }

    #[test]
    fn rule_summaries_are_drawn_empty_until_their_catalog_is_here() {
        let state = inspecting(lite("elicitation-unchecked"), 0, 8);
        assert!(i18n::install(
            "en",
            include_str!("../../www/i18n/en.json"),
            None
        ));
        assert!(wants_rules(&state));
        let before = inspector(&state).into_string();
        assert!(before.contains(
            "<code class=\"rule-id\">L-CAP-SESSION</code><span class=\"rule-summary\"></span>"
        ));
        i18n::add_rules(include_str!("../../www/i18n/en.rules.json"), None);
        assert!(!wants_rules(&state));
        let after = inspector(&state).into_string();
        assert!(after.contains("<span class=\"rule-summary\">Capabilities are negotiated once"));
        let rule = rules::find("L-CAP-SESSION").expect("a rule");
        let source = maud::html! {
            @if rule.spec_url.is_empty() {
                span class="rule-source" { (tf("inspector.source", &[("source", rule.source)])) }
            } @else {
                a href=(rule.spec_url) target="_blank" rel="noopener" { (tf("inspector.spec", &[("source", rule.source)])) }
            }
        };
        assert!(after.contains(&source.into_string()));
    }

    #[test]
    fn m_meta_required_abbreviations_are_spelled_out_where_a_rule_uses_them() {
        assert!(i18n::install(
            "en",
            include_str!("../../www/i18n/en.json"),
            None
        ));
        i18n::add_rules(include_str!("../../www/i18n/en.rules.json"), None);
        assert_eq!(
            abbrs_in("with PV (string) and CAPS; CINFO, not PVX or MCP-PV"),
            ["PV", "CAPS", "CINFO"]
        );
        let text = rule_list(&["M-META-REQUIRED"], "x").into_string();
        assert!(text.contains("<abbr title=\"PV: protocol version, the _meta key io.modelcontextprotocol/protocolVersion.\">PV</abbr>"), "{text}");
        assert!(text.contains(
            "<span class=\"rule-abbrs\" data-testid=\"rule-abbrs\"><span>PV: protocol version"
        ));
    }

    #[test]
    fn no_rules_no_list() {
        assert_eq!(rule_list(&[], "x").into_string(), "");
        assert_eq!(headers_table(&[]).into_string(), "");
    }

    #[test]
    fn code_parts_alternate_at_backticks() {
        let parts: Vec<_> = code_parts("a `b` c").collect();
        assert_eq!(parts, [(false, "a "), (true, "b"), (false, " c")]);
    }

    #[test]
    fn hostile_strings_come_out_as_text() {
        for (id, event) in [("http-header-mismatch", 0), ("elicitation-unchecked", 8)] {
            let state = hostile(inspecting(lite(id), 0, event));
            let text = inspector(&state).into_string();
            assert!(!text.contains(HOSTILE));
            assert!(!text.contains("<img"));
            assert!(text.contains(HOSTILE_ESCAPED), "{text}");
        }
    }
}

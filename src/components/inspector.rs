//! The inspector: everything about the selected message or event. The exact
//! wire text pretty-printed (or raw when it is not JSON), HTTP method,
//! status and headers, revision, violation, the note, and the rules that
//! caused it with links to the spec.

use crate::i18n::{self, t, tf};
use mcp_lanes_core::rules::{self, RuleId};
use mcp_lanes_core::sim::{EventKind, MessageEvent};
use yew::prelude::*;

use crate::model::{event_kind_name, kind_name, pretty_wire};
use crate::state::Lane;
use crate::view::inspector::{arrives, code_parts, direction, heading, revision, revision_term};

#[derive(PartialEq, Properties)]
pub struct InspectorProps {
    /// The selected lane and event position, if any.
    pub selection: Option<(usize, Lane, usize)>,
    pub onclose: Callback<()>,
    /// The verdicts on the selected event (a recorded check's), drawn by
    /// the bundle's panels.
    #[prop_or_default]
    pub verdicts: Html,
}

fn message_details(message: &MessageEvent) -> Html {
    html! {
        <>
            <dl class="facts">
                <dt>{ t("inspector.kind") }</dt><dd data-testid="inspector-kind">{ kind_name(message.kind) }</dd>
                <dt>{ t("inspector.from") }</dt><dd>{ direction(message) }</dd>
                <dt>{ t("inspector.arrives") }</dt><dd>{ arrives(message) }</dd>
                <dt>{ revision_term(message) }</dt>
                <dd data-testid="inspector-revision">{ revision(message) }</dd>
            </dl>
            if let Some(why) = &message.violation {
                <p class="violation" data-testid="inspector-violation">
                    <strong>{ t("inspector.broken") }</strong>{ crate::i18n::note_text(why, message.violation_msg.as_ref()) }
                </p>
            }
            if let Some(http) = &message.http {
                <section class="http" data-testid="inspector-http" aria-label="HTTP">
                    <h3>{ "HTTP" }</h3>
                    <p class="http-line">
                        { for http.method.as_ref().map(|m| html! { <span>{ format!("{m} /mcp") }</span> }) }
                        { for http.status.map(|s| html! { <span data-testid="inspector-status">{ tf("inspector.status", &[("status", &s.to_string())]) }</span> }) }
                    </p>
                    { headers_table(&http.headers) }
                </section>
            }
            <h3>{ t("inspector.wire") }</h3>
            <pre class="wire" data-testid="inspector-json" tabindex="0" aria-label={t("inspector.wire_label")}>
                <code>{ pretty_wire(message) }</code>
            </pre>
        </>
    }
}

/// HTTP headers as a two-column table (nothing when there are none).
pub fn headers_table(headers: &[(String, String)]) -> Html {
    if headers.is_empty() {
        return html! {};
    }
    html! {
        <table class="headers">
            <tbody>
                { for headers.iter().map(|(k, v)| html! {
                    <tr><th scope="row">{ k }</th><td>{ v }</td></tr>
                }) }
            </tbody>
        </table>
    }
}

/// Text with `backtick` spans shown as code (all of it as text nodes).
fn code_spans(text: &str) -> Html {
    code_parts(text)
        .map(|(code, part)| {
            if code {
                html! { <code>{ part }</code> }
            } else {
                html! { { part } }
            }
        })
        .collect()
}

/// "Why: the rules": each rule ID with its one-sentence summary and a link
/// to the spec (nothing when there are none).
pub fn rule_list(ids: &[RuleId], testid: &'static str) -> Html {
    if ids.is_empty() {
        return html! {};
    }
    html! {
        <>
            <h3>{ t("inspector.rules") }</h3>
            <ul class="rules" data-testid={testid}>
                { for ids.iter().map(|id| {
                    let rule = rules::find(id);
                    html! {
                        <li data-rule={*id}>
                            <code class="rule-id">{ *id }</code>
                            { for rule.map(|r| html! { <span class="rule-summary">{ code_spans(&i18n::rule(r.id)) }</span> }) }
                            { for rule.filter(|r| !r.spec_url.is_empty()).map(|r| html! {
                                <a href={r.spec_url} target="_blank" rel="noopener">
                                    { tf("inspector.spec", &[("source", r.source)]) }
                                </a>
                            }) }
                            { for rule.filter(|r| r.spec_url.is_empty()).map(|r| html! {
                                <span class="rule-source">{ tf("inspector.source", &[("source", r.source)]) }</span>
                            }) }
                        </li>
                    }
                }) }
            </ul>
        </>
    }
}

#[component]
pub fn Inspector(props: &InspectorProps) -> Html {
    let node = use_node_ref();
    let selected = props
        .selection
        .as_ref()
        .and_then(|(n, lane, i)| lane.timeline.events.get(*i).map(|e| (*n, lane, e)));
    let key = props
        .selection
        .as_ref()
        .map(|(n, l, i)| (*n, l.key, l.version, *i));

    // Bring the panel into view when something new is selected (it sits
    // below the lanes on narrow screens).
    {
        let node = node.clone();
        use_effect_with(key, move |key| {
            if key.is_some() {
                if let Some(el) = node.cast::<web_sys::Element>() {
                    crate::browser::show_if_below(&el);
                }
            }
        });
    }

    crate::hooks::use_rule_text::use_rule_text(
        selected.is_some_and(|(_, _, e)| !e.rules.is_empty()),
    );

    let body = match selected {
        None => html! {
            <p class="inspector-empty">{ t("inspector.empty") }</p>
        },
        Some((n, lane, event)) => {
            let heading = heading(event);
            html! {
                <div class="inspector-body" data-lane={n.to_string()} data-event={event.index.to_string()}
                    data-kind={event_kind_name(&event.kind)}>
                    <p class="inspector-lane">{ i18n::setup_label(&lane.timeline.label) }</p>
                    <h3 class="inspector-title" data-testid="inspector-title">{ heading }</h3>
                    <p class="note" data-testid="inspector-note">{ i18n::event_note(event) }</p>
                    { match &event.kind {
                        EventKind::Message(m) => message_details(m),
                        _ => html! {},
                    } }
                    { props.verdicts.clone() }
                    { rule_list(&event.rules, "inspector-rules") }
                </div>
            }
        }
    };

    html! {
        <aside class="inspector" data-testid="inspector" aria-labelledby="inspector-heading" ref={node}>
            <div class="inspector-head">
                <h2 id="inspector-heading">{ t("inspector.title") }</h2>
                if selected.is_some() {
                    <button type="button" data-testid="inspector-close" aria-label={t("inspector.close_label")}
                        onclick={props.onclose.reform(|_: MouseEvent| ())}>{ t("inspector.close") }</button>
                }
            </div>
            { body }
        </aside>
    }
}

//! One set-up: its header (label, client, transport, server), its settings,
//! the sequence diagram, and what is held or leaked.

use crate::i18n::{self, t, tf};
use mcp_lanes_core::settings::Setting;
use yew::prelude::*;

use crate::bundle::panels::{settings, verdict_marks};
use crate::components::lane_diagram::LaneDiagram;
use crate::model::{held_locks, Layout, Shared};
use crate::state::Lane as LaneModel;

#[derive(PartialEq, Properties)]
pub struct LaneProps {
    /// Lane position.
    pub index: usize,
    pub lane: LaneModel,
    pub layout: Shared<Layout>,
    pub pos: usize,
    pub step_ms: u32,
    pub selected: Option<usize>,
    /// An event of this lane was picked (lane, event).
    pub oninspect: Callback<(usize, usize)>,
    pub onapply: Callback<(usize, Setting)>,
    pub oncompare: Callback<(usize, Setting)>,
    pub onremove: Callback<usize>,
    pub onreset: Callback<usize>,
}

#[component]
pub fn Lane(props: &LaneProps) -> Html {
    let n = props.index;
    let timeline = &props.lane.timeline;
    let time = props.layout.time_at(props.pos);
    let at_end = props.pos >= props.layout.len() && props.pos > 0;
    let held = held_locks(timeline, time);
    let leaked = timeline.summary.leaked_locks;
    let marks = verdict_marks(n, timeline, &props.lane.verdicts, &props.layout, time);

    html! {
        <article class={classes!("lane", props.lane.added.then_some("added"))}
            data-testid={format!("lane-{n}")} aria-labelledby={format!("lane-title-{n}")}>
            <header class="lane-head">
                <div class="lane-title-row">
                    <h3 id={format!("lane-title-{n}")} class="lane-title">{ i18n::setup_label(&timeline.label) }</h3>
                    if props.lane.modified() {
                        <span class="badge" data-testid={format!("modified-{n}")}>{ t("lane.changed") }</span>
                    }
                    if props.lane.added {
                        <button type="button" class="small" data-testid={format!("remove-{n}")}
                            aria-label={tf("lane.remove_label", &[("lane", &i18n::setup_label(&timeline.label))])}
                            onclick={props.onremove.reform(move |_: MouseEvent| n)}>{ t("lane.remove") }</button>
                    }
                </div>
                <p class="peers">
                    <span class="peer"><span class="role">{ t("side.client") }</span>{ i18n::peer_label(&timeline.client_label) }</span>
                    <span class="peer"><span class="role">{ t("lane.via") }</span>
                        <span class="transport" data-testid={format!("transport-name-{n}")}>{ timeline.transport.name() }</span>
                    </span>
                    <span class="peer"><span class="role">{ t("side.server") }</span>{ i18n::peer_label(&timeline.server_label) }</span>
                </p>
                if !props.lane.outside {
                    { settings(n, &props.lane, props.onapply.reform(move |s| (n, s)),
                        props.oncompare.reform(move |s| (n, s)), props.onreset.reform(move |()| n)) }
                }
            </header>
            <div class="lane-status" aria-live="off">
                if !held.is_empty() {
                    <p class="held-lock" data-testid={format!("held-lock-{n}")}>
                        <svg class="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
                            <rect x="3" y="7" width="10" height="8" rx="1" /><path d="M5 7V5a3 3 0 0 1 6 0v2" class="icon-stroke" />
                        </svg>
                        { tf("lane.lock_held", &[("locks", &held.join(", "))]) }
                    </p>
                }
            </div>
            <LaneDiagram index={n} row={n} timeline={Shared(props.lane.timeline.clone())} layout={props.layout.clone()}
                pos={props.pos} step_ms={props.step_ms} selected={props.selected}
                oninspect={props.oninspect.reform(move |i| (n, i))}
                {marks} />
            if at_end {
                <footer class="lane-end" data-testid={format!("outcome-{n}")}>
                    <p class={classes!("leaked", (leaked > 0).then_some("has-leak"))} data-testid={format!("leaked-locks-{n}")}
                        data-count={leaked.to_string()}>
                        { tf("lane.leaked", &[("count", &leaked.to_string())]) }
                    </p>
                    <p class="outcome">{ i18n::note_text(&timeline.summary.outcome, timeline.summary.outcome_msg.as_ref()) }</p>
                </footer>
            }
        </article>
    }
}

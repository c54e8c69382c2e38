//! "Export a run" (one lane's transcript JSON, the `run --format json`
//! document of DESIGN.md with that set-up alone; its Mermaid
//! `sequenceDiagram`; and for Streamable HTTP lanes curl commands that
//! replay it against `mcp-lanes serve`), each copied or downloaded. The
//! full bundle's exports island (`bundle::islands`), in the body of the
//! panel the views draw (`view::page::exports`); the lite bundle's panel
//! hands over when opened.

use crate::i18n::{self, t};
use mcp_lanes_core::transport::TransportKind;
use mcp_lanes_core::{export, transcript};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlSelectElement};
use yew::prelude::*;

use crate::browser::{copy_text, download};
use crate::model::Shared;
use crate::state::{Action, Lane};

/// Port the curl export and its `serve` command use.
const PORT: &str = "8931";

/// What the last copy or download said.
#[derive(Clone, Default, PartialEq)]
pub struct Status {
    /// Catalog key of what the last copy or download said.
    pub text: &'static str,
    /// The text to copy by hand: the clipboard refused.
    pub manual: Option<String>,
}

/// Export formats: test id, label, file extension, MIME type.
const FORMATS: [(&str, &str, &str, &str); 3] = [
    ("json", "Transcript (JSON)", "json", "application/json"),
    ("mermaid", "Mermaid sequence diagram", "mmd", "text/plain"),
    ("curl", "curl commands", "sh", "text/x-shellscript"),
];

fn serve_command(preset: &str) -> String {
    format!("mcp-lanes serve --transport http --port {PORT} --preset {preset}")
}

/// The text of an export of one lane (`None`: curl for a stdio lane), its
/// secrets redacted unless `keep`.
fn export_text(format: usize, scenario: &str, lane: &Lane, keep: bool) -> Option<String> {
    let redacted;
    let timeline = if keep {
        &*lane.timeline
    } else {
        redacted = mcp_lanes_core::redact::timeline(&lane.timeline);
        &redacted
    };
    Some(match format {
        0 => {
            let doc = transcript::scenario_document(scenario, std::slice::from_ref(timeline));
            serde_json::to_string_pretty(&doc).ok()? + "\n"
        }
        1 => export::mermaid(timeline),
        _ => {
            let script = export::curl(timeline, &format!("http://127.0.0.1:{PORT}/mcp"))?;
            let note = format!(
                "\n# Start the simulated server first: {}\n# (the replies match the run when this lane's server settings are the preset's)\n",
                serve_command(&lane.setup.server.preset)
            );
            script.replacen('\n', &note, 1)
        }
    })
}

/// Copies `text`, saying so in `status` (or offering it to copy by hand).
fn copy(text: String, status: UseStateHandle<Status>) {
    let shown = text.clone();
    copy_text(&text, move |ok| {
        status.set(Status {
            text: if ok {
                "share.copied"
            } else {
                "share.no_clipboard"
            },
            manual: (!ok).then(|| shown.clone()),
        })
    });
}

/// The exported text in a field to copy by hand, when the clipboard refused.
fn manual(status: &Status) -> Html {
    match &status.manual {
        Some(text) => html! {
            <textarea class="manual-copy" readonly=true rows="8" data-testid="export-text"
                aria-label={t("share.text_to_copy")} value={text.clone()} />
        },
        None => html! {},
    }
}

#[derive(PartialEq, Properties)]
pub struct ExportsProps {
    /// The open scenario's (or file's) id, in the files' names.
    pub scenario: AttrValue,
    /// The lanes one may export.
    pub lanes: Shared<Vec<Lane>>,
    /// Secrets kept in exports and permalinks (`State::keep_secrets`).
    pub keep_secrets: bool,
    /// Hands the page an action (the runtime's dispatch).
    pub dispatch: Callback<Action>,
    /// The figure's language (`i18n::select`ed before it draws: a page may
    /// hold figures in several).
    pub lang: AttrValue,
}

/// "Export a run" for the lane picked. The buttons say what they do in
/// `data-export` (format, then c for copy or d for download); one handler
/// serves them all.
#[component]
pub fn Exports(props: &ExportsProps) -> Html {
    crate::i18n::select(&props.lang);
    let picked = use_state(|| 0u32);
    let status = use_state(Status::default);
    let (scenario, lanes, picked, status) = (&*props.scenario, &props.lanes, &picked, &status);
    let n = (**picked as usize).min(lanes.len().saturating_sub(1));
    let Some(lane) = lanes.get(n) else {
        return html! {};
    };
    let http = lane.timeline.transport == TransportKind::Http;
    let onlane = {
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            picked.set(select.value().parse().unwrap_or(0));
        })
    };
    let onclick = {
        let (status, lane) = (status.clone(), lane.clone());
        let scenario = scenario.to_string();
        let keep = props.keep_secrets;
        Callback::from(move |e: MouseEvent| {
            let what = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|t| t.closest("[data-export]").ok().flatten())
                .and_then(|b| b.get_attribute("data-export"))
                .unwrap_or_default();
            let format = match what.as_bytes().first() {
                Some(b'j') => 0,
                Some(b'm') => 1,
                Some(b'c') => 2,
                _ => return,
            };
            let Some(text) = export_text(format, &scenario, &lane, keep) else {
                return;
            };
            if what.ends_with("copy") {
                copy(text, status.clone());
            } else {
                let (_, _, ext, mime) = FORMATS[format];
                download(&format!("{scenario}-lane{n}.{ext}"), mime, &text);
                status.set(Status {
                    text: "share.downloaded",
                    ..Status::default()
                });
            }
        })
    };
    let onkeep = props.dispatch.reform(|e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        Action::KeepSecrets(input.checked())
    });
    html! {
        <>
                <div class="check">
                    <input type="checkbox" id="export-keep-secrets" data-testid="export-keep-secrets"
                        checked={props.keep_secrets} onchange={onkeep} />
                    <label for="export-keep-secrets">{ t("export.keep_secrets") }</label>
                </div>
                <div class="field">
                    <label for="export-lane">{ t("export.lane") }</label>
                    <select id="export-lane" data-testid="export-lane" onchange={onlane}>
                        { for lanes.iter().enumerate().map(|(i, l)| html! {
                            <option value={i.to_string()} selected={i == n}>{ i18n::setup_label(&l.timeline.label) }</option>
                        }) }
                    </select>
                </div>
                <ul class="export-list" {onclick}>
                    <li>
                        <span class="export-label">{ t("export.json") }</span>
                        <button type="button" class="small" data-export="json-copy" data-testid="export-json-copy">{ t("export.copy") }</button>
                        <button type="button" class="small" data-export="json-download" data-testid="export-json-download">{ t("export.download") }</button>
                    </li>
                    <li>
                        <span class="export-label">{ t("export.mermaid") }</span>
                        <button type="button" class="small" data-export="mermaid-copy" data-testid="export-mermaid-copy">{ t("export.copy") }</button>
                        <button type="button" class="small" data-export="mermaid-download" data-testid="export-mermaid-download">{ t("export.download") }</button>
                    </li>
                    if http {
                        <li>
                            <span class="export-label">{ t("export.curl") }</span>
                            <button type="button" class="small" data-export="curl-copy" data-testid="export-curl-copy">{ t("export.copy") }</button>
                            <button type="button" class="small" data-export="curl-download" data-testid="export-curl-download">{ t("export.download") }</button>
                        </li>
                    }
                </ul>
                <p class="export-note">
                    if http {
                        { t("export.replay") }
                        <code data-testid="serve-command">{ serve_command(&lane.setup.server.preset) }</code>
                    } else {
                        { t("export.stdio") }
                    }
                </p>
                <p class="export-status" role="status" data-testid="export-status">
                    { t(status.text) }
                </p>
                { manual(status) }
        </>
    }
}

//! A lane's settings: the knobs of `mcp_lanes_core::settings`. Every change
//! becomes a [`Setting`]; the core applies it and re-runs the set-up. In
//! "compare" mode the next change adds a copy of the lane with that one
//! setting changed instead.

use crate::i18n::{self, t};
use mcp_lanes_core::client::UndeclaredPolicy;
use mcp_lanes_core::protocol::version::EraMode;
use mcp_lanes_core::settings::{self, Capability, Setting};
use mcp_lanes_core::transport::TransportKind;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::state::{Action, Lane};

#[derive(PartialEq, Properties)]
pub struct SettingsPanelProps {
    /// Lane position (for test ids).
    pub index: usize,
    pub lane: Lane,
    /// Hands the page an action (the runtime's dispatch): apply a change to
    /// this lane, add a copy of it with the change, put it back.
    pub dispatch: Callback<Action>,
    /// The figure's language (`i18n::select`ed before it draws: a page may
    /// hold figures in several).
    pub lang: AttrValue,
}

const ERAS: [EraMode; 3] = [EraMode::ModernOnly, EraMode::LegacyOnly, EraMode::DualEra];
const POLICIES: [UndeclaredPolicy; 3] = [
    UndeclaredPolicy::MethodNotFound,
    UndeclaredPolicy::Drop,
    UndeclaredPolicy::Close,
];
const TRANSPORTS: [TransportKind; 2] = [TransportKind::Stdio, TransportKind::Http];

fn era_from(value: &str) -> Option<EraMode> {
    ERAS.into_iter().find(|e| e.label() == value)
}

fn select_value(e: &Event) -> String {
    let select: HtmlSelectElement = e.target_unchecked_into();
    select.value()
}

/// A change handler that emits a setting when the event maps to one.
fn emit_some<F>(emit: &Callback<Setting>, f: F) -> Callback<Event>
where
    F: Fn(Event) -> Option<Setting> + 'static,
{
    let emit = emit.clone();
    Callback::from(move |e: Event| {
        if let Some(setting) = f(e) {
            emit.emit(setting);
        }
    })
}

/// A labelled `<select>` of plain string options (the value as the core
/// names it; the text in the page's language when it is a label there).
fn select_row(
    id: String,
    testid: String,
    label: &'static str,
    options: Vec<(&'static str, bool)>,
    onchange: Callback<Event>,
    disabled: bool,
) -> Html {
    html! {
        <div class="field">
            <label for={id.clone()}>{ t(label) }</label>
            <select {id} data-testid={testid} {onchange} {disabled}>
                { for options.into_iter().map(|(v, selected)| html! { <option value={v} {selected}>{ i18n::label_text(v) }</option> }) }
            </select>
        </div>
    }
}

/// A checkbox with its label.
fn check_row(
    id: String,
    testid: String,
    label: &'static str,
    checked: bool,
    onchange: Callback<Event>,
) -> Html {
    html! {
        <div class="check">
            <input type="checkbox" id={id.clone()} data-testid={testid} {checked} {onchange} />
            <label for={id}>{ t(label) }</label>
        </div>
    }
}

fn checked(e: &Event) -> bool {
    let input: HtmlInputElement = e.target_unchecked_into();
    input.checked()
}

#[component]
pub fn SettingsPanel(props: &SettingsPanelProps) -> Html {
    crate::i18n::select(&props.lang);
    let compare = use_state(|| false);
    // Bumped after a compare, so the controls (which the reader just moved)
    // are rebuilt showing this lane's unchanged settings.
    let generation = use_state(|| 0u32);
    let compare_ref = use_node_ref();
    let setup = &props.lane.setup;
    let n = props.index;
    let id = |name: &str| format!("s{}-{name}", props.lane.key);

    // Where a change goes: this lane, or a new compared lane (once).
    let emit = {
        let (compare, generation, compare_ref) =
            (compare.clone(), generation.clone(), compare_ref.clone());
        let (dispatch, lane) = (props.dispatch.clone(), props.index);
        Callback::from(move |setting: Setting| {
            if *compare {
                compare.set(false);
                generation.set(*generation + 1);
                dispatch.emit(Action::Compare { lane, setting });
                if let Some(button) = compare_ref.cast::<web_sys::HtmlElement>() {
                    let _ = button.focus();
                }
            } else {
                dispatch.emit(Action::Apply { lane, setting });
            }
        })
    };

    let client_era = setup.client.era;
    let server_era = setup.server.era;
    let preferred = setup
        .client
        .modern_versions
        .first()
        .cloned()
        .unwrap_or_default();
    let versions = settings::known_versions();

    let on_client_era = emit_some(&emit, |e: Event| {
        era_from(&select_value(&e)).map(Setting::ClientEra)
    });
    let on_server_era = emit_some(&emit, |e: Event| {
        era_from(&select_value(&e)).map(Setting::ServerEra)
    });
    let on_preferred = emit.reform(|e: Event| Setting::PreferredVersion(select_value(&e)));
    let on_transport = emit_some(&emit, |e: Event| {
        let v = select_value(&e);
        TRANSPORTS
            .into_iter()
            .find(|t| t.name() == v)
            .map(Setting::Transport)
    });
    let on_policy = emit_some(&emit, |e: Event| {
        let v = select_value(&e);
        POLICIES
            .into_iter()
            .find(|p| p.label() == v)
            .map(Setting::Undeclared)
    });
    let on_checks = emit.reform(|e: Event| Setting::ChecksBeforeWork(checked(&e)));
    let on_auth_break = emit_some(&emit, |e: Event| {
        let v = select_value(&e);
        let none = std::iter::once(None);
        none.chain(settings::AUTH_BREAKS.into_iter().map(Some))
            .find(|b| b.map_or("none", |b| b.name()) == v)
            .map(Setting::AuthBreak)
    });
    // A protected server's flow: which step is broken on purpose.
    let auth_row = setup.auth.as_ref().map(|auth| {
        let current = auth.broken;
        let options = std::iter::once(None).chain(settings::AUTH_BREAKS.into_iter().map(Some));
        html! {
            <div class="field">
                <label for={id("auth-break")}>{ t("settings.auth_break") }</label>
                <select id={id("auth-break")} data-testid={format!("auth-break-{n}")} onchange={on_auth_break}>
                    { for options.map(|b| html! {
                        <option value={b.map_or("none", |b| b.name())} selected={b == current}>
                            { t(&crate::setting_words::auth_break_key(b)) }
                        </option>
                    }) }
                </select>
            </div>
        }
    });
    // A gateway's lane: which of the server's tools it hides (G-FILTER).
    let gateway_row = setup.gateway.as_ref().map(|gateway| {
        let rows: Html = setup
            .server
            .tools
            .iter()
            .map(|tool| {
                let name = tool.name.clone();
                let hidden = gateway.hide.contains(&name);
                let onchange = {
                    let name = name.clone();
                    emit.reform(move |e: Event| Setting::GatewayHides(name.clone(), checked(&e)))
                };
                let key = id(&format!("gateway-hides-{}", name.replace(['.', ' '], "-")));
                html! {
                    <div class="check">
                        <input type="checkbox" id={key.clone()} data-testid={format!("gateway-hides-{n}-{name}")}
                            checked={hidden} {onchange} />
                        <label for={key}>{ name }</label>
                    </div>
                }
            })
            .collect();
        html! {
            <fieldset class="checks">
                <legend>{ t("settings.gateway_hides") }</legend>
                { rows }
            </fieldset>
        }
    });
    let on_toggle_compare = {
        let compare = compare.clone();
        Callback::from(move |_: MouseEvent| compare.set(!*compare))
    };

    let era_options = |current: EraMode| -> Vec<(&'static str, bool)> {
        ERAS.iter().map(|e| (e.label(), *e == current)).collect()
    };
    let cap_rows: Html = Capability::ALL
        .iter()
        .map(|&cap| {
            let onchange = emit.reform(move |e: Event| Setting::ClientCapability(cap, checked(&e)));
            check_row(
                id(&format!(
                    "cap-{}",
                    cap.label().replace([' ', ':', '.'], "-")
                )),
                format!("cap-{n}-{}", cap.label()),
                cap.label(),
                settings::declares(setup, cap),
                onchange,
            )
        })
        .collect();
    let version_rows: Html = versions
        .iter()
        .map(|&v| {
            let on = setup
                .server
                .modern_versions
                .iter()
                .chain(&setup.server.legacy_versions)
                .any(|x| x == v);
            let onchange =
                emit.reform(move |e: Event| Setting::ServerVersion(v.to_string(), checked(&e)));
            check_row(
                id(&format!("version-{v}")),
                format!("server-version-{n}-{v}"),
                v,
                on,
                onchange,
            )
        })
        .collect();

    let onreset = props
        .dispatch
        .reform(move |_: MouseEvent| Action::ResetLane(n));
    // Into the settings' body (the views draw it: `view::lane::settings`).
    html! {
            <>
                <div class="compare-bar">
                    <button type="button" ref={compare_ref} data-testid={format!("compare-{n}")}
                        aria-pressed={if *compare { "true" } else { "false" }}
                        onclick={on_toggle_compare}>
                        { if *compare { t("settings.comparing") } else { t("settings.compare") } }
                    </button>
                    if props.lane.modified() {
                        <button type="button" data-testid={format!("reset-{n}")}
                            onclick={onreset}>{ t("settings.reset") }</button>
                    }
                </div>
                <p class="settings-hint" id={id("hint")}>
                    { if *compare { t("settings.hint_compare") } else { t("settings.hint") } }
                </p>
                <div class="settings-fields" key={*generation}>
                    <fieldset>
                        <legend>{ t("settings.client") }</legend>
                        { select_row(id("client-era"), format!("client-era-{n}"), "settings.era", era_options(client_era), on_client_era, false) }
                        { select_row(id("preferred"), format!("preferred-version-{n}"), "settings.preferred",
                            versions.iter().map(|v| (*v, *v == preferred)).collect(), on_preferred,
                            !client_era.speaks_modern()) }
                        { select_row(id("undeclared"), format!("undeclared-{n}"), "settings.undeclared",
                            POLICIES.iter().map(|p| (p.label(), *p == setup.client.undeclared)).collect(), on_policy, false) }
                        <fieldset class="checks">
                            <legend>{ t("settings.capabilities") }</legend>
                            { cap_rows }
                        </fieldset>
                    </fieldset>
                    <fieldset>
                        <legend>{ t("settings.server") }</legend>
                        { select_row(id("server-era"), format!("server-era-{n}"), "settings.era", era_options(server_era), on_server_era, false) }
                        <fieldset class="checks">
                            <legend>{ t("settings.versions") }</legend>
                            { version_rows }
                        </fieldset>
                        { check_row(id("checks"), format!("checks-before-work-{n}"), "settings.checks",
                            setup.server.checks_capability_before_work, on_checks) }
                        { for auth_row }
                    </fieldset>
                    { select_row(id("transport"), format!("transport-{n}"), "settings.transport",
                        TRANSPORTS.iter().map(|t| (t.name(), *t == setup.channel.kind)).collect(), on_transport, false) }
                    { for gateway_row }
                </div>
            </>
    }
}

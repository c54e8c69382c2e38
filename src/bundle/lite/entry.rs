//! How the lite bundle starts: it fetches the recorded runs of the scenario
//! the URL opens, or the recorded conversation it names (read and graded
//! by the core), then renders; a state only the simulator can show (a
//! changed lane, the editor, the benchmark load, a scenario file) or a
//! failed fetch goes to the full bundle at once. Loaded by `www/embed.js`,
//! it mounts script figures (`McpLanes.mount`) the same way, each handing
//! over to the full bundle on its own. The exported items have plain
//! comments: wasm-bindgen would copy doc comments into the JS glue.

use mcp_lanes_core::scenarios;
use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::hand_over;
use super::recorded;
use crate::browser::{
    load_all_notes, load_catalog, load_full_catalog, load_scenario_notes, localize_page,
    page_config, prefetch_catalog, prefetch_scenario_notes, require_element, script_base,
    shadow_root, to_json,
};
use crate::config::{Config, Mode};
use crate::figure::Handle;
use crate::recording::{stylesheet, stylesheet_ready, with_recording, FULL_CSS};
use crate::runtime::{self, Page};
use crate::state::{needs_simulator, Upgrade};

/// Starts the page (under `embed.js`, which mounts figures instead, does
/// nothing).
pub fn start() {
    if script_base().is_some() {
        return;
    }
    let config = page_config();
    // A scenario file runs in the simulator: straight to the full bundle,
    // which fetches and reads it. A recording needs none: drawn here.
    if config.file.is_some() {
        start_full(None);
        return;
    }
    if !config.tap.is_empty() {
        start_tap(config);
        return;
    }
    if config.timeline.is_some() {
        start_recording(config);
        return;
    }
    let link = match &config.link {
        Some(Ok(link)) => Some(link),
        _ => None,
    };
    if let Some(link) = link.filter(|l| needs_simulator(l)) {
        start_full(Some(link.clone()));
        return;
    }
    let id = link.map_or_else(
        || config.scenario.clone().unwrap_or_default(),
        |l| l.scenario.clone(),
    );
    if id == "stress" {
        start_full(None);
        return;
    }
    let id = known(id);
    // The catalog comes while the runs do.
    prefetch_catalog("", config.lang.as_deref(), None);
    prefetch_scenario_notes("", config.lang.as_deref(), None, &id);
    wasm_bindgen_futures::spawn_local(async move {
        if !recorded::fetch(&id).await {
            start_full(None);
            return;
        }
        let tag = load_catalog("", config.lang.as_deref(), None).await;
        load_scenario_notes(&id).await;
        localize_page(&tag);
        run_page(config);
    });
}

/// Runs the lite page for `config`, its options' problems said in the
/// page's language (installed by now).
fn run_page(config: Config) {
    let config = Config {
        problem: page_config().problem,
        ..config
    };
    if let Some(problem) = &config.problem {
        gloo::console::error!(format!("mcp-lanes: {problem}"));
    }
    if let Some(page) = runtime::render_page(config) {
        // Kept so that the hand-over can stop the lite page.
        let root = page.root().clone();
        hand_over::keep(root, Box::new(move || page.release()));
    }
}

/// Draws the recorded conversation the URL names (`?transcript=`,
/// `?timeline=`), read and graded by the core here, with the catalogs a
/// check's words and verdicts need.
fn start_recording(config: Config) {
    if let (Ok(link), Some(head)) = (stylesheet(FULL_CSS), gloo::utils::document().head()) {
        let _ = head.append_child(&link);
    }
    wasm_bindgen_futures::spawn_local(async move {
        let tag = load_catalog("", config.lang.as_deref(), None).await;
        load_check_catalogs().await;
        localize_page(&tag);
        run_page(with_recording(config, &tag).await);
    });
}

/// Draws the conversations `?tap=` names as they happen (`crate::tap`),
/// read and graded by the core here as a recording is.
fn start_tap(config: Config) {
    if let (Ok(link), Some(head)) = (stylesheet(FULL_CSS), gloo::utils::document().head()) {
        let _ = head.append_child(&link);
    }
    wasm_bindgen_futures::spawn_local(async move {
        let tag = load_catalog("", config.lang.as_deref(), None).await;
        load_check_catalogs().await;
        localize_page(&tag);
        let urls = config.tap.clone();
        let config = Config {
            problem: page_config().problem,
            checked: Some(Ok(std::rc::Rc::new(crate::tap::waiting(&urls)))),
            ..config
        };
        if let Some(page) = runtime::render_page(config) {
            crate::tap::watch(&urls, page.dispatcher());
            let root = page.root().clone();
            hand_over::keep(root, Box::new(move || page.release()));
        }
    });
}

/// What a recording's figure says beyond a scenario's: the check's words
/// (the full catalog) and any note the grader writes.
async fn load_check_catalogs() {
    load_full_catalog().await;
    load_all_notes().await;
}

/// Starts the full bundle instead of the lite page: on `link`, or on what
/// the URL says.
fn start_full(link: Option<mcp_lanes_core::share::ShareState>) {
    let upgrade = Upgrade {
        link,
        editor: false,
    };
    hand_over::to_full(None, upgrade, None, None);
}

/// The scenario a figure or the page opens: `id`, or for an unknown id the
/// first one (the state shows a notice).
fn known(id: String) -> String {
    match scenarios::find(&id) {
        Some(_) => id,
        None => scenarios::CATALOG.first().map_or("", |s| s.id).to_string(),
    }
}

/// Whether a figure's options ask for what only the full bundle shows: a
/// scenario file, the benchmark load, or a link with changed lanes.
fn figure_needs_full(config: &Config) -> bool {
    config.file.is_some()
        || config.scenario.as_deref() == Some("stress")
        || matches!(&config.link, Some(Ok(link)) if needs_simulator(link))
}

// Renders a figure from the recorded runs into a shadow root on `host`.
// `upgrade(handoff)` is embed.js's: it mounts the full bundle's figure on
// the same root (with the hand-over's JSON, or `null` for the options as
// they are) and resolves once it runs; the lite figure is then released. Options
// only the full bundle can show go there at once (the handle returned
// then does nothing: embed.js keeps the full one).
#[wasm_bindgen]
pub async fn mount(
    host: Element,
    options: JsValue,
    upgrade: js_sys::Function,
) -> Result<Handle, JsValue> {
    require_element(&host)?;
    let read = to_json(&options);
    let parse = || match &read {
        Some(options) => Config::from_options(Mode::Mount, options),
        None => {
            let mut config = Config::from_options(Mode::Mount, &serde_json::Value::Null);
            config.problem = Some(crate::i18n::tf(
                "options.unreadable",
                &[("why", "options: cannot be read")],
            ));
            config
        }
    };
    let mut config = parse();
    let handle = |page| Handle::new(page).leaving(hand_over::forget);
    if figure_needs_full(&config) {
        let promise = upgrade.call1(&JsValue::NULL, &JsValue::NULL)?;
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise)).await?;
        return Ok(handle(None));
    }
    config.reduced_motion = crate::browser::reduced_motion();
    let base = script_base().unwrap_or_else(|| "/".into());
    let id = known(config.scenario.clone().unwrap_or_default());
    let recording = config.timeline.is_some();
    prefetch_catalog(&base, config.lang.as_deref(), Some(&host));
    if !recording {
        prefetch_scenario_notes(&base, config.lang.as_deref(), Some(&host), &id);
        if !recorded::fetch(&id).await {
            // No recorded runs: the full bundle runs the scenario itself.
            let promise = upgrade.call1(&JsValue::NULL, &JsValue::NULL)?;
            wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise)).await?;
            return Ok(handle(None));
        }
    }
    let lang = load_catalog(&base, config.lang.as_deref(), Some(&host)).await;
    if recording {
        // A recording (`transcript`, `transcriptUrl`) is read and graded
        // here, in the figure's language.
        load_check_catalogs().await;
        crate::i18n::select(&lang);
        config = with_recording(config, &lang).await;
    } else {
        load_scenario_notes(&id).await;
    }
    // (Another figure may have selected its language meanwhile.)
    crate::i18n::select(&lang);
    // The options' problems, in the figure's language now.
    config.problem = parse().problem;
    if let Some(problem) = &config.problem {
        gloo::console::error!(format!("mcp-lanes: {problem}"));
    }
    let shadow = shadow_root(&host)?;
    shadow.set_inner_html("");
    if let Some(el) = host.dyn_ref::<web_sys::HtmlElement>() {
        crate::browser::apply_colors(el, &config.colors);
    }
    let document = gloo::utils::document();
    let link = document.create_element("link")?;
    link.set_attribute("rel", "stylesheet")?;
    link.set_attribute("href", &format!("{base}style.css"))?;
    shadow.append_child(&link)?;
    if recording {
        let verdicts = stylesheet(&format!("{base}{FULL_CSS}"))?;
        shadow.append_child(&verdicts)?;
        let _ = wasm_bindgen_futures::JsFuture::from(stylesheet_ready(&verdicts)).await;
    }
    let root = document.create_element("div")?;
    root.set_class_name("app-root");
    root.set_attribute("lang", &lang)?;
    shadow.append_child(&root)?;
    hand_over::keep_figure(root.clone(), upgrade);
    Ok(handle(Some(Page::mount(root, config, Some(host)))))
}

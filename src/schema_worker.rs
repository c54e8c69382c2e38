//! S-SCHEMA for the page's live check and recordings: a timeline goes to a Web
//! Worker (`www/schema-worker.js`) that runs the core's JSON Schema
//! validator (`check::schema`, the code `mcp-lanes check` runs) in a
//! WebAssembly module of its own (`src/bin/schema.rs`), fetched only now:
//! the validator is too big for the page's bundles. `None` when the worker
//! cannot start or answer within a minute (the page then says S-SCHEMA was
//! not checked there).
//! Both bundles: the lite one draws recordings too (`recording`).

use mcp_lanes_core::check::{verdicts_from_json, Verdict};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// How long the worker may take, fetching and compiling included.
const LIMIT_MS: i32 = 60_000;

/// The worker script's URL: next to the bundles.
fn worker_url() -> Option<String> {
    let base = crate::browser::script_base().or_else(|| {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.base_uri().ok().flatten())
    })?;
    web_sys::Url::new_with_base("schema-worker.js", &base)
        .ok()
        .map(|u| u.href())
}

/// The S-SCHEMA verdicts of `timeline` (its JSON, the page's format).
pub async fn verdicts(timeline: String) -> Option<Vec<Verdict>> {
    let url = worker_url()?;
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(&url, &options).ok()?;
    let answer = js_sys::Promise::new(&mut |resolve, reject| {
        let on_message = Closure::once_into_js(move |event: web_sys::MessageEvent| {
            let _ = resolve.call1(&JsValue::NULL, &event.data());
        });
        worker.set_onmessage(Some(on_message.unchecked_ref()));
        let failed = reject.clone();
        let on_error = Closure::once_into_js(move |event: web_sys::Event| {
            let _ = failed.call1(&JsValue::NULL, &event);
        });
        worker.set_onerror(Some(on_error.unchecked_ref()));
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&reject, LIMIT_MS);
        }
    });
    worker.post_message(&JsValue::from_str(&timeline)).ok()?;
    let data = JsFuture::from(answer).await;
    worker.terminate();
    let data = data.ok()?;
    let text = js_sys::Reflect::get(&data, &"verdicts".into())
        .ok()?
        .as_string()?;
    verdicts_from_json(&text)
}

//! The live check's I/O: each POST the core's client makes goes out with
//! `fetch` (its headers, its body), aborted after `live::EXCHANGE_MS`; the
//! answer (JSON or a whole SSE stream), or what the browser said went
//! wrong, goes back to the run (`live::LiveRun`), which hands it to the
//! client. Between exchanges the client's own deadlines are waited with
//! `setTimeout`. After every step the runs so far are handed to
//! `on_progress`, so the page draws the exchanges as they happen; at the
//! end the core grades the merged run (`live::finished`), as `mcp-lanes
//! check` does.
//!
//! A page can only read a server that allows its origin (CORS): when the
//! browser refuses, the check says so and points at `mcp-lanes bridge`.
//! Linked in the full bundle only (its "Check a server" panel).

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::checked::Checked;
use crate::i18n::{t, tf};
use crate::live::{self, LiveRun, EXCHANGE_MS, MAX_ANSWER_BYTES};

/// Milliseconds on the page's clock.
fn clock() -> f64 {
    js_sys::Date::now()
}

/// Waits `ms` milliseconds.
async fn sleep(ms: u64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                &resolve,
                i32::try_from(ms).unwrap_or(i32::MAX),
            );
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// What came back for one POST.
enum Answer {
    Http(u16, Vec<(String, String)>, String),
    Failed(String),
}

/// The browser's error as a sentence.
fn describe(err: &JsValue) -> String {
    err.dyn_ref::<js_sys::Error>()
        .map(|e| format!("{}: {}", e.name(), e.message()))
        .or_else(|| err.as_string())
        .unwrap_or_else(|| t("live.fetch_failed"))
}

/// One POST with its deadline.
async fn post(url: &str, request: &mcp_lanes_core::transport::HttpRequest) -> Answer {
    let Some(window) = web_sys::window() else {
        return Answer::Failed(t("live.no_fetch"));
    };
    let Ok(abort) = web_sys::AbortController::new() else {
        return Answer::Failed(t("live.no_fetch"));
    };
    let headers = match web_sys::Headers::new() {
        Ok(h) => h,
        Err(e) => return Answer::Failed(describe(&e)),
    };
    for (name, value) in &request.headers {
        // The browser sets Host and the framing headers itself.
        let forbidden = ["host", "content-length", "connection"]
            .iter()
            .any(|f| name.eq_ignore_ascii_case(f));
        if !forbidden {
            let _ = headers.append(name, value);
        }
    }
    let init = web_sys::RequestInit::new();
    init.set_method(&request.method);
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&request.body));
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_signal(Some(&abort.signal()));
    let stop = abort.clone();
    let timer = gloo::timers::callback::Timeout::new(
        u32::try_from(EXCHANGE_MS).unwrap_or(u32::MAX),
        move || stop.abort(),
    );
    let result = async {
        let response: web_sys::Response =
            JsFuture::from(window.fetch_with_str_and_init(url, &init))
                .await?
                .dyn_into()?;
        let status = response.status();
        let mut pairs = Vec::new();
        if let Ok(Some(entries)) = js_sys::try_iter(&response.headers()) {
            for entry in entries.flatten() {
                let entry: js_sys::Array = entry.unchecked_into();
                if let (Some(k), Some(v)) = (entry.get(0).as_string(), entry.get(1).as_string()) {
                    pairs.push((k, v));
                }
            }
        }
        let text = JsFuture::from(response.text()?).await?;
        Ok::<_, JsValue>((status, pairs, text.as_string().unwrap_or_default()))
    }
    .await;
    drop(timer);
    match result {
        Ok((_, _, text)) if text.len() > MAX_ANSWER_BYTES => Answer::Failed(t("live.too_large")),
        Ok((status, headers, text)) => Answer::Http(status, headers, text),
        Err(_) if abort.signal().aborted() => Answer::Failed(t("live.timeout")),
        Err(e) => Answer::Failed(describe(&e)),
    }
}

/// Runs the check plan against `url` (calling only the `tools` the
/// person named), calling `on_progress` with the check so far after every
/// step and once more, graded by the core as `mcp-lanes check` grades it,
/// at the end. Returns a sentence for the reader when the browser could
/// not reach the server.
pub async fn run(
    url: String,
    tools: Vec<(String, serde_json::Value)>,
    on_progress: impl Fn(Rc<Checked>),
) -> Option<String> {
    if let Some(why) = bad_url(&url) {
        return Some(why);
    }
    let mut plan = live::plan(tools);
    let mut blocked = false;
    while let Some(planned) = plan.next() {
        let mut run = LiveRun::new(&planned.flow, &url);
        let started = clock();
        let now = || (clock() - started).max(0.0) as u64;
        run.start(now());
        loop {
            if let Some(request) = run.next_post(now()) {
                on_progress(Rc::new(live::progress(
                    &plan,
                    Some((&planned.flow, &run)),
                    &url,
                )));
                match post(&url, &request.request).await {
                    Answer::Http(status, headers, body) => {
                        run.answered(now(), &request, status, headers, body)
                    }
                    Answer::Failed(why) => {
                        blocked |= why.starts_with("TypeError");
                        run.failed(now(), &request, &why);
                    }
                }
                on_progress(Rc::new(live::progress(
                    &plan,
                    Some((&planned.flow, &run)),
                    &url,
                )));
                continue;
            }
            if run.is_done() {
                break;
            }
            match run.deadline() {
                Some(at) => {
                    sleep(at.saturating_sub(now())).await;
                    run.timeout(now());
                }
                None => break,
            }
        }
        plan.record(&planned, run.timeline());
        if blocked {
            break;
        }
    }
    // S-SCHEMA in a worker of its own (the validator is too big for the
    // page's bundles), as `mcp-lanes check` adds it.
    let schema = match plan.report(&url) {
        Some(report) => match serde_json::to_string(&report.timeline) {
            Ok(json) => crate::schema_worker::verdicts(json).await,
            Err(_) => None,
        },
        None => None,
    };
    on_progress(Rc::new(live::finished(&plan, &url, schema)));
    blocked.then(|| blocked_text(&url))
}

/// Why `url` cannot be fetched at all (not http:// or https://).
fn bad_url(url: &str) -> Option<String> {
    let parsed = web_sys::Url::new(url).ok();
    let fine = parsed
        .as_ref()
        .is_some_and(|u| matches!(u.protocol().as_str(), "http:" | "https:"));
    (!fine).then(|| tf("live.bad_url", &[("url", url)]))
}

/// What the reader is told when the browser would not let the page read
/// `url` (CORS or the page's CSP), pointing at `mcp-lanes bridge`.
fn blocked_text(url: &str) -> String {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    tf("live.blocked", &[("url", url), ("origin", &origin)])
}

/// One request of the editor's "Your server" target to `url`, by the live
/// check's own fetch path (its deadline, its size limit): what came back,
/// and the reader's sentence when the browser refused to read it.
pub async fn send_once(
    url: &str,
    request: &mcp_lanes_core::transport::HttpRequest,
) -> (mcp_lanes_core::editor::RemoteAnswer, Option<String>) {
    if let Some(why) = bad_url(url) {
        return (Err(why.clone()), Some(why));
    }
    match post(url, request).await {
        Answer::Http(status, headers, body) => (Ok((status, headers, body)), None),
        Answer::Failed(why) => {
            let blocked = why.starts_with("TypeError").then(|| blocked_text(url));
            (Err(why), blocked)
        }
    }
}

//! `?tap=URL[,URL]…`: conversations drawn as they happen. Each URL is a
//! `mcp-lanes tap --live` stream (server-sent events: `hello` with the
//! run's label, a `message` per recorded entry, `closed` when the client
//! left, with the entry recorded for it, `end`); the entries of each
//! are read as one transcript by the core's importer and grader
//! (`checked::read_so_far` while it goes on, then `checked::read`, what
//! `check --transcript` runs), their runs side by
//! side, and handed to the page as [`Action::TapChecked`] at most every
//! [`REDRAW_MS`]. S-SCHEMA joins once a conversation pauses
//! ([`SCHEMA_AFTER_MS`]): the schema worker reads it whole each time.
//! Nothing here judges a message; every string from a stream reaches the
//! page as data.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::{EventSource, MessageEvent};

use crate::checked::Checked;
use crate::i18n::tf;
use crate::state::{Action, Dispatch};

/// How often, at most, the page redraws a growing conversation.
pub const REDRAW_MS: u32 = 150;

/// How long a conversation stays quiet before S-SCHEMA is added.
pub const SCHEMA_AFTER_MS: u32 = 1_000;

/// One stream and what it sent so far.
struct Stream {
    url: String,
    label: String,
    entries: Vec<String>,
    /// The stream said `end`: the conversation is over.
    ended: bool,
}

/// Every stream of the page, and what is waiting to be drawn.
struct Watch {
    streams: Vec<Stream>,
    dispatch: Dispatch,
    redraw: Option<Timeout>,
    schema: Option<Timeout>,
}

/// What the page shows before the first message: the streams' names, no
/// run.
pub fn waiting(urls: &[String]) -> Checked {
    Checked {
        source: urls.join(", "),
        target: urls.join(", "),
        era: None,
        runs: Vec::new(),
        graded_here: true,
        notices: Vec::new(),
    }
}

/// Opens a stream for each of `urls` and draws what they send through
/// `dispatch` for as long as the page lives.
pub fn watch(urls: &[String], dispatch: Dispatch) {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    dispatch(Action::CheckedProblem(tf(
        "tap.waiting",
        &[("urls", &urls.join(", "))],
    )));
    let watch = Rc::new(RefCell::new(Watch {
        streams: urls
            .iter()
            .map(|url| Stream {
                url: url.clone(),
                label: url.clone(),
                entries: Vec::new(),
                ended: false,
            })
            .collect(),
        dispatch: Rc::clone(&dispatch),
        redraw: None,
        schema: None,
    }));
    for (n, url) in urls.iter().enumerate() {
        let blocked = tf("tap.blocked", &[("url", url), ("origin", &origin)]);
        let Ok(source) = EventSource::new(url) else {
            dispatch(Action::CheckedProblem(blocked));
            continue;
        };
        let data = |e: &web_sys::Event| {
            e.dyn_ref::<MessageEvent>()
                .and_then(|m| m.data().as_string())
                .unwrap_or_default()
        };
        let w = Rc::clone(&watch);
        EventListener::new(&source, "hello", move |e| {
            let hello: serde_json::Value = serde_json::from_str(&data(e)).unwrap_or_default();
            if let Some(label) = hello.get("label").and_then(|l| l.as_str()) {
                w.borrow_mut().streams[n].label = label.to_string();
            }
        })
        .forget();
        let w = Rc::clone(&watch);
        EventListener::new(&source, "message", move |e| {
            w.borrow_mut().streams[n].entries.push(data(e));
            soon(&w);
        })
        .forget();
        // A client that left: its data is the recorded entry (`{"left":
        // "client", …}`), drawn where it happened as the client
        // disconnecting, as a simulated client's leaving is.
        let w = Rc::clone(&watch);
        EventListener::new(&source, "closed", move |e| {
            w.borrow_mut().streams[n].entries.push(data(e));
            soon(&w);
        })
        .forget();
        let (w, closing) = (Rc::clone(&watch), source.clone());
        EventListener::new(&source, "end", move |_| {
            // The server has exited: no reconnecting.
            closing.close();
            w.borrow_mut().streams[n].ended = true;
            soon(&w);
        })
        .forget();
        let (d, failing) = (Rc::clone(&dispatch), source.clone());
        EventListener::new(&source, "error", move |_| {
            // Refused (CORS, a 403, not a stream): the browser gives up.
            // A dropped stream reconnects by itself, from its last event.
            if failing.ready_state() == EventSource::CLOSED {
                d(Action::CheckedProblem(blocked.clone()));
            }
        })
        .forget();
        // The stream lives as long as the page.
        std::mem::forget(source);
    }
}

/// Draws what came, after [`REDRAW_MS`] (what comes meanwhile goes with
/// it).
fn soon(watch: &Rc<RefCell<Watch>>) {
    if watch.borrow().redraw.is_some() {
        return;
    }
    let w = Rc::clone(watch);
    let timer = Timeout::new(REDRAW_MS, move || draw(&w));
    watch.borrow_mut().redraw = Some(timer);
}

/// Reads every stream's entries with the core's importer and grader, and
/// hands the runs to the page; S-SCHEMA once they pause.
fn draw(watch: &Rc<RefCell<Watch>>) {
    let (checked, dispatch) = {
        let mut w = watch.borrow_mut();
        w.redraw = None;
        let mut all = waiting(&w.streams.iter().map(|s| s.url.clone()).collect::<Vec<_>>());
        let mut problem = None;
        for stream in w.streams.iter().filter(|s| !s.entries.is_empty()) {
            let text = format!("[{}]", stream.entries.join(","));
            // Until it ends, an answer not come yet is no failure.
            let read = if stream.ended {
                crate::checked::read(&stream.label, &text)
            } else {
                crate::checked::read_so_far(&stream.label, &text)
            };
            match read {
                Ok(read) => {
                    for mut notice in read.notices {
                        notice.lane += all.runs.len();
                        all.notices.push(notice);
                    }
                    all.runs.extend(read.runs);
                }
                Err(why) => problem = Some(why),
            }
        }
        if all.runs.is_empty() {
            if let Some(why) = problem {
                (w.dispatch)(Action::CheckedProblem(why));
            }
            return;
        }
        (Rc::new(all), Rc::clone(&w.dispatch))
    };
    dispatch(Action::TapChecked(Rc::clone(&checked)));
    let later = Rc::clone(&dispatch);
    let timer = Timeout::new(SCHEMA_AFTER_MS, move || {
        crate::recording::add_schema(checked, move |a| later(a));
    });
    // A new timer drops the one before: S-SCHEMA waits for a pause.
    watch.borrow_mut().schema = Some(timer);
}

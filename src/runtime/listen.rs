//! The page's listeners: one per kind of event on the root, reading
//! `data-act` (the table in `view`), and the keyboard shortcuts.

// The page's items and imports (a listener reaches every part of it).
use super::*;

/// The element with a `data-act` an event reached, its act and argument
/// (nothing inside an island: what happens there is the island's).
fn acted(event: &web_sys::Event) -> Option<(Element, String, String)> {
    let target = event.target()?.dyn_into::<Element>().ok()?;
    if target.closest("[data-island]").ok()?.is_some() {
        return None;
    }
    let el = target.closest("[data-act]").ok()??;
    let act = el.get_attribute("data-act")?;
    let arg = el.get_attribute("data-arg").unwrap_or_default();
    Some((el, act, arg))
}

/// `"{lane}:{event}"`.
fn selection(arg: &str) -> Option<Selection> {
    let (lane, event) = arg.split_once(':')?;
    Some(Selection {
        lane: lane.parse().ok()?,
        event: event.parse().ok()?,
    })
}

/// What a click on an element with `data-act` does.
fn clicked(inner: &Rc<Inner>, event: &web_sys::Event) {
    let Some((el, act, arg)) = acted(event) else {
        return;
    };
    let action = match act.as_str() {
        "play" => Action::Play,
        "pause" => Action::Pause,
        "restart" => Action::Restart,
        "back" => Action::StepBack,
        "forward" => Action::StepForward,
        "end" => Action::JumpToEnd,
        "inspect" => match selection(&arg) {
            Some(sel) => Action::Inspect(Some(sel)),
            None => return,
        },
        "close-inspector" => Action::Inspect(None),
        "show-failure" => {
            // "What to fix": the failing message, drawn and inspected.
            let Some(sel) = selection(&arg) else {
                return;
            };
            dispatch(inner, Action::ShowFailure(sel));
            crate::browser::scroll_to_test_id(&el, format!("message-{}-{}", sel.lane, sel.event));
            return;
        }
        "remove-lane" => match arg.parse() {
            Ok(lane) => Action::RemoveLane(lane),
            Err(_) => return,
        },
        "help" => Action::Help(true),
        "help-close" => Action::Help(false),
        "tab" => Action::ShowEditor(arg == "editor"),
        "scenario" => {
            // A plain click opens it here; any other follows the link.
            let plain = event.dyn_ref::<MouseEvent>().is_some_and(|e| {
                e.button() == 0 && !e.ctrl_key() && !e.meta_key() && !e.shift_key() && !e.alt_key()
            });
            if !plain {
                return;
            }
            event.prevent_default();
            if let Some(s) = mcp_lanes_core::scenarios::find(&arg) {
                crate::history::push_scenario(s.id);
            }
            dispatch(inner, Action::Load(arg));
            crate::browser::show_figure(&inner.root, true);
            return;
        }
        "theme" => {
            let next = inner.theme.get().unwrap_or_else(theme::system).toggled();
            inner.theme.set(Some(next));
            if inner.config.mode == Mode::Page {
                theme::apply(next);
            }
            render(inner);
            return;
        }
        "copy-link" => {
            copy_link(inner);
            return;
        }
        "print" => {
            print(inner);
            return;
        }
        _ => return,
    };
    dispatch(inner, action);
}

/// Copies the permalink of what is shown now, saying so (or offering it
/// to copy by hand).
fn copy_link(inner: &Rc<Inner>) {
    // The address is the link copied.
    write_link(inner);
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let fragment = share::to_fragment(&inner.state.borrow().share());
    let link = origin + &page_url(&fragment).unwrap_or_default();
    let weak = Rc::downgrade(inner);
    let shown = link.clone();
    crate::browser::copy_text(&link, move |ok| {
        if let Some(inner) = weak.upgrade() {
            *inner.copied.borrow_mut() = Copied {
                text: Some(if ok {
                    "share.copied"
                } else {
                    "share.no_clipboard"
                }),
                manual: (!ok).then(|| shown.clone()),
            };
            render(&inner);
        }
    });
}

/// "Print": the fields' explanations come with the rules' catalog, fetched
/// first when it is not here; then the browser prints (`beforeprint` draws
/// the whole run).
fn print(inner: &Rc<Inner>) {
    let weak = Rc::downgrade(inner);
    wasm_bindgen_futures::spawn_local(async move {
        if let Some(inner) = weak.upgrade() {
            crate::i18n::select(&inner.lang);
        }
        if !crate::i18n::has_rules() {
            crate::browser::load_rules().await;
        }
        if weak.upgrade().is_some() {
            if let Some(window) = web_sys::window() {
                let _ = window.print();
            }
        }
    });
}

/// While the page prints, the whole run is drawn, every field explained.
fn printing(inner: &Rc<Inner>, on: bool) {
    inner.printing.set(on);
    render(inner);
}

/// Listens on the root (and, for the page, the document and window).
pub(super) fn listen(inner: &Rc<Inner>) {
    let mut listeners = Vec::new();
    let on = |target: &web_sys::EventTarget,
              kind: &'static str,
              capture: bool,
              f: fn(&Rc<Inner>, &web_sys::Event)| {
        let weak: Weak<Inner> = Rc::downgrade(inner);
        let options = EventListenerOptions {
            phase: if capture {
                EventListenerPhase::Capture
            } else {
                EventListenerPhase::Bubble
            },
            passive: false,
        };
        EventListener::new_with_options(target, kind, options, move |event| {
            if let Some(inner) = weak.upgrade() {
                crate::i18n::select(&inner.lang);
                f(&inner, event);
            }
        })
    };
    let root: &web_sys::EventTarget = inner.root.as_ref();
    listeners.push(on(root, "click", false, clicked));
    listeners.push(on(root, "keydown", false, |inner, event| {
        // Enter or Space on a message or marker inspects it.
        let Some(key) = event.dyn_ref::<KeyboardEvent>().map(KeyboardEvent::key) else {
            return;
        };
        if key != "Enter" && key != " " {
            return;
        }
        if let Some((_, act, arg)) = acted(event) {
            if act == "picker-search" && key == "Enter" {
                // Enter in the picker's search opens the first card shown.
                event.prevent_default();
                if let Some(card) = crate::browser::first_shown_card(&inner.root) {
                    card.click();
                }
                return;
            }
            if act == "inspect" {
                if let Some(sel) = selection(&arg) {
                    event.prevent_default();
                    dispatch(inner, Action::Inspect(Some(sel)));
                }
            }
        }
    }));
    listeners.push(on(root, "input", false, |inner, event| {
        if let Some((el, act, _)) = acted(event) {
            if act == "seek" {
                if let Some(pos) = value(&el).and_then(|v| v.parse().ok()) {
                    dispatch(inner, Action::Seek(pos));
                }
            } else if act == "picker-search" {
                crate::browser::filter_picker(&inner.root);
            }
        }
    }));
    listeners.push(on(root, "change", false, |inner, event| {
        if let Some((el, act, _)) = acted(event) {
            if act == "speed" {
                if let Some(speed) = value(&el).and_then(|v| v.parse().ok()) {
                    dispatch(inner, Action::SetSpeed(speed));
                }
            }
        }
    }));
    // `toggle` and a dialog's `close` do not bubble: heard on the way down.
    listeners.push(on(root, "toggle", true, |inner, event| {
        let Some(details) = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
        else {
            return;
        };
        if details.open() && details.get_attribute("data-act").as_deref() == Some("handover") {
            dispatch(inner, Action::HandOver);
        }
    }));
    listeners.push(on(root, "close", true, |inner, event| {
        let is_help = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|el| el.get_attribute("data-testid"))
            .is_some_and(|id| id == "help-dialog");
        if is_help && inner.state.borrow().help_open {
            dispatch(inner, Action::Help(false));
        }
    }));
    // The shortcuts: on the whole document for the page and an iframe
    // figure, only inside a script figure (several on one page each hear
    // their own keys).
    let keys_target: Option<web_sys::EventTarget> = match inner.config.mode {
        Mode::Mount => Some(inner.root.clone().into()),
        _ => web_sys::window().and_then(|w| w.document()).map(Into::into),
    };
    if let Some(target) = keys_target {
        listeners.push(on(&target, "keydown", false, |inner, event| {
            let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if let Some(action) = crate::shortcuts::action_for(event) {
                event.prevent_default();
                // E: the editor, with the cursor in its text (a hand-over
                // to the full bundle puts it there on arrival).
                let editor = matches!(action, Action::ShowEditor(true));
                if editor {
                    if let Some(el) = active_element(inner) {
                        let _ = el.blur();
                    }
                }
                dispatch(inner, action);
                if editor {
                    crate::browser::focus_soon(&inner.root, "editor-text");
                }
            }
        }));
    }
    if let (Mode::Page, Some(window)) = (inner.config.mode, web_sys::window()) {
        listeners.push(on(window.as_ref(), "popstate", false, |inner, _| {
            if let Some(action) = crate::history::on_back_or_forward() {
                dispatch(inner, action);
                crate::browser::show_figure(&inner.root, false);
            }
        }));
    }
    if let Some(window) = web_sys::window() {
        listeners.push(on(window.as_ref(), "beforeprint", false, |inner, _| {
            printing(inner, true);
        }));
        listeners.push(on(window.as_ref(), "afterprint", false, |inner, _| {
            printing(inner, false);
        }));
    }
    let weak = Rc::downgrade(inner);
    if let Some(listener) = bridge::listen_for_control(&inner.config, move |action| {
        if let Some(inner) = weak.upgrade() {
            dispatch(&inner, action);
        }
    }) {
        listeners.push(listener);
    }
    bridge::apply_figure_theme(&inner.config, inner.host.as_ref());
    *inner.height.borrow_mut() = HeightReport::start(&inner.config, &inner.root);
    *inner.listeners.borrow_mut() = listeners;
}

/// A form control's value.
fn value(el: &Element) -> Option<String> {
    if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        return Some(input.value());
    }
    el.dyn_ref::<web_sys::HtmlSelectElement>()
        .map(|s| s.value())
}

//! The JSON text area: a `<textarea>` laid exactly over a highlighted
//! `<pre>` (same font and padding, in one scrolling box, so they scroll
//! together without any script), with line numbers, the bracket pair at
//! the caret, a marker where the text stops being JSON, auto-indent on
//! Enter and two spaces on Tab. Esc then Tab (or Shift+Tab) leaves the text
//! area, so keyboard users are never trapped. Everything is drawn as text
//! nodes and spans, never as markup from the text.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::editor_model::{
    bracket_pair, byte_of_utf16, newline_at, offset_of, tokens, utf16_len, Tok,
};

/// Above this size the text is shown plain: no highlighting, no line
/// numbers, no bracket matching, so typing stays quick in a huge paste.
pub const PLAIN_ABOVE: usize = 256 * 1024;

#[derive(PartialEq, Properties)]
pub struct CodeEditorProps {
    pub text: AttrValue,
    /// Changes each time the editor replaces the text itself: the text area
    /// then types `text` over everything as one edit the browser can undo.
    pub replaced: u32,
    /// Where the text stops being JSON (1-based line and column), if it does.
    pub problem: Option<(usize, usize)>,
    /// The person changed the text.
    pub oninput: Callback<String>,
}

/// Types `text` over the whole text as one edit the browser keeps in its
/// undo history (where `execCommand` is missing, the value is set).
fn replace_all(ta: &HtmlTextAreaElement, text: &str) {
    if ta.value() == text {
        return;
    }
    ta.select();
    if !exec_insert(text) {
        ta.set_value(text);
    }
    let _ = ta.set_selection_range(0, 0);
    ta.set_scroll_top(0);
}

/// `document.execCommand("insertText", false, text)`: typing, as far as
/// the browser's undo history is concerned. Whether it worked.
fn exec_insert(text: &str) -> bool {
    let doc = JsValue::from(web_sys::window().and_then(|w| w.document()));
    js_sys::Reflect::get(&doc, &"execCommand".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| {
            f.call3(&doc, &"insertText".into(), &false.into(), &text.into())
                .ok()
        })
        .is_some_and(|done| done.is_truthy())
}

/// Types `text` at the selection (the browser keeps it in its undo
/// history; without `execCommand` the value is spliced and reported), then
/// puts the caret `back` UTF-16 units before the end of the insertion.
fn insert(ta: &HtmlTextAreaElement, text: &str, back: u32, oninput: &Callback<String>) {
    let typed = exec_insert(text);
    let start = ta.selection_start().ok().flatten().unwrap_or(0);
    let mut at = start;
    if !typed {
        let _ = ta.set_range_text(text);
        at += utf16_len(text) as u32;
        oninput.emit(ta.value());
    }
    at = at.saturating_sub(back);
    let _ = ta.set_selection_range(at, at);
}

/// The highlighted text: tokens as spans, with marks (byte offset, class,
/// ascending) cut in; a mark on a line end or the text end is one space.
fn highlight(text_: &str, marks: &[(usize, &'static str)]) -> Vec<Html> {
    let mut out = Vec::new();
    let mut m = 0;
    for (kind, s, e) in tokens(text_) {
        let mut pos = s;
        while m < marks.len() && marks[m].0 < e {
            let (at, class) = marks[m];
            let at = at.max(pos);
            piece(&mut out, kind, &text_[pos..at]);
            let len = text_[at..]
                .chars()
                .next()
                .filter(|c| *c != '\n')
                .map_or(0, char::len_utf8);
            let testid = (class == "err").then_some("parse-marker");
            let content = if len == 0 { " " } else { &text_[at..at + len] };
            out.push(html! { <mark {class} data-testid={testid}>{ content.to_string() }</mark> });
            pos = at + len;
            m += 1;
        }
        piece(&mut out, kind, &text_[pos..e]);
    }
    for &(_, class) in &marks[m..] {
        out.push(html! { <mark {class} data-testid="parse-marker">{ " " }</mark> });
    }
    out
}

fn piece(out: &mut Vec<Html>, kind: Tok, s: &str) {
    if !s.is_empty() {
        out.push(match kind.class() {
            Some(class) => html! { <span {class}>{ s.to_string() }</span> },
            None => html! { { s.to_string() } },
        });
    }
}

#[component]
pub fn CodeEditor(props: &CodeEditorProps) -> Html {
    crate::components::select_language(use_context());
    // Esc was the last key: the next Tab leaves the text area.
    let escaped = use_mut_ref(|| false);
    let area = use_node_ref();
    let plain = props.text.len() > PLAIN_ABOVE;
    // The text area is the person's: its value is set once, then only by
    // typing, or by the editor's own replacements typed in as one edit.
    {
        let (area, text) = (area.clone(), props.text.clone());
        let first = use_mut_ref(|| true);
        use_effect_with(props.replaced, move |_| {
            if let Some(ta) = area.cast::<HtmlTextAreaElement>() {
                if std::mem::replace(&mut *first.borrow_mut(), false) {
                    ta.set_value(&text);
                } else {
                    replace_all(&ta, &text);
                }
            }
        });
    }
    // The bracket pair at the caret (byte offsets), set only when it changes.
    let pair = use_state(|| None::<(usize, Option<usize>)>);

    let oncaret = {
        let (pair, text_) = (pair.clone(), props.text.clone());
        move |ta: HtmlTextAreaElement| {
            if text_.len() > PLAIN_ABOVE {
                return;
            }
            let value = ta.value();
            // Between an input event and the re-render the text is ahead.
            if value.len() == text_.len() {
                let caret = ta.selection_start().ok().flatten().unwrap_or(0) as usize;
                let found = bracket_pair(&value, &tokens(&value), byte_of_utf16(&value, caret));
                if found != *pair {
                    pair.set(found);
                }
            }
        }
    };
    let onkeyup = {
        let oncaret = oncaret.clone();
        Callback::from(move |e: KeyboardEvent| oncaret(e.target_unchecked_into()))
    };
    let onclick = Callback::from(move |e: MouseEvent| oncaret(e.target_unchecked_into()));
    let oninput = {
        let (emit, pair) = (props.oninput.clone(), pair.clone());
        Callback::from(move |e: InputEvent| {
            pair.set(None);
            emit.emit(e.target_unchecked_into::<HtmlTextAreaElement>().value());
        })
    };
    let onkeydown = {
        let emit = props.oninput.clone();
        Callback::from(move |e: KeyboardEvent| {
            let ta: HtmlTextAreaElement = e.target_unchecked_into();
            let plain = !(e.ctrl_key() || e.meta_key() || e.alt_key() || e.shift_key());
            let key = e.key();
            let was_escaped = escaped.replace(key == "Escape");
            if plain && key == "Enter" {
                e.prevent_default();
                let value = ta.value();
                let start = ta.selection_start().ok().flatten().unwrap_or(0) as usize;
                let (before, after) = newline_at(&value, byte_of_utf16(&value, start));
                insert(&ta, &(before + &after), utf16_len(&after) as u32, &emit);
            } else if plain && key == "Tab" && !was_escaped {
                e.prevent_default();
                insert(&ta, "  ", 0, &emit);
            }
        })
    };

    let t: &str = if plain { "" } else { &props.text };
    // At most three marks (bracket, partner, parse error), kept in order.
    let mut marks: Vec<(usize, &'static str)> = Vec::new();
    let mut mark = |at: usize, class: &'static str| {
        if t.is_char_boundary(at) && !marks.iter().any(|m| m.0 == at) {
            let i = marks.iter().take_while(|m| m.0 < at).count();
            marks.insert(i, (at, class));
        }
    };
    // A pair found in an earlier text (replaced since) only counts where
    // this text has brackets too.
    let bracket = |i: usize| matches!(t.as_bytes().get(i), Some(b'{' | b'[' | b'}' | b']'));
    if let Some((at, partner)) = pair.filter(|(at, p)| bracket(*at) && p.is_none_or(bracket)) {
        mark(at, if partner.is_some() { "bm" } else { "bm bad" });
        if let Some(p) = partner {
            mark(p, "bm");
        }
    }
    if let Some((line, column)) = props.problem {
        mark(offset_of(t, line, column), "err");
    }
    let lines = t.bytes().filter(|b| *b == b'\n').count() + 1;
    let numbers: Vec<String> = (1..=lines).map(|n| n.to_string()).collect();
    let mut view = highlight(t, &marks);
    view.push(html! { { "\n" } });

    html! {
        <div class={classes!("code", plain.then_some("plain"))}>
            <div class="code-grid">
                <pre class="gutter" aria-hidden="true">{ numbers.join("\n") }</pre>
                <div class="code-area">
                    <pre class="code-view" aria-hidden="true"><code>{ for view }</code></pre>
                    <textarea class="code-input" data-testid="editor-text" spellcheck="false"
                        autocomplete="off" autocapitalize="off" wrap="off"
                        aria-label={crate::i18n::t("editor.request_aria")} aria-describedby="editor-keys"
                        ref={area} {oninput} {onkeydown} {onkeyup} {onclick} />
                </div>
            </div>
        </div>
    }
}

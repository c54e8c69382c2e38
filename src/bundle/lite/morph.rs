//! Patches a live DOM subtree to match markup text (the lite page renders
//! `view::page` as text on every change). Elements that stay are kept, so
//! focus, scroll positions, text selection and a `<details>` a reader
//! opened survive a render; an element whose `data-key` or `data-testid`
//! changed is a new element (an envelope restarts its animation).
//!
//! The rules, in `patch_children` below: children are matched in order by
//! node type, tag and key; a keyed child found further on is moved; the
//! rest are inserted, and live children left over are removed; a subtree
//! equal to its markup (`isEqualNode`, most of the page on a step) is left
//! as it is without walking it. Attributes
//! are set and removed to match, except `open` (a `<details>` or
//! `<dialog>` a reader or `showModal` opened keeps its state; the markup's
//! `open` applies when the element is first inserted). A form control's
//! current value follows the markup's.

use wasm_bindgen::prelude::*;
use web_sys::Element;

#[wasm_bindgen(inline_js = r#"
const keyOf = (n) => (n.nodeType === 1 ? n.getAttribute('data-key') ?? n.getAttribute('data-testid') : null);
const same = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
const value = (a, b) => {
  if ((a.tagName === 'INPUT' || a.tagName === 'SELECT' || a.tagName === 'TEXTAREA') && a.value !== b.value) a.value = b.value;
};
function update(a, b) {
  // Most of the page is as it was: the browser compares a subtree at once.
  if (a.isEqualNode(b)) {
    if (a.nodeType === 1) value(a, b);
    return;
  }
  if (a.nodeType !== 1) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  for (const { name } of Array.from(a.attributes)) {
    if (name !== 'open' && !b.hasAttribute(name)) a.removeAttribute(name);
  }
  for (const { name, value } of Array.from(b.attributes)) {
    if (name !== 'open' && a.getAttribute(name) !== value) a.setAttribute(name, value);
  }
  patchChildren(a, b);
  value(a, b);
}
function patchChildren(live, next) {
  let a = live.firstChild;
  for (let b = next.firstChild; b; ) {
    const following = b.nextSibling;
    if (a && same(a, b)) {
      update(a, b);
      a = a.nextSibling;
    } else {
      let found = null;
      if (keyOf(b) !== null) {
        for (let c = a; c; c = c.nextSibling) {
          if (same(c, b)) {
            found = c;
            break;
          }
        }
      }
      if (found) {
        live.insertBefore(found, a);
        update(found, b);
      } else {
        live.insertBefore(b, a);
      }
    }
    b = following;
  }
  while (a) {
    const gone = a;
    a = a.nextSibling;
    live.removeChild(gone);
  }
}
export function morph(root, html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  patchChildren(root, template.content);
}
"#)]
extern "C" {
    /// Makes `root`'s children match `html` (see the module docs).
    pub fn morph(root: &Element, html: &str);
}

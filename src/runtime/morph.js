// The runtime's DOM patcher (`src/runtime/morph.rs` says the rules). A
// module file, not an inline snippet: both bundles link it, and
// wasm-bindgen numbers inline snippets by position in one folder.
const keyOf = (n) => (n.nodeType === 1 ? n.getAttribute('data-key') ?? n.getAttribute('data-testid') : null);
const same = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
// A field marked `data-keep` (the picker's search) keeps what the reader typed.
const value = (a, b) => {
  if (a.hasAttribute('data-keep')) return;
  if ((a.tagName === 'INPUT' || a.tagName === 'SELECT' || a.tagName === 'TEXTAREA') && a.value !== b.value) a.value = b.value;
};
function update(a, b) {
  // Most of the page is as it was: the browser compares a subtree at once.
  if (a.isEqualNode(b)) {
    if (a.nodeType === 1) value(a, b);
    return;
  }
  // What morph_region knew of it no longer holds.
  delete a.mcpLanesHtml;
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
  // An island's host: what is inside is the island's.
  if (a.hasAttribute('data-island')) return;
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
export function morph_region(el, html, mark) {
  // Drawn from this very markup last time: nothing to do.
  if (el.mcpLanesHtml === html) {
    el.mcpLanesMark = mark;
    return;
  }
  const template = document.createElement('template');
  template.innerHTML = html;
  const next = template.content.firstElementChild;
  if (!next) el.remove();
  else if (same(el, next)) {
    update(el, next);
    el.mcpLanesHtml = html;
    el.mcpLanesMark = mark;
  } else el.replaceWith(next);
}
// Whether `el` is as the morph_region call that `mark` names left it.
export function region_known(el, mark) {
  return el.mcpLanesHtml !== undefined && el.mcpLanesMark === mark;
}

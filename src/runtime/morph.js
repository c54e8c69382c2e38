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
  // What patch_parts knew of these children no longer holds.
  delete live.mcpLanesParts;
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
export function morph_region(el, html) {
  // Drawn from this very markup last time: nothing to do.
  if (el.mcpLanesHtml === html) return;
  const template = document.createElement('template');
  template.innerHTML = html;
  const next = template.content.firstElementChild;
  if (!next) el.remove();
  else if (same(el, next)) {
    update(el, next);
    el.mcpLanesHtml = html;
  } else el.replaceWith(next);
}

const svgTemplate = document.createElement('template');
export function patch_parts(el, text, ends) {
  // `text` cut at `ends` (UTF-16 offsets): the markup of each child.
  const parts = new Array(ends.length);
  let from = 0;
  ends.forEach((to, i) => {
    parts[i] = text.slice(from, to);
    from = to;
  });
  // `parts`: the markup of each child element of `el`, as drawn now. A
  // child whose markup is as last time stays as it is; the others are
  // parsed (together) and patched into a live child of the same key, or
  // put in. Until `el` was drawn this way once, the whole is patched.
  const known = el.mcpLanesParts;
  const live = Array.from(el.children);
  if (!known || known.length !== live.length || live.length !== el.childNodes.length) {
    const wrap = el.namespaceURI === 'http://www.w3.org/2000/svg' ? 'svg' : 'div';
    svgTemplate.innerHTML = `<${wrap}>${parts.join('')}</${wrap}>`;
    patchChildren(el, svgTemplate.content.firstChild);
    el.mcpLanesParts = parts;
    return;
  }
  const at = new Map();
  known.forEach((text, i) => {
    const list = at.get(text);
    if (list) list.push(i);
    else at.set(text, [i]);
  });
  const nodes = new Array(parts.length);
  const fresh = [];
  parts.forEach((text, j) => {
    const list = at.get(text);
    if (list && list.length) nodes[j] = live[list.shift()];
    else fresh.push(j);
  });
  if (fresh.length) {
    const wrap = el.namespaceURI === 'http://www.w3.org/2000/svg' ? 'svg' : 'div';
    svgTemplate.innerHTML = `<${wrap}>${fresh.map((j) => parts[j]).join('')}</${wrap}>`;
    const parsed = Array.from(svgTemplate.content.firstChild.children);
    const kept = new Set(nodes.filter(Boolean));
    const spare = new Map();
    for (const n of live) {
      const k = keyOf(n);
      if (!kept.has(n) && k !== null && !spare.has(k)) spare.set(k, n);
    }
    fresh.forEach((j, i) => {
      const next = parsed[i];
      const old = spare.get(keyOf(next));
      if (old && same(old, next)) {
        // Patched in place: focus and the like stay.
        spare.delete(keyOf(next));
        update(old, next);
        nodes[j] = old;
      } else {
        nodes[j] = next;
      }
    });
  }
  // The children that go, first (else every child after one would move).
  const staying = new Set(nodes);
  for (const n of live) if (!staying.has(n)) n.remove();
  let here = el.firstElementChild;
  for (const n of nodes) {
    if (n === here) here = here.nextElementSibling;
    else el.insertBefore(n, here);
  }
  el.mcpLanesParts = parts;
}

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

const svgTemplate = document.createElement('template');
// Parses children's markup (the children of an element in `el`'s namespace).
function parseChildren(el, html) {
  const wrap = el.namespaceURI === 'http://www.w3.org/2000/svg' ? 'svg' : 'div';
  svgTemplate.innerHTML = `<${wrap}>${html}</${wrap}>`;
  return svgTemplate.content.firstChild;
}
// `el`'s children as the last patch_parts or patch_plan left them: the
// count it left, or -1 when something else has patched them since.
const knownCount = (el) => {
  const live = el.childElementCount;
  return el.mcpLanesParts === live && live === el.childNodes.length ? live : -1;
};

export function patch_parts(el, text, count) {
  // The whole: every child's markup (`count` children), patched into the
  // live children.
  patchChildren(el, parseChildren(el, text));
  el.mcpLanesParts = count;
}

export function parts_known(el, count) {
  return knownCount(el) === count;
}

export function patch_plan(el, keep, text) {
  // `keep[j]`: the index of the live child that child j is (its markup as
  // last drawn), or -1: child j is new, its markup the next element of
  // `text`. It is parsed and patched into a spare live child of
  // the same key, or put in. False: the live children are not as the last
  // patch left them (the caller patches the whole).
  const count = knownCount(el);
  if (count < 0) return false;
  const live = Array.from(el.children);
  const nodes = new Array(keep.length);
  const fresh = [];
  for (let j = 0; j < keep.length; j++) {
    const i = keep[j];
    if (i >= count) return false;
    if (i >= 0) nodes[j] = live[i];
    else fresh.push(j);
  }
  if (fresh.length) {
    const parsed = Array.from(parseChildren(el, text).children);
    if (parsed.length !== fresh.length) return false;
    const kept = new Set(nodes.filter(Boolean));
    const spare = new Map();
    for (const n of live) {
      const k = keyOf(n);
      if (!kept.has(n) && k !== null && !spare.has(k)) spare.set(k, n);
    }
    const focused = el.getRootNode().activeElement;
    fresh.forEach((j, i) => {
      const next = parsed[i];
      const old = spare.get(keyOf(next));
      // Patched in place when it holds focus (focus stays) or is an
      // envelope (its animation goes on); else the new one replaces it,
      // which costs less than comparing the two.
      if (old && same(old, next) && (old.hasAttribute('data-key') || (focused && old.contains(focused)))) {
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
  el.mcpLanesParts = nodes.length;
  return true;
}

// mcp-lanes: the page and the figures the build draws, without a framework
// and without WebAssembly.
//
// The build drew every catalog scenario's run whole (`view::figure`,
// `mcp-lanes-figures`): the first visit's into index.html, the others into
// figures/<scenario>.<tag>[.embed].html. player.js plays such a run; this
// script is what is around it: the buttons, keys, picker, history, theme,
// help, "Copy link", print (every field explained), what a key of a
// message means (fetched on demand), a figure's options, events and control
// messages, and the hand-over to the bundles.
//
// It serves the page (index.html), an iframe figure (`?embed=1&…`) and, for
// embed.js, a script figure (`mount`). No WebAssembly is loaded until a
// reader shows the intent to change something (pointer, touch or focus on a
// control marked data-handover); changing it then hands over to the full
// bundle (the simulator), as the lite bundle does. What this script does not
// read (options beyond the simple ones, a changed run's permalink) goes to
// the lite bundle at once.

import { Player, attr, control } from './player.js';

const here = import.meta.url;
const SKIP = '#play';
/// Index of 1x among the speeds (`state::DEFAULT_SPEED`).
const SPEED_VALUES = [0.25, 0.5, 1, 2, 4];

/// A WebAssembly bundle's module and compiled code, fetched once.
const pending = new Map();
export function fetchBundle(url) {
  if (!pending.has(url)) {
    pending.set(url, [
      import(url),
      WebAssembly.compileStreaming(fetch(url.replace(/\.js$/, '_bg.wasm'))).catch(() => undefined),
    ]);
    if (/mcp-lanes-web\.js$/.test(url)) fetch(new URL('full.css', url)).catch(() => undefined);
  }
  return pending.get(url);
}
async function startBundle(url) {
  try {
    const [module, compiled] = await Promise.all(fetchBundle(url));
    await module.default(compiled ? { module_or_path: compiled } : undefined);
    return module;
  } catch (e) {
    pending.delete(url);
    throw e;
  }
}

/// The language a reader gets: the first of `wanted` the page has, else
/// English (`i18n::choose`: `zh-CN` finds `zh`).
function language(wanted, tags) {
  for (const w of [...wanted, ...(navigator.languages || [navigator.language])]) {
    if (typeof w !== 'string' || !w) continue;
    const tag = w.trim().toLowerCase().replace('_', '-');
    const found = tags.find((t) => t.toLowerCase() === tag) || tags.find((t) => t.toLowerCase() === tag.split('-')[0]);
    if (found) return found;
  }
  return 'en';
}

/// A drawn figure from `base`: the root element of
/// `figures/<id>.<tag>[.embed].html`.
async function fetchFigure(base, id, tag, embed) {
  const response = await fetch(new URL(`figures/${encodeURIComponent(id)}.${tag}${embed ? '.embed' : ''}.html`, base));
  if (!response.ok) throw new Error(`figure ${id}.${tag}: HTTP ${response.status}`);
  const template = document.createElement('template');
  template.innerHTML = await response.text();
  const root = template.content.querySelector('.app-root[data-static]');
  if (!root) throw new Error(`figure ${id}.${tag}: not a figure`);
  return root;
}

/// Shows the picker's cards that have every word of its search (case
/// aside), and says so when none has (`browser::filter_picker`).
function filterPicker(root) {
  const words = (root.querySelector('[data-testid="picker-search"]')?.value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const li of root.querySelectorAll('.picker-list > li')) {
    const text = li.textContent.toLowerCase();
    li.hidden = !words.every((w) => text.includes(w));
    if (!li.hidden) shown += 1;
  }
  const none = root.querySelector('[data-testid="picker-none"]');
  if (none) none.hidden = shown > 0;
}

/// After a scenario was chosen: the picker folds into its menu (its
/// summary takes focus when `focus`) and, when the title or Play is out of
/// the window, the menu scrolls to the top so that the title, Play and the
/// lanes are in view (`browser::show_figure` in the bundles).
function showFigure(root, focus) {
  const picker = root.querySelector('[data-testid="scenario-picker"]');
  if (!picker) return;
  picker.open = false;
  if (focus) picker.querySelector(':scope > summary')?.focus();
  const title = root.querySelector('[data-testid="scenario-title"]')?.getBoundingClientRect();
  const play = root.querySelector('[data-testid="play"]')?.getBoundingClientRect();
  if ((title && title.top < 0) || (play && play.bottom > innerHeight)) picker.scrollIntoView();
}

const pressed = (e) => e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey;
const selection = (arg) => (/^\d+:\d+$/.test(arg ?? '') ? arg : null);

/// The page or one figure: a player over a drawn figure, its buttons, its
/// keys, and the hand-over to the full bundle.
class Shell {
  /// `mode`: 'page', 'frame' (an iframe figure) or 'mount' (a script
  /// figure on `host`); `base`: where the bundles and figures are.
  constructor(root, { mode, base, host = null, upgrade = null }) {
    Object.assign(this, { root, mode, base, host, upgrade });
    this.listeners = [];
    this.helpReturn = null;
    this.handingOver = false;
    this.reported = null;
    this.player = new Player(root, (before) => this.moved(before));
  }

  get words() {
    return this.player.words;
  }

  /// After the playhead moved: the permalink (page), the events (figure),
  /// the playhead kept in view, the inspector shown.
  moved(before) {
    const p = this.player;
    if (this.mode === 'page') {
      if (!p.playing) this.writeLink();
      if (p.playing) this.followPlayhead();
    } else {
      this.report();
      this.postHeight?.();
    }
    this.fields();
    if (p.selected && p.selected !== before.selected) {
      const inspector = this.root.querySelector('[data-testid="inspector"]');
      if (inspector && inspector.getBoundingClientRect().top > innerHeight - 40) inspector.scrollIntoView();
    }
  }

  /// The keys of the inspected message (or of `scope`) explain
  /// themselves as in the bundles: once
  /// the language's explanations are here it holds its box (`.fx`, drawn
  /// by `view::fields::catalog` into `figures/fields/<tag>.html`).
  fields(scope = this.root.querySelector('[data-testid="inspector"]')) {
    const boxes = this.explained?.tag === this.lang() ? this.explained.boxes : null;
    for (const key of scope?.querySelectorAll('.wire i:not(.fk)') ?? []) {
      // Its catalog key, or (no data-f) its name, which is the same.
      let name = key.dataset.f;
      try { name ??= JSON.parse(key.textContent); } catch { continue; }
      const box = boxes?.get(name);
      if (box) {
        key.classList.add('fk');
        key.append(box.cloneNode(true));
      }
    }
  }

  lang() {
    return this.root.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en';
  }

  /// Fetches the language's explanations (once; the first time a reader
  /// points at, focuses or taps a key, or prints) and puts them in.
  explain() {
    const tag = this.lang();
    if (this.explaining?.tag !== tag) {
      const done = fetch(new URL(`figures/fields/${encodeURIComponent(tag)}.html`, this.base))
        .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))))
        .then((text) => {
          const t = document.createElement('template');
          t.innerHTML = text;
          const boxes = new Map();
          for (const box of t.content.querySelectorAll('[data-fx]')) {
            boxes.set(box.dataset.fx, box);
            box.removeAttribute('data-fx');
          }
          this.explained = { tag, boxes };
          this.fields();
        })
        .catch(() => {
          this.explaining = null;
        });
      this.explaining = { tag, done };
    }
    return this.explaining.done;
  }

  /// Print: the explanations first (a key shows its own beneath it).
  print() {
    this.explain().finally(() => window.print());
  }

  /// A figure's events (`bridge::report`): the step whenever it moves,
  /// the server's replies a step forward reaches, the end.
  report() {
    const p = this.player;
    const [before, was] = this.reported ?? [0, -1];
    if (before === p.pos && was === p.len) return;
    this.reported = [p.pos, p.len];
    const step = p.step();
    this.emit('mcp-lanes:step', { scenario: p.scenario, step: p.pos, total: p.len, atMs: Number(step.dataset.ms) });
    if (p.pos === before + 1 && step.dataset.replies) {
      for (const [lane, label, kind] of JSON.parse(step.dataset.replies)) this.emit('mcp-lanes:reply', { lane, label, kind });
    }
    if (p.pos > before && p.pos >= p.len && p.len > 0) this.emit('mcp-lanes:complete', { scenario: p.scenario });
  }

  emit(name, detail) {
    if (this.mode === 'mount') {
      this.host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true }));
    } else if (this.mode === 'frame' && window.parent !== window) {
      window.parent.postMessage({ ...detail, type: name }, '*');
    }
  }

  /// The permalink in the URL while stopped (`permalink::write`): none at
  /// the start.
  writeLink() {
    const fragment = this.player.pos > 0 ? this.player.step().dataset.link : '';
    if (location.hash.replace(/^#/, '') === fragment) return;
    history.replaceState(history.state, '', location.pathname + location.search + (fragment ? `#${fragment}` : ''));
  }

  followPlayhead() {
    const line = this.root.querySelector('[data-playhead]');
    const bottom = line?.getBoundingClientRect().bottom ?? 0;
    if (line && innerHeight > 0 && bottom > innerHeight - 48) scrollBy(0, bottom - innerHeight + innerHeight / 3);
  }

  showTheme() {
    const themed = this.mode === 'mount' ? this.host : document.documentElement;
    const chosen = themed.getAttribute('data-theme');
    const dark = chosen ? chosen === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
    attr(this.root.querySelector('[data-testid="theme-toggle"]'), 'aria-pressed', dark ? 'true' : 'false');
  }

  theme() {
    const themed = this.mode === 'mount' ? this.host : document.documentElement;
    const chosen = themed.getAttribute('data-theme');
    const dark = chosen ? chosen === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
    const next = dark ? 'light' : 'dark';
    themed.setAttribute('data-theme', next);
    if (this.mode === 'page') {
      try { localStorage.setItem('mcp-lanes.theme', next); } catch { /* no storage */ }
    }
    this.showTheme();
  }

  help(open) {
    const dialog = this.root.querySelector('[data-testid="help-dialog"]');
    if (!dialog) return;
    if (open && !dialog.open) {
      this.helpReturn = this.root.getRootNode().activeElement;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
    if (!open && this.helpReturn) {
      this.helpReturn.focus?.();
      this.helpReturn = null;
    }
  }

  async copyLink() {
    const p = this.player;
    const link = location.origin + location.pathname + location.search + `#${p.step().dataset.link}`;
    const status = this.root.querySelector('[data-testid="link-status"]');
    const share = status?.parentElement;
    share?.querySelector('.share-pop')?.remove();
    try {
      await navigator.clipboard.writeText(link);
      if (status) status.textContent = p.words.copied;
    } catch {
      if (status) status.textContent = '';
      if (share) {
        const pop = document.createElement('div');
        pop.className = 'share-pop';
        const said = document.createElement('p');
        said.textContent = p.words.noClipboard;
        const field = document.createElement('textarea');
        Object.assign(field, { className: 'manual-copy', readOnly: true, rows: 2, value: link });
        field.setAttribute('data-testid', 'link-field');
        field.setAttribute('aria-label', p.words.textToCopy ?? '');
        pop.append(said, field);
        share.append(pop);
      }
    }
  }

  /// Hands over to the full bundle with the state shown now and the
  /// change asked for (`config::Handoff`); the page (or figure) that is
  /// there stays until the full one is up.
  async handOver({ editor = false } = {}) {
    if (this.handingOver) return;
    this.handingOver = true;
    const p = this.player;
    p.stop();
    const focused = this.root.getRootNode().activeElement;
    const handoff = JSON.stringify({
      link: p.step().dataset.link,
      selected: p.selected ? p.selected.split(':').map(Number) : null,
      editor,
      speed: p.speed,
      focus: focused && this.root.contains(focused) ? focused.closest('[data-testid]')?.dataset.testid ?? null : null,
      open: [...this.root.querySelectorAll('details[open][data-testid]')].map((d) => d.dataset.testid),
    });
    this.root.setAttribute('aria-busy', 'true');
    const scroll = scrollY;
    try {
      if (this.mode === 'mount') {
        await this.upgrade(handoff);
      } else {
        globalThis.mcpLanesHandoff = handoff;
        await startBundle(new URL('mcp-lanes-web.js', this.base).href);
        // The full bundle runs its page on this root, patching what differs.
        this.detach();
        scrollTo(0, scroll);
      }
    } catch {
      console.error('mcp-lanes: the full bundle could not be loaded; reload the page to try again');
      delete globalThis.mcpLanesHandoff;
      this.handingOver = false;
      this.root.removeAttribute('aria-busy');
      const intro = this.root.querySelector('.intro');
      if (intro && !intro.querySelector('[data-testid="notice"]')) {
        const notice = document.createElement('p');
        Object.assign(notice, { className: 'notice', textContent: p.words.handOverFailed });
        notice.setAttribute('role', 'alert');
        notice.setAttribute('data-testid', 'notice');
        intro.append(notice);
      }
      for (const d of this.root.querySelectorAll('details[data-act="handover"][open]')) d.open = false;
    }
  }

  /// Stops playing and listening (the root stays).
  detach() {
    this.player.stop();
    for (const [target, type, f, options] of this.listeners) target.removeEventListener(type, f, options);
    this.listeners = [];
    this.height?.disconnect();
  }

  destroy() {
    this.detach();
    this.root.remove();
  }

  /// What a key press means (`state::keys::KEYS`, read from the figure).
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const t = e.composedPath()[0] instanceof Element ? e.composedPath()[0] : null;
    if (t?.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], dialog") || document.querySelector('dialog[open]') || this.root.querySelector('dialog[open]')) return;
    // The key map is the page's own (`state::keys::KEYS`), drawn into the figure.
    const keys = this.words.keys ?? {};
    const act = Object.hasOwn(keys, e.key) ? keys[e.key] : null;
    if (!act || (this.words.offControl?.includes(e.key) && t?.closest("button, a, summary, [role='button']"))) return;
    let done = true;
    if (act === 'help') this.help(true);
    else if (act === 'editor') {
      if (this.root.querySelector('[data-testid="tab-editor"]')) this.handOver({ editor: true });
      else done = false;
    } else if (act === 'close-inspector') this.player.act('inspect', null);
    else this.player.act(act);
    if (done) e.preventDefault();
  }

  click(e) {
    const el = e.target instanceof Element ? e.target.closest('[data-act]') : null;
    if (!el || !this.root.contains(el)) return;
    const arg = el.dataset.arg ?? '';
    const p = this.player;
    switch (el.dataset.act) {
      case 'play': case 'pause': case 'restart': case 'back': case 'forward': case 'end':
        p.act(el.dataset.act); break;
      case 'inspect': if (selection(arg)) p.act('inspect', arg); break;
      case 'close-inspector': p.act('inspect', null); break;
      case 'help': this.help(true); break;
      case 'help-close': this.help(false); break;
      case 'theme': this.theme(); break;
      case 'copy-link': this.copyLink(); break;
      case 'print': this.print(); break;
      case 'tab': if (arg === 'editor') this.handOver({ editor: true }); break;
      case 'scenario':
        if (this.mode === 'page' && pressed(e)) {
          e.preventDefault();
          this.pick?.(arg);
        }
        break;
      default:
    }
  }

  listen() {
    const on = (target, type, f, options) => {
      target.addEventListener(type, f, options);
      this.listeners.push([target, type, f, options]);
    };
    const root = this.root;
    on(root, 'click', (e) => this.click(e));
    on(root, 'keydown', (e) => {
      if (e.key === 'Enter' && e.target.dataset?.act === 'picker-search') {
        // Enter in the picker's search opens the first card shown.
        e.preventDefault();
        root.querySelector('.picker-list > li:not([hidden]) > a')?.click();
        return;
      }
      if (e.key !== 'Enter' && e.key !== ' ') return;
      const el = e.target instanceof Element ? e.target.closest('[data-act="inspect"]') : null;
      if (el && selection(el.dataset.arg)) {
        e.preventDefault();
        this.player.act('inspect', el.dataset.arg);
      }
    });
    on(root, 'input', (e) => {
      if (e.target.dataset?.act === 'seek') this.player.act('seek', Number(e.target.value));
      else if (e.target.dataset?.act === 'picker-search') filterPicker(root);
    });
    on(root, 'change', (e) => {
      if (e.target.dataset?.act === 'speed') this.player.act('speed', Number(e.target.value));
    });
    on(root, 'toggle', (e) => {
      const d = e.target;
      if (d instanceof HTMLDetailsElement && d.open && d.dataset.act === 'handover') this.handOver();
    }, true);
    on(root, 'close', (e) => {
      if (e.target.dataset?.testid === 'help-dialog') this.help(false);
    }, true);
    // The keys: the whole document for the page and an iframe figure, only
    // inside a script figure (each figure hears its own).
    on(this.mode === 'mount' ? root : document, 'keydown', (e) => this.key(e));
    // A key of a message: what it means comes on demand. Its keys take
    // focus once a reader reaches the message's JSON (the page stays as
    // drawn until then: the bundles draw it the same).
    const asked = (e) => {
      const t = e.composedPath()[0];
      const wire = t instanceof Element ? t.closest('.wire') : null;
      if (wire) for (const key of wire.querySelectorAll('i:not([tabindex])')) key.tabIndex = 0;
      if (wire || (t instanceof Element && t.closest('[data-act="print"]'))) this.explain();
    };
    for (const type of ['pointerover', 'focusin', 'touchstart']) on(root, type, asked, { passive: true });
    // The intent to change something: fetch and compile the simulator now.
    const seen = (e) => {
      const t = e.composedPath()[0];
      if (t instanceof Element && t.closest('[data-handover]')) {
        fetchBundle(new URL('mcp-lanes-web.js', this.base).href);
        for (const type of ['pointerover', 'focusin', 'touchstart']) document.removeEventListener(type, seen, true);
      }
    };
    // (embed.js watches for a script figure's.)
    if (this.mode !== 'mount') {
      for (const type of ['pointerover', 'focusin', 'touchstart']) on(document, type, seen, { capture: true, passive: true });
    }
    // Print: the whole run, and the transcript.
    on(window, 'beforeprint', () => {
      const p = this.player;
      this.printedAt = p.pos;
      p.stop();
      p.pos = p.len;
      p.render();
      p.transcriptMark.after(p.transcript);
      this.fields(p.transcript);
    });
    on(window, 'afterprint', () => {
      const p = this.player;
      p.transcript.remove();
      p.pos = this.printedAt ?? 0;
      p.render();
    });
  }

  /// An iframe figure: control messages from its own origin and `origins`,
  /// and its height to the parent.
  frame(origins) {
    const allowed = [location.origin, ...origins];
    let logged = false;
    const onMessage = (e) => {
      if (e.data?.type !== 'mcp-lanes:control') return;
      const action = allowed.includes(e.origin) ? control(e.data) : null;
      if (action) this.player.act(...action);
      else if (!logged) {
        logged = true;
        console.debug('mcp-lanes: ignored a control message (origin not allowed, or not a documented shape; see README)');
      }
    };
    window.addEventListener('message', onMessage);
    this.listeners.push([window, 'message', onMessage, undefined]);
    if (window.parent !== window) {
      // Measured after each move too: a browser renders an iframe out of
      // view (and tells its observers) only once it is scrolled to.
      let last = -1;
      this.postHeight = () => {
        const height = this.root.offsetHeight;
        if (height === last) return;
        last = height;
        window.parent.postMessage({ type: 'mcp-lanes:height', height }, '*');
      };
      this.height = new ResizeObserver(() => this.postHeight());
      this.height.observe(this.root);
    }
  }
}

/// A figure's options this script reads itself (the rest goes to the
/// bundles): a catalog scenario, autoplay, speed, step, theme, title,
/// caption, lang, and for an iframe origins. `null`: not only those, or
/// not as the options' reader would take them without a problem.
function simple(options, ids, frame) {
  if (!options || typeof options !== 'object' || Array.isArray(options)) return null;
  const known = ['scenario', 'autoplay', 'speed', 'step', 'theme', 'title', 'caption', 'lang', ...(frame ? ['origins'] : [])];
  if (Object.keys(options).some((k) => !known.includes(k))) return null;
  const o = options;
  const ok =
    (o.scenario === undefined || (typeof o.scenario === 'string' && ids.includes(o.scenario))) &&
    (o.autoplay === undefined || typeof o.autoplay === 'boolean') &&
    (o.speed === undefined || SPEED_VALUES.includes(o.speed)) &&
    (o.step === undefined || (Number.isInteger(o.step) && o.step >= 0)) &&
    (o.theme === undefined || ['light', 'dark', 'auto'].includes(o.theme)) &&
    (o.title === undefined || (typeof o.title === 'string' && o.title.trim() !== '' && [...o.title].length <= 200)) &&
    (o.caption === undefined || (typeof o.caption === 'string' && [...o.caption].length <= 1000)) &&
    (o.lang === undefined || (typeof o.lang === 'string' && /^[A-Za-z0-9_-]{1,35}$/.test(o.lang))) &&
    (o.origins === undefined || (Array.isArray(o.origins) && o.origins.every((x) => typeof x === 'string' && /^https?:\/\/[^/*]+$/.test(x))));
  const reduced = o.autoplay && matchMedia('(prefers-reduced-motion: reduce)').matches;
  return ok && !reduced ? o : null;
}

/// An iframe figure's options from its query (`config::from_url`'s
/// typing, for the options `simple` takes).
function queryOptions(params) {
  const o = {};
  for (const [k, v] of params) {
    if (k === 'embed') continue;
    if (k in o) return null;
    if (k === 'autoplay') o[k] = v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : v;
    else if (k === 'speed' || k === 'step') o[k] = /^\d+(\.\d+)?$/.test(v) ? Number(v) : v;
    else if (k === 'origins') o[k] = v.split(',').filter(Boolean);
    else o[k] = v;
  }
  return o;
}

/// Puts a figure's options into the drawn figure and its player (`at`:
/// the step a permalink names, over the `step` option).
function apply(shell, o, at = null) {
  const { root, player } = shell;
  if (o.title !== undefined) {
    const title = root.querySelector('[data-testid="scenario-title"]');
    if (title) title.textContent = o.title;
    root.querySelector('[data-testid="figure"]')?.setAttribute('aria-label', o.title);
  }
  if (o.caption !== undefined) {
    const caption = document.createElement('p');
    Object.assign(caption, { className: 'figure-caption', textContent: o.caption });
    caption.setAttribute('data-testid', 'figure-caption');
    root.querySelector('[data-testid="figure"]')?.append(caption);
  }
  if (o.theme === 'light' || o.theme === 'dark') (shell.mode === 'mount' ? shell.host : document.documentElement).setAttribute('data-theme', o.theme);
  if (o.speed !== undefined) player.speed = SPEED_VALUES.indexOf(o.speed);
  player.pos = Math.min(at ?? o.step ?? 0, player.len);
  player.render();
  shell.showTheme();
  if (o.autoplay) player.act('play');
  else shell.report();
}

/// The tags of the page's languages, from a drawn figure.
const tagsOf = (root) => JSON.parse(root.querySelector('[data-testid="transcript"]')?.dataset.words || '{}').langs || ['en'];
const idsOf = (root) => [...root.querySelectorAll('[data-act="scenario"]')].map((a) => a.dataset.arg);

/// The lite bundle starts (it reads the URL and takes the drawn figure
/// down once its page is up).
function bootLite(shell, base) {
  shell?.detach();
  if (shell) delete shell.root.dataset.ready;
  startBundle(new URL('mcp-lanes-lite.js', base).href).catch(() => {
    console.error('mcp-lanes: the lite bundle could not be loaded; reload the page to try again');
  });
}

/// The page (index.html): plays the drawn figure, opens others.
async function page(root) {
  const base = here;
  const params = new URLSearchParams(location.search);
  const ids = idsOf(root);
  const tags = tagsOf(root);
  const embed = params.get('embed') === '1';
  const options = embed ? simple(queryOptions(params), ids, true) : null;
  const foreign = embed ? !options : [...params.keys()].some((k) => k !== 'scenario' && k !== 'lang');
  const id = embed ? options?.scenario ?? ids[0] : params.get('scenario');
  if (foreign || (id !== null && !ids.includes(id))) {
    // What the URL asks for is not this figure: none shows until the
    // bundle's page is up (as before there were drawn figures).
    root.remove();
    bootLite(null, base);
    return;
  }
  if (!embed) {
    // The theme a reader chose before (`theme::stored`).
    let stored = null;
    try { stored = localStorage.getItem('mcp-lanes.theme'); } catch { /* no storage */ }
    if (stored === 'light' || stored === 'dark') document.documentElement.setAttribute('data-theme', stored);
  }
  const shell = new Shell(root, { mode: embed ? 'frame' : 'page', base });
  const tag = language([embed ? options.lang : params.get('lang')], tags);
  // `kept`: a reader went there (a card, Enter on one, back or forward):
  // the picker folds into its menu and the figure comes into view
  // (`browser::show_figure`); `focus`: the menu's summary takes focus.
  const open = async (scenario, lang, { kept = false, focus = false } = {}) => {
    const fetched = await fetchFigure(base, scenario, lang, embed);
    delete root.dataset.ready;
    shell.player.stop();
    root.replaceChildren(...fetched.childNodes);
    shell.player = new Player(root, (before) => shell.moved(before));
    shell.reported = null;
    shell.showTheme();
    shell.player.render();
    document.documentElement.lang = lang;
    const skip = document.querySelector('[data-testid="skip-link"]');
    if (skip) skip.textContent = shell.words.skip;
    if (kept) {
      showFigure(root, focus);
      root.dataset.ready = '';
    }
  };
  shell.pick = (scenario) => {
    const next = new URLSearchParams(location.search);
    if (next.get('scenario') !== scenario) {
      next.set('scenario', scenario);
      next.delete('scenario-url');
      history.pushState(null, '', `?${next}`);
    }
    // The list folds at once (the figure comes when it is fetched).
    const picker = root.querySelector('[data-testid="scenario-picker"]');
    if (picker) picker.open = false;
    open(scenario, document.documentElement.lang || 'en', { kept: true, focus: true }).catch(() => bootLite(shell, base));
  };
  shell.listen();
  if (!embed) {
    const onPop = () => {
      if (location.hash === SKIP) return;
      const scenario = new URLSearchParams(location.search).get('scenario') ?? ids[0];
      if (location.hash || !ids.includes(scenario)) bootLite(shell, base);
      else open(scenario, document.documentElement.lang || 'en', { kept: true }).catch(() => bootLite(shell, base));
    };
    window.addEventListener('popstate', onPop);
    shell.listeners.push([window, 'popstate', onPop, undefined]);
  } else {
    shell.frame(options.origins ?? []);
  }
  shell.showTheme();
  if (embed || id !== null || tag !== 'en') {
    try {
      await open(id ?? ids[0], tag);
    } catch {
      shell.detach();
      root.remove();
      bootLite(null, base);
      return;
    }
  }
  // A permalink of this run (unchanged): the step it names.
  const hash = location.hash.replace(/^#/, '');
  let at = null;
  if (hash && `#${hash}` !== SKIP) {
    at = shell.player.steps.findIndex((s) => s.dataset.link === hash);
    if (at < 0) {
      // A changed run: the bundles show it (none shows before).
      shell.detach();
      root.remove();
      bootLite(null, base);
      return;
    }
  }
  if (embed) {
    apply(shell, options, at);
  } else {
    shell.player.pos = at ?? 0;
    shell.player.render();
  }
  root.dataset.ready = '';
  shell.postHeight?.();
}

/// A script figure (embed.js's `McpLanes.mount`) drawn by the build, in a
/// shadow root on `host`; `null` when its options need a bundle.
/// `upgrade(handoff)` mounts the full bundle's figure on the same root.
export async function mount(host, options, { base, ids, tags, upgrade }) {
  const o = simple(options, ids, false);
  if (!o) return null;
  const hostLang = host.closest('[lang]')?.getAttribute('lang');
  const tag = language([o.lang, hostLang], tags);
  const drawn = await fetchFigure(base, o.scenario ?? ids[0], tag, true);
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.replaceChildren();
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = new URL('style.css', base).href;
  const loaded = new Promise((done) => {
    sheet.onload = done;
    sheet.onerror = done;
  });
  shadow.append(sheet);
  await loaded;
  const root = document.createElement('div');
  root.className = 'app-root';
  root.setAttribute('data-static', '');
  root.setAttribute('lang', tag);
  root.replaceChildren(...drawn.childNodes);
  shadow.append(root);
  const shell = new Shell(root, { mode: 'mount', base, host, upgrade });
  shell.listen();
  apply(shell, o);
  root.dataset.ready = '';
  let gone = false;
  return {
    control: (message) => {
      const action = gone ? null : control(message);
      if (action) shell.player.act(...action);
      return Boolean(action);
    },
    destroy: () => {
      gone = true;
      shell.destroy();
    },
    // The full bundle's figure took the root over (a hand-over).
    release: () => {
      gone = true;
      shell.detach();
    },
  };
}

const root = document.querySelector('.app-root[data-static]');
if (root && !globalThis.mcpLanesEmbed) page(root);

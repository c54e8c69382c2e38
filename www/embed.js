// mcp-lanes figures in any page. Include this script, then call
//   McpLanes.mount(hostElement, {scenario: "discover", autoplay: true})
// for each figure; it returns a Promise of a handle with control(message)
// and destroy(). Options, events and messages: the book, "Embedding in a
// course page". Everything is loaded from next to this script (Trunk.toml
// keeps the names stable).
//
// A figure of a catalog scenario with the simple options (scenario,
// autoplay, speed, step, theme, title, caption, lang) is the run the build
// drew (figures/<scenario>.<tag>.embed.html), played by figure.js: no
// WebAssembly. Other options start the lite bundle (recorded runs, no
// simulator), one instance for every such figure. When a reader changes
// what only the simulator can show, that figure alone moves to the full
// bundle (loaded once, on first need): the figure calls `upgrade` with its
// hand-over, the full figure runs on the same root in the same shadow root
// with the change made, and the first one is released. The handle returned
// here follows the figure across.
(() => {
  const base = new URL('.', document.currentScript.src).href;
  let lite;
  let full;
  let player;
  let index;
  // The full bundle, fetched, compiled and started once (its main() does
  // nothing here); again after a failure.
  const loadFull = () =>
    (full ??= Promise.all([
      import(base + 'mcp-lanes-web.js'),
      WebAssembly.compileStreaming(fetch(base + 'mcp-lanes-web_bg.wasm')).catch(() => undefined),
    ])
      .then(async ([m, wasm]) => (await m.default(wasm ? { module_or_path: wasm } : undefined), m))
      .catch((e) => {
        full = undefined;
        throw e;
      }));
  // It starts loading when a reader shows the intent to change a figure:
  // the pointer over, a touch on, or focus on a control that hands over
  // (`data-handover`: a lane's "Settings", the exports, the editor tab).
  const types = ['pointerover', 'focusin', 'touchstart'];
  const intent = (e) => {
    const target = e.composedPath()[0];
    if (target instanceof Element && target.closest('[data-handover]')) {
      for (const type of types) document.removeEventListener(type, intent, true);
      loadFull().catch(() => {});
    }
  };
  for (const type of types) document.addEventListener(type, intent, { capture: true, passive: true });
  // Every figure mounted and not destroyed. A course page often drops what
  // `mount` resolves to; the figure must live on: wasm-bindgen frees a
  // bundle's handle (and with it the figure's page and listeners) once its
  // JS object is garbage-collected.
  const live = new Set();
  // Tells the modules' main() not to render the whole playground here.
  window.mcpLanesEmbed = base;
  window.McpLanes = {
    mount(host, options) {
      let current = null;
      let gone = false;
      // Mounts the full bundle's figure (with the first figure's hand-over,
      // or null: the options need the simulator from the start).
      const upgrade = async (handoff) => {
        const handle = await (await loadFull()).mount(host, options, handoff);
        const before = current;
        current = handle;
        // The full figure took the drawn or lite figure's root over.
        if (before) (before.release ?? before.destroy).call(before);
        if (gone) handle.destroy();
      };
      const figure = {
        control: (message) => current?.control(message) ?? false,
        destroy: () => {
          gone = true;
          live.delete(figure);
          current?.destroy();
        },
      };
      live.add(figure);
      const viaLite = () =>
        (lite ??= import(base + 'mcp-lanes-lite.js').then(async (m) => (await m.default(), m)))
          .then((m) => m.mount(host, options, upgrade))
          .then((handle) => {
            if (current) handle.free();
            else current = handle;
            return figure;
          });
      if (!(host instanceof Element)) return viaLite();
      player ??= import(base + 'figure.js');
      index ??= fetch(base + 'figures/index.json').then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${r.status}`))));
      return Promise.all([player, index])
        .then(([m, drawn]) => m.mount(host, options, { base, ids: drawn.scenarios, tags: drawn.langs, upgrade }))
        .catch(() => null)
        .then((handle) => {
          if (!handle) return viaLite();
          if (!current) current = handle;
          return figure;
        });
    },
  };
})();

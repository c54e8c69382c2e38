// mcp-lanes figures in any page. Include this script, then call
//   McpLanes.mount(hostElement, {scenario: "discover", autoplay: true})
// for each figure; it returns a Promise of a handle with control(message)
// and destroy(). Options, events and messages: README, "Embedding in a
// course page". The modules and stylesheet are loaded once, from next to
// this script (Trunk.toml keeps their names stable).
//
// Figures start with the lite bundle (recorded runs, no simulator), one
// instance for every figure of the page. When a reader changes what only
// the simulator can show, that figure alone moves to the full bundle
// (loaded once, on first need): the lite figure calls `upgrade` with its
// hand-over, the full figure opens beside it in the same shadow root with
// the change made, and the lite one is destroyed. The handle returned here
// follows the figure across.
(() => {
  const base = new URL('.', document.currentScript.src).href;
  let lite;
  let full;
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
  // Tells the modules' main() not to render the whole playground here.
  window.mcpLanesEmbed = base;
  window.McpLanes = {
    mount(host, options) {
      lite ??= import(base + 'mcp-lanes-lite.js').then(async (m) => (await m.default(), m));
      let current = null;
      let gone = false;
      // Mounts the full bundle's figure (with the lite figure's hand-over,
      // or null: the options need the simulator from the start).
      const upgrade = async (handoff) => {
        const handle = await (await loadFull()).mount(host, options, handoff);
        const before = current;
        current = handle;
        before?.destroy();
        if (gone) handle.destroy();
      };
      const figure = {
        control: (message) => current?.control(message) ?? false,
        destroy: () => {
          gone = true;
          current?.destroy();
        },
      };
      return lite
        .then((m) => m.mount(host, options, upgrade))
        .then((handle) => {
          if (current) handle.free();
          else current = handle;
          return figure;
        });
    },
  };
})();

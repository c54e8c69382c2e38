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
  const load = (name) => import(base + name).then(async (m) => (await m.default(), m));
  let lite;
  let full;
  // Tells the modules' main() not to render the whole playground here.
  window.mcpLanesEmbed = base;
  window.McpLanes = {
    mount(host, options) {
      lite ??= load('mcp-lanes-lite.js');
      let current = null;
      let gone = false;
      // Mounts the full bundle's figure (with the lite figure's hand-over,
      // or null: the options need the simulator from the start).
      const upgrade = async (handoff) => {
        full ??= load('mcp-lanes-web.js').catch((e) => {
          full = undefined;
          throw e;
        });
        const handle = await (await full).mount(host, options, handoff);
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

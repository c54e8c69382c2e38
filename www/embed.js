// mcp-lanes figures in any page. Include this script, then call
//   McpLanes.mount(hostElement, {scenario: "discover", autoplay: true})
// for each figure; it returns a Promise of a handle with control(message)
// and destroy(). Options, events and messages: README, "Embedding in a
// course page". The module and stylesheet are loaded once, from next to
// this script (Trunk.toml keeps their names stable).
(() => {
  const base = new URL('.', document.currentScript.src).href;
  let app;
  // Tells the module's main() not to render the whole playground here.
  window.mcpLanesEmbed = base;
  window.McpLanes = {
    mount(host, options) {
      app ??= import(base + 'mcp-lanes-web.js').then(async (m) => (await m.default(), m));
      return app.then((m) => m.mount(host, options));
    },
  };
})();

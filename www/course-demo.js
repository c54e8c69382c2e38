// The demo course page's script (a file, not an inline <script>: the page
// runs under a strict Content-Security-Policy, see README).
// Script embeds: one call per figure.
const log = (id, text) => {
  const list = document.getElementById(id);
  const item = document.createElement('li');
  item.textContent = text;
  list.prepend(item);
};
// `title` names each figure for screen readers (a region) and heads it.
McpLanes.mount(document.getElementById('fig-discover'), {
  scenario: 'discover',
  title: 'Figure 1: one server/discover round trip',
});
// Without `title`, a figure is named by its scenario's (here the file's) title.
McpLanes.mount(document.getElementById('fig-weather'), { scenarioUrl: 'scenarios/weather-forecast.json' });
const rich = document.getElementById('fig-plain-vs-rich');
for (const type of ['mcp-lanes:reply', 'mcp-lanes:complete']) {
  rich.addEventListener(type, (e) => log('log-plain-vs-rich', `${type} ${JSON.stringify(e.detail)}`));
}
McpLanes.mount(rich, {
  scenario: 'plain-vs-rich',
  autoplay: true,
  title: 'Figure 2: plain and rich clients side by side',
});
McpLanes.mount(document.getElementById('fig-unchecked'), {
  scenario: 'elicitation-unchecked',
  speed: 4,
  step: 3,
  title: 'Figure 3: a lock held while asking a client that cannot answer',
});

// The iframe: size it from its height messages, list its events, and
// drive it with control messages (only from its own origin by default;
// add &origins=https://your.site to its URL for another).
const frame = document.getElementById('fig-frame');
const frameOrigin = new URL(frame.src).origin;
window.addEventListener('message', (e) => {
  if (e.source !== frame.contentWindow || e.origin !== frameOrigin) return;
  const { type, ...detail } = e.data ?? {};
  if (type === 'mcp-lanes:height') frame.style.height = `${detail.height}px`;
  else if (typeof type === 'string') log('log-frame', `${type} ${JSON.stringify(detail)}`);
});
for (const button of document.querySelectorAll('[data-action]')) {
  button.addEventListener('click', () =>
    frame.contentWindow.postMessage({ type: 'mcp-lanes:control', action: button.dataset.action }, frameOrigin),
  );
}

// Geometry of the drawn lanes, for the overlap walker (overlap.test.mjs):
// every label and marker box of each lane diagram, and every arrow, in the
// diagram's own SVG units (the same at any page width), and what is wrong
// with them: two boxes that intersect, an arrow that leaves its lane or
// runs back up (time runs down), an arrow that runs through most of the lane.

/** Boxes closer than this (SVG units) do not count as overlapping. */
export const TOLERANCE = 1;

/**
 * What every visible lane diagram on the page draws: per diagram its size,
 * its boxes ({ owner, what, text, x, y, w, h }) and its arrows
 * ({ owner, label, x1, y1, x2, y2 }). Runs in the page.
 */
export async function lanesGeometry(page) {
  return page.evaluate(() => {
    const shown = (el) =>
      el.checkVisibility ? el.checkVisibility({ visibilityProperty: true, opacityProperty: false }) : el.getClientRects().length > 0;
    return [...document.querySelectorAll('svg.lane-svg')].filter(shown).map((svg) => {
      const vb = svg.viewBox.baseVal;
      const lane = svg.closest('[data-testid^="lane-"]')?.dataset.testid ?? (svg.closest('.editor-lane') ? 'editor-lane' : '?');
      const boxes = [];
      const add = (el, what, ownerEl) => {
        if (!shown(el)) return;
        const b = el.getBBox();
        if (b.width === 0 && b.height === 0) return;
        const owner = ownerEl?.dataset.testid ?? ownerEl?.dataset.for ?? `${what}@${boxes.length}`;
        boxes.push({ owner, what, text: (ownerEl ?? el).textContent.trim().slice(0, 60), x: b.x, y: b.y, w: b.width, h: b.height });
      };
      for (const chip of svg.querySelectorAll('g.labels g.chip')) {
        const r = chip.querySelector('rect');
        if (r) add(r, 'label', chip);
      }
      for (const mark of svg.querySelectorAll('g.ev.mark')) {
        for (const part of mark.querySelectorAll(':scope > text, :scope > path.glyph')) add(part, 'marker', mark);
      }
      for (const msg of svg.querySelectorAll('g.ev.msg.undecided')) {
        for (const part of msg.querySelectorAll('g.undecided-chip rect, text.undecided-note')) add(part, 'undecided', msg);
      }
      for (const msg of svg.querySelectorAll('g.ev.msg:not(.undecided)')) {
        const lost = msg.querySelector('g.lost-mark text');
        if (lost) add(lost, 'lost', msg);
      }
      for (const gap of svg.querySelectorAll('g.gap')) {
        const r = gap.querySelector('rect');
        if (r) add(r, 'gap', gap);
      }
      const arrows = [...svg.querySelectorAll('g.ev.msg:not(.undecided)')].filter(shown).map((msg) => {
        const shaft = msg.querySelector('line.shaft');
        const n = (a) => Number(shaft.getAttribute(a));
        return { owner: msg.dataset.testid, label: msg.dataset.label, x1: n('x1'), y1: n('y1'), x2: n('x2'), y2: n('y2') };
      });
      return { lane, width: vb.width, height: vb.height, boxes, arrows };
    });
  });
}

/** Whether two boxes intersect by more than the tolerance both ways. */
export function intersects(a, b, tol = TOLERANCE) {
  const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return dx > tol && dy > tol;
}

/**
 * What is wrong in the drawn diagrams, as sentences (empty: nothing).
 * `maxRun`: the largest share of a diagram's height one arrow may run down.
 */
export function problems(diagrams, { maxRun = 0.6 } = {}) {
  const out = [];
  for (const d of diagrams) {
    const { boxes } = d;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        if (a.owner === b.owner) continue;
        if (intersects(a, b)) {
          out.push(`${d.lane}: ${a.what} "${a.text}" overlaps ${b.what} "${b.text}" (${fmt(a)} / ${fmt(b)})`);
        }
      }
    }
    for (const b of boxes) {
      if (b.x < -TOLERANCE || b.x + b.w > d.width + TOLERANCE) {
        out.push(`${d.lane}: ${b.what} "${b.text}" leaves the lane (${fmt(b)} in ${d.width})`);
      }
    }
    for (const a of d.arrows) {
      const inside = (x, y) => x >= 0 && x <= d.width && y >= 0 && y <= d.height;
      if (!inside(a.x1, a.y1) || !inside(a.x2, a.y2)) {
        out.push(`${d.lane}: arrow ${a.label} (${a.owner}) leaves its lane (${a.x1},${a.y1} -> ${a.x2},${a.y2} in ${d.width}x${d.height})`);
      }
      if (a.y2 < a.y1 - 0.5) out.push(`${d.lane}: arrow ${a.label} (${a.owner}) runs back in time (${a.y1} -> ${a.y2})`);
      const run = a.y2 - a.y1;
      if (run > 120 && run > maxRun * d.height) {
        out.push(`${d.lane}: arrow ${a.label} (${a.owner}) runs down ${Math.round(run)} of the lane's ${Math.round(d.height)}`);
      }
    }
  }
  return out;
}

const fmt = (b) => `${b.x.toFixed(1)},${b.y.toFixed(1)} ${b.w.toFixed(1)}x${b.h.toFixed(1)}`;

// mcp-lanes: the player of a figure the build drew (`view::figure`): it
// shows the playback position a reader steps to, by the marks the views
// left in the markup (`data-show`, `data-flight`, `data-grow`) and the
// transcript of every step, without a framework and without WebAssembly.
// figure.js (the page, iframe and script figures) drives it.

const ICON_PLAY = 'M4 2l10 6-10 6z';
const ICON_PAUSE = 'M3 2h4v12H3zM9 2h4v12H9z';

/// Sets an attribute unless it already has that value.
export function attr(el, name, value) {
  if (el && el.getAttribute(name) !== String(value)) el.setAttribute(name, value);
}

/// What of a drawn figure (or of one lane the runtime drew whole,
/// `src/runtime/marks.rs`) depends on the playback position, read once
/// from the marks the views left: `show` draws it at a position.
export class Marks {
  constructor(root) {
    // Each positioned element leaves a mark where it goes back in.
    this.shown = [...root.querySelectorAll('[data-show]')].map((el) => {
      const [from, to] = el.dataset.show.split(' ').map(Number);
      const mark = document.createComment('');
      el.before(mark);
      return { el, mark, from, to, envelope: el.hasAttribute('data-key') };
    });
    this.flights = [...root.querySelectorAll('[data-flight]')].map((el) => {
      const [from, to] = el.dataset.flight.split(' ').map(Number);
      return { el, from, to };
    });
    this.grows = [...root.querySelectorAll('[data-grow]')];
    this.playheads = [...root.querySelectorAll('[data-playhead]')];
  }

  /// Shows what is drawn at position `pos`: `playhead` is the playhead's
  /// y (as text), `dClass` the envelopes' duration class (or '').
  show(pos, playhead, dClass) {
    for (const s of this.shown) {
      const on = s.from <= pos && pos <= s.to;
      if (on && s.envelope) {
        // In again each time, so that its flight starts over.
        s.el.remove();
        const inner = s.el.firstElementChild;
        if (inner) inner.setAttribute('class', ['envelope', dClass, inner.classList.contains('back') ? 'back' : ''].filter(Boolean).join(' '));
        s.mark.after(s.el);
      } else if (on && !s.el.isConnected) {
        s.mark.after(s.el);
      } else if (!on && s.el.isConnected) {
        s.el.remove();
      }
    }
    for (const f of this.flights) f.el.classList.toggle('in-flight', f.from <= pos && pos < f.to);
    for (const line of this.playheads) {
      attr(line, 'y1', playhead);
      attr(line, 'y2', playhead);
    }
    const y = Number(playhead);
    for (const bar of this.grows) attr(bar, 'height', Math.max(y - Number(bar.dataset.grow), 2).toFixed(1));
  }

  /// Puts every marked element back where it was drawn and removes the
  /// marks: the markup as drawn, for a patch of the whole page to match
  /// child for child (the runtime, before it draws the page again).
  restore() {
    for (const s of this.shown) {
      if (!s.el.isConnected && s.mark.isConnected) s.mark.after(s.el);
      s.mark.remove();
    }
    this.shown = [];
  }
}

/// Plays one drawn figure: the root the build drew, and where it is.
export class Player {
  /// `moved(before)`: after a render that moved the playhead.
  constructor(root, moved = () => {}) {
    this.root = root;
    this.moved = moved;
    this.pos = 0;
    this.playing = false;
    this.selected = null;
    this.timer = null;
    this.read();
  }

  /// Takes what the player needs out of the drawn figure.
  read() {
    const root = this.root;
    const transcript = root.querySelector('[data-testid="transcript"]');
    this.words = JSON.parse(transcript.dataset.words);
    this.len = Number(transcript.dataset.len);
    this.steps = [...transcript.querySelectorAll('li[data-pos]')];
    this.transcriptMark = document.createComment('transcript');
    transcript.replaceWith(this.transcriptMark);
    this.transcript = transcript;
    this.marks = new Marks(root);
    // What can be selected: the drawn figure's, read once (an element taken
    // out by `shown` is still in this list, and comes back marked).
    this.inspectable = [...root.querySelectorAll('[data-act="inspect"], [data-for]')];
    this.emptyInspector = root.querySelector('[data-testid="inspector"]');
    this.speed = Number(root.querySelector('[data-testid="speed"]')?.value ?? 2);
    this.scenario = root.querySelector('[data-testid="scenario-title"]')?.dataset.scenario ?? '';
    root.dataset.js = '';
  }

  step() {
    return this.steps[this.pos];
  }

  /// Draws position `this.pos`, the selection and the player.
  render() {
    const pos = this.pos;
    const step = this.step();
    const stepMs = this.words.stepMs[this.speed] ?? 900;
    const dClass = { 3600: 'd3600', 1800: 'd1800', 450: 'd450', 225: 'd225' }[stepMs] || '';
    this.marks.show(pos, step.dataset.playhead, dClass);
    for (const el of this.inspectable) {
      el.classList.toggle('selected', (el.dataset.arg ?? el.dataset.for) === this.selected);
    }
    this.renderPlayer(step);
    const narration = this.root.querySelector('[data-testid="narration"]');
    if (narration) narration.replaceChildren(...[...step.querySelector('.step-narration').children].map((p) => p.cloneNode(true)));
    this.renderInspector();
  }

  renderPlayer(step) {
    const root = this.root;
    const { pos, len, playing, words } = this;
    const state = pos >= len && pos > 0 ? 'end' : playing ? 'playing' : pos === 0 ? 'start' : 'paused';
    attr(root.querySelector('[data-testid="player"]'), 'data-state', state);
    const play = root.querySelector('[data-testid="play"]');
    if (play) {
      const label = playing ? words.pauseKey : words.playKey;
      attr(play, 'aria-label', label);
      attr(play, 'title', label);
      attr(play, 'data-act', playing ? 'pause' : 'play');
      attr(play.querySelector('path'), 'd', playing ? ICON_PAUSE : ICON_PLAY);
      const text = play.querySelector('.button-text');
      if (text) text.textContent = playing ? words.pause : words.play;
    }
    const scrubber = root.querySelector('[data-testid="scrubber"]');
    if (scrubber) {
      scrubber.value = String(pos);
      attr(scrubber, 'value', pos);
      attr(scrubber, 'aria-valuetext', step.dataset.valuetext);
    }
    const count = root.querySelector('[data-testid="step-count"]');
    if (count) count.textContent = `${pos}/${len}`;
    const clock = root.querySelector('[data-testid="clock"]');
    if (clock) {
      clock.textContent = step.dataset.clock;
      attr(clock, 'data-ms', step.dataset.ms);
    }
    const speed = root.querySelector('[data-testid="speed"]');
    if (speed && speed.value !== String(this.speed)) speed.value = String(this.speed);
  }

  renderInspector() {
    const current = this.root.querySelector('[data-testid="inspector"]');
    const want = this.selected || '';
    if (!current || (current.dataset.shows || '') === want) return;
    let next = this.emptyInspector;
    if (want) {
      const drawn = this.transcript.querySelector(`details[data-event="${want}"] > [data-testid="inspector"]`);
      if (!drawn) return;
      next = drawn.cloneNode(true);
      next.dataset.shows = want;
    }
    current.replaceWith(next);
  }

  /// Carries out a reader's action (the state's `Action`s a recorded run
  /// takes); returns whether it was one.
  act(action, arg) {
    const before = { pos: this.pos, playing: this.playing, speed: this.speed, selected: this.selected };
    const stop = () => { this.playing = false; };
    const seek = (p) => { this.pos = Math.max(0, Math.min(p, this.len)); };
    switch (action) {
      case 'play':
        if (this.pos >= this.len) this.pos = 0;
        this.playing = this.len > 0;
        break;
      case 'pause': stop(); break;
      case 'toggle': return this.act(this.playing ? 'pause' : 'play');
      case 'tick':
        if (!this.playing) return true;
        seek(this.pos + 1);
        if (this.pos >= this.len) stop();
        break;
      case 'forward': stop(); seek(this.pos + 1); break;
      case 'back': stop(); seek(this.pos - 1); break;
      case 'seek': stop(); seek(arg); break;
      case 'restart': stop(); this.pos = 0; break;
      case 'end': stop(); this.pos = this.len; break;
      case 'speed': this.speed = Math.max(0, Math.min(arg, this.words.stepMs.length - 1)); break;
      case 'faster': this.speed = Math.min(this.speed + 1, this.words.stepMs.length - 1); break;
      case 'slower': this.speed = Math.max(this.speed - 1, 0); break;
      case 'inspect': this.selected = arg; break;
      default: return false;
    }
    this.render();
    if (this.playing !== before.playing || this.speed !== before.speed) {
      clearInterval(this.timer);
      this.timer = this.playing ? setInterval(() => this.act('tick'), this.words.stepMs[this.speed] ?? 900) : null;
    }
    this.moved(before);
    return true;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.playing = false;
  }
}

/// A control message (`state::control`: exactly these shapes) as an action.
export function control(message) {
  if (!message || typeof message !== 'object' || message.type !== 'mcp-lanes:control') return null;
  if (Object.keys(message).some((k) => !['type', 'action', 'step'].includes(k))) return null;
  const { action, step } = message;
  if (action === 'seek') return Number.isInteger(step) && step >= 0 ? ['seek', Math.min(step, 1 << 30)] : null;
  if ('step' in message) return null;
  return { play: ['play'], pause: ['pause'], step: ['forward'], restart: ['restart'] }[action] ?? null;
}

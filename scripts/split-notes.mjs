// Writes, next to each notes catalog trunk copied into <staging>/i18n/
// (www/i18n/<tag>.notes.json: every note template of a language, and the
// set-up labels), one file per scenario with what that scenario's recorded
// run needs: <tag>.notes/<scenario>.json holds the `note.<key>` templates
// whose keys the recorded run (timelines/<scenario>.json) names, in its
// events' note_msg (and a message's violation_msg) and its outcome's
// outcome_msg, nested notes included,
// and every entry that is not a note template (the labels). The lite
// bundle fetches the scenario's file with its recorded run
// (browser::load_scenario_notes), so that a first visit in Chinese does
// not fetch all the notes; the full bundle, which runs the simulator and
// can produce any note, fetches the whole <tag>.notes.json. A template
// missing from a scenario's file shows the English note (i18n::note_text),
// never a blank. English has no notes file to split: the English notes are
// the core's own. Run by scripts/post-build.sh with trunk's staging
// directory as its argument.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: split-notes.mjs <trunk staging dir>');
  process.exit(2);
}
const i18n = path.join(dir, 'i18n');
const timelines = path.join(dir, 'timelines');
if (!existsSync(i18n) || !existsSync(timelines)) process.exit(0);

/** Every note key a recorded run names (an object with a string `key`). */
function noteKeys(value, found = new Set()) {
  if (Array.isArray(value)) {
    for (const item of value) noteKeys(item, found);
  } else if (value && typeof value === 'object') {
    if (typeof value.key === 'string') found.add(`note.${value.key}`);
    for (const item of Object.values(value)) noteKeys(item, found);
  }
  return found;
}

const runs = readdirSync(timelines)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f.slice(0, -'.json'.length), noteKeys(JSON.parse(readFileSync(path.join(timelines, f), 'utf8')))]);

for (const file of readdirSync(i18n)) {
  const tag = file.match(/^([A-Za-z-]+)\.notes\.json$/)?.[1];
  if (!tag || tag === 'en') continue;
  const whole = JSON.parse(readFileSync(path.join(i18n, file), 'utf8'));
  const out = path.join(i18n, `${tag}.notes`);
  mkdirSync(out, { recursive: true });
  for (const [id, keys] of runs) {
    const part = {};
    for (const [key, text] of Object.entries(whole)) {
      if (!key.startsWith('note.') || keys.has(key)) part[key] = text;
    }
    writeFileSync(path.join(out, `${id}.json`), JSON.stringify(part));
  }
}

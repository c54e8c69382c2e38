#!/usr/bin/env node
// Decides whether a conformance run passes: every FAILURE and every WARNING
// the suite reported must be listed in the allowed file with a reason (a
// check the spec lets us not pass), else the run fails.
//
//   node tests/peers/conformance-gate.mjs OUT_DIR [OUT_DIR...] --allowed FILE
//
// OUT_DIR is a scripts/conformance.sh output folder (its results.json).
// FILE is a JSON array of {role, spec, scenario, check, reason}; "check" may
// be "*" for every check of the scenario. Allowed entries that did not occur
// are printed as stale (they do not fail the run). Exit 0: pass; 1: a check
// failed or warned without an allowance; 2: usage or unreadable results.
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--allowed');
if (at < 0 || at + 1 >= args.length) {
  console.error('usage: conformance-gate.mjs OUT_DIR [OUT_DIR...] --allowed FILE');
  process.exit(2);
}
const allowedFile = args[at + 1];
const dirs = args.filter((_, i) => i !== at && i !== at + 1);
const allowed = JSON.parse(fs.readFileSync(allowedFile, 'utf8'));
const used = new Set();
const unexpected = [];
let counted = 0;
for (const dir of dirs) {
  const file = path.join(dir, 'results.json');
  if (!fs.existsSync(file)) {
    console.error(`[gate] no results in ${dir}`);
    process.exit(2);
  }
  const results = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const run of results.runs ?? []) {
    if ((run.scenarios ?? []).length === 0) {
      console.error(`[gate] ${run.role} ${run.spec_version}: no scenario ran`);
      process.exit(2);
    }
    for (const s of run.scenarios) {
      counted += 1;
      for (const f of s.failures ?? []) {
        const i = allowed.findIndex((a) => a.role === run.role && a.spec === run.spec_version
          && a.scenario === s.scenario && (a.check === '*' || a.check === f.id));
        if (i >= 0) {
          used.add(i);
          console.log(`[gate] allowed: ${run.role} ${run.spec_version} ${s.scenario} ${f.id} (${f.status}): ${allowed[i].reason}`);
        } else {
          unexpected.push(`${run.role} ${run.spec_version} ${s.scenario} ${f.id} (${f.status}): ${f.message}`);
        }
      }
    }
  }
}
allowed.forEach((a, i) => {
  if (!used.has(i)) console.log(`[gate] stale allowance (that check passed): ${a.role} ${a.spec} ${a.scenario} ${a.check}`);
});
if (unexpected.length > 0) {
  console.error(`[gate] ${unexpected.length} check(s) failed or warned without an allowance:`);
  for (const u of unexpected) console.error(`  ${u}`);
  process.exit(1);
}
console.log(`[gate] ${counted} scenario run(s): every failure and warning is allowed with a reason`);

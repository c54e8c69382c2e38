#!/usr/bin/env node
// Collects the official conformance suite's per-scenario results into one
// machine-readable file and a Markdown table (for CONFORMANCE.md).
//
//   node tests/peers/conformance-report.mjs OUT_DIR
//
// OUT_DIR is what scripts/conformance.sh fills: OUT_DIR/<role>-<spec>/ holds
// the suite's own result folders (one per scenario, each with checks.json;
// server ones are named server-<scenario>-<timestamp>, authorization ones
// authorization-server-<scenario>-<timestamp>, client ones
// <scenario>-<timestamp>, auth/... nested) and run.json ({role, spec_version,
// target}). Writes OUT_DIR/results.json and OUT_DIR/results.md, prints the
// Markdown, and exits 1 if any check failed (0 otherwise).
//
// Counting is the suite's own: a check is SUCCESS, FAILURE, WARNING, SKIPPED
// or INFO; "passed" counts SUCCESS, "failed" FAILURE. The suite itself calls a
// scenario failed when it has a FAILURE or a WARNING.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const suiteDir = path.join(here, 'node_modules/@modelcontextprotocol/conformance');
const suitePackage = JSON.parse(fs.readFileSync(path.join(suiteDir, 'package.json'), 'utf8'));
const yaml = createRequire(path.join(suiteDir, 'package.json'))('yaml');

const out = process.argv[2];
if (!out) {
  console.error('usage: conformance-report.mjs OUT_DIR');
  process.exit(2);
}

/** How the suite's frozen requirement set for `spec` classifies a scenario. */
function requirementSets(spec) {
  const file = path.join(suiteDir, 'requirements', `${spec}.yaml`);
  const sets = { server: new Map(), client: new Map() };
  if (!fs.existsSync(file)) return sets;
  const doc = yaml.parse(fs.readFileSync(file, 'utf8')) ?? {};
  for (const role of ['server', 'client']) {
    for (const name of doc[role] ?? []) sets[role].set(name, 'required');
  }
  for (const entry of doc.not_scored ?? []) {
    if (entry && sets[entry.leg]) sets[entry.leg].set(entry.scenario, entry.reason ?? 'not scored');
  }
  return sets;
}

/** Every checks.json under `dir`, with the scenario name its folder encodes. */
function scenarioResults(dir, role) {
  const found = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'checks.json') found.push(full);
    }
  };
  walk(dir);
  return found.map((file) => {
    let name = path.relative(dir, path.dirname(file)).split(path.sep).join('/');
    name = name.replace(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/, '');
    if (role === 'server') name = name.replace(/^server-/, '');
    if (role === 'authorization') name = name.replace(/^authorization-server-/, '');
    let checks;
    try {
      checks = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      checks = [{ id: 'unreadable-checks-json', status: 'FAILURE', errorMessage: String(err) }];
    }
    return { name, dir: path.relative(out, path.dirname(file)), checks };
  });
}

const count = (checks, status) => checks.filter((c) => c.status === status).length;
const oneLine = (s) => String(s ?? '').replace(/\s+/g, ' ').trim();

const runs = [];
for (const entry of fs.readdirSync(out, { withFileTypes: true })) {
  const runFile = path.join(out, entry.name, 'run.json');
  if (!entry.isDirectory() || !fs.existsSync(runFile)) continue;
  const run = JSON.parse(fs.readFileSync(runFile, 'utf8'));
  const sets = requirementSets(run.spec_version)[run.role] ?? new Map();
  const scenarios = scenarioResults(path.join(out, entry.name), run.role)
    .map(({ name, dir, checks }) => ({
      scenario: name,
      requirement: sets.get(name) ?? 'not in requirement set',
      passed: count(checks, 'SUCCESS'),
      failed: count(checks, 'FAILURE'),
      warnings: count(checks, 'WARNING'),
      skipped: count(checks, 'SKIPPED'),
      info: count(checks, 'INFO'),
      failures: checks
        .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
        .map((c) => ({ id: c.id, status: c.status, message: oneLine(c.errorMessage ?? c.description) })),
      skips: checks
        .filter((c) => c.status === 'SKIPPED')
        .map((c) => ({ id: c.id, message: oneLine(c.errorMessage ?? c.details?.reason ?? c.description) })),
      result_dir: dir,
    }))
    .sort((a, b) => a.scenario.localeCompare(b.scenario));
  const total = (key) => scenarios.reduce((n, s) => n + s[key], 0);
  runs.push({
    role: run.role,
    spec_version: run.spec_version,
    target: run.target,
    started: run.started,
    scenarios,
    totals: {
      scenarios: scenarios.length,
      scenarios_clean: scenarios.filter((s) => s.failed === 0 && s.warnings === 0).length,
      passed: total('passed'),
      failed: total('failed'),
      warnings: total('warnings'),
      skipped: total('skipped'),
    },
  });
}
runs.sort((a, b) => a.role.localeCompare(b.role) || b.spec_version.localeCompare(a.spec_version));

const results = {
  suite: { package: suitePackage.name, version: suitePackage.version },
  node: process.version,
  generated: new Date().toISOString(),
  runs,
};
fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify(results, null, 2) + '\n');

const cell = (s) => oneLine(s).replace(/\|/g, '\\|');
const md = [];
md.push(`Official suite: \`${suitePackage.name}@${suitePackage.version}\` on Node ${process.version}.`);
md.push('Counts are checks: passed (SUCCESS), failed (FAILURE), warnings (WARNING), skipped (SKIPPED).');
md.push('');
for (const run of runs) {
  const t = run.totals;
  md.push(`### ${run.role} scenarios, ${run.spec_version}`);
  md.push('');
  md.push(`Target: \`${cell(run.target)}\`. ${t.scenarios_clean} of ${t.scenarios} scenarios clean; ` +
    `checks: ${t.passed} passed, ${t.failed} failed, ${t.warnings} warnings, ${t.skipped} skipped.`);
  md.push('');
  md.push('| Scenario | Requirement | Passed | Failed | Warnings | Skipped | Failed or warned checks |');
  md.push('| --- | --- | ---: | ---: | ---: | ---: | --- |');
  for (const s of run.scenarios) {
    const why = s.failures.map((f) => `\`${f.id}\`${f.status === 'WARNING' ? ' (warning)' : ''}: ${cell(f.message).slice(0, 160)}`).join('<br>');
    md.push(`| ${s.scenario} | ${s.requirement} | ${s.passed} | ${s.failed} | ${s.warnings} | ${s.skipped} | ${why} |`);
  }
  md.push('');
}
fs.writeFileSync(path.join(out, 'results.md'), md.join('\n'));
process.stdout.write(md.join('\n'));
process.exit(runs.some((r) => r.totals.failed > 0) ? 1 : 0);

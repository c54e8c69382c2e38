// Loaded with `node --import ./tests/peers/node20/register.mjs` before the
// conformance suite (scripts/conformance.sh does it).
//
// Why: @modelcontextprotocol/conformance 0.2.0-alpha.x is built for Node 22
// and does `import { globSync } from "fs"` at the top of its bundle. Node 20
// has no fs.globSync, so the import fails at link time and the suite does not
// start at all, even for commands that never glob. Adding a property to the
// fs object is too late: Node fixes the named exports of a built-in module
// when it first builds its ES module facade, before any preload runs. So this
// registers a resolve hook that sends the suite's own imports of "fs" /
// "node:fs" to ./fs.mjs, which re-exports Node's fs and adds globSync.
//
// On Node 22 or later (fs.globSync exists) it registers nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  register('./hooks.mjs', import.meta.url);
}

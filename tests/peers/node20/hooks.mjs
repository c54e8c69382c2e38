// Resolve hook (see register.mjs): imports of "fs" or "node:fs" from files
// inside the conformance package resolve to ./fs.mjs. Everything else,
// including ./fs.mjs's own import of node:fs, resolves as usual.
const shim = new URL('./fs.mjs', import.meta.url).href;
const suite = '/node_modules/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    typeof context.parentURL === 'string' &&
    context.parentURL.includes(suite)
  ) {
    return { url: shim, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

// Regenerates src/engine/vendor/glkapi-factory.js from glkote-term's glkapi.js (MIT, Andrew Plotkin).
// glkapi.js is a module-level singleton that also writes eight undeclared globals; wrapping its
// source in a function gives every engine its own Glk instance and makes it valid in strict ES
// modules. The licence header of the original is kept verbatim at the top of the output.
// Usage: node scripts/vendor-glkapi.mjs [--check]   (--check exits 1 when the committed copy is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve('glkote-term/src/glkapi.js'), 'utf8');
const version = JSON.parse(readFileSync(require.resolve('glkote-term/package.json'), 'utf8')).version;
const target = fileURLToPath(new URL('../src/engine/vendor/glkapi-factory.js', import.meta.url));

const start = source.indexOf('Glk = function() {');
const end = source.lastIndexOf('}();');
if (start < 0 || end < 0) throw new Error('glkapi.js layout changed: cannot find the Glk IIFE');
const header = source.slice(0, start);
const body = source.slice(start + 'Glk = '.length, end + 1).replace(
  /if \(typeof module !== 'undefined' && module\.exports\) \{\s*module\.exports = api;\s*\}/,
  '',
);

const output = `${header}
/* Wrapped by scripts/vendor-glkapi.mjs from glkote-term ${version} src/glkapi.js: the original
 * IIFE became the body of createGlk(), so each call returns an independent Glk instance, and the
 * implicit globals the original assigns are declared as locals. Do not edit by hand. */
/* eslint-disable */
export function createGlk() {
// eslint-disable-next-line no-unused-vars
var Glk, lineobj, split, ix, lx, ch, content_box, fref;
return (${body})();
}
`;

if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== output) {
    console.error('src/engine/vendor/glkapi-factory.js is stale: run node scripts/vendor-glkapi.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(target, output);
}

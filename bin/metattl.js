#!/usr/bin/env node
// `npx metattl …`: the headless command-line entry. Runs the CLI built to JavaScript in build/cli/
// (scripts/build-cli.mjs; `npm ci` builds it through `prepare`). A build older than any source it
// was made from is never used: it is rebuilt first (esbuild, well under a second); if that cannot
// be done (no esbuild), src/cli/main.ts runs through tsx instead. METATTL_CLI_TRACE=1 says on
// stderr which one ran and why.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { BUILD_DIR, ROOT, staleReason } from '../scripts/cli-build-state.mjs';

const trace = process.env.METATTL_CLI_TRACE === '1' ? (line) => process.stderr.write(`metattl-cli: ${line}\n`) : () => {};
let main = join(BUILD_DIR, 'main.js');
const stale = staleReason();
if (stale !== null) {
  try {
    const { buildCli } = await import('../scripts/build-cli.mjs');
    await buildCli();
    trace(`rebuilt build/cli (${stale})`);
  } catch (error) {
    trace(`running the sources through tsx (${stale}; rebuild failed: ${error.message})`);
    const { register } = await import('tsx/esm/api');
    register();
    main = join(ROOT, 'src/cli/main.ts');
  }
} else trace('running build/cli');
const { run } = await import(pathToFileURL(main).href);
process.exitCode = await run(process.argv.slice(2));

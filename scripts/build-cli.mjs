/**
 * Builds the `metattl` CLI to JavaScript: src/cli/main.ts and the engine's worker_threads entry,
 * bundled by esbuild for Node into build/cli/ (npm packages stay external; each command is its own
 * chunk, loaded only when that command runs). Runs on `npm ci` / `npm install` (`prepare`) and when
 * bin/metattl.js finds the build stale. Writes build/cli/inputs.json (the sources read, with size
 * and mtime) so a stale build is never used (scripts/cli-build-state.mjs). The new build is written
 * beside the old one and swapped in by a rename, so a CLI starting meanwhile never sees half a build.
 */
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { BUILD_DIR, ROOT } from './cli-build-state.mjs';
import { buildCodeVersion } from './code-version.mjs';

/** Build the CLI into build/cli/. @returns the build directory */
export async function buildCli() {
  const tmp = `${BUILD_DIR}.tmp-${process.pid}-${Date.now()}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'src/cli/main.ts', 'engine-worker': 'src/engine/node/engine-worker.ts' },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node26',
    packages: 'external',
    metafile: true,
    define: { __METATTL_CODE_VERSION__: JSON.stringify(buildCodeVersion(ROOT)) },
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).map((path) => {
    const stat = statSync(join(ROOT, path));
    return { path: relative(ROOT, join(ROOT, path)), size: stat.size, mtimeMs: stat.mtimeMs };
  });
  writeFileSync(join(tmp, 'inputs.json'), JSON.stringify({ builtAt: new Date().toISOString(), inputs }, null, 1));
  const old = `${BUILD_DIR}.old-${process.pid}-${Date.now()}`;
  try {
    renameSync(BUILD_DIR, old);
  } catch {
    // no previous build
  }
  renameSync(tmp, BUILD_DIR);
  rmSync(old, { recursive: true, force: true });
  return BUILD_DIR;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  await buildCli();
}

/**
 * Is the built CLI (build/cli/, written by scripts/build-cli.mjs) current? The build writes
 * build/cli/inputs.json: every source file esbuild read, with its size and mtime (ms) at build
 * time. The build is fresh when every one of those files still has that size and mtime; any edit
 * to a source that went into the bundle makes it stale (a new file can only enter the bundle
 * through an edit to a file already in it). Cheap enough for every start (one stat per input).
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root (this file lives in scripts/). */
export const ROOT = resolve(import.meta.dirname, '..');
/** Where the built CLI lives. */
export const BUILD_DIR = join(ROOT, 'build/cli');

/**
 * Why the build in `buildDir` cannot be used, or null when it is fresh.
 * @returns e.g. "no build", "src/cli/main.ts changed since the build"
 */
export function staleReason(buildDir = BUILD_DIR, root = ROOT) {
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(join(buildDir, 'inputs.json'), 'utf8')).inputs;
  } catch {
    return 'no build';
  }
  for (const { path, size, mtimeMs } of inputs) {
    let stat;
    try {
      stat = statSync(join(root, path));
    } catch {
      return `${path} is gone since the build`;
    }
    if (stat.size !== size || stat.mtimeMs !== mtimeMs) return `${path} changed since the build`;
  }
  return null;
}

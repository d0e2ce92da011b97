/**
 * The code version a build is stamped with (src/common/code-version.ts reads it): the package
 * version and, when the repository is a git checkout, its commit at build time —
 * `<version>+<12 hex>`, with `.dirty` appended when tracked files differed from that commit, and
 * `<version>+nogit` when git or the repository is absent. Used by scripts/build-cli.mjs (esbuild
 * `define`) and vite.config.ts (the page and Vitest).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @param {string} root the repository root @returns {string} e.g. "0.1.0+3f9c2a1b4d5e.dirty" */
export function buildCodeVersion(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  try {
    const commit = git('rev-parse', '--short=12', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${version}+${commit}${dirty ? '.dirty' : ''}`;
  } catch {
    return `${version}+nogit`;
  }
}

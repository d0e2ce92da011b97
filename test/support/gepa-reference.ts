/**
 * Where the tests find GEPA 0.1.4's own code: `$METATTL_GEPA_DIR` (default ~/.cache/metattl-gepa),
 * the PyPI wheel gepa==0.1.4 unpacked by .ci/run (GEPA's core has no dependencies). Never committed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './shared.ts';

export const GEPA_DIR = process.env.METATTL_GEPA_DIR ?? join(homedir(), '.cache', 'metattl-gepa', 'gepa-0.1.4');

/**
 * Run test/gepa-reference/<script> with GEPA on the path, `input` as JSON on stdin; its JSON output.
 * @throws Error naming .ci/run when the wheel is not unpacked there
 */
export async function runGepaReference<T>(script: string, input: unknown): Promise<T> {
  if (!existsSync(join(GEPA_DIR, 'gepa', '__init__.py'))) {
    throw new Error(`GEPA 0.1.4 is not in ${GEPA_DIR}: run .ci/run's GEPA step (python3 -m pip download --no-deps gepa==0.1.4, unpack the wheel there) or set METATTL_GEPA_DIR.`);
  }
  const child = promisify(execFile)('python3', [resolve(REPO_ROOT, 'test/gepa-reference', script)], { env: { ...process.env, PYTHONPATH: GEPA_DIR }, maxBuffer: 16 * 1024 * 1024 });
  child.child.stdin!.end(JSON.stringify(input));
  const { stdout } = await child;
  return JSON.parse(stdout) as T;
}

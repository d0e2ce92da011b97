/**
 * The CLI runs built to JavaScript (build/cli/, scripts/build-cli.mjs), and a build older than its
 * sources is never used: bin/metattl.js rebuilds it first. Checks the freshness rule on a copy of
 * the inputs list, and the real bin on the real build.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { staleReason } from '../scripts/cli-build-state.mjs';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);

describe('the built CLI', () => {
  it('is fresh after the build, and stale once a source it was made from changes', () => {
    const root = mkdtempSync(join(tmpdir(), 'metattl-cli-build-'));
    const build = join(root, 'build');
    mkdirSync(join(root, 'src'));
    mkdirSync(build);
    writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');
    expect(staleReason(build, root)).toBe('no build');
    const stat = (path: string) => ({ path, size: readFileSync(join(root, path)).length, mtimeMs: 1_700_000_000_000 });
    utimesSync(join(root, 'src/a.ts'), 1_700_000_000, 1_700_000_000);
    writeFileSync(join(build, 'inputs.json'), JSON.stringify({ inputs: [stat('src/a.ts')] }));
    expect(staleReason(build, root)).toBeNull();
    utimesSync(join(root, 'src/a.ts'), 1_700_000_001, 1_700_000_001);
    expect(staleReason(build, root)).toBe('src/a.ts changed since the build');
    writeFileSync(join(build, 'inputs.json'), JSON.stringify({ inputs: [stat('src/a.ts'), { path: 'src/gone.ts', size: 1, mtimeMs: 1 }] }));
    utimesSync(join(root, 'src/a.ts'), 1_700_000_000, 1_700_000_000);
    expect(staleReason(build, root)).toBe('src/gone.ts is gone since the build');
  });

  it('bin/metattl.js runs the build (made by the test setup) and lists every source in it', async () => {
    expect(staleReason()).toBeNull();
    const inputs = (JSON.parse(readFileSync(resolve(REPO_ROOT, 'build/cli/inputs.json'), 'utf8')) as { inputs: { path: string }[] }).inputs.map((i) => i.path);
    for (const file of ['src/cli/main.ts', 'src/cli/session.ts', 'src/engine/node/engine-worker.ts']) expect(inputs).toContain(file);
    const { stdout, stderr } = await run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), '--version'], { cwd: REPO_ROOT, env: { ...process.env, METATTL_CLI_TRACE: '1' } });
    expect(stdout).toMatch(/^metattl \d+\.\d+\.\d+\n$/);
    expect(stderr).toBe('metattl-cli: running build/cli\n');
  });
});

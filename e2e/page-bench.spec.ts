/**
 * Keeps the page stage of `npm run bench` from rotting: bench/page-bench.ts runs at
 * BENCH_SIZE=tiny (a 1×2 Learn session) against this run's served build, and must finish and
 * print each of its figures' lines. No timing is asserted (the figures belong to `npm run bench`).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';

test('bench/page-bench.ts runs its scripted session to the end at BENCH_SIZE=tiny', async ({ baseURL }) => {
  test.setTimeout(240_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/page-bench.ts'], {
    cwd: resolve(import.meta.dirname, '..'), env: { ...process.env, BENCH_SIZE: 'tiny', PAGE_BENCH_BASE: baseURL }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toMatch(/^Initial JS \(Play view, before any action\): \d+\.\d kB gzip in \d+ files \(goal ≤ \d+ kB\)$/m);
  expect(stdout).toMatch(/^Tokenizer fetched by opening Learn, Evolve and Evaluate: (yes|no); by the end of the session: (yes|no)$/m);
  expect(stdout).toMatch(/^Longest main-thread task during the scripted session: \d+ ms/m);
  expect(stdout).toMatch(/^ {2}Learn session run \(1×2\): longest \d+ ms/m);
  expect(stdout).toMatch(/^ {2}reload into Replay with the shipped Lever Room run: longest \d+ ms/m);
});

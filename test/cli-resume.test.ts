/**
 * Runs that resume through the CLI (in-process `run`, the file store, the in-process mock, The
 * Lever Room, 2 episodes of at most 3 steps): `eval`, `session` and `evolve` stopped by
 * `--max-total-tokens` resume (`--resume`, no cap) to exactly what the uncapped command gives; and
 * an `eval` killed, or whose disk fills, at the write after a game-ending step (the step stored,
 * its episode's end not) resumes to the uninterrupted result (after StorageFullError, once there
 * is room).
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../src/cli/main.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { armWriteFaults, writeFaults } from './support/write-faults.ts';

vi.mock('node:fs/promises', async (importOriginal) => (await import('./support/write-faults.ts')).writeFaultsMock(importOriginal as never));

let mock: MockLlm;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'], metaAgentReply: 'build' });
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const newDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'metattl-cli-resume-'));
  dirs.push(dir);
  return dir;
};

/** `metattl ARGS` in this process: exit code and what it wrote. */
async function metattl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await run(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const provider = () => ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--context-window', '8000', '--concurrency', '1'];
const small = ['--episodes', '2', '--steps', '3'];
const CAP = ['--max-total-tokens', '3000'];

/** Wall-clock fields and ids dropped (they differ between any two runs), the rest kept. */
const VOLATILE = new Set(['startedAt', 'finishedAt', 'wallTimeMs', 'latencyMs', 'updatedAt', 'at', 'id', 'sessionId', 'costUsd', 'totalTokens', 'promptTokens']);
const comparable = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (VOLATILE.has(key) ? undefined : v)));

/** An evaluation's results file, comparable. */
const results = (out: string) => {
  const file = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { status: string; sessions: unknown[] };
  return { status: file.status, sessions: comparable(file.sessions) };
};

describe('a run stopped by a token cap resumes to the uncapped result', () => {
  const evalArgs = (store: string, out: string) => ['eval', '--policies', 'static,naive', '--tasks', 'lever-room:1', '--repeats', '1', ...small, '--store', store, '--out', out, '--json', ...provider()];

  it('eval: --resume (and --resume --from-last-good) after token_cap', async () => {
    const cleanOut = newDir();
    expect((await metattl([...evalArgs(newDir(), cleanOut), '--id', 'e1'])).code).toBe(0);
    const clean = results(cleanOut);
    expect(clean.status).toBe('complete');
    for (const fromLastGood of [false, true]) {
      const store = newDir();
      const capped = await metattl([...evalArgs(store, newDir()), '--id', 'e1', ...CAP]);
      expect(capped.code).toBe(0);
      expect(JSON.parse(capped.stdout).stopReason).toBe('token_cap');
      const out = newDir();
      const resumed = await metattl([...evalArgs(store, out), '--resume', 'e1', ...(fromLastGood ? ['--from-last-good'] : [])]);
      expect(resumed.stderr).not.toMatch(/Error/);
      expect(resumed.code).toBe(0);
      expect(results(out)).toEqual(clean);
    }
  });

  it('session: --resume after a budget stop', async () => {
    const args = ['session', 'lever-room', ...small, '--json', ...provider()];
    const clean = JSON.parse((await metattl(args)).stdout) as { status: string };
    expect(clean.status).toBe('complete');
    const store = newDir();
    const capped = JSON.parse((await metattl([...args, '--store', store, '--max-total-tokens', '1500'])).stdout) as { id: string; status: string; stopReason: string };
    expect([capped.status, capped.stopReason]).toEqual(['stopped', 'budget']);
    const resumed = await metattl([...args, '--store', store, '--resume', capped.id]);
    expect(resumed.code).toBe(0);
    expect(comparable(JSON.parse(resumed.stdout))).toEqual(comparable(clean));
  });

  it('evolve: --resume after a budget stop', async () => {
    const args = (store: string) => ['evolve', '--train', 'lever-room:1', '--val', 'lever-room:1', ...small, '--budget', '4', '--proposer-model', 'mock-model', '--store', store, '--id', 'v1', '--json', ...provider()];
    const clean = JSON.parse((await metattl(args(newDir()))).stdout) as { status: string; metricCallsUsed: number };
    expect([clean.status, clean.metricCallsUsed]).toEqual(['complete', 3]);
    const store = newDir();
    const capped = JSON.parse((await metattl([...args(store), ...CAP])).stdout) as { status: string; stopReason: string };
    expect(capped.stopReason).toMatch(/token/);
    const resumed = await metattl([...args(store), '--resume']);
    expect(resumed.code).toBe(0);
    expect(comparable(JSON.parse(resumed.stdout))).toEqual(comparable(clean));
  });
});

describe('a stop after a game-ending step (the step stored, its episode end not)', () => {
  // With this guide the mock's actor ends episode 1 (the game won) at its first step.
  const args = (store: string, out: string) => ['eval', '--policies', 'naive', '--tasks', 'lever-room:1', '--repeats', '1', ...small, '--guide', 'Explore.', '--store', store, '--out', out, '--json', ...provider()];
  const cleanStore = newDir();
  const cleanOut = newDir();
  /** The store as a kill just before the write after the game-ending step leaves it. */
  let killed = '';
  let stepWrite = 0;
  beforeAll(async () => {
    armWriteFaults(cleanStore, Infinity, 'kill');
    // Episode 1 ends the game at its first step: that step's line is the session's first event
    // write; the next write is the header that ends the episode.
    const sessionEvents = `${createHash('sha1').update('e1:naive|custom|lever-room:1|0').digest('hex')}.events.jsonl`;
    writeFaults.beforeWrite = (n, write) => {
      if (stepWrite === 0 && write.path.endsWith(sessionEvents)) stepWrite = n;
      else if (stepWrite > 0 && n === stepWrite + 1) cpSync(cleanStore, (killed = newDir()), { recursive: true });
    };
    expect((await metattl([...args(cleanStore, cleanOut), '--id', 'e1'])).code).toBe(0);
    armWriteFaults('', Infinity, 'kill');
    const first = (JSON.parse(readFileSync(join(cleanOut, 'results.json'), 'utf8')) as { sessions: { session: { episodes: { termination: string; steps: unknown[] }[] } }[] }).sessions[0]!.session.episodes[0]!;
    expect([first.termination, first.steps.length]).toEqual(['game_over', 1]);
  });

  it('eval killed there: --resume gives the uninterrupted result', async () => {
    expect(stepWrite).toBeGreaterThan(0);
    const out = newDir();
    const resumed = await metattl([...args(killed, out), '--resume', 'e1']);
    expect(resumed.stderr).not.toMatch(/Error/);
    expect(resumed.code).toBe(0);
    expect(results(out)).toEqual(results(cleanOut));
  });

  it('eval on a disk that fills there stops with StorageFullError and, once there is room, --resume gives the uninterrupted result', async () => {
    const store = newDir();
    armWriteFaults(store, stepWrite + 1, 'full');
    const full = await metattl([...args(store, newDir()), '--id', 'e1']);
    armWriteFaults('', Infinity, 'full');
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/StorageFullError/);
    const out = newDir();
    const resumed = await metattl([...args(store, out), '--resume', 'e1']);
    expect(resumed.stderr).not.toMatch(/Error/);
    expect(resumed.code).toBe(0);
    expect(results(out)).toEqual(results(cleanOut));
  });
});

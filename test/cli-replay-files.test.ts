/**
 * Every file the `metattl` CLI writes, made by the real CLI against the mock, opened through the
 * Replay view's import path (`ReplayState.openFile`, then `parseReplayFile`): `play --out` (a
 * trajectory), `session --out` (a session export), `eval --out`'s results.json (tagged
 * "metattl-evaluation-results-1"), `evolve --store`'s run header (runs/<sha1>.json). The files that
 * hold no sessions (summary.csv, report.md, a store's events file, a session's or evaluation's
 * store header) are refused with a message saying which file to open instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayState, type ReplayFiles } from '../src/ui/replay/replay.svelte.ts';
import { parseReplayFile } from '../src/ui/replay/replay-source.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

let mock: MockLlm;
const dir = mkdtempSync(join(tmpdir(), 'cli-replay-'));
const path = (...p: string[]) => join(dir, ...p);

beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'take gun', 'east', 'north', 'look'] });
  const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
  const llm = ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model'];
  const runs = await Promise.all([
    runCli(['play', 'detective', '--seed', '0', '--steps', '4', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--out', path('play.json')], env),
    runCli(['session', 'detective', '--seed', '0', '--policy', 'naive', '--episodes', '2', '--steps', '4', ...llm, '--out', path('session.json'), '--store', path('session-store')], env),
    runCli(['eval', '--policies', 'static,naive', '--tasks', 'detective:0', '--repeats', '1', '--episodes', '2', '--steps', '4', ...llm, '--out', path('eval'), '--store', path('eval-store')], env),
    runCli(['evolve', '--train', 'detective:0', '--val', 'detective:0', '--repeats', '1', '--episodes', '2', '--steps', '4', '--budget', '4', ...llm, '--proposer-model', 'mock-model', '--store', path('evolve-store')], env),
  ]);
  for (const r of runs) expect(r.code, r.stderr).toBe(0);
}, 240_000);
afterAll(() => mock.close());

const files: ReplayFiles = {
  resolve: (p) => new URL(p, 'http://test.invalid/'),
  fetchBytes: async () => new Uint8Array(),
  readFile: async (file) => new Uint8Array(await file.arrayBuffer()),
  query: () => new URLSearchParams(),
};

/** Open a CLI file in Replay as the page does (a picked file). */
async function open(file: string): Promise<ReplayState> {
  const replay = new ReplayState(files);
  await replay.openFile(new File([readFileSync(file)], file.split('/').at(-1)!));
  return replay;
}

const header = (store: string) => path(store, 'runs', readdirSync(path(store, 'runs')).find((n) => n.endsWith('.json') && !n.endsWith('.events.jsonl'))!);
const events = (store: string) => path(store, 'runs', readdirSync(path(store, 'runs')).find((n) => n.endsWith('.events.jsonl'))!);

describe('every file the CLI writes opens in Replay', () => {
  it('play --out: the trajectory replays as a one-episode session with its score and actions', async () => {
    const trajectory = JSON.parse(readFileSync(path('play.json'), 'utf8'));
    const replay = await open(path('play.json'));
    expect(replay.error).toBeNull();
    expect(replay.source?.kind).toBe('session');
    const record = replay.player.record!;
    expect(record.config).toMatchObject({ episodes: 1, maxSteps: 4, seed: 0, story: { title: 'Detective', md5: trajectory.story.md5 } });
    expect(record.scores).toEqual([trajectory.finalScore]);
    expect(record.episodes[0]!.steps.map((s) => s.action)).toEqual(trajectory.steps.map((s: { action: string | null }) => s.action));
    expect(replay.player.frames.length).toBeGreaterThan(trajectory.steps.length);
    replay.player.toEnd();
    expect(replay.player.scene?.score ?? null).toBe(trajectory.finalScore);
  });

  it('session --out: the session export', async () => {
    const session = JSON.parse(readFileSync(path('session.json'), 'utf8'));
    const replay = await open(path('session.json'));
    expect(replay.error).toBeNull();
    expect(replay.player.record?.id).toBe(session.id);
    expect(replay.player.record?.scores).toEqual(session.scores);
  });

  it('eval --out results.json (format "metattl-evaluation-results-1"): one item per session', async () => {
    const results = JSON.parse(readFileSync(path('eval', 'results.json'), 'utf8'));
    expect(results.format).toBe('metattl-evaluation-results-1');
    const replay = await open(path('eval', 'results.json'));
    expect(replay.error).toBeNull();
    const source = replay.source!;
    expect(source.kind).toBe('evaluation');
    if (source.kind !== 'evaluation') return;
    expect(source.id).toBe(results.id);
    expect(source.withoutRecord).toBe(0);
    expect(source.items.map((i) => i.record.id)).toEqual(results.sessions.map((s: { session: { id: string } }) => s.session.id));
    expect(source.items.map((i) => i.label.split(' · ')[0])).toEqual(['static', 'naive']);
  });

  it('evolve --store: the run header lists its candidates and progress', async () => {
    const stored = JSON.parse(readFileSync(header('evolve-store'), 'utf8'));
    const replay = await open(header('evolve-store'));
    expect(replay.error).toBeNull();
    const source = replay.source!;
    expect(source.kind).toBe('evolution');
    if (source.kind !== 'evolution') return;
    expect(source.id).toBe(stored.id);
    expect(source.candidates.map((c) => c.id)).toEqual(stored.data.candidates.map((c: { id: string }) => c.id));
    expect(source.progress).toEqual(stored.data.progress);
  });

  it('the files without sessions say which file to open instead, and the open one stays', async () => {
    const replay = await open(path('session.json'));
    const shown = replay.player.record!.id;
    const cases: [string, RegExp][] = [
      [path('eval', 'summary.csv'), /^summary\.csv: This is an evaluation’s summary\.csv .*open the results\.json beside it/],
      [path('eval', 'report.md'), /^report\.md: This is an evaluation’s report\.md .*open the results\.json beside it/],
      [events('evolve-store'), /: This is a store’s events file/],
      [header('session-store'), /: This is the store header of a session .*metattl session … --out FILE/],
      [header('eval-store'), /: This is the store header of an evaluation .*results\.json/],
    ];
    for (const [file, message] of cases) {
      await replay.openFile(new File([readFileSync(file)], file.split('/').at(-1)!));
      expect(replay.error).toMatch(message);
      expect(replay.player.record?.id).toBe(shown);
    }
  });

  it('a tampered results.json is refused naming the field', () => {
    const results = JSON.parse(readFileSync(path('eval', 'results.json'), 'utf8'));
    results.sessions[1].session.wAuc = 0.9;
    expect(() => parseReplayFile(JSON.stringify(results))).toThrow(/sessions\.1\.session\.wAuc/);
  });
});

/**
 * `npx metattl session` as a real process against the mock provider: the JSON contract, a
 * persisted store, and --resume of a session stopped in the middle of episode 2 ending exactly
 * like an uninterrupted run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { loadSession, persistingSink } from '../src/ttl/session-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { readShared, REPO_ROOT, sharedDir } from './support/shared.ts';
import { type CliResult, runCli } from './support/cli.ts';

const run = promisify(execFile);
const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

async function metattl(args: string[]) {
  const { stdout } = await run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), 'session', ...args], { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: 'k' } });
  return JSON.parse(stdout);
}

const metattlRaw = (args: string[]): Promise<CliResult> => runCli(['session', ...args], { ...process.env, OPENAI_API_KEY: 'k' });

const common = () => ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--json'];

describe('metattl session', () => {
  it('prints the session JSON with W-AUC from the real scores', async () => {
    const out = await metattl([join(sharedDir(), 'stories/detective.z5'), '--seed', '0', '--policy', 'naive', '--episodes', '3', '--steps', '5', ...common()]);
    expect(out).toMatchObject({ seed: 0, policy: 'naive', maxScore: 360, status: 'complete' });
    // Nobody edited the guide mid-episode (the page's "Edit the guide"): the policy's own result.
    expect(out.interventions).toEqual([]);
    expect(out.story).toMatch(/detective\.z5$/);
    expect(out.episodes).toHaveLength(3);
    const scores = out.episodes.map((e: { finalScore: number }) => e.finalScore);
    expect(out.wAuc).toBeCloseTo((scores[0] + 2 * scores[1] + 3 * scores[2]) / (360 * 6), 12);
    for (const e of out.episodes) {
      expect(e.steps).toHaveLength(5);
      expect(e.termination).toBe('step_limit');
      expect(typeof e.guidingPrompt).toBe('string');
      expect(e.steps.at(-1).score).toBe(e.finalScore);
    }
    expect(out.episodes[1].guidingPrompt).toContain('PLAN:');
    // Every episode starts in the Chief's office (Jericho's object 34) and every step says where
    // the player is: the engine's own locations for the same actions.
    const bytes = new Uint8Array(readShared('stories/detective.z5'));
    const catalog = parseCatalog(JSON.parse((await import('node:fs')).readFileSync(`${REPO_ROOT}/public/stories/catalog.json`, 'utf8')));
    for (const e of out.episodes as { startLocation: unknown; steps: { action: string; location: unknown }[] }[]) {
      const engine = loadStory(bytes, { seed: 0, rules: rulesFor(findByMd5(catalog, md5Hex(bytes))!) });
      expect(e.startLocation).toEqual({ id: 34, name: "Chief's office" });
      expect(e.steps.map((s) => s.location)).toEqual(e.steps.map((s) => engine.step(s.action).location));
    }
  });

  it('--resume finishes a session stopped in episode 2 exactly like an uninterrupted one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-store-'));
    const store = await openNodeStore(dir);
    const bytes = new Uint8Array(readShared('stories/detective.z5'));
    const catalog = parseCatalog(JSON.parse((await import('node:fs')).readFileSync(`${REPO_ROOT}/public/stories/catalog.json`, 'utf8')));
    const entry = findByMd5(catalog, md5Hex(bytes))!;
    const s = defaultLlmSettings();
    s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'k' };
    s.roles.actor.model = 'mock-model';
    s.roles.metaAgent.model = 'mock-model';
    const parts = buildSession(
      { story: { id: 'detective', title: entry.title, md5: entry.md5, maxScore: 360 }, seed: 0, policy: { kind: 'meta', name: 'naive', strategy: '' }, episodes: 3, maxSteps: 5, initialGuidingPrompt: 'Explore systematically: visit every room, examine what you find and try to increase your score.', contextWindow: 8000 },
      s, createChatModels(s, new UsageMeter(s.caps, s.prices)), await loadTokenCounter(),
    );
    const controller = new AbortController();
    const stopped = await runSession({
      id: 'run-1', config: parts.config, engine: syncEngine(loadStory(bytes, { seed: 0, rules: rulesFor(entry) })), actor: parts.actor, policy: parts.policy,
      signal: controller.signal, sink: persistingSink(store, 'run-1', { onStep: (e, step) => { if (e === 2 && step.index === 3) controller.abort(); } }),
    });
    expect(stopped.status).toBe('stopped');
    const saved = await loadSession(store, 'run-1');
    expect(saved?.episodes.map((e) => e.steps.length)).toEqual([5, 3]);
    store.close();

    const resumed = await metattl(['--store', dir, '--resume', 'run-1', ...common()]);
    const fresh = await metattl([join(sharedDir(), 'stories/detective.z5'), '--seed', '0', '--policy', 'naive', '--episodes', '3', '--steps', '5', ...common()]);
    expect(resumed.id).toBe('run-1');
    expect(resumed.status).toBe('complete');
    expect(resumed.episodes.map((e: { steps: unknown[] }) => e.steps.length)).toEqual([5, 5, 5]);
    expect(resumed.episodes.map((e: { steps: { action: string }[] }) => e.steps.map((x) => x.action))).toEqual(fresh.episodes.map((e: { steps: { action: string }[] }) => e.steps.map((x) => x.action)));
    expect(resumed.wAuc).toBe(fresh.wAuc);
    // Locations survive the store and the resume.
    const where = (o: { episodes: { steps: { location: unknown }[] }[] }) => o.episodes.map((e) => e.steps.map((x) => x.location));
    expect(where(resumed)).toEqual(where(fresh));
    expect(where(fresh).flat().every((l) => (l as { id: number } | null)?.id !== undefined)).toBe(true);
    const reloaded = await loadSession(await openNodeStore(dir), 'run-1');
    expect(reloaded?.status).toBe('complete');
    expect(reloaded?.episodes.flatMap((e) => e.steps.map((x) => `${e.index}.${x.index}`))).toEqual(['1.1', '1.2', '1.3', '1.4', '1.5', '2.1', '2.2', '2.3', '2.4', '2.5', '3.1', '3.2', '3.3', '3.4', '3.5']);
  });

  it('--json stopped by an auth error exits 1 with stopMessage in the JSON and the message on stderr', async () => {
    const refusing = await startMockLlm({ exploreCommands: EXPLORE, faults: [{ kind: 'auth' }] });
    try {
      const { code, stdout, stderr } = await metattlRaw([join(sharedDir(), 'stories/detective.z5'), '--seed', '0', '--episodes', '2', '--steps', '3',
        '--base-url', refusing.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--max-retries', '0', '--json']);
      expect(code).toBe(1);
      const out = JSON.parse(stdout);
      expect(out).toMatchObject({ status: 'stopped', stopReason: 'provider' });
      expect(out.stopMessage).toMatch(/refused the key/);
      // The context-window note may come first; the stop is the last line.
      expect(stderr.trimEnd().split('\n').at(-1)).toBe(`metattl: session stopped: ${out.stopMessage}`);
    } finally {
      await refusing.close();
    }
  });

  it('--resume of a store with a line deleted from the middle stops with exit 1 naming the file and line; --from-last-good-episode then finishes like an uninterrupted run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-store-'));
    const args = [join(sharedDir(), 'stories/detective.z5'), '--seed', '0', '--policy', 'naive', '--episodes', '3', '--steps', '5', ...common()];
    const first = await metattl([...args, '--store', dir]);
    const run = (await (await openNodeStore(dir)).getRun(first.id))!;
    const lines = readFileSync(run.where, 'utf8').split('\n');
    writeFileSync(run.where, lines.filter((_, i) => i !== 6).join('\n'));
    const refused = await metattlRaw(['--store', dir, '--resume', first.id, ...common()]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`metattl: DamagedRunError: The stored session "${first.id}" is damaged, so it was not resumed: ${run.where}, line 7: its checksum does not fit`);
    expect(refused.stderr).toContain('Intact before it: episode 1;');
    expect(refused.stderr).toContain(`--resume ${first.id} --from-last-good-episode`);
    const resumed = await metattl(['--store', dir, '--resume', first.id, '--from-last-good-episode', ...common()]);
    expect(resumed.status).toBe('complete');
    expect(resumed.scores).toEqual(first.scores);
    expect(resumed.episodes.map((e: { steps: { action: string }[] }) => e.steps.map((x) => x.action))).toEqual(first.episodes.map((e: { steps: { action: string }[] }) => e.steps.map((x) => x.action)));
  });

  it('a key the model echoes in normal replies is in none of the store files, the --out export or the printed output', async () => {
    const key = 'sk-echoed-secret-4242';
    const echoing = await startMockLlm({ script: ['take paper', `say ${key}`, `examine ${key}`] });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'metattl-store-'));
      const out = join(dir, 'session.json');
      const args = [join(sharedDir(), 'stories/detective.z5'), '--seed', '0', '--episodes', '2', '--steps', '3', '--base-url', echoing.baseUrl,
        '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--store', join(dir, 'store'), '--out', out];
      const env = { ...process.env, OPENAI_API_KEY: key };
      const printed = await run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), 'session', ...args, '--json'], { cwd: REPO_ROOT, env });
      // The model did send the key back: the mock's replies held it.
      expect(echoing.requests.some((r) => JSON.stringify(r.body).includes(key))).toBe(true);
      const files = readdirSync(join(dir, 'store'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) => join(f.parentPath, f.name));
      expect(files.length).toBeGreaterThan(1);
      for (const file of [...files, out]) expect(readFileSync(file, 'utf8')).not.toContain(key);
      expect(readFileSync(out, 'utf8')).toContain('say [key hidden]');
      expect(printed.stdout + printed.stderr).not.toContain(key);
      expect(JSON.parse(printed.stdout).episodes[0].steps[1].action).toBe('say [key hidden]');
    } finally {
      await echoing.close();
    }
  });
});

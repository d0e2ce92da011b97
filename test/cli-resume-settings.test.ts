/**
 * A resume that would change what a run's results depend on — a model, the base URL, a role's
 * temperature or completion limit — is refused (exit 2, the store untouched) unless
 * --allow-changed-settings, and then recorded with the run: through the CLI bundle against the
 * mock, for `eval`, `evolve` and `session`, each stopped by a token cap and resumed. Two mocks
 * answer alike, so a resume to the other's base URL can finish.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { loadSession } from '../src/ttl/session-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

let mock: MockLlm;
let other: MockLlm;
const dirs: string[] = [];
beforeAll(async () => {
  const options = { exploreCommands: ['pull red lever', 'pull green lever', 'look', 'north'], metaAgentReply: 'build' as const };
  [mock, other] = await Promise.all([startMockLlm(options), startMockLlm(options)]);
});
afterAll(async () => {
  await Promise.all([mock.close(), other.close()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const D = defaultLlmSettings();
const small = ['--episodes', '2', '--steps', '3', '--concurrency', '2'];
const models = ['--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model'];
const newDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'metattl-resume-settings-'));
  dirs.push(dir);
  return dir;
};
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** Every file under `dir` with its size and mtime: a refused resume must leave the store as it was. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort().map((f) => {
    const s = statSync(join(dir, f));
    return `${f} ${s.size} ${s.mtimeMs}`;
  });
}

/** The changed flags every command's resume is tried with, and the changes they make. */
const CHANGED = ['--actor-temperature', '0.3', '--meta-max-tokens', '999'];
const changesText = (baseUrlFrom: string, baseUrlTo: string) => [
  `base URL: ${baseUrlFrom} → ${baseUrlTo}`,
  `actor temperature: ${D.roles.actor.temperature} → 0.3`,
  `meta-agent max tokens: ${D.roles.metaAgent.maxTokens} → 999`,
];

/**
 * Start a capped run with `start`, then: a resume with changed settings is refused and changes
 * nothing; a resume to another base URL alone is refused too; allowed, it finishes and `recorded()`
 * gives the run's record of the change; the same flags again are no change.
 */
async function refusedThenRecorded(what: string, store: string, start: string[], resume: (baseUrl: string, extra: string[], id: string) => string[], recorded: () => Promise<{ settingsChanges?: { at: string; codeVersion: string; changes: string[] }[] }>) {
  const capped = await runCli([...start, '--base-url', mock.baseUrl, ...models, '--max-total-tokens', '1500'], env);
  expect(capped.code, capped.stderr).toBe(0);
  const { id, stopReason } = JSON.parse(capped.stdout) as { id: string; stopReason: string };
  expect(['token_cap', 'budget']).toContain(stopReason);
  const before = snapshot(store);

  const refused = await runCli(resume(other.baseUrl, CHANGED, id), env);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(`${what} --resume would change the run's settings: ${changesText(mock.baseUrl, other.baseUrl).join('; ')}.`);
  expect(refused.stderr).toContain('--allow-changed-settings');
  const urlOnly = await runCli(resume(other.baseUrl, [], id), env);
  expect(urlOnly.code).toBe(2);
  expect(urlOnly.stderr).toContain(`${what} --resume would change the run's settings: base URL: ${mock.baseUrl} → ${other.baseUrl}.`);
  const modelOnly = await runCli([...resume(mock.baseUrl, [], id), '--actor-model', 'other-model'], env);
  expect(modelOnly.code).toBe(2);
  expect(modelOnly.stderr).toContain(`${what} --resume would change the run's settings: actor model: mock-model → other-model.`);
  expect(snapshot(store)).toEqual(before);

  const allowed = await runCli([...resume(other.baseUrl, CHANGED, id), '--allow-changed-settings'], env);
  expect(allowed.code, allowed.stderr).toBe(0);
  expect(allowed.stderr).toContain(`${what} continues with changed settings (recorded): ${changesText(mock.baseUrl, other.baseUrl).join('; ')}`);
  const record = await recorded();
  expect(record.settingsChanges).toEqual([{ at: expect.any(String), codeVersion: expect.any(String), changes: changesText(mock.baseUrl, other.baseUrl) }]);
  // The run now records what it ran with: the same flags again are no change.
  const again = await runCli(resume(other.baseUrl, CHANGED, id), env);
  expect(again.code, again.stderr).toBe(0);
  expect((await recorded()).settingsChanges).toHaveLength(1);
}

describe('a resume that would change models or settings', () => {
  it('eval: refused unless --allow-changed-settings, then recorded in the evaluation (results.json config)', async () => {
    const dir = newDir();
    const store = join(dir, 'store');
    const base = ['eval', '--policies', 'static,naive', '--tasks', 'lever-room:1', '--repeats', '1', ...small, '--json'];
    const out = (n: string) => join(dir, `out-${n}`);
    let outs = 0;
    await refusedThenRecorded('eval', store, [...base, '--store', store, '--id', 'e1', '--out', out('start')],
      (baseUrl, extra) => [...base, '--store', store, '--resume', 'e1', '--out', out(String(++outs)), '--base-url', baseUrl, ...models, ...extra],
      async () => {
        const results = json(join(out(String(outs)), 'results.json'));
        expect(results.config.llm).toMatchObject({ baseUrl: other.baseUrl, roles: { actor: { temperature: 0.3 }, metaAgent: { maxTokens: 999 } } });
        return results.config;
      });
  }, 240_000);

  it('evolve: refused unless --allow-changed-settings, then recorded in the evolution state', async () => {
    const store = join(newDir(), 'store');
    const base = ['evolve', '--train', 'lever-room:1', '--val', 'lever-room:2', '--repeats', '1', ...small, '--budget', '4', '--proposer', 'random', '--store', store, '--id', 'v1', '--json'];
    await refusedThenRecorded('evolve', store, base, (baseUrl, extra) => [...base, '--resume', '--base-url', baseUrl, ...models, ...extra], async () => {
      const s = await openNodeStore(store);
      const state = await loadEvolutionState(s, 'v1');
      s.close();
      expect(state?.config.llm).toMatchObject({ baseUrl: other.baseUrl, roles: { actor: { temperature: 0.3 }, metaAgent: { maxTokens: 999 } } });
      return state!.config;
    });
  }, 240_000);

  it('session: refused unless --allow-changed-settings, then recorded in the session record', async () => {
    const store = join(newDir(), 'store');
    const base = ['session', 'lever-room', '--policy', 'naive', ...small, '--store', store, '--json'];
    let id = '';
    await refusedThenRecorded('session', store, base, (baseUrl, extra, started) => {
      id = started;
      return [...base, '--resume', started, '--base-url', baseUrl, ...models, ...extra];
    }, async () => {
      const s = await openNodeStore(store);
      const record = await loadSession(s, id);
      s.close();
      expect(record?.config).toMatchObject({ provider: { baseUrl: other.baseUrl }, models: { actor: { temperature: 0.3 }, reflection: { maxTokens: 999 } } });
      return record!;
    });
  }, 240_000);
});

/** The shared run wiring in Node: task ids, the Web Lock guard (held elsewhere → null; no Web
 * Locks → unguarded), and `prepare` (settings with overrides, meter seeded on resume, models,
 * token counter, an engine pool keyed by task id over the story shelf). */
import { describe, expect, it } from 'vitest';
import type { LlmSettings, Role } from '../../../llm/interface.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import { ApiKeyHolder } from './api-key.svelte.ts';
import { adventBytes, fakeServices } from '../../../../test/support/ui/fake-services.ts';
import type { LlmServices } from './llm-services.ts';
import { fakeLocks } from '../../../../test/support/ui/fake-locks.ts';
import { isRunLocked, parseTaskId, RunServices, taskIdOf, withRunLock } from './run-services.ts';
import { SettingsState } from './settings.svelte.ts';
import { StoryShelf } from './story-shelf.svelte.ts';
import { taskHash } from '../../../ttl/web-engine.ts';
import { createJsdomDocument } from '../../../web/node/jsdom-document.ts';

describe('task ids', () => {
  it('round-trip story and seed (the seed is the last segment)', () => {
    expect(taskIdOf('user:abc', 7)).toBe('user:abc:7');
    expect(parseTaskId('user:abc:7')).toEqual({ storyId: 'user:abc', seed: 7 });
    expect(() => parseTaskId('advent')).toThrow(RangeError);
    expect(() => parseTaskId(':3')).toThrow(RangeError);
  });
});

describe('withRunLock', () => {
  it('runs the body holding the lock, and returns null when another tab holds it', async () => {
    const locks = fakeLocks();
    const inner = await withRunLock('r1', async () => {
      expect(await isRunLocked('r1', locks)).toBe(true);
      return withRunLock('r1', async () => 'never', locks);
    }, locks);
    expect(inner).toBeNull();
    expect(await isRunLocked('r1', locks)).toBe(false);
    expect(await withRunLock('r1', async () => 42, locks)).toBe(42);
  });

  it('runs unguarded without Web Locks, and releases the lock when the body throws', async () => {
    expect(await withRunLock('r', async () => 'ok', null)).toBe('ok');
    expect(await isRunLocked('r', null)).toBe(false);
    const locks = fakeLocks();
    await expect(withRunLock('r', async () => { throw new Error('boom'); }, locks)).rejects.toThrow('boom');
    expect(locks.held.size).toBe(0);
  });
});

describe('RunServices.prepare', () => {
  async function makeRuns(reported: number | null = null) {
    const services = fakeServices(new MemoryStore());
    const created: LlmSettings[] = [];
    const llm: LlmServices = {
      createModels: async (settings) => {
        created.push(settings);
        const model = (role: Role) => ({ role, settings: settings.roles[role], complete: async () => { throw new Error('not used'); } });
        return { actor: model('actor'), metaAgent: model('metaAgent'), proposer: model('proposer') };
      },
      listModels: async () => [],
      reportedContextWindow: async () => reported,
    };
    const shelf = new StoryShelf(services);
    const key = new ApiKeyHolder();
    const settings = new SettingsState(llm, key);
    await shelf.init();
    await settings.init(shelf.store);
    const loaded: number[] = [];
    const runs = new RunServices({ shelf, settings, llm, locks: null, webDocument: createJsdomDocument, loadEngine: async (bytes, options) => (loaded.push(options.seed), services.loadEngine(bytes, options)) });
    return { runs, settings, key, created, loaded };
  }

  it("context window: the user's value, else the provider's, else the table, else 32,000 with a note", async () => {
    const { runs, settings } = await makeRuns(65_536);
    settings.changeRole('metaAgent', { model: 'my-local-model' });
    expect(await runs.contextWindow(runs.llmSettings(), 9000)).toEqual({ tokens: 9000, note: null });
    expect(await runs.contextWindow(runs.llmSettings())).toEqual({ tokens: 65_536, note: null });
    const silent = (await makeRuns(null));
    silent.settings.changeRole('metaAgent', { model: 'my-local-model' });
    const guessed = await silent.runs.contextWindow(silent.runs.llmSettings());
    expect(guessed.tokens).toBe(32_000);
    expect(guessed.note).toContain('“my-local-model” is not known');
    silent.settings.changeRole('metaAgent', { model: 'gpt-4o-mini' });
    expect(await silent.runs.contextWindow(silent.runs.llmSettings())).toEqual({ tokens: 128_000, note: null });
  });

  it('says what is missing from the settings', async () => {
    const { runs, settings } = await makeRuns();
    settings.setBaseUrl('');
    settings.changeRole('actor', { model: '' });
    settings.changeRole('metaAgent', { model: '' });
    expect(runs.settingsProblem()).toMatch(/base URL/);
    settings.setBaseUrl('http://llm.invalid/v1');
    expect(runs.settingsProblem()).toMatch(/actor’s model/);
    settings.changeRole('actor', { model: 'a' });
    // A meta-agent (or proposer) with no model given uses the actor's.
    expect(runs.settingsProblem()).toBeNull();
    expect(runs.llmSettings().roles.metaAgent.model).toBe('a');
    expect(runs.llmSettings().roles.proposer.model).toBe('a');
  });

  it('builds settings with the key and overrides, a seeded meter, and engines pooled by task', async () => {
    const { runs, settings, key, created, loaded } = await makeRuns();
    settings.setBaseUrl('http://llm.invalid/v1');
    settings.changeRole('actor', { model: 'a' });
    key.set('sk-secret');
    const zero = { calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0 };
    const ctx = await runs.prepare({
      roleOverrides: { metaAgent: { model: 'old-meta', temperature: 0.7, maxTokens: 100 } },
      previousUsage: { actor: { ...zero, promptTokens: 10, completionTokens: 5 }, metaAgent: zero, proposer: zero },
    });
    expect(created[0]!.provider.apiKey).toBe('sk-secret');
    expect(ctx.settings.roles.metaAgent.model).toBe('old-meta');
    expect(ctx.meter.totalTokens).toBe(15);
    expect(ctx.countTokens('hello world')).toBeGreaterThan(0);
    const task = await ctx.resolveTask('advent', 3);
    expect(task).toMatchObject({ id: 'advent:3', storyId: 'advent', seed: 3, title: 'Adventure', maxScore: 350 });
    expect(task.story?.bytes).toEqual(adventBytes);
    const first = await ctx.engines.with(task.id, async (engine) => (await engine.reset()).text);
    await ctx.engines.with(task.id, async (engine) => expect((await engine.reset()).text).toBe(first));
    expect(loaded).toEqual([3]);
    await expect(ctx.resolveTask('nope', 0)).rejects.toThrow(/not on the story shelf/);
    ctx.dispose();
  });

  it('resolves a web task (max score 1, its descriptor, no story file) and pools its site by task id', async () => {
    const { runs, settings, loaded } = await makeRuns();
    settings.setBaseUrl('http://llm.invalid/v1');
    settings.changeRole('actor', { model: 'a' });
    settings.changeRole('metaAgent', { model: 'm' });
    const ctx = await runs.prepare();
    const task = await ctx.resolveTask('web:shop/t1', 2);
    expect(task).toMatchObject({ id: 'web:shop/t1:2', storyId: 'web:shop/t1', seed: 2, title: 'web:shop/t1:2', maxScore: 1, story: null, loadOptions: null, task: { kind: 'web', id: 'web:shop/t1:2' } });
    expect(task.md5).toBe(taskHash('web:shop/t1:2'));
    const start = await ctx.engines.with(task.id, (engine) => engine.reset());
    expect(start.text).toContain('# Goal\nWhat is the price of the');
    expect(start.page?.url).toBe('http://shop.test/');
    expect(loaded).toEqual([]);
    await expect(ctx.resolveTask('web:shop/t999', 1)).rejects.toThrow(/t999/);
    ctx.dispose();
  });
});

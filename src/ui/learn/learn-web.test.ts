/**
 * LearnState on a web task in Node (the site on jsdom, the real chat models against the mock LLM):
 * the web defaults, the teaching task web:shop/t47 learning 0, 1, 1 with max score 1, pages in
 * every step and in the export, a setup link carrying the web task into a fresh form, and the
 * clear refusals: a link or a stored session naming a task this version does not have.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../test/mock-llm/server.ts';
import { fakeLocks } from '../../../test/support/ui/fake-locks.ts';
import type { FakeServices } from '../../../test/support/ui/fake-services.ts';
import { testTab } from '../../../test/support/ui/run-test-support.ts';
import { planOf, T47_HINT, webScript } from '../../../test/support/web-scripts.ts';
import { decodeShare } from '../../share/share-link.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import { importSession } from '../../ttl/session-io.ts';
import { loadSession, saveSession } from '../../ttl/session-store.ts';
import { taskHash } from '../../ttl/web-engine.ts';
import { createJsdomDocument } from '../../web/node/jsdom-document.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { MetaPromptCatalog } from '../shared/state/meta-prompt-catalog.svelte.ts';
import { LearnSetup } from './learn-setup.svelte.ts';
import { LearnState } from './learn.svelte.ts';
import { SessionRuns } from './session-runs.svelte.ts';

let mock: MockLlm;
let services: FakeServices;
let store: MemoryStore;

async function makeLearn(existing?: MemoryStore): Promise<LearnState> {
  store = existing ?? new MemoryStore();
  const tab = await testTab(mock.baseUrl, store, fakeLocks(), { webDocument: createJsdomDocument });
  services = tab.services;
  let n = 0;
  const catalog = new MetaPromptCatalog({ store: async () => tab.shelf.store, now: () => 1, newId: () => `user-${++n}` });
  const learn = new LearnState(tab.runs, new LearnSetup(tab.runs, catalog, tab.settings, services, async () => undefined), new SessionRuns(() => tab.shelf.store, services), services, () => () => undefined);
  await learn.enter();
  return learn;
}

beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ["send_msg_to_user('N/A')"] });
});

afterEach(async () => {
  await mock.close();
});

describe('Learn on a web task', () => {
  it('learns the teaching task web:shop/t47:1 (0, 1, 1; max score 1), keeps pages in the export, and shares the setup', async () => {
    const wrong = await webScript('web:shop/t47:1', true);
    const right = await webScript('web:shop/t47:1');
    mock.setOptions({ metaAgentRules: [{ whenLogIncludes: T47_HINT, guide: planOf(right.actions) }] });
    const learn = await makeLearn();
    learn.setup.setKind('web');
    expect(learn.setup.form).toMatchObject({ kind: 'web', episodes: 3, maxSteps: 10, guidingPrompt: WEB_DEFAULT_GUIDING_PROMPT });
    learn.setup.selectWebTask('web:shop/t47:1');
    learn.setup.change({ policyId: 'meta:naive', guidingPrompt: planOf(wrong.actions) });
    await learn.start();
    expect(learn.error).toBeNull();
    const record = learn.record!;
    expect(record.status).toBe('complete');
    expect(record.config).toMatchObject({ task: { kind: 'web', id: 'web:shop/t47:1' }, seed: 1, episodes: 3, maxSteps: 10, story: { id: 'web:shop/t47', md5: taskHash('web:shop/t47:1'), maxScore: 1 } });
    expect(record.scores).toEqual([0, 1, 1]);
    expect(record.wAuc).toBeCloseTo(5 / 6, 6);
    expect(record.episodes[1]!.guidingPrompt).toBe(planOf(right.actions));
    expect(record.episodes.every((e) => e.trajectory?.startPage?.url === 'http://shop.test/' && e.steps.every((s) => s.page !== undefined))).toBe(true);
    expect(record.episodes[1]!.steps.at(-2)!.page!.html).toContain('SAVE-');
    const stored = await loadSession(store, record.id);
    expect(stored?.episodes.map((e) => e.steps.map((s) => s.page))).toEqual(record.episodes.map((e) => e.steps.map((s) => s.page)));
    learn.exportShown();
    const back = importSession(services.downloads.at(-1)!.text);
    expect(back.episodes.map((e) => [e.trajectory?.startPage, ...e.steps.map((s) => s.page)])).toEqual(record.episodes.map((e) => [e.trajectory?.startPage, ...e.steps.map((s) => s.page)]));

    await learn.setup.copySetupLink('http://page.test/?view=learn');
    const payload = decodeShare(new URL(learn.setup.shareLink!).hash);
    expect(payload).toMatchObject({ kind: 'setup', setup: { storyId: 'web:shop/t47', storyMd5: taskHash('web:shop/t47:1'), seed: 1, episodes: 3, maxSteps: 10, task: { kind: 'web', id: 'web:shop/t47:1' } } });
    const other = await makeLearn();
    expect(other.setup.form.kind).toBe('story');
    await other.setup.applySetup(payload.kind === 'setup' ? payload.setup : (undefined as never));
    expect(other.setup.form).toMatchObject({ kind: 'web', webTaskId: 'web:shop/t47:1', episodes: 3, maxSteps: 10, policyId: 'meta:naive' });
    expect(other.setup.notice).toBe('Loaded a shared setup (web task web:shop/t47:1).');
  });

  it('a link naming an unknown web task is refused with a clear error and changes nothing', async () => {
    const learn = await makeLearn();
    const before = learn.setup.form;
    const setup = { storyId: 'web:shop/t999', storyMd5: 'a'.repeat(32), storyTitle: 'web:shop/t999:1', seed: 1, policy: { kind: 'static' as const }, episodes: 3, maxSteps: 10, models: { actor: 'mock-model', metaAgent: 'mock-model' }, task: { kind: 'web' as const, id: 'web:shop/t999:1' } };
    await expect(learn.setup.applySetup(setup)).rejects.toThrow('This setup link names the web task “web:shop/t999:1”, which this version of the playground does not have (unknown template "t999" in web:shop/t999:1). Nothing was loaded.');
    expect(learn.setup.form).toBe(before);
  });

  it('a stored session whose web task no longer exists is not resumed: the error says why', async () => {
    const { actions } = await webScript('web:shop/t1:1');
    const learn = await makeLearn();
    learn.setup.setKind('web');
    learn.setup.selectWebTask('web:shop/t1:1');
    learn.setup.change({ policyId: 'static', episodes: 2, guidingPrompt: planOf(actions) });
    await learn.start();
    expect(learn.record?.scores).toEqual([1, 1]);
    const gone = structuredClone(learn.record!);
    gone.id = 'learn-gone';
    gone.config.task = { kind: 'web', id: 'web:shop/t99:1' };
    gone.config.episodes = 3;
    gone.status = 'stopped';
    await saveSession(store, gone);
    await learn.resume('learn-gone');
    expect(learn.error).toBe('This session’s web task “web:shop/t99:1” does not exist in this version of the playground (unknown template "t99" in web:shop/t99:1), so it cannot be resumed. Its recorded episodes can still be opened and exported.');
    expect(learn.phase).toBe('idle');
    await learn.open('learn-gone');
    expect(learn.record?.scores).toEqual([1, 1]);
  });

  it('after a reload, an unfinished web session is shown with its web task in the form, and resumes to the end', async () => {
    const { actions } = await webScript('web:shop/t1:1');
    const first = await makeLearn();
    first.setup.setKind('web');
    first.setup.selectWebTask('web:shop/t1:1');
    first.setup.change({ policyId: 'static', episodes: 2, guidingPrompt: planOf(actions) });
    await first.start();
    const unfinished = structuredClone(first.record!);
    unfinished.id = 'learn-unfinished-web';
    unfinished.config.episodes = 3;
    unfinished.status = 'stopped';
    await saveSession(store, unfinished);

    const learn = await makeLearn(store);
    expect(learn.record?.id).toBe('learn-unfinished-web');
    expect(learn.holding).toBe(true);
    expect(learn.setup.form).toMatchObject({ kind: 'web', webTaskId: 'web:shop/t1:1', episodes: 3, policyId: 'static', guidingPrompt: planOf(actions) });
    await learn.resume('learn-unfinished-web');
    expect(learn.error).toBeNull();
    expect(learn.record).toMatchObject({ status: 'complete', scores: [1, 1, 1] });
  });
});

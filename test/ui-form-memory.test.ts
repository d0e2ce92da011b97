/** Run forms keep their last settings per view across a reload (store setting `form:<view>`):
 * Learn, Agent, Evolve and Evaluate, each read back by a fresh state on the same store; damaged
 * saved fields fall back to the defaults and nothing else is lost. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { manualSchedule, testTab } from './support/ui/run-test-support.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { EvaluateState } from '../src/ui/evaluate/evaluate.svelte.ts';
import { EvolveDashboard } from '../src/ui/evolve/evolve.svelte.ts';
import { Agent } from '../src/ui/agent/agent.svelte.ts';
import { LearnSetup } from '../src/ui/learn/learn-setup.svelte.ts';
import { MetaPromptCatalog } from '../src/ui/shared/state/meta-prompt-catalog.svelte.ts';
import { formSettingKey, mergeSavedForm } from '../src/ui/shared/state/form-memory.svelte.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({});
});
afterAll(() => mock.close());

/** What the views' `$effect(() => state.saveForm())` does after a change, then the store write landing. */
async function saved(...states: { saveForm(): void }[]): Promise<void> {
  for (const state of states) state.saveForm();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('mergeSavedForm', () => {
  const defaults = { n: 1, s: 'a', b: false, w: null as number | null, list: ['x'], map: {} as Record<string, string> };
  it('takes saved fields of the same kind and keeps the defaults for the rest', () => {
    expect(mergeSavedForm(defaults, { n: 7, s: 'z', b: true, w: 8000, list: ['p', 'q'], map: { a: '1' }, extra: 'dropped' }))
      .toEqual({ n: 7, s: 'z', b: true, w: 8000, list: ['p', 'q'], map: { a: '1' } });
    expect(mergeSavedForm(defaults, { n: '7', s: 3, b: 'yes', w: 'big', list: [1], map: [] })).toEqual(defaults);
    expect(mergeSavedForm({ ...defaults, w: 4000 }, { w: null }).w).toBeNull();
    expect(mergeSavedForm(defaults, { n: Number.NaN }).n).toBe(1);
    expect(mergeSavedForm(defaults, 'garbage')).toEqual(defaults);
    expect(mergeSavedForm(defaults, undefined)).toEqual(defaults);
  });
});

describe('run forms after a reload', () => {
  it('Learn shows the story, seed, K, S, policy and guide it was left with', async () => {
    const store = new MemoryStore();
    const open = async () => {
      const tab = await testTab(mock.baseUrl, store);
      const catalog = new MetaPromptCatalog({ store: async () => tab.shelf.store, now: () => 1, newId: () => 'user-1' });
      const setup = new LearnSetup(tab.runs, catalog, tab.settings, tab.services, async () => undefined);
      await setup.init();
      return setup;
    };
    const first = await open();
    expect(first.form.episodes).toBe(6);
    first.selectStory('lever-room');
    first.change({ seed: 12, episodes: 3, maxSteps: 20, policyId: 'reflexion', guidingPrompt: 'Pull levers.', contextWindow: 8000 });
    await saved(first);
    const second = await open();
    expect(second.form).toEqual(first.form);
    expect(second.form).toMatchObject({ storyId: 'lever-room', seed: 12, episodes: 3, maxSteps: 20, policyId: 'reflexion', guidingPrompt: 'Pull levers.', contextWindow: 8000 });
  });

  it('Agent shows its story, seed, S and guide; Evolve and Evaluate their whole forms', async () => {
    const store = new MemoryStore();
    const tab = await testTab(mock.baseUrl, store);
    const agent = new Agent(tab.services, tab.shelf, tab.settings, tab.llm, manualSchedule());
    await agent.init();
    agent.selectStory('lever-room');
    agent.seed = 9;
    agent.maxSteps = 17;
    agent.guidingPrompt = 'Look first.';
    const evolve = new EvolveDashboard({ runs: tab.runs, settings: tab.settings, files: tab.services, openLearn: () => undefined, schedule: manualSchedule() });
    await evolve.init();
    evolve.form.assignments = { advent: { role: 'train', seeds: '0, 1' }, 'lever-room': { role: 'val', seeds: '2' } };
    evolve.form.episodes = 4;
    evolve.form.budgetMetricCalls = 30;
    evolve.form.proposer = 'random';
    evolve.form.webVal = 'WEB-ID-val';
    const evaluate = new EvaluateState({ runs: tab.runs, settings: tab.settings, files: tab.services, schedule: manualSchedule() });
    await evaluate.enter();
    evaluate.form.toggle('reflexion', true);
    evaluate.form.baseline = 'reflexion';
    evaluate.form.setCustom('advent', '0, 3');
    evaluate.form.repeats = 2;
    evaluate.form.maxSteps = 12;
    await saved(agent, evolve, evaluate);

    const again = await testTab(mock.baseUrl, store);
    const agent2 = new Agent(again.services, again.shelf, again.settings, again.llm, manualSchedule());
    await agent2.init();
    expect([agent2.selectedId, agent2.seed, agent2.maxSteps, agent2.guidingPrompt]).toEqual(['lever-room', 9, 17, 'Look first.']);
    const evolve2 = new EvolveDashboard({ runs: again.runs, settings: again.settings, files: again.services, openLearn: () => undefined, schedule: manualSchedule() });
    await evolve2.init();
    expect(evolve2.form.snapshot()).toEqual(evolve.form.snapshot());
    expect([evolve2.form.episodes, evolve2.form.maxSteps, evolve2.form.budgetMetricCalls, evolve2.form.proposer]).toEqual([4, 50, 30, 'random']);
    const evaluate2 = new EvaluateState({ runs: again.runs, settings: again.settings, files: again.services, schedule: manualSchedule() });
    await evaluate2.enter();
    expect(evaluate2.form.snapshot()).toEqual(evaluate.form.snapshot());
    expect([evaluate2.form.chosen, evaluate2.form.baseline, evaluate2.form.custom, evaluate2.form.repeats, evaluate2.form.maxSteps]).toEqual([['static', 'naive', 'reflexion'], 'reflexion', { advent: '0, 3' }, 2, 12]);
  });

  it('a save before the saved form was read is ignored (the defaults never overwrite it)', async () => {
    const store = new MemoryStore();
    await store.setSetting(formSettingKey('evaluate'), { repeats: 4 });
    const tab = await testTab(mock.baseUrl, store);
    const evaluate = new EvaluateState({ runs: tab.runs, settings: tab.settings, files: tab.services, schedule: manualSchedule() });
    await saved(evaluate);
    expect(await store.getSetting(formSettingKey('evaluate'))).toEqual({ repeats: 4 });
    await evaluate.enter();
    expect(evaluate.form.repeats).toBe(4);
  });

  it('a damaged saved form keeps the defaults for what is damaged', async () => {
    const store = new MemoryStore();
    await store.setSetting(formSettingKey('evolve'), { assignments: { advent: { role: 'sideways', seeds: 3 }, 'lever-room': { role: 'both', seeds: '1' } }, budgetMetricCalls: 'lots', rngSeed: 4 });
    const tab = await testTab(mock.baseUrl, store);
    const evolve = new EvolveDashboard({ runs: tab.runs, settings: tab.settings, files: tab.services, openLearn: () => undefined, schedule: manualSchedule() });
    await evolve.init();
    expect(evolve.form.assignments).toEqual({ 'lever-room': { role: 'both', seeds: '1' } });
    expect([evolve.form.budgetMetricCalls, evolve.form.rngSeed]).toEqual([50, 4]);
  });
});

/** The Evolve setup form: per-game roles make the task lists, seeds are checked, a run's config
 * fills it back. */
import { describe, expect, it } from 'vitest';
import type { EvolutionConfig } from '../../evolve/interface.ts';
import { loadWebCatalog } from '../shared/state/web-catalog.ts';
import { WEB_DEFAULT_EPISODES, WEB_DEFAULT_MAX_STEPS, webTaskSet } from '../../web/tasks/catalog.ts';
import { WEB_DEFAULTS } from '../shared/format/web-task-list.ts';
import { EvolveForm, seedStrategyOptions } from './evolve-form.svelte.ts';
import { BUILT_IN_META_PROMPTS, type MetaPromptEntry } from '../../agents/meta-prompt-library.ts';

const games: Record<string, string> = { 'local:detective.z5': 'detective', 'user:d': 'detective', advent: 'advent', 'local:temple.z5': 'temple' };
const form = () => new EvolveForm((id) => games[id] ?? id, () => ['advent', 'local:detective.z5', 'local:temple.z5', 'user:d']);

describe('EvolveForm', () => {
  it('builds train and validation tasks from the roles, in shelf order, with a split warning across copies of a game', () => {
    const f = form();
    expect(f.problems).toEqual(['Choose at least one training game.', 'Choose at least one validation game.']);
    f.setRole('local:temple.z5', 'val');
    f.setSeeds('local:temple.z5', '0, 3');
    f.setRole('local:detective.z5', 'train');
    f.setRole('advent', 'both');
    expect(f.train).toEqual([{ storyId: 'advent', seed: 0 }, { storyId: 'local:detective.z5', seed: 0 }]);
    expect(f.val).toEqual([{ storyId: 'advent', seed: 0 }, { storyId: 'local:temple.z5', seed: 0 }, { storyId: 'local:temple.z5', seed: 3 }]);
    expect(f.splitWarning).toMatch(/^advent is in both/);
    f.setRole('advent', 'none');
    f.setRole('user:d', 'val');
    expect(f.splitWarning).toMatch(/^detective is in both/);
    expect(f.problems).toEqual([]);
  });

  it('marks bad seeds and keeps the run from starting', () => {
    const f = form();
    f.setRole('advent', 'train');
    f.setRole('local:temple.z5', 'val');
    f.setSeeds('local:temple.z5', '1, x');
    expect(f.seedProblems).toEqual({ 'local:temple.z5': '“x” is not a seed (a whole number from 0 to 4294967295).' });
    expect(f.problems).toEqual(['Choose at least one validation game.', 'Fix the seeds marked in the story list.']);
  });

  it('refuses a budget that cannot pay for the seed validation plus one full iteration, with the numbers', () => {
    const f = form();
    f.setRole('advent', 'train');
    f.setRole('local:temple.z5', 'val');
    f.setSeeds('local:temple.z5', '0, 1, 2');
    // V = 3, b = 1: seed 3 + iteration (2 + 3) = 8 metric calls at least.
    f.budgetMetricCalls = 7;
    expect(f.problems).toEqual([expect.stringContaining('at least 8 are needed')]);
    f.budgetMetricCalls = 8;
    expect(f.problems).toEqual([]);
  });

  it('fills from a run’s config', () => {
    const f = form();
    const task = (id: string) => ({ id, storyId: '', title: '', md5: '', seed: Number(id.split(':').at(-1)), maxScore: 1 });
    f.fillFrom({
      train: [task('advent:0')], val: [task('advent:0'), task('local:temple.z5:2')], repeats: 2, valRepeats: 5, episodes: 3, maxSteps: 9, initialGuidingPrompt: '', seedStrategy: 'S',
      minibatchSize: 1, budgetMetricCalls: 20, maxConsecutiveFailures: 5, proposer: 'random', rngSeed: 7, concurrency: 1, models: { actor: '', metaAgent: '', proposer: '' }, contextWindow: 1,
    } satisfies EvolutionConfig, (id) => ({ storyId: id.slice(0, id.lastIndexOf(':')), seed: Number(id.slice(id.lastIndexOf(':') + 1)) }));
    expect(f.assignments).toEqual({ advent: { role: 'both', seeds: '0' }, 'local:temple.z5': { role: 'val', seeds: '2' } });
    expect([f.trainRepeats, f.valRepeats, f.episodes, f.maxSteps, f.budgetMetricCalls, f.proposer, f.rngSeed, f.seedStrategy]).toEqual([2, 5, 3, 9, 20, 'random', 7, 'S']);
  });

  it('takes web training and validation tasks by set and id, defaults them to 3 × 10, splits by instance, refills from a config', async () => {
    expect(WEB_DEFAULTS).toEqual({ episodes: WEB_DEFAULT_EPISODES, maxSteps: WEB_DEFAULT_MAX_STEPS });
    const f = form();
    f.webCatalog = await loadWebCatalog();
    f.webTrain = 'web:shop/t1:1, web:forge/t30:2';
    f.webVal = 'web:shop/t1:3 web:map/t40:3';
    expect(f.train).toEqual([{ storyId: 'web:shop/t1', seed: 1 }, { storyId: 'web:forge/t30', seed: 2 }]);
    expect(f.val).toEqual([{ storyId: 'web:shop/t1', seed: 3 }, { storyId: 'web:map/t40', seed: 3 }]);
    expect(f.splitWarning).toBeNull();
    expect([f.allWeb, f.episodes, f.maxSteps]).toEqual([true, 3, 10]);
    expect(f.problems).toEqual([]);
    f.webVal = 'WEB-ID-val';
    expect(f.val.map((p) => `${p.storyId}:${p.seed}`)).toEqual(webTaskSet('WEB-ID-val'));
    f.webTrain = 'web:shop/t1:x';
    expect(f.problems[0]).toBe('Web training tasks: “web:shop/t1:x”: "web:shop/t1:x" is not a web task id (expected web:<site>/<template>:<seed>, e.g. web:shop/t1:3).');
    expect(f.train).toEqual([]);
    const g = form();
    g.fillFrom({ train: [{ id: 'web:shop/t1:1' }], val: [{ id: 'web:map/t40:3' }, { id: 'advent:0' }], repeats: 1, episodes: 3, maxSteps: 10, minibatchSize: 1, budgetMetricCalls: 6, rngSeed: 0, proposer: 'random', seedStrategy: '', contextWindow: null } as unknown as EvolutionConfig,
      (id) => (id.startsWith('advent') ? { storyId: 'advent', seed: 0 } : null));
    expect([g.webTrain, g.webVal, g.assignment('advent').role]).toEqual(['web:shop/t1:1', 'web:map/t40:3', 'val']);
  });
});

describe('outer-loop options', () => {
  it('record what `metattl evolve` records for the same flags, keep across a reload, and fill back from a run', () => {
    const f = form();
    expect(f.outer.options()).toEqual({ candidateSelection: 'pareto', acceptance: 'strict_improvement', stopConditions: {} });
    Object.assign(f.outer, { selection: 'epsilon_greedy', epsilon: 0.25, acceptance: 'improvement_or_equal', merge: true, maxMerges: 3, proposalParents: 2, proposalMutations: 3, stopNoImprovement: 4, stopScore: 0.5, stopMinutes: 10, maxProposerUsd: 1.5 });
    // As `evolve --selection epsilon_greedy --epsilon 0.25 --accept improvement_or_equal --merge --max-merges 3 --proposals 2x3
    // --stop-no-improvement 4 --stop-score 0.5 --stop-minutes 10 --max-proposer-usd 1.5` (src/cli/evolve.ts).
    const expected = {
      candidateSelection: 'epsilon_greedy', epsilon: 0.25, acceptance: 'improvement_or_equal', merge: { maxMerges: 3 }, proposals: { parents: 2, mutations: 3 },
      stopConditions: { noImprovementIterations: 4, scoreThreshold: 0.5, timeLimitMinutes: 10, maxProposerUsd: 1.5 },
    };
    expect(f.outer.options()).toEqual(expected);
    expect(f.outer.changed).toBe(true);
    const again = form();
    again.restore(f.snapshot());
    expect(again.outer.options()).toEqual(expected);
    const filled = form();
    filled.fillFrom({ ...({} as EvolutionConfig), train: [], val: [], ...expected } as EvolutionConfig, () => null);
    expect(filled.outer.options()).toEqual(expected);
    // ε applies to ε-greedy only; more than 64 proposals an iteration is refused.
    f.outer.selection = 'pareto';
    expect(f.outer.options().epsilon).toBeUndefined();
    f.outer.proposalParents = 9;
    f.outer.proposalMutations = 8;
    expect(f.outer.problems).toEqual(['At most 64 proposals per iteration (parents × mutations), got 72.']);
  });

  it('count P × N proposals per iteration in the budget rule', () => {
    const f = form();
    f.setRole('advent', 'train');
    f.setRole('local:temple.z5', 'val');
    f.budgetMetricCalls = 4; // seed validation 1 + an iteration of 2b + V = 3
    expect(f.problems).toEqual([]);
    f.outer.proposalMutations = 2; // an iteration's worst case is now 2 · 3 = 6
    expect(f.problems.some((p) => /budget/i.test(p))).toBe(true);
  });
});

describe('proposer choices', () => {
  it('record what `metattl evolve` records for --proposer random-neutral [--edit-sizes] and --proposer-input no-trace, keep across a reload, fill back', () => {
    const f = form();
    expect(f.proposerConfig()).toEqual({ proposer: 'llm', proposerInstruction: 'gepa', optimizer: 'gepa' });
    f.proposerInput = 'no-trace';
    // As `evolve --proposer llm --proposer-input no-trace` (src/cli/evolve.ts).
    expect(f.proposerConfig()).toEqual({ proposer: 'llm', proposerInstruction: 'gepa', optimizer: 'gepa', proposerInput: 'no-trace' });
    // No trace needs the GEPA optimizer (OPRO's prompt shows a scored history, no trace).
    f.optimizer = 'opro';
    expect(f.proposerConfig()).toEqual({ proposer: 'llm', proposerInstruction: 'gepa', optimizer: 'opro' });
    f.optimizer = 'gepa';
    const reloaded = form();
    reloaded.restore(f.snapshot());
    expect(reloaded.proposerConfig().proposerInput).toBe('no-trace');

    const n = form();
    n.setRole('advent', 'train');
    n.setRole('local:temple.z5', 'val');
    n.proposer = 'random-neutral';
    // As `evolve --proposer random-neutral`: the documented default spread.
    expect(n.proposerConfig()).toEqual({ proposer: 'random-neutral', proposerInstruction: 'gepa', editSizes: { sizes: [10, 20, 35, 50, 70, 90, 120, 150, 200, 260, 340], source: 'default' } });
    n.editSizes = '12, 40,88';
    expect(n.proposerConfig().editSizes).toEqual({ sizes: [12, 40, 88], source: 'given' });
    expect(n.problems).toEqual([]);
    n.editSizes = '12, 0';
    expect(n.problems).toEqual(['Edit sizes: "0" is not a whole number from 1 to 100000']);
    n.editSizes = '12, 40, 88';
    const back = form();
    back.restore(n.snapshot());
    expect([back.proposer, back.editSizes]).toEqual(['random-neutral', '12, 40, 88']);
    const filled = form();
    filled.fillFrom({ ...({} as EvolutionConfig), train: [], val: [], proposer: 'random-neutral', editSizes: { sizes: [5, 9], source: 'measured: meta-ttl' } } as EvolutionConfig, () => null);
    expect(filled.proposerConfig()).toMatchObject({ proposer: 'random-neutral', editSizes: { sizes: [5, 9], source: 'given' } });
    // A pre-choice snapshot (no proposerInput / editSizes fields) restores the defaults.
    const old = form();
    const { proposerInput: _i, editSizes: _e, ...older } = n.snapshot();
    old.restore({ ...older, proposer: 'random' });
    expect([old.proposer, old.proposerInput, old.editSizes]).toEqual(['random', 'full', '']);
  });
});

describe('the seed-strategy list', () => {
  const mine: MetaPromptEntry = { id: 'user-1', name: 'Levers first', description: '', strategy: 'Pull every lever before moving.', provenance: { kind: 'hand-written' }, selectedOn: [] };
  const evolved: MetaPromptEntry = { ...mine, id: 'user-2', name: 'Evolved twin', provenance: { kind: 'evolved', runId: 'evo-1', parentId: null, iteration: 2 } };

  it('offers the built-ins, then the user\'s own meta-prompts, one choice per strategy text', () => {
    const options = seedStrategyOptions([...BUILT_IN_META_PROMPTS, mine, evolved], '');
    expect(options.filter((o) => o.group === 'Built-in').map((o) => o.label)).toEqual(BUILT_IN_META_PROMPTS.map((e) => e.name));
    expect(options.filter((o) => o.group === 'Your meta-prompts')).toEqual([{ value: 'Pull every lever before moving.', label: 'Levers first', group: 'Your meta-prompts' }]);
  });

  it('keeps a saved form\'s strategy offered when no entry has it any more', () => {
    const options = seedStrategyOptions(BUILT_IN_META_PROMPTS, 'A deleted strategy.');
    expect(options.at(-1)).toEqual({ value: 'A deleted strategy.', label: 'The strategy of the last run (no longer in the library)', group: 'Your meta-prompts' });
    expect(seedStrategyOptions(BUILT_IN_META_PROMPTS, BUILT_IN_META_PROMPTS[1]!.strategy)).toHaveLength(new Set(BUILT_IN_META_PROMPTS.map((e) => e.strategy)).size);
  });
});

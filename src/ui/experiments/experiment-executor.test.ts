/**
 * The page's experiment executor without a model or a browser: a step maps to the run config the
 * Evolve / Evaluate drivers take (the experiment's K, S, budget, minibatch, sessions per
 * candidate, arms and baseline), a finished run maps back to the step's outcome (the chosen
 * candidate's mean validation W-AUC, hand-computed), a stored run resumes with its own config, and
 * the whole tiny random-control runs through the core runner to a report; task sets expand and
 * name missing games.
 */
import { describe, expect, it } from 'vitest';
import type { EvaluationConfig, EvaluationResult, EvaluationState } from '../../eval/interface.ts';
import type { EvolutionConfig, EvolutionState, EvolutionTask } from '../../evolve/interface.ts';
import { applyOverrides, BUILTIN_EXPERIMENTS } from '../../experiment/builtins.ts';
import { freshExperimentState, runExperiment } from '../../experiment/experiment-runner.ts';
import type { EvaluationStep, EvolutionStep, ExperimentState, RecallProbeStep } from '../../experiment/interface.ts';
import { runRecallProbe } from '../../eval/recall-probe.ts';
import { LlmError } from '../../llm/errors.ts';
import type { ChatMessage, ChatModel, Completion } from '../../llm/interface.ts';
import { planExperiment } from '../../experiment/plan.ts';
import { buildExperimentReport } from '../../experiment/report.ts';
import { experimentReportToMarkdown } from '../../experiment/report-formats.ts';
import { policyOptions } from '../shared/state/policy-options.ts';
import { armPolicies, browserExecutor, evaluationConfigOf, evolutionConfigOf, evolutionOutcomeOf, PAGE_WALKTHROUGHS, stepRunId, type RunShape } from './experiment-executor.ts';
import { canonicalTasks, shelfTask } from './experiment-tasks.ts';

const SHAPE: RunShape = { models: { actor: 'a', metaAgent: 'm', proposer: 'p' }, concurrency: 2, contextWindow: 32_000 };
const spec = applyOverrides(BUILTIN_EXPERIMENTS['random-control']!, { episodes: 2, steps: 3, repeats: 1, budget: 4, valRepeats: 1, taskSets: { ID: ['advent:0'], OOD: ['advent:1'] } });
const plan = planExperiment(spec);
const task = (id: string): EvolutionTask => ({ id, storyId: id.split(':')[0]!, title: id, md5: `md5-${id}`, seed: Number(id.split(':')[1]), maxScore: 10 });
const evolutionStep = (i: number) => plan.steps[i] as EvolutionStep;
const evaluationStep = (i: number) => plan.steps[i] as EvaluationStep;
const options = policyOptions([]);

function evolutionState(id: string, config: EvolutionConfig, status: EvolutionState['status'] = 'complete'): EvolutionState {
  return {
    format: 'metattl-evolution-1', id, config, status, stopReason: null, stopMessage: null, metricCalls: [], metricCallsUsed: 4, failedProposals: 0, fronts: {}, iteration: 1, rngState: 0,
    candidates: [
      { id: 'c0', parentId: null, strategy: 'seed', valScores: { 'advent:0': 0.2 } },
      { id: 'c1', parentId: 'c0', strategy: 'Map the rooms first.', valScores: { 'advent:0': 0.5, 'advent:1': 0.3 } },
    ] as unknown as EvolutionState['candidates'],
    best: { byMean: 'c1', byZScore: 'c1' }, progress: [], startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, sessionsPlayed: 4, faultedEpisodes: 0,
  };
}

function evaluationState(id: string, config: EvaluationConfig): EvaluationState {
  const results: EvaluationResult[] = config.policies.flatMap((p, i) => config.taskSets[0]!.tasks.map((t) => ({
    key: `${p.id}|${t.id}|0`, policyId: p.id, taskId: t.id, storyId: t.storyId ?? t.id, taskSet: config.taskSets[0]!.name, repeat: 0, sessionId: `${id}:${p.id}`, wAuc: 0.1 * (i + 1), averageScore: i + 1, bestScore: i + 1, scores: [i, i + 1], costUsd: 0,
  })));
  return { format: 'metattl-evaluation-1', id, config, status: 'complete', stopReason: null, stopMessage: null, results, totalSessions: results.length, faultedEpisodes: 0, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null };
}

describe('step → run config', () => {
  it('an evolution step takes the experiment’s K, S, budget, minibatch, sessions per candidate and proposer', () => {
    const llm = evolutionConfigOf(plan, evolutionStep(0), [task('advent:0')], [task('advent:0')], SHAPE);
    expect(llm).toMatchObject({ episodes: 2, maxSteps: 3, budgetMetricCalls: 4, minibatchSize: 1, trainRepeats: 1, valRepeats: 1, repeats: 1, proposer: 'llm', optimizer: 'gepa', rngSeed: 0, concurrency: 2, contextWindow: 32_000, models: SHAPE.models });
    expect(llm.train.map((t) => t.id)).toEqual(['advent:0']);
    const random = evolutionConfigOf(plan, evolutionStep(1), [task('advent:0')], [task('advent:0')], SHAPE);
    // The matched control: the default edit sizes until the LLM arm's are handed over.
    expect(random).toMatchObject({ proposer: 'random-neutral', editSizes: { source: 'default' } });
    expect('optimizer' in random).toBe(false);
    const matched = evolutionConfigOf(plan, evolutionStep(1), [task('advent:0')], [task('advent:0')], SHAPE, { sizes: [4, 9], source: 'measured: evolve-meta-ttl\'s 2 edits' });
    expect(matched.editSizes).toEqual({ sizes: [4, 9], source: 'measured: evolve-meta-ttl\'s 2 edits' });
    expect(stepRunId('exp-1', evolutionStep(1).id)).toBe('exp-1.evolve-random');
  });

  it('an evaluation step’s arms: named policies from the options, evolved arms with the chosen strategy and their selection games', () => {
    const outcome = evolutionOutcomeOf(evolutionState('exp-1.evolve-meta-ttl', evolutionConfigOf(plan, evolutionStep(0), [task('advent:0')], [task('advent:0')], SHAPE)));
    const evolved = { 'evolve-meta-ttl': outcome, 'evolve-random': { ...outcome, bestCandidateId: 'c0', bestStrategy: 'seed' }, 'evolve-no-trace': outcome };
    // The built-in evaluates off the training games only: one evaluation step, OOD.
    expect(plan.steps.map((s) => s.id)).toEqual(['evolve-meta-ttl', 'evolve-random', 'evolve-no-trace', 'eval-OOD']);
    const policies = armPolicies(plan, evaluationStep(3), evolved, options);
    expect(policies.map((p) => [p.id, p.spec.kind, p.selectedOn])).toEqual([['naive', 'meta', []], ['evolved', 'meta', ['advent']], ['random-evolved', 'meta', ['advent']], ['no-trace-evolved', 'meta', ['advent']]]);
    expect(policies[1]).toMatchObject({ name: 'evolved (c1 of evolve-meta-ttl)', spec: { strategy: 'Map the rooms first.' } });
    const config = evaluationConfigOf(plan, evaluationStep(3), policies, [task('advent:1')], SHAPE);
    expect(config).toMatchObject({ taskSets: [{ name: 'OOD' }], repeats: 1, episodes: 2, maxSteps: 3, baselinePolicyId: 'naive', bootstrapSeed: 0, models: { actor: 'a', metaAgent: 'm' } });
    // The experiment's key contrast is declared in the step's own report too.
    expect(config.contrasts).toEqual([{ a: 'evolved', b: 'random-evolved' }, { a: 'evolved', b: 'no-trace-evolved' }]);
    expect(() => armPolicies(plan, { ...evaluationStep(3), arms: [{ id: 'x', policy: 'nope' }] }, evolved, options)).toThrow(/no policy “nope”/);
    expect(() => armPolicies(plan, evaluationStep(3), {}, options)).toThrow(/needs evolution evolve-meta-ttl/);
    // "raw": true on a meta-prompt arm runs its text as the whole system prompt; on a baseline it is refused.
    const raw = armPolicies(plan, { ...evaluationStep(3), arms: [{ id: 'paper', policy: 'fact-bank', raw: true }] }, evolved, options);
    const fact = options.find((o) => o.id === 'fact-bank')!;
    expect(raw).toEqual([{ id: 'paper', name: 'Fact bank (raw)', spec: { ...fact.spec, raw: true }, selectedOn: [] }]);
    expect(() => armPolicies(plan, { ...evaluationStep(3), arms: [{ id: 's', policy: 'static', raw: true }] }, evolved, options)).toThrow(/“raw” takes a meta-prompt, and “static” is the Static baseline/);
  });

  it('an evolution’s outcome: the candidate chosen by mean, its strategy, mean validation W-AUC ((0.5 + 0.3) / 2), its per-task scores and whether it is the seed', () => {
    const o = evolutionOutcomeOf(evolutionState('r', evolutionConfigOf(plan, evolutionStep(0), [], [], SHAPE)));
    expect(o).toEqual({ runId: 'r', status: 'complete', stopReason: null, metricCallsUsed: 4, budget: 4, sessionsPlayed: 4, bestCandidateId: 'c1', bestStrategy: 'Map the rooms first.', bestValWAuc: 0.4, candidates: 2, bestIsSeed: false, bestValScores: { 'advent:0': 0.5, 'advent:1': 0.3 },
      // The per-arm accounting (src/evolve/accounting.ts): c1 is one proposal ("seed" → 4 new words), neither accepted nor validated.
      proposals: 1, accepted: 0, validated: 0, proposerTokens: 0, proposerUsd: null, editSizes: [4] });
  });
});

describe('the executor', () => {
  function fakes(stored: Record<string, EvolutionConfig | EvaluationConfig> = {}, fail: string | null = null) {
    const calls: { id: string; config: EvolutionConfig | EvaluationConfig }[] = [];
    const saved: ExperimentState[] = [];
    const evolution = { state: null as EvolutionState | null, run: async (id: string, config: EvolutionConfig) => (calls.push({ id, config }), id === fail ? null : (evolution.state = evolutionState(id, config))) };
    const evaluation = { state: null as EvaluationState | null, run: async (id: string, config: EvaluationConfig) => (calls.push({ id, config }), id === fail ? null : (evaluation.state = evaluationState(id, config))) };
    const exec = browserExecutor(plan, {
      experimentId: 'exp-1', evolution, evaluation, resolve: async (id) => task(id), storedConfig: async (id) => stored[id], shape: async () => SHAPE, policies: async () => options,
      save: async (s) => void saved.push(structuredClone(s)), now: () => '2026-01-01T00:01:00.000Z',
    });
    return { calls, saved, exec };
  }

  it('runs the tiny random-control through the core runner: 3 evolutions, 1 held-out evaluation, one report', async () => {
    const { calls, saved, exec } = fakes();
    const { state, exitCode } = await runExperiment(plan, freshExperimentState(plan, [SHAPE.models], '2026-01-01T00:00:00.000Z'), exec);
    expect(exitCode).toBe(0);
    expect(calls.map((c) => c.id)).toEqual(['exp-1.evolve-meta-ttl', 'exp-1.evolve-random', 'exp-1.evolve-no-trace', 'exp-1.eval-OOD']);
    // The control draws its edit sizes from the LLM arm's recorded edit ("seed" → "Map the rooms first.": 4 words);
    // the no-trace arm is the LLM proposer without the trajectory.
    expect((calls[1]!.config as EvolutionConfig).editSizes).toEqual({ sizes: [4], source: "measured: evolve-meta-ttl's 1 edit" });
    expect(calls[2]!.config).toMatchObject({ proposer: 'llm', proposerInput: 'no-trace' });
    expect(state.status).toBe('complete');
    expect(saved).toHaveLength(5);
    const report = buildExperimentReport(plan, state);
    expect(report.rows.map((r) => [r.step, r.arm, r.sessions, r.split.role])).toEqual([
      // advent:1 is another seed of the game the evolutions trained on (advent:0): the split says so.
      ['eval-OOD', 'naive', 1, 'not-selected'], ['eval-OOD', 'evolved', 1, 'selected-on'], ['eval-OOD', 'random-evolved', 1, 'selected-on'], ['eval-OOD', 'no-trace-evolved', 1, 'selected-on'],
    ]);
    expect(report.rows.map((r) => r.wAuc.estimate)).toEqual([0.1, 0.2, 0.1 * 3, 0.4]);
    expect(report.pendingSteps).toEqual([]);
    expect(report.evolutions.map((e) => [e.step, e.proposals, e.editSizeTarget?.source ?? null, e.proposerInput ?? null])).toEqual([
      ['evolve-meta-ttl', 1, null, null], ['evolve-random', 1, "measured: evolve-meta-ttl's 1 edit", null], ['evolve-no-trace', 1, null, 'no-trace'],
    ]);
    expect(report.armMatching?.[0]).toMatchObject({ matched: true, steps: ['evolve-meta-ttl', 'evolve-random', 'evolve-no-trace'] });
    // Each evaluation keeps every session's W-AUC for the selection test.
    expect(state.steps['eval-OOD']!.evaluation!.sessions).toEqual([
      { policyId: 'naive', taskId: 'advent:1', repeat: 0, wAuc: 0.1 }, { policyId: 'evolved', taskId: 'advent:1', repeat: 0, wAuc: 0.2 }, { policyId: 'random-evolved', taskId: 'advent:1', repeat: 0, wAuc: 0.1 * 3 },
      { policyId: 'no-trace-evolved', taskId: 'advent:1', repeat: 0, wAuc: 0.4 },
    ]);
  });

  it("a simulated model's report says so and refuses the paper's numbers beside it; a real model's keeps them", async () => {
    const { exec } = fakes();
    const { state } = await runExperiment(plan, freshExperimentState(plan, [SHAPE.models], '2026-01-01T00:00:00.000Z'), exec);
    const real = buildExperimentReport(plan, state);
    expect(real.paperReference).not.toBeNull();
    expect(real.simulated).toBeUndefined();
    const simulatedModels = { actor: 'simulated', metaAgent: 'simulated', proposer: 'simulated' };
    const simulated = buildExperimentReport(plan, { ...state, models: [simulatedModels] });
    expect(simulated.paperReference).toBeNull();
    expect(simulated.rows.every((r) => r.paper === null)).toBe(true);
    expect(simulated.simulated).toBe('simulated model — not a language model; it shows how the loop works, not how real models behave');
    const markdown = experimentReportToMarkdown(simulated);
    expect(markdown).toContain("Model: simulated (simulated model — not a language model; it shows how the loop works, not how real models behave); the paper's numbers are not printed beside a simulation's.");
    expect(markdown).not.toContain('Paper:');
  });

  it('a stored run resumes with its own config; a run that did not start stops the experiment (exit 1), resumable', async () => {
    const storedConfig = { ...evolutionConfigOf(plan, evolutionStep(0), [task('advent:0')], [task('advent:0')], SHAPE), budgetMetricCalls: 9 };
    const { calls, exec } = fakes({ 'exp-1.evolve-meta-ttl': storedConfig }, 'exp-1.evolve-random');
    const { state, exitCode } = await runExperiment(plan, freshExperimentState(plan, [SHAPE.models], '2026-01-01T00:00:00.000Z'), exec);
    expect(calls[0]!.config).toBe(storedConfig);
    expect(exitCode).toBe(1);
    expect(state.status).toBe('stopped');
    expect(Object.entries(state.steps).map(([id, s]) => [id, s.status])).toEqual([['evolve-meta-ttl', 'complete'], ['evolve-random', 'stopped'], ['evolve-no-trace', 'pending'], ['eval-OOD', 'pending']]);
  });
});

describe('task sets in the page', () => {
  const lib = {
    entries: [{ id: 'advent', catalog: { id: 'advent' } }, { id: 'local:detective.z5', catalog: { id: 'detective' } }],
    catalog: [{ id: 'advent', tags: ['demo'], defaultSeed: 0 }, { id: 'detective', tags: ['jericho', 'id'], defaultSeed: 12 }, { id: 'zork1', tags: ['jericho', 'id'], defaultSeed: 12 }],
    webSet: (name: string) => (name === 'WEB-OOD' ? ['web:map/t1:4'] : null),
  };

  it('expands ID and web sets, writes games by catalog id with the default seed, names missing games', () => {
    expect(canonicalTasks(['ID', 'advent:3', 'WEB-OOD'], lib)).toEqual({ tasks: ['detective:12', 'zork1:12', 'advent:3', 'web:map/t1:4'], missing: ['zork1'] });
    expect(canonicalTasks(['detective', 'local:detective.z5:2'], lib)).toEqual({ tasks: ['detective:12', 'detective:2'], missing: [] });
    expect(shelfTask('detective:2', lib.entries)).toEqual({ storyId: 'local:detective.z5', seed: 2 });
    expect(shelfTask('web:map/t1:4', lib.entries)).toEqual({ storyId: 'web:map/t1', seed: 4 });
    expect(() => shelfTask('zork1:12', lib.entries)).toThrow(/No story on your story shelf plays “zork1”/);
  });
});

describe('the recall-probe step in the page', () => {
  const WALK = ['look', 'pull lever', 'north', 'pull lever', 'south', 'pull lever', 'inventory', 'pull lever'];
  const recallSpec = { ...spec, recallProbe: { taskSets: ['ID'], k: 2, probes: 3, seed: 0, walkthroughs: { advent: WALK } } };
  const recallPlan = planExperiment(recallSpec);
  /** An actor that knows the walkthrough: it finds the context in it and says the next command. */
  const memoriser = (calls: string[]): ChatModel => ({
    role: 'actor', settings: {} as ChatModel['settings'],
    async complete(messages: ChatMessage[]): Promise<Completion> {
      calls.push(messages[1]!.content);
      const context = [...messages[1]!.content.matchAll(/^\d+\. (.*)$/gm)].map((x) => x[1]!);
      const at = WALK.findIndex((_, i) => context.every((c, j) => WALK[i + j] === c));
      return { content: (at >= 0 ? WALK[at + context.length] : undefined) ?? 'wait', finishReason: 'stop', model: 'fake', usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } as Completion['usage'] };
    },
  });
  const deps = (model: ChatModel, signal?: AbortSignal) => ({
    experimentId: 'exp-r', evolution: { run: async () => null, state: null }, evaluation: { run: async () => null, state: null }, resolve: async (id: string) => task(id), storedConfig: async () => undefined,
    shape: async () => SHAPE, policies: async () => options, save: async () => {}, now: () => '2026-01-01T00:00:00.000Z',
    recallModel: async () => ({ model, name: 'memoriser', concurrency: 2, ...(signal ? { signal } : {}), dispose: () => {} }), titleOf: (game: string) => (game === 'advent' ? 'Adventure' : game),
  });

  it('is planned last and runs the core probe with the Settings\' actor: the same report as runRecallProbe on the same walkthrough', async () => {
    const step = recallPlan.steps.at(-1)!;
    expect(step).toMatchObject({ kind: 'recall-probe', id: 'recall-probe', games: ['advent'], options: { k: 2, probes: 3, seed: 0 } });
    const calls: string[] = [];
    const result = await browserExecutor(recallPlan, deps(memoriser(calls))).recallProbe!(step as RecallProbeStep);
    const direct = await runRecallProbe([{ game: 'advent', title: 'Adventure', walkthrough: WALK }], memoriser([]), { k: 2, probes: 3, seed: 0 });
    expect(result.exitCode).toBe(0);
    expect(result.outcome).toEqual({ status: 'complete', model: 'memoriser', walkthroughSource: 'the experiment\'s recallProbe.walkthroughs (advent)', options: { k: 2, probes: 3, seed: 0 }, games: direct.games, pooled: null, items: direct.items });
    expect(result.outcome!.games[0]!.normalised).toMatchObject({ count: 3, n: 3 });
    expect(calls[0]).toContain('“Adventure”');
  });

  it('names the game without a walkthrough and where the page looks; a stop leaves the step to ask again', async () => {
    const bare = planExperiment({ ...recallSpec, recallProbe: { ...recallSpec.recallProbe, walkthroughs: {} } });
    await expect(browserExecutor(bare, deps(memoriser([]))).recallProbe!(bare.steps.at(-1) as RecallProbeStep)).rejects.toThrow(`recall-probe: no walkthrough for advent (${PAGE_WALKTHROUGHS})`);
    const stop = new AbortController();
    const stopping: ChatModel = { ...memoriser([]), complete: async () => { stop.abort(); throw new LlmError('aborted', 'stopped'); } };
    // The plan's recall step alone through the core runner: stopped, nothing kept, asked again on Resume.
    const only = { ...recallPlan, steps: [recallPlan.steps.at(-1)!] };
    const run = await runExperiment(only, freshExperimentState(only, [SHAPE.models], '2026-01-01T00:00:00.000Z'), browserExecutor(only, deps(stopping, stop.signal)));
    expect(run.exitCode).toBe(130);
    expect(run.state.steps['recall-probe']).toEqual({ status: 'stopped' });
  });
});

/**
 * The CSV of every exported chart and table (through the one CSV writer, src/eval/csv.ts), on real
 * values: Learn's curve and sessions list, the Evolve best-so-far curve, candidate table and lineage,
 * Evaluate's curves and per-game table, the runs lists, the price table and the story/task table;
 * and the exports' file names and downloads.
 */
import { describe, expect, it } from 'vitest';
import { toCsv } from '../src/eval/csv.ts';
import type { EvaluationReport } from '../src/eval/interface.ts';
import type { Candidate, EvolutionState } from '../src/evolve/interface.ts';
import type { Interval } from '../src/ttl/metrics.ts';
import { curvesSpec, gamesTable } from '../src/ui/evaluate/report-view.ts';
import { candidateRows, candidateTable, progressSpec } from '../src/ui/shared/evolution/dashboard.ts';
import { lineageTable } from '../src/ui/shared/evolution/lineage.ts';
import { curveOfItems, sessionsTable } from '../src/ui/learn/curves.ts';
import type { SessionListItem } from '../src/ui/learn/session-runs.svelte.ts';
import { priceTable } from '../src/ui/settings/price-table.ts';
import { curveTable } from '../src/ui/shared/charts/learning-chart.ts';
import { lineChartTable } from '../src/ui/shared/charts/line-chart.ts';
import { evolutionRunRow, runsTable } from '../src/ui/shared/format/run-rows.ts';
import { storyTaskTable } from '../src/ui/shared/format/task-picks.ts';
import { evaluationsTable } from '../src/ui/shared/state/entry-io.ts';
import { createExports, exportFileName } from '../src/ui/shared/state/exports.ts';
import { replayCandidateTable } from '../src/ui/replay/replay-source.ts';
import { describeModel } from '../src/llm/model-label.ts';

const lines = (csv: string): string[] => csv.split('\n');
/** The simulated model's caveat as a CSV cell (it holds a comma, so it is quoted). */
const NOTICE = '"simulated model — not a language model; it shows how the loop works, not how real models behave"';

describe('Learn exports', () => {
  const item = (id: string, scores: number[], extra: Partial<SessionListItem> = {}): SessionListItem => ({
    id, title: 'The Lever Room', seed: 3, policy: 'naive', episodes: 3, maxSteps: 15, status: 'complete', scores, wAuc: 0.4167, maxScore: 10,
    faultedEpisodes: 0, model: 'gpt-4o-mini', simulated: false, caveat: null, startedAt: '2026-11-30T18:00:00.000Z', updatedAt: 0, ...extra,
  });
  const items = [item('s-aaaaaa111111', [0, 5, 10]), item('s-bbbbbb222222', [0], { status: 'running', policy: '=HYPERLINK("x")', wAuc: null, faultedEpisodes: 1, model: 'simulated model', simulated: true, caveat: 'simulated model — not a language model; it shows how the loop works, not how real models behave' })];

  it('the learning curve: one row per series, a column per episode, empty where an episode has not ended', () => {
    expect(lines(toCsv(curveTable(curveOfItems(items))))).toEqual([
      'Series,Episode 1,Episode 2,Episode 3,model,model_caveat',
      'The Lever Room · naive · gpt-4o-mini · 111111,0,5,10,gpt-4o-mini,',
      `"The Lever Room · =HYPERLINK(""x"") · simulated model · 222222",0,,,simulated model,${NOTICE}`,
      '',
    ]);
  });

  it('the sessions list: what each row shows, the model-named policy defused', () => {
    expect(lines(toCsv(sessionsTable(items)))).toEqual([
      'id,story,seed,policy,model,simulated,K,S,status,scores,W-AUC,faulted episodes,started,human edits,model caveat',
      's-aaaaaa111111,The Lever Room,3,naive,gpt-4o-mini,false,3,15,complete,0 5 10,0.4167,0,2026-11-30T18:00:00.000Z,0,',
      `s-bbbbbb222222,The Lever Room,3,"'=HYPERLINK(""x"")",simulated model,true,3,15,interrupted,0,,1,2026-11-30T18:00:00.000Z,0,${NOTICE}`,
      '',
    ]);
  });
});

describe('Evolve exports', () => {
  const task = (id: string, storyId: string) => ({ id, storyId, title: storyId, md5: '0'.repeat(32), seed: 0, maxScore: 10 });
  const candidate = (id: string, parentId: string | null, status: Candidate['status'], valScores: Record<string, number> = {}, reason = `${status} because`): Candidate => ({
    id, parentId, iteration: Number(id.slice(1)), strategy: `strategy of ${id}`, status, reason, proposerReply: null, valScores, minibatch: null, triggeredBy: null,
  });
  const state: EvolutionState = {
    format: 'metattl-evolution-1', id: 'run1', status: 'complete', stopReason: 'budget', stopMessage: null, metricCallsUsed: 9, sessionsPlayed: 9, faultedEpisodes: 0, failedProposals: 0,
    config: {
      train: [task('detective:0', 'detective')], val: [task('advent:0', 'advent'), task('temple:0', 'temple')], repeats: 1, episodes: 3, maxSteps: 5,
      initialGuidingPrompt: 'go', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 10, maxConsecutiveFailures: 3, proposer: 'llm', rngSeed: 0, concurrency: 2,
      models: { actor: 'm', metaAgent: 'm', proposer: 'm' }, contextWindow: 8000,
    },
    candidates: [
      candidate('c0', null, 'seed', { 'advent:0': 0.1, 'temple:0': 0.3 }),
      candidate('c1', 'c0', 'accepted', { 'advent:0': 0.2, 'temple:0': 0.1 }),
      candidate('c2', 'c1', 'rejected', {}, 'minibatch 0.1 ≤ parent 0.2, "no gain"'),
    ],
    metricCalls: [], fronts: { 'advent:0': ['c1'], 'temple:0': ['c0'] }, iteration: 2, rngState: 0, best: { byMean: 'c0', byZScore: 'c1' },
    progress: [{ metricCallsUsed: 2, bestMeanVal: 0.2 }, { metricCallsUsed: 6, bestMeanVal: 0.25 }], startedAt: '', finishedAt: '',
  };
  const tasks = state.config.val.map((t) => ({ id: t.id, label: `${t.storyId}:${t.seed}` }));

  it('the candidate table (heatmap): per-task W-AUC and mean as numbers, best flags, fronts, reasons quoted', () => {
    const csv = toCsv(candidateTable(candidateRows(state), tasks, describeModel(state.config.models)));
    expect(lines(csv)).toEqual([
      'id,best,parent,status,advent:0,temple:0,mean,Pareto fronts,Pareto tasks,reason,model,model_caveat',
      'c0,mean,,seed,0.1,0.3,0.2,1,temple:0,seed because,m,',
      `c1,z-score,c0,accepted,0.2,0.1,${(0.2 + 0.1) / 2},1,advent:0,accepted because,m,`,
      'c2,,c1,rejected,,,,0,,"minibatch 0.1 ≤ parent 0.2, ""no gain""",m,',
      '',
    ]);
  });

  it('the lineage tree: tree order, depth, the drawn line, status and mean', () => {
    const rows = candidateRows(state);
    const csv = toCsv(lineageTable(state.candidates, (id) => rows.find((r) => r.id === id)?.mean ?? null, describeModel({ presetId: 'simulated' })));
    expect(lines(csv)).toEqual(['id,parent,depth,tree,status,mean,model,model_caveat', `c0,,0,c0,seed,0.2,simulated model,${NOTICE}`, `c1,c0,1,└─ c1,accepted,${0.15000000000000002},simulated model,${NOTICE}`, `c2,c1,2,"   └─ c2",rejected,,simulated model,${NOTICE}`, '']);
    // Without a model given: said to be unknown, never left blank.
    expect(lines(toCsv(lineageTable(state.candidates, () => null)))[1]).toBe('c0,,0,c0,seed,,unknown model,');
  });

  it('the best-so-far curve: its points, named after the axes', () => {
    expect(lines(toCsv(lineChartTable(progressSpec(state))))).toEqual([
      'series,budget spent (metric calls),W-AUC,model,model_caveat', 'best mean validation W-AUC,2,0.2,m,', 'best mean validation W-AUC,6,0.25,m,', 'best mean validation W-AUC,9,0.25,m,', '',
    ]);
  });

  it('the runs list', () => {
    const row = evolutionRunRow({ id: 'run1', kind: 'evolution', updatedAt: Date.UTC(2026, 10, 30, 19, 5), summary: { status: 'complete', metricCallsUsed: 9, budget: 10, candidates: 3, bestCandidateId: 'c0', bestMeanVal: 0.2, train: ['detective:0'], val: ['advent:0'], models: { actor: 'simulated', metaAgent: 'simulated', proposer: 'simulated' } } } as never);
    expect(lines(toCsv(runsTable([row])))).toEqual([
      'id,status,progress,detail,updated,model,model_caveat', `run1,complete,"9 / 10 metric calls, 3 candidates",best c0: 0.200 · train detective:0 · val advent:0,2026-11-30T19:05:00.000Z,simulated model,${NOTICE}`, '',
    ]);
    // A run stored before summaries recorded their models.
    const old = evolutionRunRow({ id: 'run0', kind: 'evolution', updatedAt: 0, summary: { status: 'complete' } } as never);
    expect(lines(toCsv(runsTable([old])))[1]!.endsWith(',unknown model,')).toBe(true);
  });
});

describe('Evaluate exports', () => {
  const iv = (estimate: number, low: number, high: number): Interval => ({ estimate, low, high, resamples: 2000, n: 2 });
  const report: EvaluationReport = {
    id: 'e1', status: 'complete', stopReason: null, stopMessage: null, plannedSessions: 4, faultedEpisodes: 0, baselinePolicyId: 'naive', bootstrap: { resamples: 2000, seed: 0, level: 0.95 }, totalSessions: 4,
    policies: [
      { policyId: 'naive', taskSet: 'ID', sessions: 2, games: 2, wAuc: iv(0.1, 0.05, 0.15), averageScore: iv(3, 1, 5), bestScore: iv(5, 2, 8), diffVsBaseline: null, beatsBaseline: false, leakWarning: null, curve: [iv(1, 0, 2), iv(3, 2, 4)] },
      { policyId: 'memory', taskSet: 'ID', sessions: 2, games: 2, wAuc: iv(0.3, 0.2, 0.4), averageScore: iv(6, 4, 8), bestScore: iv(9, 7, 10), diffVsBaseline: iv(-0.2, -0.3, -0.1), beatsBaseline: false, leakWarning: null, curve: [iv(2, 1, 3), iv(Number.NaN, Number.NaN, Number.NaN)] },
    ],
    games: [
      { policyId: 'naive', taskSet: 'ID', storyId: 'temple', sessions: 1, wAuc: iv(0.1, 0.1, 0.1), averageScore: iv(3, 3, 3), bestScore: iv(5, 5, 5) },
      { policyId: 'naive', taskSet: 'ID', storyId: 'detective', sessions: 1, wAuc: iv(0.25, 0.2, 0.3), averageScore: iv(4.5, 4, 5), bestScore: iv(6, 6, 6) },
    ],
    model: 'model: gpt-4o-mini',
  };

  it('the learning curves: mean final score per episode with its 95% CI, a missing point left out', () => {
    expect(lines(toCsv(lineChartTable(curvesSpec(report, 'ID', { actor: 'gpt-4o-mini', metaAgent: 'gpt-4o-mini' }))))).toEqual([
      'series,episode,mean final score,mean final score 95% CI low,mean final score 95% CI high,model,model_caveat',
      'naive,1,1,0,2,gpt-4o-mini,', 'naive,2,3,2,4,gpt-4o-mini,', 'memory,1,2,1,3,gpt-4o-mini,', '',
    ]);
  });

  it('the per-game table: rows in the table’s order, every interval as estimate, low, high', () => {
    expect(lines(toCsv(gamesTable(report)))).toEqual([
      'game,policy,task set,sessions,W-AUC,W-AUC 95% CI low,W-AUC 95% CI high,average score,average score 95% CI low,average score 95% CI high,best score,best score 95% CI low,best score 95% CI high,model,model_caveat',
      'detective,naive,ID,1,0.25,0.2,0.3,4.5,4,5,6,6,6,gpt-4o-mini,',
      'temple,naive,ID,1,0.1,0.1,0.1,3,3,3,5,5,5,gpt-4o-mini,',
      '',
    ]);
    // The simulated model's report: named, with its caveat.
    const simulated = { ...report, model: undefined, simulated: 'simulated model — not a language model; it shows how the loop works, not how real models behave' };
    expect(lines(toCsv(gamesTable(simulated)))[1]).toBe(`detective,naive,ID,1,0.25,0.2,0.3,4.5,4,5,6,6,6,simulated model,${NOTICE}`);
  });
});

describe('Settings and setup tables', () => {
  it('the price table', () => {
    expect(lines(toCsv(priceTable([{ id: 1, model: 'gpt-4o-mini', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6, cachedInputPerMTokUsd: 0.075 }, { id: 2, model: '', inputPerMTokUsd: 0, outputPerMTokUsd: 0 }])))).toEqual([
      'model,input USD per million tokens,output USD per million tokens,cached input USD per million tokens', 'gpt-4o-mini,0.15,0.6,0.075', ',0,0,', '',
    ]);
  });

  it('the story/task table: role as the picker words it, seeds as typed, unknown max score empty', () => {
    const stories = [{ id: 'lever', title: 'The Lever Room', game: 'lever-room', maxScore: 10 }, { id: 'mine', title: 'Mine, all mine', game: 'user-1', maxScore: null }];
    const role: Record<string, string> = { lever: 'Training', mine: '—' };
    expect(lines(toCsv(storyTaskTable(stories, (id) => role[id]!, (id) => (id === 'lever' ? '0, 1' : ''))))).toEqual([
      'story,game,max score,role,seeds', 'The Lever Room,lever-room,10,Training,"0, 1"', '"Mine, all mine",user-1,,—,', '',
    ]);
  });
});

describe('Library and Replay tables', () => {
  it('a meta-prompt’s evaluations', () => {
    const simulated = describeModel({ presetId: 'simulated' });
    expect(lines(toCsv(evaluationsTable([
      { taskSet: 'ID', meanWAuc: 0.312, low: 0.25, high: 0.4, evaluationId: 'e1', sessions: 6, model: simulated.name, modelCaveat: simulated.caveat },
      { taskSet: 'OOD', meanWAuc: 0.1, low: 0, high: 0.2 },
    ])))).toEqual([
      'task set,mean W-AUC,95% CI low,95% CI high,evaluation,sessions,model,model_caveat', `ID,0.312,0.25,0.4,e1,6,simulated model,${NOTICE}`, 'OOD,0.1,0,0.2,,,unknown model,', '',
    ]);
  });

  it('the candidates of a replayed evolution', () => {
    expect(lines(toCsv(replayCandidateTable([
      { id: 'c0', parentId: null, status: 'seed', meanVal: 0.25, reason: 'the seed' },
      { id: 'c1', parentId: 'c0', status: 'failed', meanVal: null, reason: '-1 parse error, see reply' },
    ], describeModel({ actor: 'gpt-4o' }))))).toEqual(['candidate,parent,status,mean validation W-AUC,reason,model,model_caveat', 'c0,,seed,0.25,the seed,gpt-4o,', 'c1,c0,failed,,"\'-1 parse error, see reply",gpt-4o,', '']);
  });
});

describe('export files', () => {
  it('are named after what they hold and when (UTC), made safe for file names', () => {
    const at = Date.UTC(2026, 10, 30, 19, 5, 42);
    expect(exportFileName('learn-curve-s1a2b', at, 'png')).toBe('learn-curve-s1a2b-2026-11-30-1905Z.png');
    expect(exportFileName('evaluate-curves-e1-ID/OOD set', at, 'csv')).toBe('evaluate-curves-e1-ID-OOD-set-2026-11-30-1905Z.csv');
  });

  it('go through the services’ download with their type', () => {
    const downloads: { fileName: string; data: string | Blob; mimeType: string }[] = [];
    const exports = createExports({ now: () => Date.UTC(2026, 0, 2, 3, 4), download: (fileName, data, mimeType) => void downloads.push({ fileName, data, mimeType }) });
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    exports.save('prices', 'csv', 'model\n');
    exports.save('learn-curve-s1', 'png', png);
    expect(downloads).toEqual([
      { fileName: 'prices-2026-01-02-0304Z.csv', data: 'model\n', mimeType: 'text/csv' },
      { fileName: 'learn-curve-s1-2026-01-02-0304Z.png', data: png, mimeType: 'image/png' },
    ]);
  });
});

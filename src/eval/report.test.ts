import { describe, expect, it } from 'vitest';
import type { EvaluationConfig, EvaluationResult, EvaluationState } from './interface.ts';
import { hierarchicalBootstrapMean, nestedBootstrapMean } from '../ttl/metrics.ts';
import { buildReport, leakWarning } from './report.ts';
import { CSV_HEADER, reportToCsv } from './report-csv.ts';

const result = (policyId: string, storyId: string, repeat: number, wAuc: number, scores: number[]): EvaluationResult => ({
  key: `${policyId}|s|${storyId}:0|${repeat}`, policyId, taskId: `${storyId}:0`, storyId, taskSet: 'S', repeat, sessionId: 'x', wAuc,
  averageScore: scores.reduce((a, b) => a + b, 0) / scores.length, bestScore: Math.max(...scores), scores, costUsd: 0,
});

const config = { policies: [{ id: 'base', spec: { kind: 'static' }, selectedOn: [] }, { id: 'new', spec: { kind: 'static' }, selectedOn: ['g2'] }], taskSets: [{ name: 'S', tasks: [] }], repeats: 2, episodes: 2, maxSteps: 1, initialGuidingPrompt: '', baselinePolicyId: 'base', bootstrapSeed: 1, concurrency: 1, models: { actor: 'm', metaAgent: 'm' }, contextWindow: 1 } as unknown as EvaluationConfig;

describe('evaluation report', () => {
  const results = [
    result('base', 'g1', 0, 0.1, [1, 2]), result('base', 'g1', 1, 0.2, [2, 2]), result('base', 'g2', 0, 0.3, [0, 4]), result('base', 'g2', 1, 0.4, [4, 4]),
    result('new', 'g1', 0, 0.3, [3, 4]), result('new', 'g1', 1, 0.4, [4, 4]), result('new', 'g2', 0, 0.5, [2, 6]), result('new', 'g2', 1, 0.6, [6, 6]),
  ];
  const state = { id: 'e', config, results } as unknown as EvaluationState;
  const report = buildReport(state);

  it('means equal the hand-computed means; a constant +0.2 shift gives a zero-width paired interval', () => {
    const base = report.policies.find((p) => p.policyId === 'base')!;
    const fresh = report.policies.find((p) => p.policyId === 'new')!;
    expect(base.wAuc.estimate).toBeCloseTo(0.25, 12);
    expect(fresh.wAuc.estimate).toBeCloseTo(0.45, 12);
    expect(fresh.averageScore.estimate).toBeCloseTo((3.5 + 4 + 4 + 6) / 4, 12);
    expect(fresh.bestScore.estimate).toBeCloseTo((4 + 4 + 6 + 6) / 4, 12);
    expect(fresh.diffVsBaseline!.low).toBeCloseTo(0.2, 12);
    expect(fresh.diffVsBaseline!.high).toBeCloseTo(0.2, 12);
    // Two games: the sign-flip test's smallest p is 0.5, so no flag however clear the shift.
    expect(fresh.beatsBaseline).toBe(false);
    const c = report.comparisons!.find((x) => x.a === 'new' && x.b === 'base')!;
    expect(c.gameLevel).toMatchObject({ games: 2, minP: 0.5, signFlipP: 0.5 });
    expect(c.holmP).toBe(0.5);
    expect(c.positive).toBe(false);
    expect(base.diffVsBaseline).toBeNull();
    expect(fresh.curve.map((c) => c.estimate)).toEqual([3.75, 5]);
    expect(report.games.filter((g) => g.policyId === 'new').map((g) => [g.storyId, g.sessions, g.wAuc.estimate])).toEqual([['g1', 2, 0.35], ['g2', 2, 0.55]]);
  });

  it('warns about games the meta-prompt was selected on', () => {
    expect(report.policies.find((p) => p.policyId === 'new')!.leakWarning).toContain('g2');
    expect(leakWarning([], results)).toBeNull();
  });

  it('with several seeds per game, intervals resample game → seed → repeat', () => {
    const seeded = (seed: number, repeat: number, wAuc: number): EvaluationResult => ({ ...result('base', 'g1', repeat, wAuc, [1]), taskId: `g1:${seed}`, key: `base|S|g1:${seed}|${repeat}` });
    const many = [seeded(0, 0, 0.1), seeded(0, 1, 0.12), seeded(1, 0, 0.6), seeded(1, 1, 0.62), { ...result('base', 'g2', 0, 0.3, [1]) }, { ...result('base', 'g2', 1, 0.35, [1]) }];
    const r = buildReport({ id: 'e', config: { ...config, policies: [config.policies[0]!] }, results: many } as unknown as EvaluationState);
    const expected = nestedBootstrapMean([[[0.1, 0.12], [0.6, 0.62]], [[0.3, 0.35]]], { seed: 1, resamples: 2000, level: 0.95 });
    expect(r.policies[0]!.wAuc).toEqual(expected);
    const sessionsOnly = hierarchicalBootstrapMean([[0.1, 0.12, 0.6, 0.62], [0.3, 0.35]], { seed: 1, resamples: 2000, level: 0.95 });
    expect(r.policies[0]!.wAuc).not.toEqual(sessionsOnly);
  });

  it('declared comparisons carry per-game Δ, the game-level test and Holm; the flag needs 6+ games of one sign', () => {
    const games = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7'];
    const rs = games.flatMap((g, i) => [0, 1].flatMap((rep) => [
      result('base', g, rep, 0.2 + 0.01 * i + 0.001 * rep, [1, 1 + rep]), result('new', g, rep, 0.3 + 0.01 * i + 0.002 * rep, [2, 2 + rep]), result('other', g, rep, 0.2 + 0.01 * i + 0.003 * rep + (i % 2 ? 0.05 : -0.05), [1, 1 + rep]),
    ]));
    const cfg = { ...config, policies: [...config.policies, { id: 'other', spec: { kind: 'static' }, selectedOn: [] }], contrasts: [{ a: 'new', b: 'other' }] } as unknown as EvaluationConfig;
    const r = buildReport({ id: 'e', config: cfg, results: rs } as unknown as EvaluationState, { powerDelta: 0.05 });
    expect(r.comparisons!.map((c) => `${c.a}-${c.b}`)).toEqual(['new-base', 'other-base', 'new-other']);
    expect(r.exploratoryComparisons).toEqual([]);
    const newBase = r.comparisons![0]!;
    expect(newBase.perGame.map((g) => g.game)).toEqual(games);
    expect(newBase.perGame[0]!.mean).toBeCloseTo(0.1005, 12);
    expect(newBase.gameLevel).toMatchObject({ games: 7, minP: 2 / 128, signFlipP: 2 / 128, exact: true });
    // Holm over 3 p values: the smallest × 3.
    expect(newBase.holmP).toBeCloseTo(6 / 128, 12);
    expect(newBase.positive).toBe(true);
    expect(r.policies.find((p) => p.policyId === 'new')!.beatsBaseline).toBe(true);
    expect(r.comparisons![1]!.positive).toBe(false);
    expect(r.policies.find((p) => p.policyId === 'other')!.beatsBaseline).toBe(false);
    expect(newBase.power.delta).toBe(0.05);
    expect(r.warnings).toEqual([]);
  });

  it('without declared contrasts every other pair is exploratory (no Holm, no flag)', () => {
    const cfg = { ...config, policies: [...config.policies, { id: 'other', spec: { kind: 'static' }, selectedOn: [] }] } as unknown as EvaluationConfig;
    const more = [...results, ...results.filter((x) => x.policyId === 'new').map((x) => ({ ...x, policyId: 'other', wAuc: x.wAuc - 0.1 }))];
    const r = buildReport({ id: 'e', config: cfg, results: more } as unknown as EvaluationState);
    expect(r.exploratoryComparisons!.map((c) => [c.a, c.b, c.holmP, c.positive])).toEqual([['other', 'new', null, false]]);
    expect(r.exploratoryComparisons![0]!.delta.mean).toBeCloseTo(-0.1, 12);
  });

  it('warns few_games below 6 games and identical_repeats when every repeat is a copy', () => {
    expect(report.warnings!.map((w) => w.code)).toEqual(['few_games']);
    expect(report.warnings![0]!.message).toContain('2 games (task set S) cannot support a claim about games in general; this is a claim about these games');
    const copies = results.map((x) => ({ ...x, wAuc: x.policyId === 'new' ? 0.5 : x.wAuc, scores: x.policyId === 'new' ? [5, 5] : x.scores }));
    const r = buildReport({ id: 'e', config, results: copies } as unknown as EvaluationState);
    expect(r.warnings!.map((w) => w.code)).toEqual(['few_games', 'identical_repeats']);
    expect(r.warnings![1]!.message).toMatch(/Every repeat of new gave the same scores/);
    expect(r.warnings![1]!.policyId).toBe('new');
    const zeroWidth = r.policies.find((p) => p.policyId === 'new')!;
    expect(zeroWidth.wAuc.low).toBe(zeroWidth.wAuc.high);
    // The summary CSV's identical_repeats column says which policy's repeats were copies; the
    // others are false. It ends with who played: model and model_caveat.
    const csv = reportToCsv(r).trim().split('\n').map((line) => line.split(','));
    const at = CSV_HEADER.indexOf('identical_repeats');
    expect(csv[0]!.slice(at)).toEqual(['identical_repeats', 'model', 'model_caveat']);
    expect(csv.slice(1).map((row) => [row[0], row[at], row[at + 1], row[at + 2]])).toEqual([['base', 'false', 'm', ''], ['new', 'true', 'm', '']]);
    expect(reportToCsv(report).trim().split('\n').slice(1).map((line) => line.split(',')[at])).toEqual(['false', 'false']);
  });

  it('normalises learning curves per game by its max score, so a game with many points does not set the shape', () => {
    const cfg = { ...config, taskSets: [{ name: 'S', tasks: [{ id: 'g1:0', maxScore: 400 }, { id: 'g2:0', maxScore: 10 }] }] } as unknown as EvaluationConfig;
    const rs = [result('base', 'g1', 0, 0, [0, 400]), result('base', 'g2', 0, 0, [10, 0])];
    const r = buildReport({ id: 'e', config: cfg, results: rs } as unknown as EvaluationState);
    const base = r.policies.find((p) => p.policyId === 'base')!;
    expect(base.curve.map((c) => c.estimate)).toEqual([5, 200]);
    expect(base.normalisedCurve!.map((c) => c.estimate)).toEqual([0.5, 0.5]);
  });
});

describe('report formats say what a claim rests on', () => {
  it('Markdown and HTML carry the comparisons, the few-games warning and the corrected footnote; no "(best)"', async () => {
    const { reportToMarkdown, BOOTSTRAP_FOOTNOTE } = await import('./report-formats.ts');
    const { reportToHtml } = await import('./report-html.ts');
    const { comparisonsToCsv } = await import('./report-csv.ts');
    const rs = [
      result('base', 'g1', 0, 0.1, [1, 2]), result('base', 'g1', 1, 0.2, [2, 2]), result('base', 'g2', 0, 0.3, [0, 4]), result('base', 'g2', 1, 0.4, [4, 4]),
      result('new', 'g1', 0, 0.3, [3, 4]), result('new', 'g1', 1, 0.4, [4, 4]), result('new', 'g2', 0, 0.5, [2, 6]), result('new', 'g2', 1, 0.6, [6, 6]),
    ];
    const r = buildReport({ id: 'e', config, results: rs } as unknown as EvaluationState);
    const md = reportToMarkdown(r);
    const html = reportToHtml(r);
    expect(BOOTSTRAP_FOOTNOTE).not.toMatch(/is conservative/);
    expect(BOOTSTRAP_FOOTNOTE).toContain('not conservative');
    for (const text of [md, html]) {
      expect(text).toContain('2 games (task set S) cannot support a claim about games in general; this is a claim about these games');
      expect(text).toContain('new − base');
      expect(text).toContain('0.50 (min 0.50)');
      expect(text).not.toContain('(best)');
      expect(text).not.toContain('Δ > 0 (Holm)</strong></td>');
    }
    expect(html).toContain('<table id="comparisons">');
    expect(md).toContain('- new − base (S): g1 0.200 [0.200, 0.200]; g2 0.200 [0.200, 0.200]');
    const csv = comparisonsToCsv(r).trim().split('\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(/^new,base,S,true,4,2,0\.2/);
    // Two games: the few_games column says the comparison rests on fewer than 6; then who played.
    expect(csv[0]!.endsWith(',per_game,few_games,model,model_caveat')).toBe(true);
    expect(csv[1]!.endsWith(',true,m,')).toBe(true);
  });

  it('names the arms of a comparison as people read them, with their ids (the CSV\'s) after them', async () => {
    const { reportToMarkdown, comparisonPairText } = await import('./report-formats.ts');
    const { reportToHtml } = await import('./report-html.ts');
    const rs = [result('base', 'g1', 0, 0.1, [1, 2]), result('base', 'g2', 0, 0.3, [0, 4]), result('new', 'g1', 0, 0.3, [3, 4]), result('new', 'g2', 0, 0.5, [2, 6])];
    const named = { ...config, policies: config.policies.map((p) => ({ ...p, name: p.id === 'new' ? 'Fact bank' : 'Naive' })) } as EvaluationConfig;
    const r = buildReport({ id: 'e', config: named, results: rs } as unknown as EvaluationState);
    expect(reportToMarkdown(r)).toContain('| Fact bank − Naive (new − base) | S |');
    expect(reportToMarkdown(r)).toContain('- Fact bank − Naive (new − base) (S): g1 ');
    expect(reportToHtml(r)).toContain('<td>Fact bank − Naive (new − base)</td>');
    // Without names (or names equal to the ids) the ids alone.
    expect(comparisonPairText({ a: 'new', b: 'base' }, new Map([['new', 'new']]))).toBe('new − base');
  });
});

/**
 * The Experiments view's vocabulary-overlap column reads the story shelf's story files
 * (src/ui/experiments/experiment-tasks.ts `shelfVocabularies`) and gives the same dictionary
 * overlap as the CLI's report (src/cli/stories-overlap.ts `vocabulariesFor`, which finds the same
 * files by name); the page has no walkthroughs, and a game no shelf story plays is listed missing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_EXPERIMENTS } from '../src/experiment/builtins.ts';
import { freshExperimentState } from '../src/experiment/experiment-runner.ts';
import { planExperiment } from '../src/experiment/plan.ts';
import { buildExperimentReport } from '../src/experiment/report.ts';
import { evaluationOverlap } from '../src/eval/vocabulary-overlap.ts';
import { shelfVocabularies } from '../src/ui/experiments/experiment-tasks.ts';
import { shelfGameVocabularies } from '../src/ui/shared/evaluation/shelf-vocabulary.ts';
import { REPO_ROOT } from './support/shared.ts';

const STORIES = resolve(REPO_ROOT, '../shared/stories');
beforeAll(() => {
  process.env.STORIES_DIR = STORIES;
});

describe('the page\'s vocabulary overlap', () => {
  it('reads each game\'s dictionary from its shelf story: the same shares as the CLI report, walkthrough left out, absent games missing', async () => {
    // vocab-ood without its VOCAB-OOD games (no story files here): ID and the paper's OOD.
    const spec = { ...BUILTIN_EXPERIMENTS['vocab-ood']!, taskSets: { ID: ['detective', 'zork1', 'temple'], OOD: ['balances', 'library', 'zork3'], 'VOCAB-OOD': ['advent', 'trinity'] } };
    const plan = planExperiment(spec);
    // Library entries as the page keeps them: a catalog id, or (a user's file) its own id; no trinity.
    const entries = ['detective', 'zork1', 'temple', 'balances', 'library', 'zork3', 'advent'].map((id) => ({ id: `local:${id}.z5`, catalog: { id }, file: `${id}.z5` }));
    const read: string[] = [];
    const page = await shelfVocabularies(plan, entries, async (e) => {
      read.push(e.id);
      return new Uint8Array(readFileSync(resolve(STORIES, e.file)));
    });
    expect(Object.keys(page).sort()).toEqual(['advent', 'balances', 'detective', 'library', 'temple', 'zork1', 'zork3']);
    expect(read).toHaveLength(7);
    for (const v of Object.values(page)) expect(v.walkthrough).toBeNull();
    const { vocabulariesFor } = await import('../src/cli/stories-overlap.ts');
    const cli = await vocabulariesFor(Object.keys(page));
    const state = freshExperimentState(plan, [{ actor: 'm', metaAgent: 'm', proposer: 'm' }], '2026-01-01T00:00:00.000Z');
    const pageReport = buildExperimentReport(plan, state, { vocabularies: page });
    const cliReport = buildExperimentReport(plan, state, { vocabularies: cli });
    const shares = (r: typeof pageReport) => r.vocabulary!.map((v) => [v.step, v.dictionary?.share ?? null, v.missing]);
    expect(shares(pageReport)).toEqual(shares(cliReport).map(([step, share, missing]) => [step, step === 'eval-VOCAB-OOD' ? null : share, step === 'eval-VOCAB-OOD' ? ['trinity'] : missing]));
    const ood = pageReport.vocabulary!.find((v) => v.step === 'eval-OOD')!;
    // Pooled, the paper's OOD games share 63.8 % of their dictionary words with ID (71–78 % each, builtins.ts).
    expect(ood.dictionary!.share).toBeCloseTo(0.638, 3);
    for (const g of ood.perGame) expect(g.dictionary.share!).toBeGreaterThan(0.7);
    expect(ood.walkthrough).toBeNull();
    expect(pageReport.vocabulary!.find((v) => v.step === 'eval-ID')!.dictionary!.share).toBe(1);
  });

  it('takes each game\'s walkthrough from the experiment file when it gives them: the same walkthrough overlap as the CLI\'s from Jericho\'s games.json', async () => {
    const games = JSON.parse(readFileSync(resolve(REPO_ROOT, '../shared/jericho/games.json'), 'utf8')) as { name: string; walkthrough: string[] }[];
    const walkthroughs = Object.fromEntries(['detective', 'zork1', 'temple', 'balances'].map((g) => [g, games.find((x) => x.name === g)!.walkthrough]));
    const spec = { ...BUILTIN_EXPERIMENTS['vocab-ood']!, taskSets: { ID: ['detective', 'zork1', 'temple'], OOD: ['balances'], 'VOCAB-OOD': ['advent'] }, recallProbe: { taskSets: ['OOD'], k: 5, probes: 20, seed: 0, walkthroughs } };
    const plan = planExperiment(spec);
    const entries = ['detective', 'zork1', 'temple', 'balances', 'advent'].map((id) => ({ id: `local:${id}.z5`, catalog: { id }, file: `${id}.z5` }));
    const page = await shelfVocabularies(plan, entries, async (e) => new Uint8Array(readFileSync(resolve(STORIES, e.file))));
    expect(page.balances!.walkthrough).toEqual(walkthroughs.balances);
    expect(page.advent!.walkthrough).toBeNull();
    const { vocabulariesFor } = await import('../src/cli/stories-overlap.ts');
    const cli = await vocabulariesFor(['detective', 'zork1', 'temple', 'balances']);
    const state = freshExperimentState(plan, [{ actor: 'm', metaAgent: 'm', proposer: 'm' }], '2026-01-01T00:00:00.000Z');
    const ood = (vocabularies: typeof page) => buildExperimentReport(plan, state, { vocabularies }).vocabulary!.find((v) => v.step === 'eval-OOD')!;
    expect(ood(page).walkthrough).not.toBeNull();
    expect(ood(page).walkthrough).toEqual(ood(cli).walkthrough);
    // A game the file gives no walkthrough for: no walkthrough overlap for its task set.
    expect(buildExperimentReport(plan, state, { vocabularies: page }).vocabulary!.find((v) => v.step === 'eval-VOCAB-OOD')!.walkthrough).toBeNull();
  });

  it('the Evaluate report: each evolved policy against each story task set, from the story shelf, as the CLI\'s eval computes it', async () => {
    const entries = ['detective', 'zork1', 'temple'].map((id) => ({ id: `local:${id}.z5`, catalog: { id }, file: `${id}.z5` }));
    const page = await shelfGameVocabularies(['detective', 'temple', 'zork1', 'web:shop/t1', 'nowhere'], entries, async (e) => new Uint8Array(readFileSync(resolve(STORIES, e.file))));
    expect(Object.keys(page).sort()).toEqual(['detective', 'temple', 'zork1']);
    const policies = [{ id: 'naive', selectedOn: [] }, { id: 'evolved', selectedOn: ['detective:0', 'zork1:0'] }];
    const sets = [{ name: 'custom', games: ['detective', 'temple', 'temple'] }, { name: 'web', games: ['web:shop/t1'] }];
    const rows = evaluationOverlap(policies, sets, page);
    // One row: the evolved policy on the story set (the web set and the unselected policy have none).
    expect(rows.map((r) => [r.policy, r.taskSet, r.training, r.games, r.missing])).toEqual([['evolved', 'custom', ['detective', 'zork1'], ['detective', 'temple'], []]]);
    expect(rows[0]!.perGame[0]!.dictionary.share).toBe(1);
    const { vocabulariesFor } = await import('../src/cli/stories-overlap.ts');
    const cli = evaluationOverlap(policies, sets, await vocabulariesFor(['detective', 'temple', 'zork1']));
    expect(rows.map((r) => [r.dictionary, r.perGame.map((g) => g.dictionary)])).toEqual(cli.map((r) => [r.dictionary, r.perGame.map((g) => g.dictionary)]));
    expect(rows[0]!.walkthrough).toBeNull();
    expect(evaluationOverlap([{ id: 'naive', selectedOn: [] }], sets, page)).toEqual([]);
  });
});

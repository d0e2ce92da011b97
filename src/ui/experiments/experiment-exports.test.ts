/**
 * The experiment report's downloads carry the run card: the JSON has the registration as written
 * (spec, sha-256, code version, primary contrast, α) and the report's standing; the Markdown says
 * whether the run matches it.
 */
import { describe, expect, it } from 'vitest';
import { applyOverrides, BUILTIN_EXPERIMENTS } from '../../experiment/builtins.ts';
import { freshExperimentState } from '../../experiment/experiment-runner.ts';
import { planExperiment } from '../../experiment/plan.ts';
import { makeRegistration, specHash } from '../../experiment/registration.ts';
import { buildExperimentReport } from '../../experiment/report.ts';
import { experimentExport, experimentFormatsOf } from './experiment-exports.ts';
import { experimentComparisonsToCsv, experimentEvolutionsToCsv } from '../../experiment/report-formats.ts';

const spec = applyOverrides(BUILTIN_EXPERIMENTS['random-control']!, { episodes: 1, steps: 3, repeats: 1, budget: 4, taskSets: { ID: ['advent:0'], OOD: ['lever-room:0'] } });
const plan = planExperiment(spec);

describe('experiment exports with a registration', () => {
  it('the JSON carries the registration and the report\'s standing; the Markdown says it matches', () => {
    const registration = makeRegistration(spec, { alpha: 0.1, now: '2026-01-01T00:00:00.000Z', codeVersion: '0.1.0+abc' });
    const state = freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], '2026-01-01T00:00:01.000Z');
    const record = { id: 'exp-1', state, spent: { tokens: 0, costUsd: 0 }, registration };
    const report = buildExperimentReport(plan, state, { registration });
    const json = JSON.parse(experimentExport('json', record, report).text);
    expect(json.registration).toMatchObject({ specHash: specHash(spec), codeVersion: '0.1.0+abc', primaryContrast: { a: 'evolved', b: 'random-evolved', taskSet: null }, alpha: 0.1 });
    expect(json.report.registration).toMatchObject({ matches: true, standing: 'confirmatory', specHash: specHash(spec) });
    expect(experimentExport('md', record, report).text).toContain('This run matches its registration');
    // Registered after the run began: exploratory.
    const late = makeRegistration(spec, { now: '2026-01-02T00:00:00.000Z', codeVersion: '0.1.0+abc' });
    const lateReport = buildExperimentReport(plan, state, { registration: late });
    expect(lateReport.registration).toMatchObject({ matches: false, registeredBeforeRun: false, standing: 'exploratory' });
    // Unregistered: no registration field; the report says so.
    const bare = experimentExport('json', { id: 'exp-2', state, spent: { tokens: 0, costUsd: 0 } }, buildExperimentReport(plan, state));
    expect(JSON.parse(bare.text)).not.toHaveProperty('registration');
  });

  it('offers the CLI\'s comparisons and evolutions CSV files (folds only with folds), the same text the CLI writes', () => {
    const state = freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], '2026-01-01T00:00:01.000Z');
    const record = { id: 'exp-3', state, spent: { tokens: 0, costUsd: 0 } };
    const report = buildExperimentReport(plan, state);
    expect(experimentFormatsOf(report).map((f) => f.id)).toEqual(['json', 'csv', 'md', 'html', 'comparisons-csv', ...(report.evolutions.length ? ['evolutions-csv'] : [])]);
    expect(experimentFormatsOf({ evolutions: [{}] as never, foldResults: [{}] as never }).map((f) => f.id)).toEqual(['json', 'csv', 'md', 'html', 'comparisons-csv', 'evolutions-csv', 'folds-csv']);
    const comparisons = experimentExport('comparisons-csv', record, report);
    expect(comparisons).toEqual({ name: 'experiment-random-control-exp-3-comparisons.csv', text: experimentComparisonsToCsv(report), mime: 'text/csv' });
    expect(comparisons.text.split('\n')[0]).toMatch(/^step,a,b,task_set,.*,sign_flip_p,min_p,holm_p,.*,few_games,registered,model,model_caveat$/);
    expect(experimentExport('evolutions-csv', record, report)).toEqual({ name: 'experiment-random-control-exp-3-evolutions.csv', text: experimentEvolutionsToCsv(report), mime: 'text/csv' });
  });
});

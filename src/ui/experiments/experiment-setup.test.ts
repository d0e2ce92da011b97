/**
 * The Experiments view's choice and edits: a bad file keeps its text and lists every bad field by
 * its path; fixed and checked again it is the experiment; the overrides become core overrides
 * (blank fields and unknown task sets left out).
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_EXPERIMENTS } from '../../experiment/builtins.ts';
import { ExperimentSetupState } from './experiment-setup.svelte.ts';

describe('ExperimentSetupState', () => {
  it('refuses a bad file field by field, keeps its text, accepts it fixed', () => {
    const setup = new ExperimentSetupState();
    const bad = JSON.stringify({ name: 'mine', episodes: 0, steps: 3, repeats: 1, taskSets: { T: ['advent:0'] }, arms: [{ id: 'naive', policy: 'naive' }], baseline: 'static', evaluateOn: ['T'] });
    setup.load(bad, 'mine.json');
    expect(setup.source).toEqual({ kind: 'file', fileName: 'mine.json' });
    expect(setup.base).toBeNull();
    expect(setup.fileText).toBe(bad);
    expect(setup.fileProblems.map((p) => p.split(' must ')[0])).toEqual(['baseline', 'episodes']);
    setup.fileText = bad.replace('"episodes":0', '"episodes":2').replace('"static"', '"naive"');
    setup.checkFile();
    expect(setup.fileProblems).toEqual([]);
    expect(setup.base).toMatchObject({ name: 'mine', episodes: 2, baseline: 'naive' });
    setup.fileText = '{ nope';
    setup.checkFile();
    expect(setup.fileProblems[0]).toMatch(/^not JSON: /);
  });

  it('turns the edits into core overrides', () => {
    const setup = new ExperimentSetupState();
    const base = BUILTIN_EXPERIMENTS['random-control']!;
    expect(setup.overridesOf(base)).toEqual({});
    setup.overrides = { ...setup.overrides, episodes: 2, budget: 4 };
    setup.taskSetText = { ID: 'advent:0, advent:1', OOD: '  ', NOPE: 'x' };
    expect(setup.overridesOf(base)).toEqual({ episodes: 2, budget: 4, taskSets: { ID: ['advent:0', 'advent:1'] } });
    setup.chooseBuiltin('skeptic-holdout');
    expect(setup.overridesOf(base)).toEqual({});
    expect(setup.base?.name).toBe('skeptic-holdout');
  });
});

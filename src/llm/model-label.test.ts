/**
 * The model labels, defined once: the simulated model and the scripted mock named with their
 * caveats, a model by its ids, and the export block that import checks against a config.
 */
import { describe, expect, it } from 'vitest';
import { describeModel, exportedModel, exportedModelProblem, isSimulated, MODEL_CSV_COLUMNS, modelCsvCells, modelName, modelOfReport, SCRIPTED_NOTICE, SIMULATION_NOTICE, usesSimulatedModel } from './model-label.ts';

describe('describeModel', () => {
  it('names the simulated model with its caveat, by its provider or by any role model', () => {
    const expected = {
      kind: 'simulated', simulated: true, name: 'simulated model', caveat: SIMULATION_NOTICE, line: SIMULATION_NOTICE,
      sentence: 'Played by the simulated model — not a language model; it shows how the loop works, not how real models behave.',
    };
    expect(describeModel({ presetId: 'simulated', actor: 'simulated', metaAgent: 'simulated' })).toEqual(expected);
    expect(describeModel({ presetId: 'simulated' })).toEqual(expected);
    expect(describeModel({ presetId: 'custom', actor: 'gpt-4o-mini', metaAgent: 'simulated' })).toEqual(expected);
    expect(SIMULATION_NOTICE).toBe('simulated model — not a language model; it shows how the loop works, not how real models behave');
  });

  it('names the scripted mock with its caveat', () => {
    expect(describeModel({ presetId: 'custom', actor: 'scripted-test-model', metaAgent: 'scripted-test-model' })).toEqual({
      kind: 'scripted', simulated: false, name: 'scripted test model', caveat: SCRIPTED_NOTICE, line: 'scripted test model — not a real model',
      sentence: 'Played by the scripted test model — not a real model.',
    });
  });

  it('names a model by its ids: one when the roles share it, actor / meta-agent / proposer when they differ, trimmed', () => {
    expect(describeModel({ presetId: 'openai', actor: ' gpt-4o-mini ', metaAgent: 'gpt-4o-mini', proposer: 'gpt-4o-mini' })).toEqual({
      kind: 'model', simulated: false, name: 'gpt-4o-mini', caveat: null, line: 'model: gpt-4o-mini', sentence: 'Played by gpt-4o-mini.',
    });
    expect(describeModel({ actor: 'qwen2.5:7b', metaAgent: 'gpt-4o', proposer: 'o3' }).name).toBe('qwen2.5:7b / gpt-4o / o3');
    expect(describeModel({ actor: 'a', metaAgent: '', proposer: null }).name).toBe('a');
  });

  it('says when no model was recorded', () => {
    expect(describeModel({ actor: '', metaAgent: null })).toMatchObject({ kind: 'unknown', name: 'unknown model', caveat: null, simulated: false });
    expect(modelName('')).toBe('(unknown model)');
  });

  it('modelName, isSimulated and usesSimulatedModel agree with it', () => {
    expect(modelName('simulated')).toBe('simulated model');
    expect(modelName('scripted-test-model')).toBe('scripted test model');
    expect(modelName(' gpt-4o ')).toBe('gpt-4o');
    expect(isSimulated({ presetId: 'simulated' })).toBe(true);
    expect(isSimulated({ presetId: 'openai' }, 'simulated')).toBe(true);
    expect(isSimulated({ presetId: 'openai' }, 'gpt-4o')).toBe(false);
    expect(usesSimulatedModel(['gpt-4o', null, ' simulated'])).toBe(true);
    expect(usesSimulatedModel(['gpt-4o', undefined])).toBe(false);
  });
});

describe('the export block', () => {
  it('carries name, simulated flag, kind and caveat', () => {
    expect(exportedModel({ presetId: 'simulated', actor: 'simulated' })).toEqual({ name: 'simulated model', simulated: true, kind: 'simulated', caveat: SIMULATION_NOTICE });
    expect(exportedModel({ actor: 'gpt-4o-mini', metaAgent: 'gpt-4o-mini' })).toEqual({ name: 'gpt-4o-mini', simulated: false, kind: 'model', caveat: null });
  });

  it('import accepts an absent or agreeing block and names a contradiction', () => {
    const sim = { presetId: 'simulated', actor: 'simulated', metaAgent: 'simulated' };
    expect(exportedModelProblem(undefined, sim)).toBeNull();
    expect(exportedModelProblem(exportedModel(sim), sim)).toBeNull();
    expect(exportedModelProblem({ simulated: true, name: 'reworded' }, sim)).toBeNull();
    expect(exportedModelProblem({ ...exportedModel(sim), simulated: false }, sim)).toBe("model.simulated: false, but the config's models (simulated) say simulated");
    expect(exportedModelProblem(exportedModel(sim), { actor: 'gpt-4o' })).toBe("model.simulated: true, but the config's models (gpt-4o) say not simulated");
    expect(exportedModelProblem({ simulated: false, kind: 'model' }, { actor: 'scripted-test-model' })).toBe(`model.kind: "model", but the config's models say "scripted"`);
    expect(exportedModelProblem({ simulated: 'yes' }, sim)).toBe('model.simulated: not true or false');
    expect(exportedModelProblem('simulated', sim)).toBe('model: not an object');
  });
});

describe('the CSV columns', () => {
  it('name the model and its caveat, empty for a language model', () => {
    expect(MODEL_CSV_COLUMNS).toEqual(['model', 'model_caveat']);
    expect(modelCsvCells(describeModel({ presetId: 'simulated' }))).toEqual(['simulated model', SIMULATION_NOTICE]);
    expect(modelCsvCells(describeModel({ actor: 'scripted-test-model' }))).toEqual(['scripted test model', SCRIPTED_NOTICE]);
    expect(modelCsvCells(describeModel({ actor: 'gpt-4o-mini', metaAgent: 'gpt-4o' }))).toEqual(['gpt-4o-mini / gpt-4o', '']);
    expect(modelCsvCells(describeModel({}))).toEqual(['unknown model', '']);
  });

  it("read a report's model back from the words it carries (simulated notice, or its model line)", () => {
    for (const models of [{ presetId: 'simulated' }, { actor: 'scripted-test-model' }, { actor: 'gpt-4o-mini' }, { actor: 'a', metaAgent: 'b' }, {}]) {
      const m = describeModel(models);
      const report = m.simulated ? { simulated: SIMULATION_NOTICE } : m.kind === 'unknown' ? {} : { model: m.line };
      expect(modelOfReport(report), JSON.stringify(models)).toMatchObject({ name: m.name, caveat: m.caveat, kind: m.kind });
    }
  });
});

/** The Evaluate setup form: ID / OOD sets from catalog tags (missing games named), custom picks,
 * the baseline among the chosen policies, planned leaks. */
import { describe, expect, it } from 'vitest';
import type { ShelfEntry } from '../shared/state/shelf.ts';
import { loadWebCatalog } from '../shared/state/web-catalog.ts';
import { webTaskSet } from '../../web/tasks/catalog.ts';
import { mergeSavedForm } from '../shared/state/form-memory.svelte.ts';
import { EVALUATE_FORM_FIELDS, EvaluateForm, tagSet } from './evaluate-form.svelte.ts';
import { policyOptions } from '../shared/state/policy-options.ts';

const entry = (id: string, game: string | null, defaultSeed = 0): ShelfEntry => ({
  id, title: id, source: 'local', path: id, storedMaxScore: null, unsaved: false,
  catalog: game === null ? null : ({ id: game, defaultSeed } as ShelfEntry['catalog']),
});
const entries = [entry('advent', 'advent', 5), entry('local:detective.z5', 'detective'), entry('local:zork1.z5', 'zork1', 12), entry('user:x', null)];
const catalogGames = [{ id: 'detective', tags: ['id'] }, { id: 'temple', tags: ['id'] }, { id: 'zork1', tags: ['id'] }, { id: 'balances', tags: ['ood'] }];

describe('EvaluateForm', () => {
  it('ID takes the tagged games on the story shelf at their default seeds and names the missing ones', () => {
    expect(tagSet('ID', 'id', entries, catalogGames)).toEqual({
      name: 'ID', picks: [{ storyId: 'local:detective.z5', seed: 0 }, { storyId: 'local:zork1.z5', seed: 12 }], missing: ['temple'],
    });
    expect(tagSet('OOD', 'ood', entries, catalogGames)).toEqual({ name: 'OOD', picks: [], missing: ['balances'] });
  });

  it('a chosen task set with none of its games on the story shelf says which games are missing, not "choose a task"', () => {
    const f = new EvaluateForm((id) => entries.find((e) => e.id === id)?.catalog?.id ?? id);
    f.entries = entries;
    f.catalogGames = catalogGames;
    f.useOod = true;
    expect(f.problems).toEqual(['None of the games of the chosen task sets is on your story shelf (balances): add their files in the Play view or get the Jericho games, or choose other tasks.']);
  });

  it('collects sets and policies, keeps the baseline among them, and warns of planned leaks', () => {
    const f = new EvaluateForm((id) => entries.find((e) => e.id === id)?.catalog?.id ?? id);
    f.entries = entries;
    f.catalogGames = catalogGames;
    f.options = policyOptions([{ id: 'evo-c1', name: 'Evolved', description: '', strategy: 'x', provenance: { kind: 'evolved', runId: 'r', parentId: 'c0', iteration: 1 }, selectedOn: ['detective'], evaluations: [] }]);
    expect(f.problems).toEqual(['Choose at least one task (ID, OOD, your own picks or web tasks).']);
    f.useId = true;
    f.setCustom('advent', '1, 2');
    f.setCustom('user:x', '0');
    expect(f.sets.map((s) => [s.name, s.picks.length])).toEqual([['ID', 2], ['custom', 3]]);
    expect(f.taskCount).toBe(5);
    expect(f.pickLabel({ storyId: 'local:detective.z5', seed: 0 })).toBe('detective:0');
    f.toggle('naive', false);
    expect(f.problems).toEqual(['Choose the baseline among the chosen policies.']);
    f.toggle('evo-c1', true);
    expect(f.baseline).toBe('evo-c1');
    expect(f.leaks.map((l) => l.message)).toEqual(['evo-c1 was selected on detective: its results there are not a held-out test.']);
    f.useId = false;
    expect(f.leaks).toEqual([]);
    f.setCustom('advent', null);
    expect(f.sets.map((s) => s.picks.length)).toEqual([1]);
  });

  it('declares any pair of chosen policies as a contrast a − b; refuses the same policy, a pair with the baseline and a repeat; keeps a pair whose policy was dropped out of the run', () => {
    const f = new EvaluateForm((id) => id);
    f.options = policyOptions([]);
    f.toggle('reflexion', true);
    f.toggle('memory', true);
    expect(f.chosen).toEqual(['static', 'naive', 'reflexion', 'memory']);
    expect(f.addContrast('reflexion', 'reflexion')).toBe('Choose two different policies.');
    expect(f.addContrast('reflexion', 'naive')).toBe('reflexion against the baseline is always compared.');
    expect(f.addContrast('reflexion', 'fact-bank')).toBe('Choose both policies above first.');
    expect(f.addContrast('reflexion', 'static')).toBeNull();
    expect(f.addContrast('static', 'reflexion')).toBe('static − reflexion is already declared.');
    expect(f.addContrast('memory', 'reflexion')).toBeNull();
    expect(f.activeContrasts).toEqual([{ a: 'reflexion', b: 'static' }, { a: 'memory', b: 'reflexion' }]);
    f.toggle('memory', false);
    expect(f.activeContrasts).toEqual([{ a: 'reflexion', b: 'static' }]);
    expect(f.contrasts).toHaveLength(2);
    // The baseline moved onto one side of a pair: it is a policy-vs-baseline comparison now.
    f.baseline = 'static';
    expect(f.activeContrasts).toEqual([]);
    f.baseline = 'naive';
    f.removeContrast(1);
    expect(f.contrasts).toEqual([{ a: 'reflexion', b: 'static' }]);
    // Kept across reloads; a form saved before contrasts existed (or with bad entries) restores none / the good ones.
    const g = new EvaluateForm((id) => id);
    g.restore({ ...f.snapshot() });
    expect(g.contrasts).toEqual([{ a: 'reflexion', b: 'static' }]);
    const { contrasts: _old, ...before } = f.snapshot();
    g.restore(before);
    expect(g.contrasts).toEqual([]);
    expect(f.snapshot().contrasts).toEqual(['reflexion\u001fstatic']);
    // Through the form memory's merge (string lists only), as a reload does.
    expect(mergeSavedForm(EVALUATE_FORM_FIELDS, JSON.parse(JSON.stringify(f.snapshot()))).contrasts).toEqual(['reflexion\u001fstatic']);
    g.restore({ ...before, contrasts: ['x\u001fx', 'static\u001fnaive', 'a\u001fb\u001fc', 'lonely'] });
    expect(g.contrasts).toEqual([{ a: 'static', b: 'naive' }]);
  });

  it('takes web tasks as named sets and ids (sets as task sets, ids in custom), defaults 3 × 10 for all-web, and names a bad id', async () => {
    const f = new EvaluateForm((id) => entries.find((e) => e.id === id)?.catalog?.id ?? id);
    f.entries = entries;
    f.webText = 'WEB-ID-test';
    expect(f.problems).toEqual(['Loading the web task catalog…']);
    f.webCatalog = await loadWebCatalog();
    expect(f.sets.map((s) => [s.name, s.picks.length])).toEqual([['WEB-ID-test', 60]]);
    expect(f.sets[0]!.picks.map((p) => `${p.storyId}:${p.seed}`)).toEqual(webTaskSet('WEB-ID-test'));
    expect(f.allWeb).toBe(true);
    expect([f.episodes, f.maxSteps]).toEqual([3, 10]);
    expect(f.pickLabel({ storyId: 'web:shop/t1', seed: 4 })).toBe('shop/t1:4');
    f.webText = 'web-id-test, web:forum/t21:2 web:forum/t21:2';
    expect(f.sets.map((s) => [s.name, s.picks.length])).toEqual([['WEB-ID-test', 60], ['custom', 1]]);
    f.setCustom('advent', '1');
    expect(f.allWeb).toBe(false);
    expect([f.episodes, f.maxSteps]).toEqual([6, 50]);
    f.episodes = 4;
    f.setCustom('advent', null);
    expect([f.episodes, f.maxSteps]).toEqual([4, 10]);
    f.webText = 'WEB-ID-test, web:shop/t1-3';
    expect(f.problems).toEqual(['Web tasks: “web:shop/t1-3”: "web:shop/t1-3" is not a web task id (expected web:<site>/<template>:<seed>, e.g. web:shop/t1:3).']);
    expect(f.taskCount).toBe(0);
    f.webText = 'web:shop/t99:1';
    expect(f.problems).toEqual(['Web tasks: “web:shop/t99:1”: unknown template "t99" in web:shop/t99:1.']);
    f.webText = 'shop/t1:1';
    expect(f.problems[0]).toMatch(/^Web tasks: “shop\/t1:1” is not a web task or set: use web:<site>\/<template>:<seed>/);
  });
});

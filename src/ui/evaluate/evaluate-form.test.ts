/** The Evaluate setup form: ID / OOD sets from catalog tags (missing games named), custom picks,
 * the baseline among the chosen policies, planned leaks. */
import { describe, expect, it } from 'vitest';
import type { LibraryEntry } from '../shared/stores/library.ts';
import { EvaluateForm, tagSet } from './evaluate-form.svelte.ts';
import { policyOptions } from './policy-options.ts';

const entry = (id: string, game: string | null, defaultSeed = 0): LibraryEntry => ({
  id, title: id, source: 'local', path: id, storedMaxScore: null, unsaved: false,
  catalog: game === null ? null : ({ id: game, defaultSeed } as LibraryEntry['catalog']),
});
const entries = [entry('advent', 'advent', 5), entry('local:detective.z5', 'detective'), entry('local:zork1.z5', 'zork1', 12), entry('user:x', null)];
const catalogGames = [{ id: 'detective', tags: ['id'] }, { id: 'temple', tags: ['id'] }, { id: 'zork1', tags: ['id'] }, { id: 'balances', tags: ['ood'] }];

describe('EvaluateForm', () => {
  it('ID takes the tagged games in the library at their default seeds and names the missing ones', () => {
    expect(tagSet('ID', 'id', entries, catalogGames)).toEqual({
      name: 'ID', picks: [{ storyId: 'local:detective.z5', seed: 0 }, { storyId: 'local:zork1.z5', seed: 12 }], missing: ['temple'],
    });
    expect(tagSet('OOD', 'ood', entries, catalogGames)).toEqual({ name: 'OOD', picks: [], missing: ['balances'] });
  });

  it('collects sets and policies, keeps the baseline among them, and warns of planned leaks', () => {
    const f = new EvaluateForm((id) => entries.find((e) => e.id === id)?.catalog?.id ?? id);
    f.entries = entries;
    f.catalogGames = catalogGames;
    f.options = policyOptions([{ id: 'evo-c1', name: 'Evolved', description: '', strategy: 'x', provenance: { kind: 'evolved', runId: 'r', parentId: 'c0', iteration: 1 }, selectedOn: ['detective'], evaluations: [] }]);
    expect(f.problems).toEqual(['Choose at least one task (ID, OOD or your own picks).']);
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
});

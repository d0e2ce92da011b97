/**
 * The check a resume makes on a run whose events are a cache of finished work numbered 1, 2, 3 …
 * (evolution runs: metric calls and proposals; evaluations: finished sessions): the store's own
 * checks (`Store.getRun`: records intact, none lost that the header counted), then no seq missing
 * and each record what it should be (`validate`, e.g. a schema and "the recorded session gives the
 * recorded W-AUC"). Damage stops the resume with `DamagedRunError`; `fromLastGood` keeps the
 * records before it instead (the run does the rest again). Pure apart from the store.
 */
import { DamagedRunError, type RunDamage, type RunEvent, type RunKind, type Store, type StoredRun } from './interface.ts';

/** What is wrong with one record's data, or null when it is fine. */
export type RecordValidator = (data: unknown) => string | null;

/** The first damage of a sequentially numbered run and the intact records before it. */
export function checkSequentialRun(run: StoredRun, validate: RecordValidator): { damage: RunDamage | null; intact: RunEvent[] } {
  const intact: RunEvent[] = [];
  for (const [i, event] of run.events.entries()) {
    const expected = i + 1;
    let problem: { record: string; problem: string } | null = null;
    if (event.seq !== expected) problem = { record: `seq ${expected}`, problem: `it is missing (the next stored record is seq ${event.seq})` };
    else {
      const wrong = validate(event.data);
      if (wrong) problem = { record: `seq ${event.seq}`, problem: wrong };
    }
    if (problem) return { damage: { where: run.where, ...problem }, intact };
    intact.push(event);
  }
  return { damage: run.damage, intact };
}

const LABELS: Record<RunKind, string> = { session: 'session', evolution: 'evolution run', evaluation: 'evaluation' };

/**
 * Check run `id` before a resume (see the module comment). No-op when the run does not exist.
 * @throws DamagedRunError when damaged and `fromLastGood` is not set (nothing is changed)
 */
export async function checkRunForResume(store: Store, id: string, kind: RunKind, validate: RecordValidator, fromLastGood = false): Promise<void> {
  const run = await store.getRun(id);
  if (!run || run.header.kind !== kind) return;
  const { damage, intact } = checkSequentialRun(run, validate);
  if (!damage) return;
  const n = intact.length;
  if (!fromLastGood) throw new DamagedRunError(id, damage, n === 1 ? 'record 1' : `records 1–${n}`, n, LABELS[kind]);
  await store.rewriteRun(run.header, intact);
}

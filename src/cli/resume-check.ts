/**
 * The CLI side of the resume check (store/run-check.ts): a damaged evolution run or evaluation
 * stops the command with one error naming the file and the first bad record, plus the command that
 * continues from the last intact record.
 */
import { DamagedRunError, type RunKind, type Store } from '../store/interface.ts';
import { checkRunForResume, type RecordValidator } from '../store/run-check.ts';
import { UsageError } from './usage-error.ts';

/** @throws DamagedRunError (message ending with `continueCommand`) when the run is damaged and
 * `fromLastGood` is not set */
export async function resumeCheck(store: Store, id: string, kind: RunKind, validate: RecordValidator, fromLastGood: boolean, continueCommand: string): Promise<void> {
  try {
    await checkRunForResume(store, id, kind, validate, fromLastGood);
  } catch (error) {
    if (error instanceof DamagedRunError) error.message += ` To continue from there: ${continueCommand}`;
    throw error;
  }
}

/** Each role whose model a resume would change ("actor model: a → b"); [] when none. Roles the
 * run did not record are not compared. */
export function modelChanges(recorded: Partial<Record<'actor' | 'metaAgent' | 'proposer', string>>, now: Record<'actor' | 'metaAgent' | 'proposer', string>): string[] {
  const names = { actor: 'actor', metaAgent: 'meta-agent', proposer: 'proposer' } as const;
  return (['actor', 'metaAgent', 'proposer'] as const).filter((r) => recorded[r] !== undefined && recorded[r] !== now[r]).map((r) => `${names[r]} model: ${recorded[r]} → ${now[r]}`);
}

/**
 * Refuse a resume that would change the run's models, unless `allowed` (--allow-changed-settings);
 * when allowed, say the change on stderr and return it (to record).
 * @throws UsageError naming every change and the flag that allows it
 */
export function changedModelsCheck(what: string, changes: readonly string[], allowed: boolean): string[] {
  if (changes.length === 0) return [];
  if (!allowed) throw new UsageError(`${what} --resume would change the run's models: ${changes.join('; ')}. Resume with the models it ran with, or add --allow-changed-settings to continue with these (the change is recorded).`);
  process.stderr.write(`metattl: ${what} continues with changed models: ${changes.join('; ')}\n`);
  return [...changes];
}

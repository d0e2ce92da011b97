/**
 * The CLI side of the resume check (store/run-check.ts): a damaged evolution run or evaluation
 * stops the command with one error naming the file and the first bad record, plus the command that
 * continues from the last intact record.
 */
import { DamagedRunError, type RunKind, type Store } from '../store/interface.ts';
import { checkRunForResume, type RecordValidator } from '../store/run-check.ts';

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

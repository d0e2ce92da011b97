import { MetattlError } from '../common/errors.ts';

/** A mistake in the command line (exit code 2, with the usage text). */
export class UsageError extends MetattlError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

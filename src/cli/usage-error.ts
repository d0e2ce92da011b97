/** A mistake in the command line (exit code 2, with the usage text). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

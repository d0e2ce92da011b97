/**
 * The one base of every error the project throws. `code` is the one field callers branch on: a
 * stable snake_case identifier, unique to its class (or, for a family such as `EngineError`, to
 * one variant of it) across the whole codebase (test/error-classes.test.ts checks both); `message`
 * is for people and says what to do. Subclasses keep their own `name` and any data the reader
 * needs (a run id, the usage the provider billed), never a second discriminator.
 * No library, DOM or Node API: every layer may import it.
 */
export class MetattlError extends Error {
  /**
   * @param code the stable identifier of what went wrong (snake_case, unique across classes)
   * @param message the human-readable text (already scrubbed of secrets by the thrower)
   * @param options `cause`: the lower-level error this one reports, when there is one
   */
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

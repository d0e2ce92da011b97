/**
 * Typed errors of the engine. `StoryFileError`: the bytes given are not a story file we can run
 * (bad input, shown to the user as is). `EngineError`: the engine was used wrongly or its worker
 * died. Both carry a stable `code` for callers to branch on.
 */
import type { EngineErrorCode, StoryFileErrorCode } from './interface.ts';

export class StoryFileError extends Error {
  override readonly name = 'StoryFileError';
  constructor(
    readonly code: StoryFileErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }
}

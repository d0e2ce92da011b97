/**
 * Typed errors of the engine. `StoryFileError`: the bytes given are not a story file we can run
 * (bad input, shown to the user as is). `EngineError`: the engine was used wrongly or its worker
 * died. Both carry a stable `code` for callers to branch on.
 */
import { MetattlError } from '../common/errors.ts';
import type { EngineErrorCode, StoryFileErrorCode } from './interface.ts';

export class StoryFileError extends MetattlError {
  override readonly name = 'StoryFileError';
  constructor(
    override readonly code: StoryFileErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

export class EngineError extends MetattlError {
  override readonly name = 'EngineError';
  constructor(
    override readonly code: EngineErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

/** Interpreter internals (JavaScript errors from inside the VM) and what they mean for the user. */
const INTERNALS: readonly [RegExp, string][] = [
  [/outside the bounds of the DataView|out of bounds|out of range|Invalid (typed )?array length/i,
    'The story tried to read or write outside its memory: the story file is damaged, or the story has a bug.'],
  [/Maximum call stack size exceeded|too much recursion/i,
    'The story called routines within routines without end (a runaway recursion): the story file is damaged, or the story has a bug.'],
  [/Unknown opcode|is not a function|Cannot read propert(y|ies) of (undefined|null)|undefined is not an object|is not defined/i,
    'The story ran an instruction the interpreter cannot carry out: the story file is damaged, or it uses a feature this interpreter lacks.'],
];

/**
 * A user-readable message for a failure from inside the interpreter: JavaScript internals
 * ("Offset is outside the bounds of the DataView", "Maximum call stack size exceeded", …) become
 * what happened in the user's terms, with the original kept as a detail for bug reports; our
 * typed errors and messages that are not internals are returned as they are.
 */
export function explainInterpreterError(error: unknown): string {
  if (error instanceof StoryFileError || error instanceof EngineError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('(details: ')) return message;
  for (const [pattern, meaning] of INTERNALS) if (pattern.test(message)) return `${meaning} (details: ${message})`;
  return message;
}

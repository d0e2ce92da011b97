/**
 * The one way a view shows a thrown error: its text in the user's terms (an LLM error's own
 * message; an interpreter failure explained, engine/errors.ts) with every registered API key
 * scrubbed (common/secrets.ts) — a provider or proxy may echo the key into an error body — and a
 * guard that runs a task and hands a thrown error's text to the view's error slot.
 */
import { scrubText } from '../../../common/secrets.ts';
import { explainInterpreterError } from '../../../engine/errors.ts';
import { LlmError } from '../../../llm/errors.ts';

/** The text shown for `error` (any thrown value), secrets scrubbed. */
export function errorText(error: unknown): string {
  return scrubText(error instanceof LlmError ? error.message : explainInterpreterError(error));
}

/**
 * Run `task`; a thrown error's text (`messageOf`, default errorText) goes to `show`.
 * @returns true when the task finished, false when it threw (the error is not rethrown)
 */
export async function showingErrors(task: () => Promise<unknown>, show: (message: string) => void, messageOf: (error: unknown) => string = errorText): Promise<boolean> {
  try {
    await task();
    return true;
  } catch (error) {
    show(messageOf(error));
    return false;
  }
}

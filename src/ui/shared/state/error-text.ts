/**
 * The one way a view shows a thrown error: its text in the user's terms (an LLM error's own
 * message; an interpreter failure explained, engine/errors.ts) with every registered API key
 * scrubbed (common/secrets.ts) — a provider or proxy may echo the key into an error body. A view
 * shows it through its error slot (error-slot.svelte.ts).
 */
import { scrubText } from '../../../common/secrets.ts';
import { explainInterpreterError } from '../../../engine/errors.ts';
import { LlmError } from '../../../llm/errors.ts';

/** The text shown for `error` (any thrown value), secrets scrubbed. */
export function errorText(error: unknown): string {
  return scrubText(error instanceof LlmError ? error.message : explainInterpreterError(error));
}


/**
 * A run stopped by a provider fault, said plainly: one sentence for a card's headline (what
 * happened, from the fault's kind), and the provider layer's whole message — its advice on the
 * fix — for a "details" fold; a workshop room's refusal (its cap, the teacher's pause) is its own
 * headline, in the room's words. Pure.
 */
import { ROOM_REFUSAL_PREFIX } from '../../../llm/errors.ts';

/** One plain sentence per fault kind (src/llm/interface.ts `LlmErrorKind`); others: a failure after retries. */
const PLAIN: Readonly<Record<string, string>> = {
  network_or_cors: 'the provider could not be reached.',
  auth: 'the provider refused the API key.',
  quota: 'the provider’s quota or billing limit is reached.',
  bad_request: 'the provider refused a request.',
  timeout: 'the provider did not answer in time, even after retries.',
  rate_limit: 'the provider kept limiting the rate, even after retries.',
  server: 'the provider failed, even after retries.',
  bad_response: 'the provider’s replies could not be read, even after retries.',
  truncated: 'the provider’s replies were cut off, even after retries.',
};

export interface ProviderStopText {
  /** "Stopped: the provider could not be reached." */
  headline: string;
  /** The full message with its advice (empty: none recorded). */
  details: string;
  /** Resuming can succeed (false: a workshop room's cap is reached, the student was removed, or the
   * room's time window is over: the same call would be refused again). */
  resumable: boolean;
  /** What to do instead of resuming, when `resumable` is false (empty otherwise). */
  instead: string;
}

/** A room refusal that lifts by itself (the teacher's pause, the window not yet open): resuming later can work. */
const ROOM_WAIT = /paused model calls|opens at/i;
/** A room refusal over the student's cap (tokens, calls or dollars). */
const ROOM_CAP = /you have used|does not fit/i;

/**
 * The headline and details of a run a provider fault stopped.
 * @param kind the fault's kind (the last faulted attempt's `kind`), null when unknown
 * @param message the stop message (the provider layer's advice), null when none
 */
export function providerStopText(kind: string | null, message: string | null): ProviderStopText {
  if (message?.startsWith(ROOM_REFUSAL_PREFIX)) {
    const words = message.slice(ROOM_REFUSAL_PREFIX.length).trim();
    const resumable = ROOM_WAIT.test(words);
    const instead = resumable ? '' : ROOM_CAP.test(words)
      ? 'Resuming would be refused the same way: ask the teacher for more, or start a shorter session (fewer episodes or steps).'
      : 'Resuming would be refused the same way: this session cannot go on through the room; talk to the teacher.';
    return { headline: `Stopped: the workshop room refused the call: ${words}`, details: '', resumable, instead };
  }
  return { headline: `Stopped: ${PLAIN[kind ?? ''] ?? 'the provider failed.'}`, details: message?.trim() ?? '', resumable: true, instead: '' };
}

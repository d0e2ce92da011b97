/**
 * A run stopped by a provider fault, said plainly: one sentence for a card's headline (what
 * happened, from the fault's kind), and the provider layer's whole message — its advice on the
 * fix — for a "details" fold; a workshop room's refusal (its cap, the teacher's pause) is its own
 * headline, in the room's words. Pure.
 */
import { parseRoomRefusal } from '../../../llm/errors.ts';

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

/** Room refusals that lift by themselves (the teacher's pause, the window not yet open): resuming later can work. */
const ROOM_WAIT_CODES: ReadonlySet<string> = new Set(['model_calls_paused', 'room_not_open']);
/** Room refusals over the student's cap (calls, tokens or dollars; a request too large for what is left). */
const ROOM_CAP_CODES: ReadonlySet<string> = new Set(['call_cap_reached', 'token_cap_reached', 'usd_cap_reached']);
/** The same two kinds by the room's words, for a stop stored before refusals carried their code. */
const ROOM_WAIT = /paused model calls|opens at/i;
const ROOM_CAP = /you have used|does not fit/i;

/**
 * The headline and details of a run a provider fault stopped.
 * @param kind the fault's kind (the last faulted attempt's `kind`), null when unknown
 * @param message the stop message (the provider layer's advice), null when none
 */
export function providerStopText(kind: string | null, message: string | null): ProviderStopText {
  const room = message === null ? null : parseRoomRefusal(message);
  if (room) {
    const { code, words } = room;
    const resumable = code === null ? ROOM_WAIT.test(words) : ROOM_WAIT_CODES.has(code);
    const overCap = code === null ? ROOM_CAP.test(words) : ROOM_CAP_CODES.has(code);
    const instead = resumable ? '' : overCap
      ? 'Resuming would be refused the same way: ask the teacher for more, or start a shorter session (fewer episodes or steps).'
      : 'Resuming would be refused the same way: this session cannot go on through the room; talk to the teacher.';
    return { headline: `Stopped: the workshop room refused the call: ${words}`, details: '', resumable, instead };
  }
  return { headline: `Stopped: ${PLAIN[kind ?? ''] ?? 'the provider failed.'}`, details: message?.trim() ?? '', resumable: true, instead: '' };
}

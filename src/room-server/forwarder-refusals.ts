/**
 * The forwarder's refusals in OpenAI's error shape (`{ error: { message, type, code } }`), each
 * with a message a student understands (the page shows `error.message` as it is): removed (403),
 * the teacher's pause (429), outside the time window (429 before it opens, 403 once closed), over
 * a cap (429 naming the cap and the usage), a bad request (400/413), the provider's fault (502,
 * scrubbed by the caller). A refusal is an answer, not a thrown error. Node only (writes to a
 * `ServerResponse`).
 */
import type { ServerResponse } from 'node:http';
import { clockWords } from '../room/call-window.ts';
import type { ParticipantView, RoomSettings, RoomUsage } from '../room/protocol.ts';

/** One refusal: the HTTP status and the body's fields. */
export interface Refusal {
  status: number;
  /** OpenAI's `error.type` (`permission_error`, `rate_limit_error`, `invalid_request_error`, `upstream_error`). */
  type: string;
  /** A stable snake_case code (`participant_removed`, `model_calls_paused`, `call_cap_reached`, …). */
  code: string;
  /** Plain words for the student. */
  message: string;
  /** The call failed after it had its turn on the room's local model: it counts as a call. */
  heldModel?: boolean;
}

/** What a participant has in flight (reserved before forwarding, released when the call ends). */
export interface InFlight {
  calls: number;
  tokens: number;
  usd: number;
}

/** Write `refusal` as OpenAI's error body (JSON; no other header than its type and length). */
export function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ error: { message: refusal.message, type: refusal.type, param: null, code: refusal.code } });
  res.writeHead(refusal.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

const plain = (n: number): string => n.toLocaleString('en-US');
const dollars = (usd: number): string => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
/**
 * A window bound in the room machine's local time, the clock of the classroom it serves: "14:30",
 * "14:30 tomorrow", "14:30 on Mon 7 Dec"; " (UTC)" added where that machine runs on UTC (a cloud VM),
 * so a student elsewhere knows which clock it is.
 */
const when = (iso: string, nowMs: number): string => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${clockWords(t, nowMs)}${new Date(t).getTimezoneOffset() === 0 ? ' (UTC)' : ''}`;
};
const running = (n: number): string => (n === 0 ? '' : `, and ${n} more ${n === 1 ? 'call is' : 'calls are'} still running`);

/**
 * Why `participant` may not call the model now, before its caps: unknown (401), removed (403),
 * paused by the teacher (one participant or everyone: 429), the room's model not open yet (429,
 * saying when it opens) or closed (403, saying when it closed); null when none holds.
 * @param nowMs the current time, ms since the epoch
 */
export function accessRefusal(participant: ParticipantView | null, settings: RoomSettings, nowMs: number): Refusal | null {
  if (participant === null) return { status: 401, type: 'authentication_error', code: 'unknown_participant', message: 'This room does not know you: join it again with the room code.' };
  if (participant.removed) return { status: 403, type: 'permission_error', code: 'participant_removed', message: 'The teacher removed you from this room, so it no longer calls the model for you.' };
  if (participant.killed || settings.killedAll) {
    return { status: 429, type: 'rate_limit_error', code: 'model_calls_paused', message: 'The teacher paused model calls. Wait until the teacher resumes them, then try again.' };
  }
  const { opensAt, closesAt } = participant.caps;
  if (opensAt !== null && nowMs < Date.parse(opensAt)) {
    return { status: 429, type: 'rate_limit_error', code: 'room_not_open', message: `The room's model is not open yet: it opens at ${when(opensAt, nowMs)}. Try again then.` };
  }
  if (closesAt !== null && nowMs >= Date.parse(closesAt)) {
    return { status: 403, type: 'permission_error', code: 'room_closed', message: `The room's model closed at ${when(closesAt, nowMs)}: the time the teacher set for model calls is over. Ask the teacher if you need more.` };
  }
  return null;
}

/**
 * Which of `participant`'s caps its usage plus what it has in flight already reaches (429 naming
 * the cap and the usage), else null. The USD cap holds only where the usage has a price
 * (`usage.usd` null: the model has none, and the token cap is what bounds the cost).
 */
export function capRefusal(participant: ParticipantView, inFlight: InFlight): Refusal | null {
  const { usage, caps } = participant;
  const refuse = (code: string, message: string): Refusal => ({ status: 429, type: 'rate_limit_error', code, message });
  if (caps.maxCalls !== null && usage.calls + inFlight.calls >= caps.maxCalls) {
    return refuse('call_cap_reached', `You have used ${plain(usage.calls)} of your ${plain(caps.maxCalls)} model calls${running(inFlight.calls)}. Ask the teacher if you need more.`);
  }
  if (caps.maxTokens !== null && usage.tokens + inFlight.tokens >= caps.maxTokens) {
    return refuse('token_cap_reached', `You have used ${plain(usage.tokens)} of your ${plain(caps.maxTokens)} tokens${running(inFlight.calls)}. Ask the teacher if you need more.`);
  }
  if (caps.maxUsd !== null && usage.usd !== null && usage.usd + inFlight.usd >= caps.maxUsd) {
    return refuse('usd_cap_reached', `You have used ${dollars(usage.usd)} of your ${dollars(caps.maxUsd)} model budget${running(inFlight.calls)}. Ask the teacher if you need more.`);
  }
  return null;
}

/** A prompt that leaves no room for a reply within the tokens (or dollars) the participant has left. */
export function promptTooLong(promptTokens: number, left: { tokens: number | null; usd: number | null }, usage: RoomUsage): Refusal {
  const what = left.tokens !== null ? `${plain(Math.max(0, left.tokens))} tokens` : `${dollars(Math.max(0, left.usd ?? 0))} of your budget`;
  return {
    status: 429,
    type: 'rate_limit_error',
    code: left.tokens !== null ? 'token_cap_reached' : 'usd_cap_reached',
    message: `This request (about ${plain(promptTokens)} tokens) does not fit in the ${what} you have left (${plain(usage.tokens)} tokens used). Ask the teacher for more tokens, or start a shorter session (fewer episodes or steps).`,
  };
}

/** A request the forwarder cannot read (400), or one too large (413). */
export function badRequest(message: string, status = 400): Refusal {
  return { status, type: 'invalid_request_error', code: status === 413 ? 'request_too_large' : 'invalid_request', message };
}

/**
 * The provider's fault as the student sees it (502): its HTTP status (null: unreachable or an
 * error inside a reply) and its words, which the caller has scrubbed of the teacher's key.
 */
export function upstreamFault(status: number | null, scrubbedWords: string): Refusal {
  const head = status === null ? "The room could not get an answer from the teacher's model provider" : `The teacher's model provider refused the call (HTTP ${status})`;
  const words = scrubbedWords.trim() === '' ? '' : `: ${scrubbedWords.trim().slice(0, 300)}`;
  return { status: 502, type: 'upstream_error', code: status === null ? 'upstream_unreachable' : `upstream_${status}`, message: `${head}${words}. Try again; if it keeps failing, tell the teacher.` };
}

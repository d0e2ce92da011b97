/**
 * The room's refusals: one error family whose `code` names the refusal and fixes its HTTP status
 * (`ROOM_ERROR_STATUS`); the router answers each with `{ error, code }`.
 */
import { MetattlError } from '../common/errors.ts';

/** Every refusal the room's routes answer, with its HTTP status. */
export const ROOM_ERROR_STATUS = {
  room_bad_request: 400,
  room_unauthorized: 401,
  room_forbidden: 403,
  room_wrong_code: 403,
  room_not_found: 404,
  room_method: 405,
  room_round_not_open: 409,
  room_ended: 410,
  room_too_large: 413,
  room_too_fast: 429,
  room_no_model: 503,
} as const;

export type RoomErrorCode = keyof typeof ROOM_ERROR_STATUS;

/** A request the room refuses; `status` is the HTTP status its `code` maps to. */
export class RoomRequestError extends MetattlError {
  declare readonly code: RoomErrorCode;
  constructor(code: RoomErrorCode, message: string) {
    super(code, message);
    this.name = 'RoomRequestError';
  }

  get status(): number {
    return ROOM_ERROR_STATUS[this.code];
  }
}

/** The room server cannot start as asked (`--redis` without a shared state backend). */
export class RoomSetupError extends MetattlError {
  constructor(message: string) {
    super('room_setup', message);
    this.name = 'RoomSetupError';
  }
}

/**
 * Untrusted text (a name, a prompt, a title) made safe to keep: control characters removed (a
 * prompt keeps its line breaks and tabs when `multiline`), trimmed, at most `max` characters.
 */
export function cleanText(value: unknown, max: number, multiline = false): string {
  if (typeof value !== 'string') return '';
  // eslint-disable-next-line no-control-regex
  const controls = multiline ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g : /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  const text = value.normalize('NFC').replace(/\r\n?/g, '\n').replace(controls, multiline ? '' : ' ');
  return (multiline ? text : text.replace(/\s+/g, ' ')).trim().slice(0, max).trim();
}

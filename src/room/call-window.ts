/**
 * The room's time window for model calls (`RoomCaps.opensAt` / `closesAt`, ISO instants) in the
 * words and inputs people use: a teacher's `HH:MM` or a form's `datetime-local` value (both in the
 * local time zone of the host running this code), and "open at 14:05" / "closed since 15:30" for a
 * person reading it. Pure: the current time is passed in (ms since the epoch); no DOM or Node API.
 */
import type { RoomCaps } from './protocol.ts';

const MINUTE_MS = 60_000;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number): string => String(n).padStart(2, '0');
const dayStart = (ms: number): number => new Date(ms).setHours(0, 0, 0, 0);

/**
 * The instant (ms since the epoch) a window bound's text names: an ISO date-time
 * (`2026-12-07T14:05`, with or without a zone; without one it is local time), or `HH:MM` (24-hour,
 * local) meaning that time on the day of `nowMs`. Null when the text is neither.
 */
export function windowInstant(text: string, nowMs: number): number | null {
  const t = text.trim();
  const clock = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (clock) {
    const [h, m] = [Number(clock[1]), Number(clock[2])];
    return h > 23 || m > 59 ? null : new Date(nowMs).setHours(h, m, 0, 0);
  }
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(t)) return null;
  const ms = Date.parse(/T/.test(t) || t.length > 10 ? t : `${t}T00:00`);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The window from two bound texts (undefined or '' = no bound) as `RoomCaps` fields: an `HH:MM`
 * until earlier than (or equal to) the from is on the next day.
 * @throws Error naming the bad text ("… is not a time: use HH:MM or an ISO date-time") or a window
 *   that closes before it opens
 */
export function callWindowOf(from: string | undefined, until: string | undefined, nowMs: number): Pick<RoomCaps, 'opensAt' | 'closesAt'> {
  const read = (text: string | undefined, name: string): number | null => {
    if (text === undefined || text.trim() === '') return null;
    const ms = windowInstant(text, nowMs);
    if (ms === null) throw new Error(`${name} "${text}" is not a time: use HH:MM (today, local time) or an ISO date-time such as 2026-12-07T14:05`);
    return ms;
  };
  const opens = read(from, 'calls-from');
  let closes = read(until, 'calls-until');
  if (opens !== null && closes !== null && closes <= opens && /^\s*\d{1,2}:\d{2}\s*$/.test(until ?? '')) closes = new Date(closes).setDate(new Date(closes).getDate() + 1);
  if (opens !== null && closes !== null && closes <= opens) throw new Error(`calls-until (${new Date(closes).toISOString()}) must be after calls-from (${new Date(opens).toISOString()})`);
  return { opensAt: opens === null ? null : new Date(opens).toISOString(), closesAt: closes === null ? null : new Date(closes).toISOString() };
}

/** A `datetime-local` input's value ('YYYY-MM-DDTHH:MM', local time) for an ISO instant; '' for null or a bad one. */
export function localInputOf(iso: string | null): string {
  const d = iso === null ? null : new Date(iso);
  if (d === null || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The ISO instant of a `datetime-local` input's value (local time); null for '' or a bad value. */
export function isoOfLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value.trim())) return null;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * A clock time in local words relative to `nowMs`: "14:05" (today), "14:05 tomorrow",
 * "14:05 yesterday", else "14:05 on Mon 7 Dec".
 */
export function clockWords(ms: number, nowMs: number): string {
  const d = new Date(ms);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const days = Math.round((dayStart(ms) - dayStart(nowMs)) / (1440 * MINUTE_MS));
  if (days === 0) return hm;
  if (days === 1) return `${hm} tomorrow`;
  if (days === -1) return `${hm} yesterday`;
  return `${hm} on ${DAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]}`;
}

/** Where `nowMs` is in the window: none set, not open yet, open, or closed; and a sentence saying so. */
export interface CallWindowState {
  state: 'none' | 'not-open' | 'open' | 'closed';
  /** "Model calls open at 14:05", "Model calls are open until 15:30", "Model calls closed since 15:30", or '' (none). */
  text: string;
}

/** The window's state at `nowMs` in plain words (local time), for the teacher's and students' pages. */
export function callWindowState(caps: Pick<RoomCaps, 'opensAt' | 'closesAt'>, nowMs: number): CallWindowState {
  const opens = caps.opensAt === null ? null : Date.parse(caps.opensAt);
  const closes = caps.closesAt === null ? null : Date.parse(caps.closesAt);
  if (opens === null && closes === null) return { state: 'none', text: '' };
  if (opens !== null && nowMs < opens) return { state: 'not-open', text: `Model calls open at ${clockWords(opens, nowMs)}${closes === null ? '' : ` (until ${clockWords(closes, nowMs)})`}` };
  if (closes !== null && nowMs >= closes) return { state: 'closed', text: `Model calls closed since ${clockWords(closes, nowMs)}` };
  return { state: 'open', text: closes === null ? `Model calls are open (since ${clockWords(opens!, nowMs)})` : `Model calls are open until ${clockWords(closes, nowMs)}` };
}

/**
 * The model calls' time window in people's words and inputs (src/room/call-window.ts): HH:MM and
 * ISO bounds (an until earlier than the from is the next day), datetime-local values both ways,
 * and "open at 14:05" / "closed since 15:30" relative to now — in a fixed local time zone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { callWindowOf, callWindowState, clockWords, isoOfLocalInput, localInputOf, windowInstant } from '../src/room/call-window.ts';

beforeAll(() => {
  process.env.TZ = 'Europe/Paris';
});

/** 2026-12-07 10:00 in Paris (UTC+1). */
const NOW = Date.parse('2026-12-07T09:00:00Z');

describe('the window for model calls', () => {
  it('reads HH:MM as local time today and ISO date-times as given', () => {
    expect(new Date(windowInstant('14:05', NOW)!).toISOString()).toBe('2026-12-07T13:05:00.000Z');
    expect(new Date(windowInstant('2026-12-08T09:30', NOW)!).toISOString()).toBe('2026-12-08T08:30:00.000Z');
    expect(new Date(windowInstant('2026-12-08T09:30:00Z', NOW)!).toISOString()).toBe('2026-12-08T09:30:00.000Z');
    expect([windowInstant('24:00', NOW), windowInstant('soon', NOW), windowInstant('14h05', NOW), windowInstant('', NOW)]).toEqual([null, null, null, null]);
  });

  it('makes the caps window: an HH:MM until before the from is tomorrow; backwards ISO bounds are refused', () => {
    expect(callWindowOf('22:00', '01:30', NOW)).toEqual({ opensAt: '2026-12-07T21:00:00.000Z', closesAt: '2026-12-08T00:30:00.000Z' });
    expect(callWindowOf(undefined, '15:30', NOW)).toEqual({ opensAt: null, closesAt: '2026-12-07T14:30:00.000Z' });
    expect(callWindowOf(undefined, undefined, NOW)).toEqual({ opensAt: null, closesAt: null });
    expect(() => callWindowOf('later', undefined, NOW)).toThrow('calls-from "later" is not a time');
    expect(() => callWindowOf('2026-12-07T15:00', '2026-12-07T14:00', NOW)).toThrow('must be after calls-from');
  });

  it('converts datetime-local values to ISO instants and back (local time; empty: no limit)', () => {
    expect(localInputOf('2026-12-07T13:05:00.000Z')).toBe('2026-12-07T14:05');
    expect(isoOfLocalInput('2026-12-07T14:05')).toBe('2026-12-07T13:05:00.000Z');
    expect(isoOfLocalInput(localInputOf('2026-12-24T23:59:00.000Z'))).toBe('2026-12-24T23:59:00.000Z');
    expect([localInputOf(null), localInputOf('nonsense'), isoOfLocalInput(''), isoOfLocalInput('14:05')]).toEqual(['', '', null, null]);
  });

  it('says the clock time relative to today', () => {
    expect(clockWords(Date.parse('2026-12-07T13:05:00Z'), NOW)).toBe('14:05');
    expect(clockWords(Date.parse('2026-12-08T13:05:00Z'), NOW)).toBe('14:05 tomorrow');
    expect(clockWords(Date.parse('2026-12-06T13:05:00Z'), NOW)).toBe('14:05 yesterday');
    expect(clockWords(Date.parse('2026-12-10T13:05:00Z'), NOW)).toBe('14:05 on Thu 10 Dec');
  });

  it('says plainly whether model calls are open now', () => {
    const caps = { opensAt: '2026-12-07T13:05:00.000Z', closesAt: '2026-12-07T14:30:00.000Z' };
    expect(callWindowState({ opensAt: null, closesAt: null }, NOW)).toEqual({ state: 'none', text: '' });
    expect(callWindowState(caps, NOW)).toEqual({ state: 'not-open', text: 'Model calls open at 14:05 (until 15:30)' });
    expect(callWindowState(caps, Date.parse('2026-12-07T14:00:00Z'))).toEqual({ state: 'open', text: 'Model calls are open until 15:30' });
    expect(callWindowState(caps, Date.parse('2026-12-07T14:30:00Z'))).toEqual({ state: 'closed', text: 'Model calls closed since 15:30' });
    expect(callWindowState({ opensAt: caps.opensAt, closesAt: null }, Date.parse('2026-12-07T14:00:00Z'))).toEqual({ state: 'open', text: 'Model calls are open (since 14:05)' });
  });
});

/**
 * The booth's loop on a hand-run clock: every frame of a recording held for its caption's reading
 * time, the final score held, then the next recording, round and round; a tap pauses, another
 * resumes, and left alone it resumes after the idle time. Also what the booth reads from the shipped
 * files and the game text it shows for a recording without a map.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replayFrames } from '../../ttl/replay.ts';
import { sessionCaptions } from '../../ttl/session-captions.ts';
import { sceneAt } from '../shared/replay/replay-scene.ts';
import { SHIPPED_REPLAYS } from '../shared/replay/shipped-replays.ts';
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { KioskLoop, PlaylistFeed } from './kiosk-loop.svelte.ts';
import { DEFAULT_LIVE_SESSIONS, LiveFeed, liveCapOf, liveModeText } from './kiosk-live.svelte.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import { KIOSK_PACE, kioskDwellMs, kioskRecordingsOf } from './kiosk-pace.ts';
import { gameTextAt } from './kiosk-scene.ts';

const read = (path: string): string => readFileSync(new URL(`../../../public/${path}`, import.meta.url), 'utf8');
const RECORDINGS = SHIPPED_REPLAYS.flatMap((entry) => kioskRecordingsOf(entry, read(entry.path)));
/** The shipped Lever Room session (the simulated model's credit-assignment run, won from episode 4). */
const NAIVE = RECORDINGS.find((r) => r.record.config.story.id === 'lever-room' && r.record.config.policy.kind === 'meta')!;

/** A clock run by hand: `run(ms)` fires, in order, every callback due within `ms` from now. */
function manualClock(): Schedule & { run: (ms: number) => void; pending: () => number; now: () => number } {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const schedule = ((callback: () => void, delayMs: number) => {
    const id = seq++;
    timers.set(id, { at: now + delayMs, callback });
    return () => void timers.delete(id);
  }) as Schedule & { run: (ms: number) => void; pending: () => number; now: () => number };
  schedule.run = (ms) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].callback();
    }
    now = end;
  };
  schedule.pending = () => timers.size;
  schedule.now = () => now;
  return schedule;
}

/** How long the loop holds a whole recording, ms (kioskDwellMs per frame, the last at least endHoldMs). */
function recordingMs(record: (typeof RECORDINGS)[number]['record']): number {
  const frames = replayFrames(record);
  const captions = sessionCaptions(record, frames);
  return frames.reduce((sum, frame, i) => {
    const dwell = kioskDwellMs(frame, captions[i]!, captions[i - 1] ?? null);
    return sum + (i === frames.length - 1 ? Math.max(dwell, KIOSK_PACE.endHoldMs) : dwell);
  }, 0);
}

describe('the booth’s recordings', () => {
  it('are every session of the shipped session and evaluation files, each naming its model', () => {
    const evaluation = SHIPPED_REPLAYS.find((e) => e.kind === 'evaluation')!;
    const sessions = JSON.parse(read(evaluation.path)).sessions.filter((s: { session: unknown }) => s.session).length;
    expect(RECORDINGS).toHaveLength(SHIPPED_REPLAYS.filter((e) => e.kind === 'session').length + sessions);
    for (const r of RECORDINGS) expect(r.credits).toMatch(/^actor: \S/);
    expect(NAIVE.credits).toContain('simulated model — not a language model');
    expect(kioskRecordingsOf({ kind: 'evolution' }, read('replays/evolution-scripted.json'))).toEqual([]);
    expect(kioskRecordingsOf({ kind: 'session' }, '{"format":"metattl-session-1"}')).toEqual([]);
  });

  it('hold a new headline long enough to read it, a plain step briefly', () => {
    const frames = replayFrames(NAIVE.record);
    const captions = sessionCaptions(NAIVE.record, frames);
    const words = captions[0]!.headline.split(' ').length;
    expect(kioskDwellMs(frames[0]!, captions[0]!, null)).toBe(Math.max(KIOSK_PACE.eventMs, 1_500 + words * KIOSK_PACE.perWordMs));
    const plain = frames.findIndex((f, i) => f.kind === 'step' && i > 0 && captions[i]!.headline === captions[i - 1]!.headline);
    expect(kioskDwellMs(frames[plain]!, captions[plain]!, captions[plain - 1]!)).toBe(KIOSK_PACE.stepMs);
  });

  it('show the game’s answer to the last command when there is no map', () => {
    const frames = replayFrames(NAIVE.record);
    const first = sceneAt(NAIVE.record, frames, 0)!;
    expect(gameTextAt(NAIVE.record, first)).toEqual({ command: null, text: expect.stringContaining('Lever Room'), short: expect.stringMatching(/^…/) });
    const step = sceneAt(NAIVE.record, frames, 1)!;
    const shown = gameTextAt(NAIVE.record, step, 200);
    expect(shown.command).toBe(NAIVE.record.episodes[0]!.steps[0]!.action);
    expect(shown.text.length).toBeLessThanOrEqual(200);
    expect(shown.short.length).toBeLessThanOrEqual(67);
    expect(shown.text.endsWith(shown.short.slice(1))).toBe(true);
  });
});

describe('the booth’s loop', () => {
  it('plays every frame at its pace, then the next recording, round after round', () => {
    const clock = manualClock();
    const feed = new PlaylistFeed([NAIVE, RECORDINGS[1]!]);
    const loop = new KioskLoop(feed, clock);
    loop.start();
    expect(loop.recording).toBe(NAIVE);
    expect(loop.caption!.headline).toMatch(new RegExp(`^Episode 1 of ${NAIVE.record.config.episodes}: The Lever Room`));
    clock.run(recordingMs(NAIVE.record) - 1);
    expect(loop.player.atEnd).toBe(true);
    expect(loop.caption!.headline).toMatch(new RegExp(`^Episode ${NAIVE.record.config.episodes} of ${NAIVE.record.config.episodes}`));
    clock.run(1);
    expect(loop.recording).toBe(RECORDINGS[1]);
    expect([loop.player.position, loop.played, loop.rounds]).toEqual([0, 2, 0]);
    clock.run(recordingMs(RECORDINGS[1]!.record));
    expect([loop.recording, loop.played, loop.rounds]).toEqual([NAIVE, 3, 1]);
    loop.stop();
    expect(clock.pending()).toBe(0);
  });

  it('pauses on a tap, resumes on the next, and by itself when left alone', () => {
    const clock = manualClock();
    const loop = new KioskLoop(new PlaylistFeed([NAIVE]), clock);
    loop.start();
    clock.run(10_000);
    const at = loop.player.position;
    expect(at).toBeGreaterThan(0);
    loop.tap();
    clock.run(KIOSK_PACE.idleMs - 1);
    expect([loop.paused, loop.player.position]).toEqual([true, at]);
    clock.run(1);
    expect(loop.paused).toBe(false);
    clock.run(20_000);
    expect(loop.player.position).toBeGreaterThan(at);
    loop.tap();
    loop.tap();
    expect(loop.paused).toBe(false);
    expect(clock.pending()).toBe(1);
    loop.stop();
  });

  it('waits for a feed with nothing to play yet', () => {
    const clock = manualClock();
    const queue: (typeof NAIVE)[] = [];
    const loop = new KioskLoop({ next: () => queue.shift() ?? null }, clock);
    loop.start();
    clock.run(10_000);
    expect(loop.recording).toBeNull();
    queue.push(NAIVE);
    clock.run(2_000);
    expect(loop.recording).toBe(NAIVE);
    loop.stop();
  });
});

describe('the live booth', () => {
  it('caps a model without prices by sessions, a priced one by the cost cap too, and refuses a priced one without it', () => {
    expect(liveCapOf(null, false, null)).toEqual({ sessions: DEFAULT_LIVE_SESSIONS, maxUsd: null });
    expect(liveCapOf('2', false, 0.5)).toEqual({ sessions: 2, maxUsd: null });
    expect(liveCapOf('2', true, 0.5)).toEqual({ sessions: 2, maxUsd: 0.5 });
    expect(liveCapOf(null, true, null)).toEqual({ problem: expect.stringContaining('needs a cost cap') });
    expect(liveCapOf('0', false, null)).toEqual({ problem: expect.stringContaining('from 1 to 100') });
    expect(liveCapOf('two', false, null)).toHaveProperty('problem');
  });

  /** A feed whose runs resolve when the test says; `runs` counts those started. */
  function liveFeed(cap: { sessions: number; maxUsd: number | null }, cost = 0) {
    const pending: ((record: SessionRecord) => void)[] = [];
    const fallback = new PlaylistFeed([RECORDINGS[1]!]);
    const feed = new LiveFeed(cap, () => new Promise((resolve) => pending.push(resolve)), fallback, () => cost);
    return { feed, pending, fallback };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('plays fresh sessions back to back up to the session cap, then the recordings', async () => {
    const { feed, pending } = liveFeed({ sessions: 2, maxUsd: null });
    feed.start();
    expect([feed.next(), feed.started]).toEqual([null, 1]);
    pending.shift()!(NAIVE.record);
    await settle();
    const first = feed.next()!;
    expect(first.title).toBe(`Live · ${NAIVE.title}`);
    expect(feed.started).toBe(2);
    expect(feed.next()).toBeNull();
    pending.shift()!(NAIVE.record);
    await settle();
    expect(feed.next()!.title).toMatch(/^Live · /);
    expect(feed.ended).toBe('2 live sessions played');
    expect(feed.next()).toBe(RECORDINGS[1]);
    expect(pending).toHaveLength(0);
    expect(first.live).toBe(1);
    const cap = { sessions: 2, maxUsd: null };
    expect(liveModeText(feed, cap, 'simulated model — not a language model', 'Recorded sessions', first)).toBe('Live · session 1 of 2 · simulated model — not a language model');
    expect(liveModeText(feed, cap, 'simulated model — not a language model', 'Recorded sessions', RECORDINGS[1]!)).toBe('Recorded sessions · live done: 2 live sessions played');
  });

  it('stops at the cost cap over the sessions together, and after a session the provider stopped', async () => {
    const priced = liveFeed({ sessions: 10, maxUsd: 0.05 }, 0.03);
    priced.feed.start();
    expect(liveModeText(priced.feed, { sessions: 10, maxUsd: 0.05 }, 'gpt-x', 'R', null)).toBe('Live · session 1 of 10 is being played by the gpt-x…');
    priced.pending.shift()!(NAIVE.record);
    await settle();
    priced.feed.next();
    priced.pending.shift()!(NAIVE.record);
    await settle();
    expect([priced.feed.spentUsd, priced.feed.ended]).toEqual([0.06, 'the cost cap was reached']);
    expect(liveModeText(priced.feed, { sessions: 10, maxUsd: 0.05 }, 'gpt-x', 'R', { live: 2 })).toBe('Live · session 2 of 10 · gpt-x · $0.0600 of $0.05');
    const stopped = liveFeed({ sessions: 10, maxUsd: 1 });
    stopped.feed.start();
    stopped.pending.shift()!({ ...NAIVE.record, status: 'stopped', stopReason: 'budget', stopMessage: 'Cap reached' });
    await settle();
    expect(stopped.feed.ended).toBe('the cost cap was reached');
    expect(stopped.feed.next()!.title).toMatch(/^Live · /);
    expect(stopped.feed.next()).toBe(RECORDINGS[1]);
  });
});

/**
 * The booth's loop: recordings played one after another, for ever, at a readable pace
 * (kiosk-pace.ts), each frame with its caption (ttl/session-captions.ts). Replay's player
 * (`ReplayPlayer`) holds the recording and the frame shown; this loop moves it on by its own timer
 * so each frame stays as long as its caption needs. A tap pauses; with no tap for `idleMs` the loop
 * resumes. Where the next recording comes from is a `KioskFeed` (the shipped recordings; live
 * sessions first in live mode). The timer is injected (`Schedule`), so tests drive it by hand.
 */
import { sessionCaptions, type FrameCaption } from '../../ttl/session-captions.ts';
import { ReplayPlayer } from '../shared/replay/replay-player.svelte.ts';
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { KIOSK_PACE, kioskDwellMs, type KioskPace, type KioskRecording } from './kiosk-pace.ts';

/** Where the loop's recordings come from. */
export interface KioskFeed {
  /** The next recording to play (called when one ends); null: nothing to play now (asked again later). */
  next(): KioskRecording | null;
  /** Passes through its recordings completed (a feed that does not cycle: absent). */
  readonly rounds?: number;
}

/** A feed that cycles through `recordings` in order; `rounds` counts completed passes. */
export class PlaylistFeed implements KioskFeed {
  private at = -1;
  /** Passes through the whole playlist completed. */
  rounds = $state(0);
  constructor(readonly recordings: readonly KioskRecording[]) {}
  next(): KioskRecording | null {
    if (this.recordings.length === 0) return null;
    this.at++;
    if (this.at >= this.recordings.length) {
      this.at = 0;
      this.rounds++;
    }
    return this.recordings[this.at]!;
  }
}

/** A feed with nothing yet: asked again after this long, ms. */
const RETRY_MS = 2_000;

export class KioskLoop {
  /** Replay's player: the recording and the frame shown (its own play timer is never used). */
  readonly player = new ReplayPlayer(() => () => {});
  recording = $state.raw<KioskRecording | null>(null);
  captions = $state.raw<readonly FrameCaption[]>([]);
  readonly caption: FrameCaption | null = $derived(this.captions[this.player.position] ?? null);
  paused = $state(false);
  /** Passes through the feed's recordings completed. */
  get rounds(): number {
    return this.feed.rounds ?? 0;
  }
  /** Recordings started since the loop began. */
  played = $state(0);
  private cancel: (() => void) | null = null;
  private cancelIdle: (() => void) | null = null;
  private stopped = false;

  constructor(
    private feed: KioskFeed,
    private readonly schedule: Schedule,
    readonly pace: KioskPace = KIOSK_PACE,
  ) {}

  /** Start playing (the first recording of the feed). */
  start(): void {
    this.stopped = false;
    this.advance();
  }

  /** Stop every timer (the page is closing, or a test ends). */
  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancelIdle?.();
    this.cancel = this.cancelIdle = null;
  }

  /** Play from `feed` from the next recording on (the one shown finishes first). */
  switchFeed(feed: KioskFeed): void {
    this.feed = feed;
  }

  /** A visitor's tap: pause (resumed by another tap, or by itself after `pace.idleMs`). */
  tap(): void {
    if (this.stopped) return;
    if (this.paused) this.resume();
    else {
      this.paused = true;
      this.cancel?.();
      this.cancel = null;
      this.cancelIdle?.();
      this.cancelIdle = this.schedule(() => this.resume(), this.pace.idleMs);
    }
  }

  private resume(): void {
    this.cancelIdle?.();
    this.cancelIdle = null;
    this.paused = false;
    this.wait();
  }

  /** Show the next recording of the feed from its first frame. */
  private advance(): void {
    if (this.stopped) return;
    const next = this.feed.next();
    if (next === null) {
      this.cancel = this.schedule(() => this.advance(), RETRY_MS);
      return;
    }
    this.recording = next;
    this.player.load(next.record);
    this.captions = sessionCaptions(next.record, this.player.frames);
    this.played++;
    this.wait();
  }

  /** Hold the frame shown for its dwell, then move on (the next frame, or the next recording). */
  private wait(): void {
    this.cancel?.();
    if (this.stopped || this.paused) return;
    const at = this.player.position;
    const frame = this.player.frames[at];
    const caption = this.captions[at];
    const last = at >= this.player.frames.length - 1;
    const dwell = frame && caption ? kioskDwellMs(frame, caption, this.captions[at - 1] ?? null, this.pace) : 0;
    this.cancel = this.schedule(() => {
      this.cancel = null;
      if (last) this.advance();
      else {
        this.player.seek(at + 1);
        this.wait();
      }
    }, last ? Math.max(dwell, this.pace.endHoldMs) : dwell);
  }
}

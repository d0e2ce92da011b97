/**
 * Stepping through one recorded session (src/ttl/replay.ts frames) with no provider: play and
 * pause, step forward and back, a speed, jump to an episode, to the start or the end. The timer
 * is injected (`Schedule`), so tests drive it by hand. Playing stops at the last frame.
 */
import { replayFrames, type ReplayFrame } from '../../../ttl/replay.ts';
import type { SessionRecord } from '../../../ttl/session-record.ts';
import type { Schedule } from '../state/retry-countdown.svelte.ts';
import { episodeStart, frameDelayMs, sceneAt, type ReplayScene } from './replay-scene.ts';

export const browserSchedule: Schedule = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

export class ReplayPlayer {
  record = $state.raw<SessionRecord | null>(null);
  frames = $state.raw<readonly ReplayFrame[]>([]);
  /** The frame shown, 0-based. */
  position = $state(0);
  playing = $state(false);
  /** × the base pace (replay-scene.ts `REPLAY_SPEEDS`). */
  speed = $state(4);
  readonly scene: ReplayScene | null = $derived(this.record ? sceneAt(this.record, this.frames, this.position) : null);
  readonly atEnd = $derived(this.frames.length === 0 || this.position >= this.frames.length - 1);
  /** Episode indexes of the session, in order. */
  readonly episodes = $derived(this.record ? this.record.episodes.map((e) => e.index) : []);
  private cancel: (() => void) | null = null;

  constructor(private readonly schedule: Schedule = browserSchedule) {}

  /** Show `record` from its first frame (paused). */
  load(record: SessionRecord): void {
    this.pause();
    this.record = record;
    this.frames = replayFrames(record);
    this.position = 0;
  }

  clear(): void {
    this.pause();
    this.record = null;
    this.frames = [];
    this.position = 0;
  }

  /** Play from here (from the start when at the end). */
  play(): void {
    if (this.frames.length === 0) return;
    if (this.atEnd) this.position = 0;
    this.playing = true;
    this.next();
  }

  pause(): void {
    this.playing = false;
    this.cancel?.();
    this.cancel = null;
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  forward(): void {
    this.pause();
    this.go(this.position + 1);
  }

  back(): void {
    this.pause();
    this.go(this.position - 1);
  }

  toStart(): void {
    this.pause();
    this.go(0);
  }

  toEnd(): void {
    this.pause();
    this.go(this.frames.length - 1);
  }

  /** Show frame `position` (clamped; keeps playing when playing). */
  seek(position: number): void {
    this.go(position);
    if (this.playing) this.next();
  }

  /** Show the start of episode `episode` (keeps playing when playing). */
  jumpToEpisode(episode: number): void {
    const at = episodeStart(this.frames, episode);
    if (at === null) return;
    this.go(at);
    if (this.playing) this.next();
  }

  /** Change the pace; a pending frame is rescheduled at the new pace. */
  setSpeed(speed: number): void {
    if (!(speed > 0)) return;
    this.speed = speed;
    if (this.playing) this.next();
  }

  private go(position: number): void {
    this.position = Math.max(0, Math.min(this.frames.length - 1, position));
  }

  /** Schedule the next frame (replacing any pending one). */
  private next(): void {
    this.cancel?.();
    const frame = this.frames[this.position];
    if (!this.playing || !frame || this.atEnd) {
      this.cancel = null;
      this.playing = false;
      return;
    }
    this.cancel = this.schedule(() => {
      this.cancel = null;
      this.go(this.position + 1);
      this.next();
    }, frameDelayMs(frame, this.speed));
  }
}

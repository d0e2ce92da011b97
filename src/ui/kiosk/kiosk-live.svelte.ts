/**
 * The booth's live mode (`?kiosk=1&live=1`): fresh sessions played by the configured provider, back
 * to back until the cap, then the shipped recordings again. A session is shown once it has ended
 * (the loop plays it at the booth's readable pace, as it plays a recording) while the next one runs,
 * so the screen is never waiting on a slow provider mid-caption.
 *
 * The cap: with a priced model (Settings' price table knows every role's model) the Settings cost
 * cap in USD, over all the booth's sessions together, and live mode refuses to start without one;
 * a model without prices (the simulated model, a local server) costs nothing we can count, so its
 * cap is a number of sessions (`&sessions=N`, default 3), which applies to priced models too.
 */
import type { SessionRecord } from '../../ttl/session-record.ts';
import type { KioskFeed } from './kiosk-loop.svelte.ts';
import { kioskRecording, type KioskRecording } from './kiosk-pace.ts';
import { errorText } from '../shared/state/error-text.ts';

/** Sessions a live booth plays when the URL does not say (`&sessions=N`). */
export const DEFAULT_LIVE_SESSIONS = 3;

/** What bounds a live booth: sessions always, USD too when the models are priced. */
export interface LiveCap {
  sessions: number;
  /** The Settings cost cap over the booth's sessions, USD; null: the models have no price (sessions only). */
  maxUsd: number | null;
}

/**
 * The live booth's cap, or why it cannot run live (then it plays the recordings).
 * @param sessionsParam the URL's `sessions` ('' or null: the default; else an integer 1…100)
 * @param priced whether every role's model has a price at the provider
 * @param maxUsd the Settings cost cap (null: none)
 */
export function liveCapOf(sessionsParam: string | null, priced: boolean, maxUsd: number | null): LiveCap | { problem: string } {
  const sessions = sessionsParam === null || sessionsParam === '' ? DEFAULT_LIVE_SESSIONS : Number(sessionsParam);
  if (!Number.isInteger(sessions) || sessions < 1 || sessions > 100) return { problem: `“sessions=${sessionsParam}” is not a number of sessions from 1 to 100.` };
  if (!priced) return { sessions, maxUsd: null };
  if (maxUsd === null || !(maxUsd > 0)) return { problem: 'Live mode with a priced model needs a cost cap: set “Max USD per run” in Settings.' };
  return { sessions, maxUsd };
}

/** Runs session `n` (1-based) of the booth to its end (or its stop). */
export type LiveRunner = (n: number) => Promise<SessionRecord>;

/**
 * A feed of live sessions, then of `fallback` (the recordings). The first session starts at once;
 * each next one when the one before is taken to be shown, until `cap.sessions` have run, a session
 * stops on the cost cap (or for any reason but completing), or a run throws.
 */
export class LiveFeed implements KioskFeed {
  /** Live sessions started so far. */
  started = $state(0);
  /** Set once no further live session will run: why ("3 sessions played", "the cost cap…"). */
  ended = $state<string | null>(null);
  /** USD the finished sessions cost (null: the models have no price). */
  spentUsd = $state(0);
  private ready: KioskRecording | null = null;
  private running = false;

  constructor(
    private readonly cap: LiveCap,
    private readonly run: LiveRunner,
    private readonly fallback: KioskFeed,
    private readonly costOf: (record: SessionRecord) => number,
  ) {}

  get rounds(): number | undefined {
    return this.fallback.rounds;
  }

  /** Start the first session (call once). */
  start(): void {
    this.runNext();
  }

  next(): KioskRecording | null {
    if (this.ready) {
      const shown = this.ready;
      this.ready = null;
      this.runNext();
      return shown;
    }
    if (this.ended !== null) return this.fallback.next();
    return null;
  }

  private runNext(): void {
    if (this.running || this.ended !== null) return;
    if (this.started >= this.cap.sessions) {
      this.ended = `${this.cap.sessions} live session${this.cap.sessions === 1 ? '' : 's'} played`;
      return;
    }
    this.running = true;
    this.started++;
    void this.run(this.started).then(
      (record) => this.finished(record),
      (error: unknown) => {
        this.running = false;
        this.ended = `a live session failed (${errorText(error)})`;
      },
    );
  }

  private finished(record: SessionRecord): void {
    this.running = false;
    this.spentUsd += this.costOf(record);
    const playable = record.episodes.some((e) => e.trajectory !== null);
    if (playable) this.ready = { ...kioskRecording(record), title: `Live · ${kioskRecording(record).title}`, live: this.started };
    if (record.status !== 'complete') this.ended = record.stopReason === 'budget' ? 'the cost cap was reached' : `session ${this.started} stopped (${record.stopMessage ?? record.stopReason ?? 'stopped'})`;
    else if (this.cap.maxUsd !== null && this.spentUsd >= this.cap.maxUsd) this.ended = 'the cost cap was reached';
    if (!playable && this.ended === null) this.runNext();
  }
}

/**
 * The booth's mode line in live mode: while a live session is shown "Live · session 2 of 3 ·
 * simulated model — not a language model" (and "· $0.0120 of $0.50" with a USD cap); while the
 * first one runs "Live · session 1 of 3 is being played by …"; once live is done, the recordings'
 * line and why it is done.
 */
export function liveModeText(live: Pick<LiveFeed, 'started' | 'ended' | 'spentUsd'>, cap: LiveCap, model: string, recorded: string, shown: Pick<KioskRecording, 'live'> | null): string {
  const money = cap.maxUsd === null ? '' : ` · $${live.spentUsd.toFixed(4)} of $${cap.maxUsd.toFixed(2)}`;
  if (shown?.live !== undefined) return `Live · session ${shown.live} of ${cap.sessions} · ${model}${money}`;
  if (live.ended !== null) return `${recorded} · live done: ${live.ended}`;
  return `Live · session ${Math.max(1, live.started)} of ${cap.sessions} is being played by the ${model}…`;
}

/**
 * Hedged attempts: recovery from a hung request that overlaps the wait instead of serving it out.
 * An attempt sent that has had no response (not even its status line) for `afterMs` is presumed
 * hung, and a copy of it is sent beside it (and another when that copy too stays silent, at most
 * MAX_COPIES in all); the first to succeed is used and the others are aborted. Nothing that has started to answer is ever cut or copied: once an attempt's
 * response has arrived (a stream that has begun, a body on its way) it is never hedged, and the
 * original keeps running after its copy is sent, until it answers or fails — or until the newest
 * copy fails while none has a response: then the older ones are abandoned as hung and that error
 * is the attempt's (the retry policy retries it as usual), rather than waiting out the original's
 * request timeout. So a hang costs its call `afterMs`, not the whole request
 * timeout, and a call that was only slow is answered by whichever copy finishes first (the same
 * request, so the same reply from a deterministic or seeded model). A hedge timer that fires late
 * (this thread was busy) first lets the I/O already waiting be read, and does not count its lateness
 * as silence: a response that came during a long task is not taken for a hang.
 *
 * `afterMs` comes from observed latencies (`LatencyHistory.hedgeAfterMs`): HEDGE_FACTOR × the
 * slowest of the last successes of the same (base URL, model, role), never below
 * HEDGE_FLOOR_MS, and never when that is not shorter than the request timeout (the timeout then
 * comes first) or before a success of that role has been timed. DOM-free.
 */

/** Least time without a response before a copy is sent, ms. It binds only where every recent reply
 * of the role came within a quarter of it (a local server, a fast stream's status line): there a
 * second of silence is already 4× the slowest, and a hang costs about a second (20 of the fault
 * bench's 50 ms replies) rather than the request timeout. Time this thread was too busy to read a response is not counted
 * (see `hedged`), so a long task or a loaded machine does not send copies by itself. */
export const HEDGE_FLOOR_MS = 1000;

/** Lateness of a timer that is still scheduling noise, not a busy thread, ms. */
const TIMER_SLACK_MS = 25;

/** Run `then` after the I/O already waiting has been handled (Node: the check phase; a page: a new task). */
function afterPendingIo(then: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(then);
  else setTimeout(then, 0);
}

/** Multiple of the slowest recent time to a response after which an attempt counts as hung. */
export const HEDGE_FACTOR = 4;

/** Most copies of one attempt in flight, the original included. */
export const MAX_COPIES = 3;

/** Recent successes whose times to a response set `afterMs`. */
const RECENT = 16;

/** Times to a response of one (base URL, model, role)'s recent successful attempts. */
export class LatencyHistory {
  private readonly recent: number[] = [];

  /** Record a successful attempt's time from send to its response's status line, ms. */
  add(ms: number): void {
    this.recent.push(Math.max(0, ms));
    if (this.recent.length > RECENT) this.recent.shift();
  }

  /** The slowest recent time to a response, ms; null before any. */
  slowestMs(): number | null {
    return this.recent.length === 0 ? null : Math.max(...this.recent);
  }

  /**
   * ms without a response after which an attempt is hedged: max(`floorMs`, HEDGE_FACTOR × the
   * slowest recent × `scale`); Infinity before any success was timed, or when not below `timeoutMs`.
   */
  hedgeAfterMs(timeoutMs: number, floorMs = HEDGE_FLOOR_MS, scale = 1): number {
    const slowest = this.slowestMs();
    if (slowest === null) return Infinity;
    const after = Math.max(floorMs, HEDGE_FACTOR * slowest * scale);
    return after < timeoutMs ? after : Infinity;
  }
}

/**
 * The latency histories of one (base URL, model), one per role with the role's completion budget.
 * A role with no reply timed yet borrows the others': their slowest, scaled up by how many times
 * more tokens it may write (a reply's time grows at most with its length), so the first calls of
 * the meta-agent or proposer are not left to the request timeout either.
 */
export class ModelLatencies {
  private readonly roles = new Map<string, { history: LatencyHistory; maxTokens: number }>();

  /** The history of `role`, whose completion budget is `maxTokens`. */
  of(role: string, maxTokens: number): LatencyHistory {
    let entry = this.roles.get(role);
    if (!entry) this.roles.set(role, (entry = { history: new LatencyHistory(), maxTokens }));
    entry.maxTokens = maxTokens;
    return entry.history;
  }

  /** ms without a response after which an attempt of `role` is hedged (LatencyHistory.hedgeAfterMs),
   * from its own history, else the largest the other roles' give scaled to its budget. */
  hedgeAfterMs(role: string, timeoutMs: number, floorMs = HEDGE_FLOOR_MS): number {
    const own = this.roles.get(role);
    if (!own) return Infinity;
    if (own.history.slowestMs() !== null) return own.history.hedgeAfterMs(timeoutMs, floorMs);
    let after = -Infinity;
    for (const [other, entry] of this.roles) {
      if (other === role || entry.history.slowestMs() === null) continue;
      after = Math.max(after, entry.history.hedgeAfterMs(Infinity, floorMs, Math.max(1, own.maxTokens / Math.max(1, entry.maxTokens))));
    }
    return after > 0 && after < timeoutMs ? after : Infinity;
  }
}

/** What one copy of an attempt is given. */
export interface AttemptCopy {
  /** Aborted when another copy has won, or is abandoned as hung, or when the caller's signal aborts. */
  signal: AbortSignal;
  /** True for the copy sent beside a presumed-hung attempt. */
  hedge: boolean;
  /** Call when the request is sent (after any admission wait): the hedge clock starts (again). */
  sent(): void;
  /** Call when its response's status line arrived with a success status (a reply on its way):
   * no further copy is sent after that. */
  responded(): void;
}

export interface HedgeOptions {
  /** ms without a response after a send before a copy is sent (Infinity: not yet known), asked
   * again at each check: an attempt sent before any reply was timed is copied once one is. */
  afterMs: number | (() => number);
  /** How often an attempt whose `afterMs` is not yet known is checked again, ms (default HEDGE_FLOOR_MS). */
  recheckMs?: number;
  /** The caller's Stop: aborts every copy. */
  signal?: AbortSignal;
  /** Told when a copy is sent beside a presumed-hung attempt. */
  onHedge?: () => void;
}

/**
 * Run `attempt`, and a copy of it beside it whenever the newest one sent has gone `afterMs` with no
 * response from any (at most MAX_COPIES in all). Resolves with the first copy to succeed (the
 * others are aborted).
 * @throws the newest copy's error when it fails while no other copy running has a response (the
 *   older, silent ones are aborted as hung), even if its own reply had begun (then proved
 *   unusable); else, once none is left running, the error of the last to fail
 */
export function hedged<T>(attempt: (copy: AttemptCopy) => Promise<T>, options: HedgeOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // The copies still running (a settled copy is never aborted).
    const running = new Set<AbortController>();
    let launched = 0;
    // The running copies whose response has come (a reply on its way): no copy is sent after those.
    const answering = new Set<AbortController>();
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      for (const c of running) c.abort();
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      stop(); // the losers still running
      done();
    };
    const afterMs = typeof options.afterMs === 'function' ? options.afterMs : () => options.afterMs as number;
    // The hedge clock of the newest copy (sent at `sentAt`): another copy when it stays silent.
    const check = (sentAt: number) => {
      clearTimeout(timer);
      if (settled || answering.size > 0 || launched >= MAX_COPIES) return;
      const after = afterMs();
      const wait = Number.isFinite(after) ? after - (performance.now() - sentAt) : (options.recheckMs ?? HEDGE_FLOOR_MS);
      if (wait > 0) {
        const due = performance.now() + wait;
        timer = setTimeout(() => {
          // A timer that fires late means this thread was busy (a long task, a loaded machine): a
          // response that came meanwhile is still unread, and time the thread could not read one
          // in is no evidence of a hang. So let pending I/O run first, and do not count the lateness
          // (plus a slack's grace for reading what came) as silence.
          const late = performance.now() - due;
          afterPendingIo(() => check(late > TIMER_SLACK_MS ? sentAt + late + TIMER_SLACK_MS : sentAt));
        }, wait);
        return;
      }
      options.onHedge?.();
      launch();
    };
    const launch = () => {
      const index = ++launched;
      const controller = new AbortController();
      if (options.signal?.aborted) controller.abort();
      running.add(controller);
      const copy: AttemptCopy = {
        signal: controller.signal,
        hedge: index > 1,
        sent: () => {
          if (index === launched) check(performance.now());
        },
        responded: () => {
          if (!running.has(controller)) return;
          answering.add(controller);
          clearTimeout(timer);
        },
      };
      attempt(copy).then(
        (value) => {
          running.delete(controller);
          answering.delete(controller);
          settle(() => resolve(value));
        },
        (error: unknown) => {
          running.delete(controller);
          answering.delete(controller); // a reply that began and then proved unusable
          // The newest failed and the older ones still running never answered at all: they are hung.
          if (running.size === 0 || (index === launched && answering.size === 0)) settle(() => reject(error));
        },
      );
    };
    launch();
  });
}

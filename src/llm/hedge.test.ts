/**
 * Hedged attempts (hedge.ts): a copy is sent beside an attempt with no response after `afterMs`,
 * the first success wins and the other is aborted; an attempt that has responded is never copied;
 * a copy that fails beside a still-silent original abandons it; else the last failure is thrown. Asserted by the order of events, not by times.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HEDGE_FACTOR, HEDGE_FLOOR_MS, hedged, LatencyHistory, MAX_COPIES, ModelLatencies, type AttemptCopy } from './hedge.ts';

/** A promise settled from outside, and a log of what happened in order. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** An attempt that never answers until its copy's signal aborts, then rejects. */
function hangs(copy: AttemptCopy, log: string[], name: string): Promise<string> {
  copy.sent();
  return new Promise((_resolve, reject) => {
    copy.signal.addEventListener('abort', () => {
      log.push(`${name} aborted`);
      reject(new Error(`${name} aborted`));
    });
  });
}

describe('hedged attempts', () => {
  it('sends a copy beside an attempt with no response, uses the copy, and aborts the hung original', async () => {
    const log: string[] = [];
    const result = await hedged((copy) => {
      const name = copy.hedge ? 'copy' : 'original';
      log.push(`${name} sent`);
      if (!copy.hedge) return hangs(copy, log, name);
      copy.sent();
      copy.responded();
      return Promise.resolve('reply of the copy');
    }, { afterMs: 10, onHedge: () => log.push('hedge') });
    expect(result).toBe('reply of the copy');
    expect(log).toEqual(['original sent', 'hedge', 'copy sent', 'original aborted']);
  });

  it('never copies an attempt whose response has arrived, however long its body takes', async () => {
    const log: string[] = [];
    const body = deferred<string>();
    const call = hedged((copy) => {
      log.push(copy.hedge ? 'copy sent' : 'original sent');
      copy.sent();
      copy.responded();
      return body.promise;
    }, { afterMs: 5, onHedge: () => log.push('hedge') });
    // Many times afterMs pass with the body still arriving (polled by event-loop turns, not a fixed sleep).
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    body.resolve('the whole reply');
    expect(await call).toBe('the whole reply');
    expect(log).toEqual(['original sent']);
  });

  it('abandons a still-silent original when its copy fails, with the copy\'s error', async () => {
    const log: string[] = [];
    const call = hedged((copy) => {
      if (copy.hedge) {
        log.push('copy failed');
        return Promise.reject(new Error('HTTP 500'));
      }
      return hangs(copy, log, 'original');
    }, { afterMs: 5, onHedge: () => log.push('hedge') });
    await expect(call).rejects.toThrow('HTTP 500');
    expect(log).toEqual(['hedge', 'copy failed', 'original aborted']);
  });

  it('abandons a still-silent original when its copy answered but the reply proved unusable', async () => {
    const log: string[] = [];
    const call = hedged((copy) => {
      if (copy.hedge) {
        copy.sent();
        copy.responded(); // a 200 whose body is then cut off or malformed
        log.push('copy unusable');
        return Promise.reject(new Error('cut off'));
      }
      return hangs(copy, log, 'original');
    }, { afterMs: 5, onHedge: () => log.push('hedge') });
    await expect(call).rejects.toThrow('cut off');
    expect(log).toEqual(['hedge', 'copy unusable', 'original aborted']);
  });

  it('keeps an original whose response came after its copy was sent, and uses it when the copy fails', async () => {
    const log: string[] = [];
    const original = deferred<string>();
    let respond = () => {};
    const copyResult = deferred<string>();
    const call = hedged((copy) => {
      if (copy.hedge) {
        log.push('copy sent');
        return copyResult.promise;
      }
      copy.sent();
      respond = () => copy.responded();
      copy.signal.addEventListener('abort', () => log.push('original aborted'));
      return original.promise;
    }, { afterMs: 5, onHedge: () => log.push('hedge') });
    while (!log.includes('copy sent')) await new Promise((r) => setTimeout(r, 1));
    respond();
    copyResult.reject(new Error('HTTP 500'));
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 1));
    original.resolve('late reply of the original');
    expect(await call).toBe('late reply of the original');
    expect(log).toEqual(['hedge', 'copy sent']);
  });

  it('waits for the copy when the original fails after it was sent, and throws the last failure when both fail', async () => {
    const log: string[] = [];
    const original = deferred<string>();
    const copyResult = deferred<string>();
    const call = hedged((copy) => {
      if (copy.hedge) {
        log.push('copy sent');
        return copyResult.promise;
      }
      copy.sent();
      return original.promise;
    }, { afterMs: 5, onHedge: () => log.push('hedge') });
    while (!log.includes('copy sent')) await new Promise((r) => setTimeout(r, 1));
    original.reject(new Error('timed out'));
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 1));
    copyResult.reject(new Error('cut off'));
    await expect(call).rejects.toThrow('cut off');
    expect(log).toEqual(['hedge', 'copy sent']);
  });

  it('sends another copy when a copy too stays silent, at most MAX_COPIES in all', async () => {
    const log: string[] = [];
    const stop = new AbortController();
    const call = hedged((copy) => {
      log.push(`copy ${log.filter((l) => l.startsWith('copy')).length + 1} sent`);
      return hangs(copy, [], 'any');
    }, { afterMs: 5, signal: stop.signal, onHedge: () => log.push('hedge') });
    while (log.filter((l) => l === 'hedge').length < MAX_COPIES - 1) await new Promise((r) => setTimeout(r, 1));
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await expect(call).rejects.toThrow(/aborted/);
    expect(log).toEqual(['copy 1 sent', 'hedge', 'copy 2 sent', 'hedge', 'copy 3 sent']);
    expect(MAX_COPIES).toBe(3);
  });

  it('copies an attempt sent before any reply was timed once one is (afterMs asked again at each check)', async () => {
    const log: string[] = [];
    let known = Infinity;
    const call = hedged((copy) => {
      log.push(copy.hedge ? 'copy sent' : 'original sent');
      if (!copy.hedge) return hangs(copy, log, 'original');
      return Promise.resolve('reply of the copy');
    }, { afterMs: () => known, recheckMs: 2, onHedge: () => log.push('hedge') });
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 4));
    expect(log).toEqual(['original sent']);
    known = 1; // another call's reply was timed meanwhile
    expect(await call).toBe('reply of the copy');
    expect(log).toEqual(['original sent', 'hedge', 'copy sent', 'original aborted']);
  });

  it('an attempt that fails before afterMs is not copied, and Stop aborts every copy', async () => {
    const log: string[] = [];
    await expect(hedged((copy) => {
      log.push(copy.hedge ? 'copy sent' : 'original sent');
      copy.sent();
      return Promise.reject(new Error('HTTP 503'));
    }, { afterMs: 5 })).rejects.toThrow('HTTP 503');
    expect(log).toEqual(['original sent']);

    const stop = new AbortController();
    const stopped: string[] = [];
    const call = hedged((copy) => hangs(copy, stopped, copy.hedge ? 'copy' : 'original'), { afterMs: 5, signal: stop.signal, onHedge: () => stopped.push('hedge') });
    while (!stopped.includes('hedge')) await new Promise((r) => setTimeout(r, 1));
    stop.abort();
    await expect(call).rejects.toThrow(/aborted/);
    expect(stopped.sort()).toEqual(['copy aborted', 'hedge', 'original aborted']);
  });
});

/** Keeps this thread busy for `ms` (a long task: nothing else runs meanwhile). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('a busy thread is not a hung attempt', () => {
  it('a response that came while the thread was busy past the hedge time is read before any copy is sent', async () => {
    // The server (on this thread) sends its status line, then keeps the thread busy well past
    // `afterMs`: the hedge timer and the unread response are both due when the thread is free again.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      busy(400);
      res.end('the reply');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const log: string[] = [];
    try {
      const reply = await hedged(async (copy) => {
        log.push(copy.hedge ? 'copy sent' : 'original sent');
        copy.sent();
        const res = await fetch(url, { signal: copy.signal });
        copy.responded();
        return res.text();
      }, { afterMs: 100, onHedge: () => log.push('hedge') });
      expect(reply).toBe('the reply');
      expect(log).toEqual(['original sent']);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});

describe('the time after which an attempt is hedged', () => {
  it('is never before a success was timed, never below the floor, a multiple of the slowest recent success, and none when the timeout comes first', () => {
    const history = new LatencyHistory();
    expect(history.hedgeAfterMs(60_000)).toBe(Infinity);
    history.add(200);
    expect(history.hedgeAfterMs(60_000)).toBe(HEDGE_FLOOR_MS);
    history.add(3000);
    history.add(1000);
    expect(history.hedgeAfterMs(60_000)).toBe(HEDGE_FACTOR * 3000);
    expect(history.hedgeAfterMs(HEDGE_FACTOR * 3000)).toBe(Infinity);
    // A request timeout no longer than the floor comes first: nothing is hedged there.
    expect(new LatencyHistory().hedgeAfterMs(1000)).toBe(Infinity);
    history.add(1);
    expect(history.hedgeAfterMs(5000, 100)).toBe(Infinity);
    expect(history.hedgeAfterMs(HEDGE_FLOOR_MS)).toBe(Infinity);
    const fast = new LatencyHistory();
    fast.add(50);
    expect(fast.hedgeAfterMs(60_000)).toBe(HEDGE_FLOOR_MS);
    expect(fast.hedgeAfterMs(HEDGE_FLOOR_MS + 1)).toBe(HEDGE_FLOOR_MS);
  });

  it('follows the last 16 successes only', () => {
    const history = new LatencyHistory();
    history.add(10_000);
    for (let i = 0; i < 16; i++) history.add(100);
    expect(history.hedgeAfterMs(600_000, 0)).toBe(HEDGE_FACTOR * 100);
  });
});

describe('the latencies of one model', () => {
  it("a role with no reply timed borrows the other roles' slowest, scaled up to its completion budget; its own history comes first", () => {
    const model = new ModelLatencies();
    model.of('actor', 400);
    model.of('proposer', 8000);
    expect(model.hedgeAfterMs('actor', 600_000, 0)).toBe(Infinity);
    expect(model.hedgeAfterMs('meta', 600_000, 0)).toBe(Infinity); // a role never asked for
    model.of('actor', 400).add(100);
    expect(model.hedgeAfterMs('actor', 600_000, 0)).toBe(HEDGE_FACTOR * 100);
    // 20 times the actor's budget: up to 20 times its time.
    expect(model.hedgeAfterMs('proposer', 600_000, 0)).toBe(HEDGE_FACTOR * 100 * 20);
    expect(model.hedgeAfterMs('proposer', HEDGE_FACTOR * 100 * 20, 0)).toBe(Infinity);
    expect(model.hedgeAfterMs('actor', 600_000)).toBe(HEDGE_FLOOR_MS);
    model.of('proposer', 8000).add(3000);
    expect(model.hedgeAfterMs('proposer', 600_000, 0)).toBe(HEDGE_FACTOR * 3000);
    // A smaller budget than the lender's is not scaled down.
    model.of('meta', 100);
    expect(model.hedgeAfterMs('meta', 600_000, 0)).toBe(HEDGE_FACTOR * 3000);
  });
});

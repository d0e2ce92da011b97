/**
 * A stream read to its end in the background, whoever stops listening: the in-page local model
 * (wllama-chat-model.ts) hands its reader the chunks until Stop — then the reader is let go at
 * once, even while llama.cpp still reads a long prompt — while the drain goes on until the
 * library has really ended the request (wllama sees the abort at its next result poll and
 * cancels the request in its worker). `finished` says when the worker is free again; every
 * chunk is counted, including any that still arrive after Stop. DOM-free, no library imports.
 */

/** A stream being drained in the background. */
export interface Drain<T> {
  /** The chunks in order until the stream ends; throws the stream's error, or Error('aborted') at once on `signal`. */
  read(signal: AbortSignal): AsyncGenerator<T>;
  /** Settles (never rejects) when the stream has ended, however it ended. */
  readonly finished: Promise<void>;
}

/**
 * Start draining `stream`; `onChunk` sees every chunk, read or not.
 * @throws nothing itself; `read` throws as documented on Drain
 */
export function drain<T>(stream: AsyncIterable<T>, onChunk: (chunk: T) => void = () => {}): Drain<T> {
  const items: T[] = [];
  let ended = false;
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const finished = (async () => {
    try {
      for await (const chunk of stream) {
        onChunk(chunk);
        items.push(chunk);
        notify();
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      notify();
    }
  })();
  async function* read(signal: AbortSignal): AsyncGenerator<T> {
    const aborted = new Promise<never>((_, reject) => {
      const fail = (): void => reject(new Error('aborted'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => undefined);
    for (;;) {
      if (signal.aborted) throw new Error('aborted');
      if (items.length > 0) {
        yield items.shift()!;
        continue;
      }
      if (ended) {
        if (failure) throw (failure as { error: unknown }).error;
        return;
      }
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
    }
  }
  return { read, finished };
}

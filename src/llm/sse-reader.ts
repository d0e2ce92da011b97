/**
 * Reading a streamed chat-completions reply (server-sent events) with eventsource-parser — the
 * only module that imports it. Every way a server signals an error inside the stream ends the
 * call as an error, and nothing of the partial reply is used: an `event: error` (whatever its
 * payload), an `error` object in a chunk, a finish_reason "error", a chunk that is not JSON, an
 * error object in any framing provider-error.ts reads (FastChat's `{"text","error_code"}` too), or
 * a stream that ends without a finish_reason for choice 0 (`[DONE]` or not). Only choice 0 is
 * read. A stream silent for longer than `idleMs` between
 * chunks fails as `timeout`. A body in the other framing is read when complete: one JSON reply
 * answered to a streamed request (no event at all), and a whole completion object in a chunk.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { LlmError } from './errors.ts';
import { completionFromJson, errorInReply, ReplyAccumulator, type RawCompletion } from './reply-body.ts';

/** Longest body kept for reading as JSON when a streamed request is answered without events. */
const MAX_JSON_FALLBACK_CHARS = 4_000_000;

export interface StreamReadOptions {
  /** Longest silence between two reads of the body, ms. */
  idleMs: number;
  /** The model asked for, used when the chunks name none. */
  fallbackModel: string;
}

/**
 * Read the whole stream of `response` into one reply.
 * @throws LlmError: `timeout` after `idleMs` of silence; `server` / `quota` / `rate_limit` for an
 *   error signalled in the stream; `bad_response` for an unparsable, unfinished or empty reply.
 *   An abort of the request rejects with the fetch's own abort error (the caller maps it).
 */
export async function readChatStream(response: Response, options: StreamReadOptions): Promise<RawCompletion> {
  if (!response.body) throw new LlmError('bad_response', 'The provider answered a streamed request with no body.');
  const reply = new ReplyAccumulator(options.fallbackModel);
  let done = false;
  let failure: LlmError | null = null;
  let sawEvent = false;
  let raw = '';
  const parser = createParser({
    onEvent: (event: EventSourceMessage) => {
      if (event.data.trim() !== '[DONE]') sawEvent = true;
      if (done || failure) return;
      try {
        done = handleEvent(event, reply);
      } catch (error) {
        failure = error instanceof LlmError ? error : new LlmError('bad_response', String(error));
      }
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    while (!done && !failure) {
      const { value, done: ended } = await readWithin(reader, options.idleMs);
      if (ended) break;
      const text = decoder.decode(value, { stream: true });
      if (!sawEvent && raw.length < MAX_JSON_FALLBACK_CHARS) raw += text;
      parser.feed(text);
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  if (failure) throw failure;
  if (!sawEvent && /^\s*[[{]/.test(raw)) return completionFromJson(raw, options.fallbackModel);
  // No finish_reason is a cut-off, with or without `[DONE]`: a proxy that cut the stream and
  // closed it cleanly looks the same as a server that never finished.
  // (A stream that never carried any content says so: no usable content, billed as such.)
  if (reply.finishReason === null && reply.content.trim() !== '') {
    const end = done ? 'ended with [DONE] but no finish_reason' : 'ended before the reply was finished (no finish_reason)';
    throw new LlmError('bad_response', `The provider’s stream ${end}; nothing of it is used.`);
  }
  return reply.finish();
}

/** Apply one event; true at `[DONE]`. @throws LlmError for an error signalled by the event */
function handleEvent(event: EventSourceMessage, reply: ReplyAccumulator): boolean {
  const data = event.data.trim();
  if (data === '[DONE]') return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    if (event.event === 'error') throw new LlmError('server', `The provider signalled an error inside its stream: ${data.slice(0, 200)}`);
    throw new LlmError('bad_response', `The provider’s stream had a chunk that is not valid JSON (${JSON.stringify(data.slice(0, 80))}).`);
  }
  if (event.event === 'error') {
    const payload = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? (parsed as { error: unknown }).error : parsed;
    throw errorInReply(payload);
  }
  reply.add(parsed, 'delta');
  return false;
}

/** One read, or LlmError('timeout') when nothing arrives within `idleMs`. */
function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, idleMs: number): Promise<ReadableStreamReadResult<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new LlmError('timeout', `The provider’s stream fell silent for ${idleMs} ms mid-reply.`)), idleMs);
    reader.read().then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

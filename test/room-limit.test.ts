/**
 * A workshop room's forwarder refusing a participant over its cap (HTTP 429 with an `error.code`
 * of room/protocol.ts `ROOM_REFUSAL_CODES`): the page shows the room's own words and does not retry
 * (a provider's plain 429 is still a retried rate limit).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmError, roomRefusalMessage } from '../src/llm/errors.ts';
import { providerStopText } from '../src/ui/shared/format/provider-stop.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { ROOM_REFUSAL_CODES } from '../src/room/protocol.ts';
import { mockLlmSettings } from './support/mock-settings.ts';

const TOKEN = 'fake-test-key-room-participant-0123';
const MESSAGE = 'You have used your 3 model calls in this room: ask the teacher for more.';
let server: Server;
let baseUrl = '';
let requests = 0;
let code: string | null = 'call_cap_reached';

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '0' }).end(JSON.stringify({ error: { message: MESSAGE, type: 'rate_limit_error', param: null, code } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(): Promise<LlmError> {
  const settings = mockLlmSettings(baseUrl, TOKEN, {}, { maxRetries: 2, maxRetryWaitMs: 10 });
  const { actor } = createChatModels(settings, new UsageMeter(settings.caps, settings.prices));
  const error = await actor.complete([{ role: 'user', content: 'Hello.' }]).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe('the room forwarder’s 429', () => {
  it('is shown in the room’s words, as a quota that stops the run, after one request', async () => {
    requests = 0;
    code = 'call_cap_reached';
    const error = await failure();
    expect(error.kind).toBe('quota');
    expect(error.status).toBe(429);
    expect(error.message).toBe(roomRefusalMessage('call_cap_reached', MESSAGE));
    expect(error.message).toBe(`The workshop room refused the call (call_cap_reached): ${MESSAGE}`);
    expect(requests).toBe(1);
    expect(providerStopText(error.kind, error.message)).toEqual({
      headline: `Stopped: the workshop room refused the call: ${MESSAGE}`, details: '', resumable: false,
      instead: 'Resuming would be refused the same way: ask the teacher for more, or start a shorter session (fewer episodes or steps).',
    });
  });

  it('every refusal code of the room is known to the page’s client', async () => {
    for (const known of ROOM_REFUSAL_CODES) {
      requests = 0;
      code = known;
      expect((await failure()).message).toBe(roomRefusalMessage(known, MESSAGE));
      expect(requests).toBe(1);
    }
  });

  it('a provider’s own 429 stays a retried rate limit', async () => {
    requests = 0;
    code = null;
    const error = await failure();
    expect(error.kind).toBe('rate_limit');
    expect(error.message).toContain(MESSAGE);
    expect(requests).toBeGreaterThan(1);
  });
});

/**
 * The forwarder refuses in OpenAI's error shape, in plain words a student understands: removed
 * (403), the teacher's pause of one participant or of everyone (429), outside the time window (429
 * before it opens, 403 once closed, saying when), each cap (calls, tokens, USD: 429 naming the cap
 * and the usage), a prompt longer than what the cap leaves; and concurrent calls of one participant
 * cannot pass a cap (each reserves its bound before it is forwarded). The upstream is the mock LLM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { chatRequest, FAKE_KEY, startTestRoom, type Received, type TestRoom } from './room-forwarder-harness.ts';

interface ErrorBody { error: { message: string; type: string; code: string } }
const errorOf = (reply: Received): ErrorBody['error'] => (JSON.parse(reply.text) as ErrorBody).error;

describe('room forwarder refusals', () => {
  let mock: MockLlm;
  let room: TestRoom;
  let clock = Date.parse('2026-12-06T14:00:00Z');
  beforeAll(async () => {
    process.env.TZ = 'UTC';
    mock = await startMockLlm({ apiKey: FAKE_KEY, log: () => {} });
    room = await startTestRoom({ upstream: { kind: 'http', baseUrl: mock.baseUrl, apiKey: FAKE_KEY, models: ['mock-model'] }, prices: { 'mock-model': { inputPerMTokUsd: 1000, outputPerMTokUsd: 2000 } }, now: () => clock });
  });
  afterAll(async () => {
    await room.close();
    await mock.close();
  });

  it('refuses a removed participant with 403, and its model list too', async () => {
    const token = room.join('gone');
    room.participant('gone').removed = true;
    const reply = await room.call('/v1/chat/completions', token, chatRequest('look'));
    expect(reply.status).toBe(403);
    expect(errorOf(reply)).toEqual({ message: 'The teacher removed you from this room, so it no longer calls the model for you.', type: 'permission_error', code: 'participant_removed', param: null });
    expect((await room.call('/v1/models', token)).status).toBe(403);
  });

  it('refuses with 429 "The teacher paused model calls" when one participant or everyone is paused', async () => {
    const one = room.join('paused');
    const other = room.join('free');
    room.participant('paused').killed = true;
    const paused = await room.call('/v1/chat/completions', one, chatRequest('look'));
    expect(paused.status).toBe(429);
    expect(errorOf(paused).message).toMatch(/^The teacher paused model calls\./);
    expect((await room.call('/v1/chat/completions', other, chatRequest('look'))).status).toBe(200);
    room.settings.killedAll = true;
    try {
      const all = await room.call('/v1/chat/completions', other, chatRequest('look'));
      expect(all.status).toBe(429);
      expect(errorOf(all).code).toBe('model_calls_paused');
      // The model list stays readable while paused.
      expect((await room.call('/v1/models', other)).status).toBe(200);
    } finally {
      room.settings.killedAll = false;
    }
    expect((await room.call('/v1/chat/completions', other, chatRequest('look'))).status).toBe(200);
  });

  it('refuses outside the time window, saying when it opens (429) or closed (403)', async () => {
    const token = room.join('early', { opensAt: '2026-12-06T14:30:00Z', closesAt: '2026-12-06T15:30:00Z' });
    const early = await room.call('/v1/chat/completions', token, chatRequest('look'));
    expect(early.status).toBe(429);
    expect(errorOf(early)).toMatchObject({ code: 'room_not_open', message: "The room's model is not open yet: it opens at 14:30 (UTC). Try again then." });
    clock = Date.parse('2026-12-06T15:00:00Z');
    expect((await room.call('/v1/chat/completions', token, chatRequest('look'))).status).toBe(200);
    clock = Date.parse('2026-12-06T15:30:00Z');
    const late = await room.call('/v1/chat/completions', token, chatRequest('look'));
    expect(late.status).toBe(403);
    expect(errorOf(late)).toMatchObject({ code: 'room_closed', message: "The room's model closed at 15:30 (UTC): the time the teacher set for model calls is over. Ask the teacher if you need more." });
    clock = Date.parse('2026-12-06T14:00:00Z');
  });

  it('says the window in the room machine\'s local time (no zone named off UTC), tomorrow as "tomorrow"', async () => {
    process.env.TZ = 'Europe/Paris';
    try {
      const token = room.join('paris', { opensAt: '2026-12-07T08:00:00Z', closesAt: null });
      const early = await room.call('/v1/chat/completions', token, chatRequest('look'));
      expect(errorOf(early).message).toBe("The room's model is not open yet: it opens at 09:00 tomorrow. Try again then.");
    } finally {
      process.env.TZ = 'UTC';
    }
  });

  it('refuses past the calls cap with 429 naming the cap and the usage', async () => {
    const token = room.join('calls', { maxCalls: 2 });
    expect((await room.call('/v1/chat/completions', token, chatRequest('look'))).status).toBe(200);
    expect((await room.call('/v1/chat/completions', token, chatRequest('look'))).status).toBe(200);
    const third = await room.call('/v1/chat/completions', token, chatRequest('look'));
    expect(third.status).toBe(429);
    expect(errorOf(third)).toMatchObject({ type: 'rate_limit_error', code: 'call_cap_reached', message: 'You have used 2 of your 2 model calls. Ask the teacher if you need more.' });
  });

  it('bounds the completion by the tokens left and refuses once they are used (429)', async () => {
    const token = room.join('tokens', { maxTokens: 60 });
    const before = mock.requests.length;
    expect((await room.call('/v1/chat/completions', token, chatRequest('look', { max_tokens: 500 }))).status).toBe(200);
    const prompt = Math.ceil('You play a text adventure.'.length / 4) + 4 + Math.ceil('look'.length / 4) + 4;
    expect((mock.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!.body as { max_tokens: number }).max_tokens).toBe(60 - prompt);
    const used = room.participant('tokens').usage.tokens;
    room.participant('tokens').usage.tokens = 60;
    const over = await room.call('/v1/chat/completions', token, chatRequest('look'));
    expect(over.status).toBe(429);
    expect(errorOf(over)).toMatchObject({ code: 'token_cap_reached', message: 'You have used 60 of your 60 tokens. Ask the teacher if you need more.' });
    room.participant('tokens').usage.tokens = used;
    const long = await room.call('/v1/chat/completions', token, chatRequest('x'.repeat(400)));
    expect(long.status).toBe(429);
    expect(errorOf(long).message).toMatch(/^This request \(about \d+ tokens\) does not fit in the \d+ tokens you have left/);
  });

  it('refuses past the USD cap with 429 naming the budget and the spend', async () => {
    // At $1000 / $2000 per million tokens a call of ~40 tokens costs ~$0.05.
    const token = room.join('usd', { maxUsd: 0.1 });
    let reply = await room.call('/v1/chat/completions', token, chatRequest('look'));
    while (reply.status === 200) reply = await room.call('/v1/chat/completions', token, chatRequest('look'));
    expect(reply.status).toBe(429);
    const spent = room.participant('usd').usage.usd!;
    expect(spent).toBeLessThanOrEqual(0.1);
    expect(errorOf(reply).code).toBe('usd_cap_reached');
    expect(errorOf(reply).message).toMatch(/^(You have used \$0\.\d{4} of your \$0\.1000 model budget|This request \(about \d+ tokens\) does not fit in the \$0\.\d{4} of your budget you have left)/);
  });

  it('lets concurrent calls of one participant pass the calls cap by none', async () => {
    mock.setOptions({ faults: [{ kind: 'slow', delayMs: 150 }] });
    try {
      const token = room.join('rush', { maxCalls: 3 });
      const replies = await Promise.all(Array.from({ length: 8 }, () => room.call('/v1/chat/completions', token, chatRequest('look'))));
      expect(replies.filter((r) => r.status === 200)).toHaveLength(3);
      const refused = replies.filter((r) => r.status === 429);
      expect(refused).toHaveLength(5);
      expect(errorOf(refused[0]!).message).toBe('You have used 0 of your 3 model calls, and 3 more calls are still running. Ask the teacher if you need more.');
      expect(room.participant('rush').usage.calls).toBe(3);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });

  it('lets concurrent calls pass the tokens cap by no more than one call', async () => {
    mock.setOptions({ faults: [{ kind: 'slow', delayMs: 150 }] });
    try {
      const cap = 200;
      const token = room.join('flood', { maxTokens: cap });
      const replies = await Promise.all(Array.from({ length: 20 }, () => room.call('/v1/chat/completions', token, chatRequest('look', { max_tokens: 30 }))));
      const ok = replies.filter((r) => r.status === 200).map((r) => (JSON.parse(r.text) as { usage: { total_tokens: number } }).usage.total_tokens);
      // Each call reserves its prompt's estimate (16 tokens) and its 30-token bound: 4 fit in 200.
      const prompt = Math.ceil('You play a text adventure.'.length / 4) + 4 + Math.ceil('look'.length / 4) + 4;
      expect(ok).toHaveLength(Math.floor(cap / (prompt + 30)));
      expect(replies.filter((r) => r.status === 429)).toHaveLength(20 - ok.length);
      expect(room.participant('flood').usage.tokens).toBeLessThanOrEqual(cap + Math.max(...ok));
    } finally {
      mock.setOptions({ faults: [] });
    }
  });

  it('answers a body that is not a chat request with 400 in OpenAI’s shape', async () => {
    const token = room.join('bad');
    const notJson = await room.call('/v1/chat/completions', token, '{not json');
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson).code).toBe('invalid_request');
    const noMessages = await room.call('/v1/chat/completions', token, { model: 'mock-model', status: 200, code: 'x', message: 'y' });
    expect(noMessages.status).toBe(400);
    expect(room.participant('bad').usage.calls).toBe(0);
  });
});

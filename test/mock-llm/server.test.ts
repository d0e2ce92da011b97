/**
 * The mock LLM server over raw HTTP (fetch): determinism, usage, streaming format, models, CORS,
 * every injected fault kind, client aborts (closedBeforeAnswer, no timing assertions) and loud
 * flagging of unexpected requests.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockLlm, MockOptions } from './interface.ts';
import { startMockLlm } from './server.ts';
import { inferActorStep, type ChatBody } from './roles.ts';
import { chatBody, contentOf, postChat, sseEvents } from './test-helpers.ts';

const open: MockLlm[] = [];
const warnings: string[] = [];
async function start(options: MockOptions = {}): Promise<MockLlm> {
  const mock = await startMockLlm({ log: (line) => warnings.push(line), ...options });
  open.push(mock);
  return mock;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
  warnings.length = 0;
});

const BODY = chatBody('You are a helpful assistant.', 'Say something.', { temperature: 0.7 });

describe('determinism and format', () => {
  it('gives identical bytes for the same body, across requests, servers and key order', async () => {
    const a = await start();
    const b = await start();
    const first = await postChat(a, BODY);
    expect(first.status).toBe(200);
    expect((await postChat(a, BODY)).text).toBe(first.text);
    expect((await postChat(b, BODY)).text).toBe(first.text);
    const reordered = { temperature: 0.7, messages: BODY.messages, model: BODY.model };
    expect((await postChat(b, reordered)).text).toBe(first.text);
    expect(first.headers.get('date')).toBeNull();
    expect((await postChat(a, { ...BODY, temperature: 0.2 })).text).not.toBe(first.text);
  });

  it('reports usage as chars / 4 rounded up and derives id and created from the body', async () => {
    const mock = await start();
    const reply = JSON.parse((await postChat(mock, BODY)).text);
    const chars = 'You are a helpful assistant.'.length + 'Say something.'.length;
    const content: string = reply.choices[0].message.content;
    expect(reply.usage).toEqual({ prompt_tokens: Math.ceil(chars / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: Math.ceil(chars / 4) + Math.ceil(content.length / 4) });
    expect(reply).toMatchObject({ object: 'chat.completion', model: 'mock-model', choices: [{ finish_reason: 'stop' }] });
    expect(reply.id).toMatch(/^chatcmpl-mock-[0-9a-f]{24}$/);
    expect(mock.requests[0]).toMatchObject({ role: 'generic', behaviour: 'generic', outcome: { status: 200, fault: null } });
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('streams SSE chunks that add up to the non-streamed reply, then usage, then [DONE]', async () => {
    const mock = await start();
    const plain = contentOf(await postChat(mock, BODY));
    const streamed = await postChat(mock, { ...BODY, stream: true, stream_options: { include_usage: true } });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseEvents(streamed.text);
    expect(events[events.length - 1]!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(plain);
    expect(chunks[chunks.length - 2].choices[0].finish_reason).toBe('stop');
    expect(chunks[chunks.length - 1]).toMatchObject({ choices: [], usage: { completion_tokens: Math.ceil(plain.length / 4) } });
    const noUsage = sseEvents((await postChat(mock, { ...BODY, stream: true })).text);
    expect(noUsage.some((e) => e.data.includes('"prompt_tokens"'))).toBe(false);
  });

  it('lists the configured models', async () => {
    const mock = await start({ models: ['actor-m', 'meta-m'] });
    const list = await (await fetch(`${mock.baseUrl}/models`)).json();
    expect(list).toMatchObject({ object: 'list', data: [{ id: 'actor-m', object: 'model' }, { id: 'meta-m' }] });
  });

  it('answers CORS preflights for any origin, allowing authorization and x-stainless-* headers', async () => {
    const mock = await start();
    const asked = 'authorization, content-type, x-stainless-retry-count, x-stainless-os';
    const response = await fetch(`${mock.baseUrl}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': asked },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe(asked);
    const reply = await postChat(mock, BODY, { headers: { origin: 'http://example.test' } });
    expect(reply.headers.get('access-control-allow-origin')).toBe('http://example.test');
    expect(reply.headers.get('access-control-expose-headers')).toContain('retry-after');
    expect(mock.requests[0]).toMatchObject({ method: 'OPTIONS', behaviour: 'preflight', unexpected: false });
  });
});

describe('faults', () => {
  it('rate_limit: 429 with Retry-After; `attempts: 1` lets the identical retry through', async () => {
    const mock = await start({ faults: [{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 3, attempts: 1 }] });
    const limited = await postChat(mock, BODY);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(JSON.parse(limited.text).error.code).toBe('rate_limit_exceeded');
    expect((await postChat(mock, BODY)).status).toBe(200);
    expect(mock.requests.map((r) => [r.attempt, r.outcome.fault])).toEqual([[0, 'rate_limit'], [1, null]]);
  });

  it('decides a fractional rate by content and attempt, identically on two servers', async () => {
    const rules: MockOptions = { faults: [{ kind: 'server_error', rate: 0.3 }] };
    const statuses = async (mock: MockLlm) => {
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await postChat(mock, chatBody('sys', `question ${i}`), { headers: { 'x-stainless-retry-count': '0' } })).status);
      return out;
    };
    const a = await statuses(await start(rules));
    expect(await statuses(await start(rules))).toEqual(a);
    const failures = a.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(2);
    expect(failures).toBeLessThan(25);
  });

  it('server_error, auth and role restriction', async () => {
    const mock = await start({ faults: [{ kind: 'server_error', rate: 1, role: 'proposer' }, { kind: 'auth', role: 'actor' }] });
    expect((await postChat(mock, BODY)).status).toBe(200);
    expect((await postChat(mock, chatBody('Reply inside <strategy>…</strategy>.', 'record'))).status).toBe(500);
    const actor = await postChat(mock, chatBody('sys', 'Step 1 of 5. Score: 0.\n[OBSERVATION]\nHall.\n\nREASONING: …\nACTION: …'));
    expect(actor.status).toBe(401);
    expect(JSON.parse(actor.text).error.code).toBe('invalid_api_key');
  });

  it('bad_param: 400 naming the parameter only while the body carries it', async () => {
    const mock = await start({ faults: [{ kind: 'bad_param', param: 'temperature' }] });
    const refused = await postChat(mock, BODY);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error.message).toBe("Unsupported parameter: 'temperature' is not supported with this model.");
    const { temperature: _t, ...without } = BODY;
    expect((await postChat(mock, without)).status).toBe(200);
  });

  it('slow: answers after the delay with the normal reply', async () => {
    const mock = await start({ faults: [{ kind: 'slow', delayMs: 50 }] });
    const reply = await postChat(mock, BODY);
    expect(reply.status).toBe(200);
    expect(mock.requests[0]).toMatchObject({ outcome: { status: 200, fault: 'slow' }, closedBeforeAnswer: false });
  });

  it.each(['slow', 'hang'] as const)('%s: a client abort is logged as closedBeforeAnswer and nothing is written', async (kind) => {
    const mock = await start({ faults: [kind === 'slow' ? { kind, delayMs: 60_000 } : { kind }] });
    const controller = new AbortController();
    const pending = postChat(mock, BODY, { signal: controller.signal });
    const request = await mock.waitForRequest((r) => r.path === '/v1/chat/completions');
    expect(request.closedBeforeAnswer).toBe(false);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(() => expect(request.closedBeforeAnswer).toBe(true));
    expect(request.outcome).toMatchObject({ status: null, fault: kind });
  });

  it('close() does not hang on an open hanging request', async () => {
    const mock = await startMockLlm({ faults: [{ kind: 'hang' }] });
    const pending = postChat(mock, BODY).catch((error: unknown) => error);
    await mock.waitForRequest(() => true);
    await mock.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it('malformed_json: 200 with a body that does not parse (plain and streamed)', async () => {
    const mock = await start({ faults: [{ kind: 'malformed_json' }] });
    const plain = await postChat(mock, BODY);
    expect(plain.status).toBe(200);
    expect(() => JSON.parse(plain.text)).toThrow(SyntaxError);
    const streamed = sseEvents((await postChat(mock, { ...BODY, stream: true })).text);
    expect(() => JSON.parse(streamed[0]!.data)).toThrow(SyntaxError);
  });

  it('length_empty: no answer with finish_reason "length", the whole budget reported as reasoning; belowBudget spares larger budgets', async () => {
    const mock = await start({ faults: [{ kind: 'length_empty' }] });
    const reply = JSON.parse((await postChat(mock, { ...BODY, max_tokens: 300 })).text);
    expect(reply.choices[0]).toMatchObject({ message: { content: '' }, finish_reason: 'length' });
    expect(reply.usage).toMatchObject({ completion_tokens: 300, completion_tokens_details: { reasoning_tokens: 300 } });
    mock.setOptions({ faults: [{ kind: 'length_empty', shape: 'gemini', belowBudget: 1000 }] });
    expect(JSON.parse((await postChat(mock, { ...BODY, max_tokens: 300 })).text).choices[0].message).toEqual({ role: 'assistant' });
    expect(JSON.parse((await postChat(mock, { ...BODY, max_completion_tokens: 1000 })).text).choices[0].finish_reason).toBe('stop');
  });

  it('stream_error: the role chunk and a word, then an error event; not applied to non-streamed requests', async () => {
    const mock = await start({ faults: [{ kind: 'stream_error' }] });
    const events = sseEvents((await postChat(mock, { ...BODY, stream: true })).text);
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[0]!.data).object).toBe('chat.completion.chunk');
    expect(JSON.parse(events[1]!.data).choices[0].delta.content.trim().length).toBeGreaterThan(0);
    expect(events[2]!.event).toBe('error');
    expect(JSON.parse(events[2]!.data).error.message).toMatch(/stream failed/);
    expect((await postChat(mock, BODY)).status).toBe(200);
  });

  it('stream_error forms: error event with a bare message, error object, finish_reason "error", cut stream', async () => {
    const mock = await start();
    const last = async (form: 'event_message' | 'object' | 'finish' | 'cut') => {
      mock.setOptions({ faults: [{ kind: 'stream_error', form }] });
      const text = (await postChat(mock, { ...BODY, stream: true })).text;
      return { events: sseEvents(text), text };
    };
    const bare = (await last('event_message')).events.at(-1)!;
    expect(bare.event).toBe('error');
    expect(JSON.parse(bare.data)).toEqual({ message: 'The model stream failed (mock).', code: 'stream_error' });
    const object = (await last('object')).events.at(-1)!;
    expect(object.event).toBeNull();
    expect(JSON.parse(object.data).error.code).toBe('stream_error');
    const finish = (await last('finish')).events;
    expect(JSON.parse(finish.at(-2)!.data).choices[0].finish_reason).toBe('error');
    expect(finish.at(-1)!.data).toBe('[DONE]');
    const cut = await last('cut');
    expect(cut.events).toHaveLength(2);
    expect(cut.text).not.toContain('finish_reason":"stop');
    expect(cut.text).not.toContain('[DONE]');
  });

  it('quota: 429 insufficient_quota (or 402); unavailable: 503 with Retry-After; rate_limit passes an HTTP-date Retry-After verbatim', async () => {
    const mock = await start({ faults: [{ kind: 'quota' }] });
    const quota = await postChat(mock, BODY);
    expect(quota.status).toBe(429);
    expect(JSON.parse(quota.text).error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    mock.setOptions({ faults: [{ kind: 'quota', status: 402 }] });
    expect((await postChat(mock, BODY)).status).toBe(402);
    mock.setOptions({ faults: [{ kind: 'unavailable', retryAfter: '7' }] });
    const busy = await postChat(mock, BODY);
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '7']);
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
    mock.setOptions({ faults: [{ kind: 'rate_limit', rate: 1, retryAfter: date }] });
    expect((await postChat(mock, BODY)).headers.get('retry-after')).toBe(date);
  });

  it('bad_param: OpenAI-style unsupported parameter / value errors', async () => {
    const mock = await start({ faults: [{ kind: 'bad_param', param: 'max_tokens' }] });
    const rejected = JSON.parse((await postChat(mock, { ...BODY, max_tokens: 5 })).text).error;
    expect(rejected).toMatchObject({ code: 'unsupported_parameter', param: 'max_tokens' });
    expect(rejected.message).toMatch(/Use 'max_completion_tokens' instead/);
    expect((await postChat(mock, BODY)).status).toBe(200);
    mock.setOptions({ faults: [{ kind: 'bad_param', param: 'temperature', style: 'value' }] });
    expect(JSON.parse((await postChat(mock, BODY)).text).error).toMatchObject({ code: 'unsupported_value', param: 'temperature' });
  });

  it('no_usage: the normal reply without usage, plain and streamed', async () => {
    const mock = await start();
    const normal = JSON.parse((await postChat(mock, BODY)).text);
    mock.setOptions({ faults: [{ kind: 'no_usage' }] });
    const plain = JSON.parse((await postChat(mock, BODY)).text);
    expect(plain.choices).toEqual(normal.choices);
    expect('usage' in plain).toBe(false);
    const streamed = await postChat(mock, { ...BODY, stream: true, stream_options: { include_usage: true } });
    expect(streamed.text).not.toContain('"usage"');
    expect(sseEvents(streamed.text).at(-1)!.data).toBe('[DONE]');
  });

  it.each([
    ['no_choices', (r: { choices: unknown[] }) => expect(r.choices).toEqual([])],
    ['null_content', (r: { choices: { message: { content: unknown } }[] }) => expect(r.choices[0]!.message.content).toBeNull()],
    ['empty_content', (r: { choices: { message: { content: unknown } }[] }) => expect(r.choices[0]!.message.content).toBe('')],
    ['no_message', (r: { choices: object[] }) => expect('message' in r.choices[0]!).toBe(false)],
    ['reasoning_only', (r: { choices: { message: { reasoning_content: unknown } }[] }) => expect(r.choices[0]!.message.reasoning_content).toMatch(/look around/)],
    ['tool_calls_only', (r: { choices: { message: { tool_calls: unknown[] }; finish_reason: string }[] }) => expect([r.choices[0]!.message.tool_calls.length, r.choices[0]!.finish_reason]).toEqual([1, 'tool_calls'])],
    ['refusal', (r: { choices: { message: { refusal: unknown } }[] }) => expect(r.choices[0]!.message.refusal).toMatch(/can't help/)],
  ] as const)('empty_reply %s: a 200 without usable content', async (shape, check) => {
    const mock = await start({ faults: [{ kind: 'empty_reply', shape }] });
    const reply = await postChat(mock, BODY);
    expect(reply.status).toBe(200);
    check(JSON.parse(reply.text));
    const streamed = sseEvents((await postChat(mock, { ...BODY, stream: true })).text);
    expect(streamed.at(-1)!.data).toBe('[DONE]');
    expect(streamed.slice(0, -1).map((e) => JSON.parse(e.data)).every((c) => c.choices.every((ch: { delta?: { content?: unknown } }) => !ch.delta?.content))).toBe(true);
  });

  it('stall: headers (and part of the body) then silence until the client leaves', async () => {
    const mock = await start();
    for (const [after, stream] of [['partial', false], ['partial', true], ['headers', false]] as const) {
      mock.setOptions({ faults: [{ kind: 'stall', after }] });
      const controller = new AbortController();
      const response = await fetch(`${mock.baseUrl}/chat/completions`, {
        method: 'POST', signal: controller.signal, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...BODY, stream }),
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      if (after === 'partial') expect(new TextDecoder().decode((await reader.read()).value)).toMatch(stream ? /^data: / : /^\{"id"/);
      const request = mock.requests.at(-1)!;
      controller.abort();
      await vi.waitFor(() => expect(request.closedBeforeAnswer).toBe(true));
    }
  });

  it('apiKey: requests without the key get 401 on chat and models', async () => {
    const mock = await start({ apiKey: 'secret-key' });
    expect((await postChat(mock, BODY)).status).toBe(401);
    expect((await postChat(mock, BODY, { headers: { authorization: 'Bearer secret-key' } })).status).toBe(200);
    expect((await fetch(`${mock.baseUrl}/models`)).status).toBe(401);
  });
});

describe('unexpected requests', () => {
  it.each([
    ['no messages array', { model: 'm', prompt: 'hi' }, /no "messages" array/],
    ['invalid JSON', '{"model": ', /not valid JSON/],
    ['a message without a role', { model: 'm', messages: [{ content: 'hi' }] }, /string "role"/],
  ])('%s → 400 with a clear JSON error, flagged and reported', async (_name, body, problem) => {
    const mock = await start();
    const reply = await postChat(mock, body);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text).error.message).toMatch(problem);
    expect(mock.requests[0]).toMatchObject({ unexpected: true, behaviour: 'bad_request', outcome: { status: 400 } });
    expect(mock.requests[0]!.problem).toMatch(problem);
    expect(warnings.join('\n')).toMatch(/UNEXPECTED REQUEST #0 POST \/v1\/chat\/completions/);
  });

  it('unknown paths → 404 JSON error, flagged', async () => {
    const mock = await start();
    const response = await fetch(`${mock.baseUrl}/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toMatch(/Unknown endpoint POST \/v1\/completions/);
    expect(mock.requests[0]).toMatchObject({ unexpected: true, behaviour: 'not_found' });
  });

  it('an actor request whose step cannot be told (5 turns, none with the mock\'s step mark) is answered but flagged', async () => {
    const mock = await start();
    const turns = Array.from({ length: 5 }, (_, i) => `\n[OBSERVATION]\nRoom ${i}.\n[YOUR REPLY]\nREASONING: mine\nACTION: look`).join('');
    const system = `You are an expert player of text adventure games.\n\nFollow this guide:\nExplore.\n\nYour most recent turns in this episode (oldest first):${turns}`;
    const reply = await postChat(mock, chatBody(system, 'What now?'));
    expect(reply.status).toBe(200);
    expect(mock.requests[0]).toMatchObject({ role: 'actor', unexpected: true });
    // Fewer turns than the window: the step is 1 + the turns, nothing flagged.
    await postChat(mock, chatBody(system.split('\n[OBSERVATION]').slice(0, 3).join('\n[OBSERVATION]'), 'What now?'));
    expect(mock.requests[1]).toMatchObject({ role: 'actor', unexpected: false });
  });

  it('tells an actor request\'s step from its content: Step i of S, the mock\'s (step k) mark, or the turns shown', () => {
    const turn = (reply: string) => `\n[OBSERVATION]\nA room.\n[YOUR REPLY]\n${reply}`;
    const body = (turns: string[], user = 'A room.\n\nReply in exactly two lines:'): ChatBody => ({ model: 'm', messages: [{ role: 'system', content: `You are an expert player of text adventure games.\n\nFollow this guide:\nx\n\nYour most recent turns in this episode (oldest first):${turns.join('')}` }, { role: 'user', content: user }] });
    expect(inferActorStep(body([]))).toEqual({ step: 1, uncertain: false });
    expect(inferActorStep(body([turn('REASONING: a\nACTION: look')]))).toEqual({ step: 2, uncertain: false });
    const marked = [turn('REASONING: a (step 11)\nACTION: n'), turn('REASONING: b (step 12)\nACTION: s'), turn('garbled'), turn('REASONING: c (step 14)\nACTION: e'), turn('oops, no contract')];
    expect(inferActorStep(body(marked))).toEqual({ step: 16, uncertain: false });
    expect(inferActorStep(body(marked.slice(0, 3)))).toEqual({ step: 14, uncertain: false });
    expect(inferActorStep(body(marked, 'Step 3 of 9. Score: 0.\n[OBSERVATION]\nHall.'))).toEqual({ step: 3, uncertain: false });
    // A mark in an observation is not the mock's.
    expect(inferActorStep(body([`\n[OBSERVATION]\nA sign says (step 40).\n[YOUR REPLY]\nREASONING: x\nACTION: read sign`]))).toEqual({ step: 2, uncertain: false });
  });

  it('waitForRequest rejects on timeout with what was logged', async () => {
    const mock = await start();
    await postChat(mock, BODY);
    await expect(mock.waitForRequest((r) => r.role === 'proposer', 20)).rejects.toThrow(/no matching request within 20 ms \(1 logged/);
  });
});

/**
 * The forwarder mounted in the real room server (`startRoomServer` with `makeForwarder`), the
 * mock LLM with the teacher's fake key as the provider: a student who joined with the code calls
 * `/v1/models` and `/v1/chat/completions` with its participant token, the teacher sees its usage,
 * the room's call cap, the teacher's pause of everyone and a removal refuse in OpenAI's shape, and
 * no reply any client got carries the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { makeForwarderFor } from '../src/room-server/forwarder.ts';
import type { RoomSnapshot } from '../src/room/protocol.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { chatRequest, FAKE_KEY } from './room-forwarder-harness.ts';
import { startTestRoom, type TestRoom } from './support/room.ts';

const PRICE = { inputPerMTokUsd: 0.5, outputPerMTokUsd: 1.5 };

describe('room forwarder in the room server', () => {
  let mock: MockLlm;
  let t: TestRoom;
  const seen: string[] = [];
  const logs: string[] = [];
  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const reply = await t.call(method, path, { token, body });
    const headers: string[] = [];
    reply.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
    seen.push(`${reply.status}\n${headers.join('\n')}\n\n${reply.text}`);
    return reply;
  };
  const join = async (name: string) => (await call('POST', '/api/join', null, { code: t.room.addresses.code, name })).json as { participantId: string; token: string };

  beforeAll(async () => {
    mock = await startMockLlm({ apiKey: FAKE_KEY, log: () => {} });
    // The teacher's settings as `metattl room --base-url … --api-key … --actor-model mock-model --price …` makes them.
    const llm = defaultLlmSettings();
    llm.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: FAKE_KEY };
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) llm.roles[role].model = 'mock-model';
    llm.prices = { 'mock-model': PRICE };
    t = await startTestRoom({ caps: { maxCalls: 2 }, makeForwarder: makeForwarderFor(llm, { log: (line) => void logs.push(line) }) });
  });
  afterAll(async () => {
    await t.room.close();
    await mock.close();
  });

  it('serves a joined student’s calls with its token, counts them for the teacher, and refuses past the room’s call cap', async () => {
    const ada = await join('Ada');
    expect((await call('GET', '/v1/models', ada.token)).json).toEqual({ object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'room', price: { inputPerMTokUsd: 0.5, outputPerMTokUsd: 1.5 } }] }); // its price: what the page estimates its caps' spending with
    const first = await call('POST', '/v1/chat/completions', ada.token, chatRequest('look'));
    expect(first.status).toBe(200);
    const usage = (first.json as { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } }).usage;
    expect((await call('POST', '/v1/chat/completions', ada.token, chatRequest('look', { stream: true }))).status).toBe(200);
    const third = await call('POST', '/v1/chat/completions', ada.token, chatRequest('look'));
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ error: { code: 'call_cap_reached', message: 'You have used 2 of your 2 model calls. Ask the teacher if you need more.' } });
    const snapshot = (await call('GET', '/api/room', t.room.teacherToken)).json as unknown as RoomSnapshot;
    const row = snapshot.participants.find((p) => p.id === ada.participantId)!;
    expect(row.usage.calls).toBe(2);
    expect(row.usage.tokens).toBeGreaterThanOrEqual(2 * usage.total_tokens - 1);
    expect(row.usage.usd).toBeGreaterThan(0);
    expect(snapshot.unpricedModels).toEqual([]);
    expect((await call('GET', '/api/me', ada.token)).json.usage).toEqual(row.usage);
  });

  it('refuses without a participant token (401), when the teacher pauses everyone (429) and once removed (403)', async () => {
    const bob = await join('Bob');
    expect((await call('POST', '/v1/chat/completions', null, chatRequest('look'))).status).toBe(401);
    expect((await call('POST', '/api/kill', t.room.teacherToken, { killed: true })).status).toBe(200);
    const paused = await call('POST', '/v1/chat/completions', bob.token, chatRequest('look'));
    expect(paused.status).toBe(429);
    expect((paused.json as { error: { message: string } }).error.message).toMatch(/^The teacher paused model calls\./);
    expect((await call('POST', '/api/kill', t.room.teacherToken, { killed: false })).status).toBe(200);
    expect((await call('POST', '/v1/chat/completions', bob.token, chatRequest('look'))).status).toBe(200);
    expect((await call('POST', `/api/participants/${bob.participantId}/remove`, t.room.teacherToken)).status).toBe(200);
    const removed = await call('POST', '/v1/chat/completions', bob.token, chatRequest('look'));
    expect(removed.status).toBe(403);
    expect(removed.json).toMatchObject({ error: { code: 'participant_removed' } });
  });

  it('tells the student and the teacher how many calls were estimated (the provider sent no usage)', async () => {
    const cy = await join('Cy');
    mock.setOptions({ faults: [{ kind: 'no_usage' }] });
    try {
      expect((await call('POST', '/v1/chat/completions', cy.token, chatRequest('look'))).status).toBe(200);
    } finally {
      mock.setOptions({ faults: [] });
    }
    expect((await call('POST', '/v1/chat/completions', cy.token, chatRequest('look'))).status).toBe(200);
    const usage = (await call('GET', '/api/me', cy.token)).json.usage as { calls: number; estimatedCalls?: number };
    expect(usage).toMatchObject({ calls: 2, estimatedCalls: 1 });
    const snapshot = (await call('GET', '/api/room', t.room.teacherToken)).json as unknown as RoomSnapshot;
    expect(snapshot.participants.find((p) => p.id === cy.participantId)!.usage.estimatedCalls).toBe(1);
  });

  it('logs a room model without a price once, at the start', () => {
    const llm = defaultLlmSettings();
    llm.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: FAKE_KEY };
    const said: string[] = [];
    makeForwarderFor(llm, { log: (line) => void said.push(line) });
    expect(said).toEqual(["the model gpt-4o-mini has no price at this provider: students' calls count tokens but no dollars (add --price gpt-4o-mini=IN/OUT for a USD cap to hold)."]);
    // The room's own forwarder (a priced model) logged only the estimated call.
    expect(logs).toEqual([expect.stringMatching(/^forwarder: p-[\w-]+'s call to mock-model: \d+ tokens \(an estimate: the provider sent no usable usage\)$/)]);
    llm.provider.presetId = 'local';
    expect(() => makeForwarderFor(llm)).toThrow('the room forwarder needs the loaded local model (loadLocalModel) for --provider local');
    llm.provider = { presetId: 'simulated', baseUrl: 'in-page:simulated', apiKey: '' };
    expect(() => makeForwarderFor(llm)).toThrow('the room forwards to an OpenAI-compatible server (an http or https base URL) or a local model, not to in-page:simulated');
  });

  it('tells the teacher which of the room\'s models has no price (the cost is unknown, not $0)', async () => {
    const llm = defaultLlmSettings();
    llm.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: FAKE_KEY };
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) llm.roles[role].model = 'mock-model';
    const unpriced = await startTestRoom({ makeForwarder: makeForwarderFor(llm) });
    try {
      const snapshot = (await unpriced.call('GET', '/api/room', { token: unpriced.room.teacherToken })).json as unknown as RoomSnapshot;
      expect(snapshot.unpricedModels).toEqual(['mock-model']);
    } finally {
      await unpriced.room.close();
    }
  });

  it('sent no reply carrying the teacher’s key', () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const bytes of seen) expect(bytes).not.toContain(FAKE_KEY);
  });
});

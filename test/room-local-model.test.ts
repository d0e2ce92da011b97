/**
 * The offline classroom: `metattl room --provider local --model-file F.gguf` on the real small model
 * (SmolLM2-135M-Instruct, test/support/local-model.ts). One loaded model serves both the students'
 * `/v1/chat/completions` (the forwarder) and the scoring of their submissions on the hidden set (the
 * scorer); a student's call made while a submission is being scored takes its turn on that model and
 * is answered. Asserted is what the room guarantees on any CPU — a reply in the OpenAI shape with
 * the model's own token counts, a submission that reaches `scored` with its n — never what this
 * model writes or scores (llama.cpp's output differs between CPUs). The round is one episode of two
 * steps on one hidden task, so the test stays within a few minutes on a loaded 2-core machine.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { RoomSnapshot } from '../src/room/protocol.ts';
import { startRoomServer } from '../src/room-server/room-server.ts';
import { roomServices } from '../src/room-server/services.ts';
import { llmSettingsFromFlags } from '../src/cli/llm-options.ts';
import { loadSmolLm2Vocabulary, requireSmolLm2 } from './support/local-model.ts';
import { fakePageDir, startRoomCli, type RoomCli } from './support/room.ts';

// Counts the loads of a model file, still loading it for real.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/llm/local-chat-model.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/llm/local-chat-model.ts')>();
  return {
    ...real,
    loadLocalModel: (...args: Parameters<typeof real.loadLocalModel>) => {
      loads.count++;
      return real.loadLocalModel(...args);
    },
  };
});

/** One hidden task, one episode of two steps, one repeat: the smallest round that is scored. */
const ROUND = { title: 'Offline', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2'], episodes: 1, steps: 2, repeats: 1, minutes: null };

/** A room reached over HTTP at `origin`. */
function client(origin: string) {
  return async (method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(origin + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, json: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}

type Call = ReturnType<typeof client>;

/** The teacher's view of the room once `test` holds (polled; at most `minutes`). */
async function until(call: Call, teacher: string, test: (room: RoomSnapshot) => boolean, minutes: number): Promise<RoomSnapshot> {
  const end = Date.now() + minutes * 60_000;
  for (;;) {
    const room = (await call('GET', '/api/room', teacher)).json as unknown as RoomSnapshot;
    if (test(room)) return room;
    if (Date.now() > end) throw new Error(`the room never got there: ${JSON.stringify(room.submissions)}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

const SYSTEM = 'You are a helpful assistant.';
const USER = 'Say hello.';

/** A student's chat call through the room (the page's shape: system + user, a small budget). */
const chat = (call: Call, token: string) =>
  call('POST', '/v1/chat/completions', token, { model: 'local', max_tokens: 12, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: USER }] });

/** What every answered chat call guarantees: the OpenAI shape, a text reply, the model's own token counts. */
function expectChatReply(reply: { status: number; json: Record<string, unknown> }): void {
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  const choices = reply.json.choices as { message: { role: string; content: unknown }; finish_reason: string }[];
  expect(choices).toHaveLength(1);
  expect(choices[0]!.message.role).toBe('assistant');
  expect(typeof choices[0]!.message.content).toBe('string');
  expect(['stop', 'length']).toContain(choices[0]!.finish_reason);
  const usage = reply.json.usage as { prompt_tokens: number; completion_tokens: number };
  expect(usage.prompt_tokens).toBeGreaterThan(0);
  expect(usage.completion_tokens).toBeLessThanOrEqual(12);
}

let cli: RoomCli | undefined;
afterAll(async () => {
  await cli?.stop();
});

describe('the offline classroom on the real local model', () => {
  it('through `metattl room --provider local`: a student\'s call is answered, a submission is scored on the hidden set, and a call made during the scoring takes its turn', async () => {
    cli = await startRoomCli(['--port', '0', '--host', '127.0.0.1', '--provider', 'local', '--model-file', requireSmolLm2()]);
    const { code, port } = cli.addresses;
    const teacher = new URL(cli.addresses.teacherUrl).searchParams.get('teacher')!;
    const call = client(`http://127.0.0.1:${port}`);
    const student = (await call('POST', '/api/join', null, { code, name: 'Ada' })).json as { token: string; participantId: string };

    const models = await call('GET', '/v1/models', student.token);
    expect(models.status).toBe(200);
    expect((models.json.data as { id: string }[]).length).toBeGreaterThanOrEqual(1);
    expectChatReply(await chat(call, student.token));

    const roundId = (await call('POST', '/api/rounds', teacher, ROUND)).json.id as string;
    const submitted = await call('POST', '/api/submissions', student.token, { roundId, text: 'Pull each lever once, then repeat the order that scored.', clientId: 'c-ada' });
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
    // While the scorer plays on the model, the student's call waits its turn and is answered.
    const during = chat(call, student.token);
    const room = await until(call, teacher, (r) => r.submissions.length === 1 && ['scored', 'failed'].includes(r.submissions[0]!.score?.status ?? ''), 6);
    expectChatReply(await during);
    const score = room.submissions[0]!.score!;
    expect(score.status, JSON.stringify(score)).toBe('scored');
    expect([score.done, score.total, score.score!.n]).toEqual([1, 1, 1]);
    expect(score.score!.wauc).toBeGreaterThanOrEqual(0);
    expect(score.score!.wauc).toBeLessThanOrEqual(1);
    const row = room.leaderboard.find((r) => r.roundId === roundId);
    expect(row?.score).toEqual(score.score);
    expect(cli.output()).not.toMatch(/Error:|failed/);
    expect(await cli.stop()).toBe(0);
    cli = undefined;
  }, 600_000); // loads the model in a child process, plays one 2-step episode and two chat calls: ~1 min alone

  it('roomServices loads the model file once and shares it between the forwarder and the scorer', async () => {
    loads.count = 0;
    const flags = { provider: 'local', 'model-file': requireSmolLm2() };
    const services = await roomServices({ llm: llmSettingsFromFlags(flags), flags, log: () => {} });
    const room = await startRoomServer({ port: 0, listenHost: '127.0.0.1', publicHost: '127.0.0.1', pageDir: fakePageDir(), ...services });
    try {
      const call = client(`http://127.0.0.1:${room.addresses.port}`);
      const student = (await call('POST', '/api/join', null, { code: room.addresses.code, name: 'Alan' })).json as { token: string };
      const reply = await chat(call, student.token);
      expectChatReply(reply);
      // The prompt is counted as the model reads it: the messages inside the file's chat template
      // (ChatML: at least an <|im_start|> per message and the reply's, an <|im_end|> per message).
      const vocabulary = await loadSmolLm2Vocabulary();
      const texts = vocabulary.count(SYSTEM) + vocabulary.count(USER);
      await vocabulary.dispose();
      expect((reply.json.usage as { prompt_tokens: number }).prompt_tokens).toBeGreaterThanOrEqual(texts + 5);
      const roundId = (await call('POST', '/api/rounds', room.teacherToken, ROUND)).json.id as string;
      expect((await call('POST', '/api/submissions', student.token, { roundId, text: 'Try one new lever each episode.', clientId: 'c-alan' })).status).toBe(200);
      const scored = await until(call, room.teacherToken, (r) => r.submissions[0]?.score?.status === 'scored', 6);
      expect(scored.submissions[0]!.score!.score!.n).toBe(1);
      expect(loads.count).toBe(1);
    } finally {
      await room.close();
      await services.close?.();
    }
  }, 600_000);
});

/**
 * `metattl room` with the usual provider flags (the real CLI as a child process, the mock LLM with
 * the teacher's fake key as the provider): a student who joined calls the room's model with its
 * participant token, the call cap holds, the teacher's snapshot shows the usage priced by --price,
 * and the key appears in nothing the room printed or answered.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomAddresses, RoomSnapshot } from '../src/room/protocol.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { chatRequest, FAKE_KEY } from './room-forwarder-harness.ts';
import { BIN } from './support/cli.ts';
import { fakePageDir } from './support/room.ts';
import { REPO_ROOT } from './support/shared.ts';

describe('metattl room with a provider', () => {
  let mock: MockLlm;
  beforeAll(async () => {
    mock = await startMockLlm({ apiKey: FAKE_KEY, log: () => {} });
  });
  afterAll(() => mock.close());

  it('forwards a joined student’s calls to the teacher’s provider under the caps, never showing the key', async () => {
    const args = ['room', '--json', '--port', '0', '--host', '127.0.0.1', '--page-dir', fakePageDir(), '--base-url', mock.baseUrl, '--api-key', FAKE_KEY, '--actor-model', 'mock-model', '--price', 'mock-model=1/2', '--participant-max-calls', '1'];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const answers: string[] = [];
    try {
      const a = JSON.parse(first) as RoomAddresses;
      const origin = `http://127.0.0.1:${a.port}`;
      const fetchText = async (path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> => {
        const res = await fetch(origin + path, init);
        const text = await res.text();
        answers.push(`${[...res.headers].join('\n')}\n${text}`);
        return { status: res.status, text };
      };
      const joined = JSON.parse((await fetchText('/api/join', { method: 'POST', body: JSON.stringify({ code: a.code, name: 'Ada' }) })).text) as { token: string };
      const auth = { authorization: `Bearer ${joined.token}`, 'content-type': 'application/json' };
      const models = await fetchText('/v1/models', { headers: auth });
      expect((JSON.parse(models.text) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['mock-model']);
      const ok = await fetchText('/v1/chat/completions', { method: 'POST', headers: auth, body: JSON.stringify(chatRequest('look', { model: 'gpt-5' })) });
      expect(ok.status).toBe(200);
      const usage = (JSON.parse(ok.text) as { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } }).usage;
      const over = await fetchText('/v1/chat/completions', { method: 'POST', headers: auth, body: JSON.stringify(chatRequest('look')) });
      expect(over.status).toBe(429);
      expect(JSON.parse(over.text)).toMatchObject({ error: { code: 'call_cap_reached', message: 'You have used 1 of your 1 model calls. Ask the teacher if you need more.' } });
      const teacher = new URL(a.teacherUrl).searchParams.get('teacher')!;
      const snapshot = JSON.parse((await fetchText('/api/room', { headers: { authorization: `Bearer ${teacher}` } })).text) as RoomSnapshot;
      expect(snapshot.participants[0]!.usage.calls).toBe(1);
      expect(snapshot.participants[0]!.usage.tokens).toBe(usage.total_tokens);
      expect(snapshot.participants[0]!.usage.usd).toBeCloseTo((usage.prompt_tokens * 1 + usage.completion_tokens * 2) / 1e6, 12);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    for (const text of [first, out, err, ...answers]) expect(text).not.toContain(FAKE_KEY);
  }, 60_000);
});

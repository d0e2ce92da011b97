import { describe, expect, it } from 'vitest';
import { RoomApi, RoomRefusedError } from './room-api.ts';

type Call = { url: string; init: RequestInit | undefined };

function fakeFetch(reply: (call: Call) => Response): { calls: Call[]; fetch: (url: string, init?: RequestInit) => Promise<Response> } {
  const calls: Call[] = [];
  return { calls, fetch: async (url, init) => { calls.push({ url, init }); return reply({ url, init }); } };
}

describe('RoomApi', () => {
  it('sends each teacher action with the bearer token, method, path and JSON body', async () => {
    const f = fakeFetch(() => new Response('{}', { status: 200 }));
    const api = new RoomApi('http://room:8080', 'fake-test-key-t', f.fetch);
    await api.killParticipant('p/1', true);
    await api.roundAction('r1', 'reveal');
    await api.removeSubmission('s9');
    await api.patchSettings({ namesHidden: true });
    expect(f.calls.map((c) => [c.init?.method, c.url, c.init?.body ?? null])).toEqual([
      ['POST', 'http://room:8080/api/participants/p%2F1/kill', '{"killed":true}'],
      ['POST', 'http://room:8080/api/rounds/r1/reveal', null],
      ['DELETE', 'http://room:8080/api/submissions/s9', null],
      ['PATCH', 'http://room:8080/api/settings', '{"namesHidden":true}'],
    ]);
    expect((f.calls[0]!.init?.headers as Record<string, string>).Authorization).toBe('Bearer fake-test-key-t');
  });

  it("turns a refusal into the server's plain words with the status", async () => {
    const f = fakeFetch(() => new Response(JSON.stringify({ error: 'Only the teacher may do that.', code: 'room_forbidden' }), { status: 403 }));
    const error = await new RoomApi('http://room:8080', 'x', f.fetch).end().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoomRefusedError);
    expect((error as RoomRefusedError).status).toBe(403);
    expect((error as Error).message).toBe('The room server refused (not allowed with this link): Only the teacher may do that.');
  });

  it('says a refusal without words by its status', async () => {
    const api = new RoomApi('http://room:8080', 'x', async () => new Response('oops', { status: 502 }));
    await expect(api.snapshot()).rejects.toThrow('The room server refused (HTTP 502).');
    const worded = new RoomApi('http://room:8080', 'x', async () => new Response('{"error":"No such round."}', { status: 404 }));
    await expect(worded.roundAction('r9', 'lock')).rejects.toThrow(/^The room server refused: No such round\.$/);
  });

  it('says plainly when the server cannot be reached', async () => {
    const api = new RoomApi('http://room:8080', 'x', () => Promise.reject(new TypeError('fetch failed')));
    await expect(api.snapshot()).rejects.toThrow('The room server could not be reached');
  });

  it("downloads an export under the server's file name", async () => {
    const f = fakeFetch(() => new Response('a,b\n1,2\n', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="room-ABC-results.csv"' } }));
    const file = await new RoomApi('http://room:8080', 'x', f.fetch).exportFile('csv');
    expect(f.calls[0]!.url).toBe('http://room:8080/api/export?format=csv');
    expect(file.name).toBe('room-ABC-results.csv');
    expect(await file.blob.text()).toBe('a,b\n1,2\n');
  });
});

/**
 * A minimal room for the forwarder's tests: an http server on 127.0.0.1 that resolves a bearer
 * participant token to its id (401 otherwise, as the room server does) and mounts the forwarder,
 * with the participants, settings and usage kept in memory. `call` makes a raw request and keeps
 * every byte the student received (status line, raw headers, body) for the key checks.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createForwarder, type ForwarderConfig } from '../src/room-server/forwarder.ts';
import type { RoomForwarder } from '../src/room-server/seams.ts';
import type { ParticipantView, RoomCaps, RoomSettings, RoomUsage } from '../src/room/protocol.ts';

/** The teacher's fake key (never a real provider's shape). */
export const FAKE_KEY = 'fake-test-key-room-forwarder-7f3a9c2e5b1d';

/** One reply as the student's client received it. */
export interface Received {
  status: number;
  /** Header names and values, as sent. */
  rawHeaders: string[];
  text: string;
}

export const NO_CAPS: RoomCaps = { maxCalls: null, maxTokens: null, maxUsd: null, opensAt: null, closesAt: null };

export interface TestRoom {
  url: string;
  forwarder: RoomForwarder;
  settings: RoomSettings;
  /** Adds a participant with `caps` (default none); returns its token. */
  join(id: string, caps?: Partial<RoomCaps>): string;
  participant(id: string): ParticipantView;
  /** Every usage delta the forwarder added, by participant. */
  added: Map<string, RoomUsage[]>;
  /** Every reply any client of this room received. */
  received: Received[];
  call(path: string, token: string | null, body?: unknown, method?: string): Promise<Received>;
  close(): Promise<void>;
}

/** Start a room whose forwarder uses `config` (upstream, prices, clock). */
export async function startTestRoom(config: ForwarderConfig): Promise<TestRoom> {
  const participants = new Map<string, ParticipantView>();
  const tokens = new Map<string, string>();
  const added = new Map<string, RoomUsage[]>();
  const received: Received[] = [];
  const settings: RoomSettings = { title: 'Test room', namesHidden: false, caps: { ...NO_CAPS }, killedAll: false };
  const forwarder = createForwarder({
    ...config,
    participant: (id) => participants.get(id) ?? null,
    settings: () => settings,
    addUsage: (id, usage) => {
      const p = participants.get(id)!;
      p.usage = { calls: p.usage.calls + usage.calls, tokens: p.usage.tokens + usage.tokens, usd: p.usage.usd === null || usage.usd === null ? null : p.usage.usd + usage.usd };
      added.set(id, [...(added.get(id) ?? []), usage]);
    },
  });
  const server: Server = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const id = token === undefined ? undefined : tokens.get(token);
    if (id === undefined) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Join the room first.', type: 'authentication_error', code: 'no_token' } }));
      return;
    }
    void forwarder.handle(req, res, id);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url, forwarder, settings, added, received,
    join(id, caps = {}) {
      participants.set(id, { id, name: id, joinedAt: new Date(0).toISOString(), removed: false, killed: false, usage: { calls: 0, tokens: 0, usd: 0 }, caps: { ...NO_CAPS, ...caps } });
      const token = `participant-token-${id}`;
      tokens.set(token, id);
      return token;
    },
    participant: (id) => participants.get(id)!,
    call: (path, token, body, method) => new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const headers: Record<string, string> = payload === undefined ? {} : { 'content-type': 'application/json' };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      const req = request(`${url}${path}`, { method: method ?? (payload === undefined ? 'GET' : 'POST'), headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const reply = { status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, text: Buffer.concat(chunks).toString('utf8') };
          received.push(reply);
          resolve(reply);
        });
      });
      req.on('error', reject);
      req.end(payload);
    }),
    close: async () => {
      await forwarder.close?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The `data:` payloads of an SSE body, in order. */
export function sseData(text: string): string[] {
  return text.split(/\r?\n\r?\n/).filter((b) => b.trim() !== '').map((b) => b.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n'));
}

/** A chat request body from one user message. */
export function chatRequest(user: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'mock-model', messages: [{ role: 'system', content: 'You play a text adventure.' }, { role: 'user', content: user }], ...extra };
}

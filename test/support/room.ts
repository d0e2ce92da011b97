/**
 * Starting a room server in a test: on 127.0.0.1, a free port, a small built page in a temporary
 * folder, and helpers to call its routes with a token.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRoomServer } from '../../src/room-server/room-server.ts';
import type { RoomServerOptions, RunningRoom } from '../../src/room-server/seams.ts';

/** A temporary folder holding a page like `dist/`: index.html and one asset. */
export function fakePageDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'room-page-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Meta-TTL</title><div id="app"></div>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log("page");');
  return dir;
}

/** A started room and fetch helpers bound to it. */
export interface TestRoom {
  room: RunningRoom;
  origin: string;
  wsUrl: string;
  /** `fetch(origin + path)` with an optional bearer token and JSON body. */
  call(method: string, path: string, options?: { token?: string | null; body?: unknown; raw?: string }): Promise<{ status: number; json: Record<string, unknown>; headers: Headers; text: string }>;
}

/** Starts a room for a test (close it with `room.close()`). */
export async function startTestRoom(options: Partial<RoomServerOptions> = {}): Promise<TestRoom> {
  const room = await startRoomServer({ port: 0, listenHost: '127.0.0.1', publicHost: '127.0.0.1', pageDir: fakePageDir(), ...options });
  const origin = `http://127.0.0.1:${room.addresses.port}`;
  return {
    room,
    origin,
    wsUrl: `ws://127.0.0.1:${room.addresses.port}`,
    async call(method, path, o = {}) {
      const headers: Record<string, string> = {};
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      if (o.body !== undefined || o.raw !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(origin + path, { method, headers, ...(o.raw !== undefined ? { body: o.raw } : o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) });
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON (the page, an export)
      }
      return { status: res.status, json, headers: res.headers, text };
    },
  };
}

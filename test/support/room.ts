/**
 * Starting a room server in a test: on 127.0.0.1, a free port, a small built page in a temporary
 * folder, and helpers to call its routes with a token; or the real `metattl room` CLI as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RoomAddresses } from '../../src/room/protocol.ts';
import { startRoomServer } from '../../src/room-server/room-server.ts';
import type { RoomServerOptions, RunningRoom } from '../../src/room-server/seams.ts';
import { BIN } from './cli.ts';
import { REPO_ROOT } from './shared.ts';

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

/** A `metattl room` CLI process (bin/metattl.js) started by a test. */
export interface RoomCli {
  child: ChildProcess;
  /** The `--json` first line: `{ joinUrl, teacherUrl, projectorUrl, code, port }`. */
  addresses: RoomAddresses;
  /** Everything it printed so far (stdout then stderr). */
  output(): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `metattl room --json ARGS` from the repository root and waits for its first stdout line.
 * @throws Error (rejects) when the process exits before printing it
 */
export async function startRoomCli(args: readonly string[]): Promise<RoomCli> {
  const child = spawn(process.execPath, [BIN, 'room', '--json', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    void exited.then((code) => reject(new Error(`metattl room exited ${code}: ${err}`)));
  });
  return {
    child,
    addresses: JSON.parse(first) as RoomAddresses,
    output: () => `${out}\n${err}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

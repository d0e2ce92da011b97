/**
 * `metattl room` through the real CLI (bin/metattl.js as a child process): with --json the first
 * stdout line is `{ joinUrl, teacherUrl, projectorUrl, code, port }`, the room answers at that port
 * and serves the page given, SIGTERM closes it with exit 0, a restart with the same --data prints
 * the same code and links; a Redis that cannot be used and a bad port are refused plainly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { RoomAddresses } from '../src/room/protocol.ts';
import { BIN, runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';
import { fakePageDir } from './support/room.ts';

/** Starts `metattl room ARGS`; resolves with the child and its first stdout line. */
async function startRoom(args: string[]): Promise<{ child: ChildProcess; first: string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'room', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, first, stderr: () => err };
}

const exitOf = (child: ChildProcess): Promise<number | null> => new Promise((resolve) => child.once('exit', (code) => resolve(code)));

describe('metattl room', () => {
  it('prints the addresses as its first line with --json, serves the room, and exits 0 on SIGTERM', async () => {
    const page = fakePageDir();
    const { child, first } = await startRoom(['--json', '--port', '0', '--host', '127.0.0.1', '--page-dir', page, '--title', 'CLI room', '--participant-max-calls', '5']);
    const a = JSON.parse(first) as RoomAddresses;
    expect(Object.keys(a)).toEqual(['joinUrl', 'teacherUrl', 'projectorUrl', 'code', 'port']);
    expect(a.joinUrl).toBe(`http://127.0.0.1:${a.port}/?room=${a.code}`);
    expect(a.teacherUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${a.port}/\\?view=room-teacher&teacher=[\\w-]{43}$`));
    expect(a.projectorUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${a.port}/\\?view=projector&projector=[\\w-]{43}$`));
    const origin = `http://127.0.0.1:${a.port}`;
    expect(await (await fetch(`${origin}/api/info`)).json()).toEqual({ room: true, joinable: true, title: 'CLI room' });
    const joined = (await (await fetch(`${origin}/api/join`, { method: 'POST', body: JSON.stringify({ code: a.code, name: 'Ada' }) })).json()) as { token: string };
    const me = (await (await fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${joined.token}` } })).json()) as { caps: { maxCalls: number } };
    expect(me.caps.maxCalls).toBe(5);
    const models = await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${joined.token}` } });
    expect(models.status).toBe(503);
    const pageRes = await fetch(`${origin}/`);
    expect(pageRes.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(await pageRes.text()).toContain('<div id="app">');
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('keeps the room across a restart with --data (same code and teacher link), and SIGINT exits 0 too', async () => {
    const data = mkdtempSync(join(tmpdir(), 'room-cli-data-'));
    const args = ['--json', '--port', '0', '--host', '127.0.0.1', '--page-dir', fakePageDir(), '--data', data];
    const one = await startRoom(args);
    const a = JSON.parse(one.first) as RoomAddresses;
    const joined = (await (await fetch(`http://127.0.0.1:${a.port}/api/join`, { method: 'POST', body: JSON.stringify({ code: a.code, name: 'Ada' }) })).json()) as { token: string };
    let exited = exitOf(one.child);
    one.child.kill('SIGINT');
    expect(await exited).toBe(0);
    const two = await startRoom(args);
    const b = JSON.parse(two.first) as RoomAddresses;
    expect([b.code, new URL(b.teacherUrl).searchParams.get('teacher')]).toEqual([a.code, new URL(a.teacherUrl).searchParams.get('teacher')]);
    const me = await fetch(`http://127.0.0.1:${b.port}/api/me`, { headers: { authorization: `Bearer ${joined.token}` } });
    expect(((await me.json()) as { name: string }).name).toBe('Ada');
    exited = exitOf(two.child);
    two.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('takes the window for model calls from --calls-from / --calls-until (HH:MM: today, until before from: tomorrow) into the room\'s caps', async () => {
    const { child, first } = await startRoom(['--json', '--port', '0', '--host', '127.0.0.1', '--page-dir', fakePageDir(), '--calls-from', '2030-01-07T14:05:00Z', '--calls-until', '2030-01-07T15:30:00Z']);
    const a = JSON.parse(first) as RoomAddresses;
    const teacher = new URL(a.teacherUrl).searchParams.get('teacher');
    const room = (await (await fetch(`http://127.0.0.1:${a.port}/api/room`, { headers: { authorization: `Bearer ${teacher}` } })).json()) as { settings: { caps: Record<string, unknown> } };
    expect(room.settings.caps).toEqual({ maxCalls: null, maxTokens: null, maxUsd: null, opensAt: '2030-01-07T14:05:00.000Z', closesAt: '2030-01-07T15:30:00.000Z' });
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const clock = await startRoom(['--json', '--port', '0', '--host', '127.0.0.1', '--page-dir', fakePageDir(), '--calls-from', '23:00', '--calls-until', '01:30']);
    const b = JSON.parse(clock.first) as RoomAddresses;
    const tb = new URL(b.teacherUrl).searchParams.get('teacher');
    const caps = ((await (await fetch(`http://127.0.0.1:${b.port}/api/room`, { headers: { authorization: `Bearer ${tb}` } })).json()) as { settings: { caps: { opensAt: string; closesAt: string } } }).settings.caps;
    const [opens, closes] = [new Date(caps.opensAt), new Date(caps.closesAt)];
    expect([opens.getHours(), opens.getMinutes(), closes.getHours(), closes.getMinutes()]).toEqual([23, 0, 1, 30]);
    expect(closes.getTime() - opens.getTime()).toBe(150 * 60_000);
    const exitedB = exitOf(clock.child);
    clock.child.kill('SIGTERM');
    expect(await exitedB).toBe(0);
  }, 60_000);

  it('refuses a window bound that is not a time, and a window that closes before it opens, with exit 2', async () => {
    const bad = await runCli(['room', '--calls-from', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--calls-from "soon" is not a time: use HH:MM (today, local time) or an ISO date-time such as 2026-12-07T14:05');
    const hour = await runCli(['room', '--calls-until', '25:00']);
    expect(hour.code).toBe(2);
    expect(hour.stderr).toContain('--calls-until "25:00" is not a time');
    const backwards = await runCli(['room', '--calls-from', '2030-01-07T15:00:00Z', '--calls-until', '2030-01-07T14:00:00Z']);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain('--calls-until (2030-01-07T14:00:00.000Z) must be after calls-from (2030-01-07T15:00:00.000Z)');
  }, 60_000);

  it('refuses a Redis it cannot share the room through, a bad --redis and a bad port, in plain words', async () => {
    const redis = await runCli(['room', '--port', '0', '--page-dir', fakePageDir(), '--redis', 'redis://127.0.0.1:1']);
    expect(redis.code).toBe(1);
    expect(redis.stderr).toMatch(/^metattl: .*redis/im);
    const notUrl = await runCli(['room', '--redis', 'localhost:6379']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toMatch(/--redis must be a redis:\/\/ URL/);
    const port = await runCli(['room', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--port must be a whole number from 0 to 65535/);
  }, 60_000);
});

/**
 * Debian's `redis-server` (/usr/bin/redis-server; .ci/run installs it) on a free port of
 * 127.0.0.1, in a temp dir, with nothing saved (`--save '' --appendonly no`): the room's scale-out
 * test and the Redis-backed private state's test start one each and stop it after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface RunningRedis {
  url: string;
  port: number;
  /** Kills the server and removes its dir. */
  stop(): Promise<void>;
}

/** A port no one listens on now (the OS's pick). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function accepts(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts redis-server (with `password`: `--requirepass`) and waits until it accepts connections (10 s at most).
 * @throws Error naming the missing binary (install Debian's `redis-server`), or its output when it exits early.
 */
export async function startRedis(options: { password?: string } = {}): Promise<RunningRedis> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(`${REDIS_SERVER} is missing: the room's scale-out tests need Debian's redis-server (apt-get install redis-server; .ci/run installs it).`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'metattl-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...(options.password ? ['--requirepass', options.password] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let waited = 0; !(await accepts(port)); waited += 50) {
    if (child.exitCode !== null || waited > 10_000) {
      await stop();
      throw new Error(`redis-server did not start on port ${port}: ${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}

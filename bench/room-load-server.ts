/**
 * The room server of bench/room-load-bench.ts in its own process, so its memory is measured apart
 * from the 100 clients': started by `fork` with `--expose-gc`, it sends
 * `{ joinUrl, code, teacherToken }` once listening, answers `'memory'` with its RSS and heap after
 * a full GC (bytes) and the CPU time it has used (ms, user + system), and closes on `'close'`. Submissions are scored at once (test/support/room-load.ts
 * `instantScorer`): the bench times the room, not the evaluation runner.
 */
import { startRoomServer } from '../src/room-server/room-server.ts';
import { instantScorer } from '../test/support/room-load.ts';

/** What the server process reports. */
export type RoomLoadServerMessage =
  | { kind: 'started'; joinUrl: string; code: string; teacherToken: string }
  | { kind: 'memory'; rss: number; heapUsed: number; cpuMs: number };

async function main(): Promise<void> {
  const room = await startRoomServer({ port: 0, listenHost: '127.0.0.1', publicHost: '127.0.0.1', makeScorer: instantScorer });
  const send = (message: RoomLoadServerMessage): void => void process.send?.(message);
  process.on('message', (message: unknown) => {
    if (message === 'memory') {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      const { user, system } = process.cpuUsage();
      send({ kind: 'memory', rss, heapUsed, cpuMs: (user + system) / 1000 });
    } else if (message === 'close') {
      void room.close().then(() => process.exit(0));
    }
  });
  send({ kind: 'started', joinUrl: room.addresses.joinUrl, code: room.addresses.code, teacherToken: room.teacherToken });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

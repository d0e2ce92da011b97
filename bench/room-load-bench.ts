/**
 * A room of 100 (`npm run bench`; not a test): one room server in its own process
 * (room-load-server.ts) and 100 Yjs clients in this one (`connectRoom`, Node's WebSocket) joining
 * by POST /api/join, 10 at a time, each submitting once, every client drawing the leaderboard
 * from its own document (every participant ranked). Prints:
 * - **join-to-visible** p50 / p95: from sending POST /api/join to the participant in another
 *   client's (the teacher's) document;
 * - **submissions/s**: 100 submissions sent at once ÷ the time until every client's leaderboard
 *   ranks all of them (and, beside it, until the last HTTP reply);
 * - **server memory per participant**: the server's RSS and heap after a full GC, once the class
 *   has joined and submitted, minus before the first join, ÷ 100;
 * - beside them, the server's CPU time per join and per submission (user + system), which a
 *   machine busy with other work changes less than the wall times.
 * test/room-load.test.ts checks the same run's correctness; scoring is immediate here (the
 * evaluation runner's cost is the evaluation benches').
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { RoundPublic } from '../src/room/protocol.ts';
import { apiOk, connectObserver, joinStudents, LOAD_ROUND, originOf, percentile, seesScoredBoard, submitAll, until } from '../test/support/room-load.ts';
import { sized } from './bench-size.ts';
import type { RoomLoadServerMessage } from './room-load-server.ts';

const CLIENTS = sized(100, 10);
const PARALLEL = sized(10, 5);

/** Starts the server process; resolves with it once it listens. */
async function startServer(): Promise<{ child: ChildProcess; started: Extract<RoomLoadServerMessage, { kind: 'started' }> }> {
  const child = fork(resolve(import.meta.dirname, 'room-load-server.ts'), [], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const started = await new Promise<Extract<RoomLoadServerMessage, { kind: 'started' }>>((resolveStarted, reject) => {
    child.once('exit', (code) => reject(new Error(`the room server exited (${code}) before listening`)));
    child.on('message', (m: RoomLoadServerMessage) => m.kind === 'started' && resolveStarted(m));
  });
  return { child, started };
}

/** The server's memory after a full GC (bytes) and CPU time so far (ms). */
async function memoryOf(child: ChildProcess): Promise<Extract<RoomLoadServerMessage, { kind: 'memory' }>> {
  const reply = new Promise<Extract<RoomLoadServerMessage, { kind: 'memory' }>>((resolveMemory) => {
    const onMessage = (m: RoomLoadServerMessage): void => {
      if (m.kind !== 'memory') return;
      child.off('message', onMessage);
      resolveMemory(m);
    };
    child.on('message', onMessage);
  });
  child.send('memory');
  return await reply;
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

async function main(): Promise<void> {
  const { child, started } = await startServer();
  const origin = originOf(started.joinUrl);
  const observer = await connectObserver(origin, started.teacherToken);
  const round = await apiOk<RoundPublic>(origin, '/api/rounds', started.teacherToken, LOAD_ROUND);
  const before = await memoryOf(child);
  console.log(`Room load: ${CLIENTS} Yjs clients on one room server (its own process), joining ${PARALLEL} at a time, each submitting once; machine load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores.`);

  const joinStarted = performance.now();
  const students = await joinStudents([origin], started.code, CLIENTS, PARALLEL, observer);
  const joinWallS = (performance.now() - joinStarted) / 1000;
  await until(() => observer.presences().filter((p) => p.role === 'student').length === CLIENTS, 'every student present to the observer');
  const latencies = students.map((s) => s.joinToVisibleMs);
  const joined = await memoryOf(child);

  const submitStarted = performance.now();
  const replied = submitAll([origin], students, round).then(() => performance.now() - submitStarted);
  const clients = [observer, ...students.map((s) => s.connection)];
  await until(() => clients.every((c) => seesScoredBoard(c, CLIENTS)), `all ${CLIENTS} scored submissions in every client`, 120_000);
  const boardMs = performance.now() - submitStarted;
  const httpMs = await replied;
  const after = await memoryOf(child);

  for (const s of students) s.connection.close();
  observer.close();
  child.send('close');
  await new Promise((r) => child.once('exit', r));

  const [p50, p95] = [percentile(latencies, 50), percentile(latencies, 95)];
  const perSecond = CLIENTS / (boardMs / 1000);
  const [rssPer, heapPer] = [(after.rss - before.rss) / CLIENTS, (after.heapUsed - before.heapUsed) / CLIENTS];
  console.log('| measure | value |');
  console.log('|---|---|');
  console.log(`| join-to-visible p50 / p95 (POST /api/join → in the teacher's document) | ${p50.toFixed(1)} / ${p95.toFixed(1)} ms |`);
  console.log(`| all ${CLIENTS} joined (${PARALLEL} at a time) | ${joinWallS.toFixed(2)} s |`);
  console.log(`| ${CLIENTS} submissions sent at once: last HTTP reply / all ranked on every client's leaderboard | ${(httpMs / 1000).toFixed(2)} / ${(boardMs / 1000).toFixed(2)} s |`);
  console.log(`| server CPU per join (HTTP join, the document's update to every client, the WebSocket's sync and presence) | ${((joined.cpuMs - before.cpuMs) / CLIENTS).toFixed(2)} ms |`);
  console.log(`| server CPU per submission (HTTP, the document's three updates — appended, queued, scored — to every client) | ${((after.cpuMs - joined.cpuMs) / CLIENTS).toFixed(2)} ms |`);
  console.log(`| server RSS / heap before the first join | ${kb(before.rss)} / ${kb(before.heapUsed)} KB |`);
  console.log(`| server RSS / heap after ${CLIENTS} joined and submitted | ${kb(after.rss)} / ${kb(after.heapUsed)} KB |`);
  console.log(`room load (${CLIENTS} clients): join-to-visible p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms; ${perSecond.toFixed(1)} submissions/s (every client's board); server memory per participant ${kb(rssPer)} KB RSS, ${kb(heapPer)} KB heap`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

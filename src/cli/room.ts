/**
 * `metattl room`: starts a workshop room (src/room-server) on this machine and prints how to reach
 * it — the join address on the LAN, the room code, a QR code of the join address, and the
 * teacher's and projector's links. With --json the first stdout line is `RoomAddresses`
 * (`{ joinUrl, teacherUrl, projectorUrl, code, port }`) and the rest goes to stderr. Runs until
 * SIGINT or SIGTERM, then closes the room (saving it under --data) and exits 0. The provider's key
 * is registered as a secret (never printed); the teacher's link carries the teacher token by design.
 */
import { resolve } from 'node:path';
import { callWindowOf } from '../room/call-window.ts';
import { qrTerminal } from '../room/qr-code.ts';
import type { RoomAddresses } from '../room/protocol.ts';
import { DEFAULT_PAGE_DIR, lanAddress, startRoomServer } from '../room-server/room-server.ts';
import { roomServices } from '../room-server/services.ts';
import { pageBuilt } from '../room-server/static-page.ts';
import { ROOM } from './commands.ts';
import { llmSettingsFromFlags } from './llm-options.ts';
import { intOption, numberOption } from './numbers.ts';
import { parseCommand } from './option-defs.ts';
import { UsageError } from './usage-error.ts';

/** The human text: addresses, code, QR, links, and where the room is kept (`shared`: in Redis, --redis). */
async function addressText(a: RoomAddresses, title: string, dataDir: string | undefined, shared: boolean): Promise<string> {
  return [
    `${title}`,
    '',
    `Students open:  ${a.joinUrl}`,
    `Room code:      ${a.code}`,
    '',
    await qrTerminal(a.joinUrl),
    `Teacher (keep it to yourself): ${a.teacherUrl}`,
    `Projector:                     ${a.projectorUrl}`,
    '',
    shared
      ? 'The room is kept in Redis with every server of it: Ctrl-C stops this server, the room goes on on the others (docs/workshop.md, "A conference hall").'
      : dataDir ? `The room is kept in ${dataDir}; Ctrl-C stops it (start again with the same --data to resume).` : 'The room lives in memory: Ctrl-C ends it (use --data DIR to keep it across a restart).',
    '',
  ].join('\n');
}

/** Resolves on the first SIGINT or SIGTERM. */
const untilSignal = (): Promise<string> =>
  new Promise((done) => {
    const on = (signal: string): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      done(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });

/** --calls-from / --calls-until as the caps' window (ISO instants or null); a bad value is a usage error. */
function callWindowFlags(from: string | undefined, until: string | undefined): ReturnType<typeof callWindowOf> {
  try {
    return callWindowOf(from, until, Date.now());
  } catch (error) {
    throw new UsageError(`--${(error as Error).message}`);
  }
}

export async function roomCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(ROOM, argv);
  const port = intOption(values.port, 'port', 8080, 0, 65535);
  const caps = {
    maxCalls: values['participant-max-calls'] === undefined ? null : intOption(values['participant-max-calls'], 'participant-max-calls', 0, 0),
    maxTokens: values['participant-max-tokens'] === undefined ? null : intOption(values['participant-max-tokens'], 'participant-max-tokens', 0, 0),
    maxUsd: numberOption(values['participant-max-usd'], 'participant-max-usd') ?? null,
    ...callWindowFlags(values['calls-from'], values['calls-until']),
  };
  const hasProvider = typeof values['base-url'] === 'string' || typeof values.provider === 'string';
  const llm = hasProvider ? llmSettingsFromFlags(values) : null;
  const err = (line: string): boolean => process.stderr.write(`${line}\n`);
  const pageDir = values['page-dir'] ? resolve(values['page-dir']) : DEFAULT_PAGE_DIR;
  if (!pageBuilt(pageDir)) err(`metattl room: the page is not built (no ${pageDir}/index.html): run "npm run build", then students can open it (the room runs meanwhile).`);
  if (values.redis !== undefined && !/^rediss?:\/\//.test(values.redis)) throw new UsageError('--redis must be a redis:// URL');
  const dataDir = values.data ? resolve(values.data) : undefined;
  const services = await roomServices({ llm, flags: values, ...(values.redis ? { redisUrl: values.redis } : {}), ...(dataDir ? { dataDir } : {}), log: (line) => err(`room: ${line}`) });
  const { close: closeServices, ...injected } = services;
  const room = await startRoomServer({
    port,
    listenHost: '0.0.0.0',
    publicHost: values.host ?? lanAddress(),
    ...(dataDir ? { dataDir } : {}),
    ...(values.title ? { title: values.title } : {}),
    ...(values.redis ? { redisUrl: values.redis } : {}),
    pageDir,
    caps,
    ...injected,
    log: (line) => err(`room: ${line}`),
  }).catch(async (error: NodeJS.ErrnoException) => {
    await closeServices?.();
    if (error.code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use: choose another with --port`);
    throw error;
  });
  const title = room.state.snapshot().settings.title;
  if (values.json) {
    process.stdout.write(`${JSON.stringify(room.addresses)}\n`);
    err(await addressText(room.addresses, title, values.data, values.redis !== undefined));
  } else process.stdout.write(await addressText(room.addresses, title, values.data, values.redis !== undefined));
  const signal = await untilSignal();
  err(`metattl room: ${signal}: closing the room${values.data ? ' (saved)' : ''}.`);
  await room.close();
  await closeServices?.();
  return 0;
}

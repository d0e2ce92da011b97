/**
 * What `metattl room` injects into the room server: the model forwarder and the scorer, built
 * from the teacher's provider settings, and the private state's backend when several servers
 * share one room through Redis. The one place these services are chosen (the CLI calls it; a test
 * injects its own through `RoomServerOptions`).
 *
 * The forwarder (forwarder.ts, `makeForwarderFor`) is wired: with a provider the room answers
 * `/v1/*` from it (with `--provider local` the model file is loaded here, once), without one 503
 * "this room has no model". No scorer is wired yet: `/api/evolution` answers 503 (the merge
 * completes it: `createScorer`, scoring.ts). With `--redis`, `startRoomServer` opens the shared
 * private state itself (`RedisState`, redis-state.ts), so no backend is chosen here.
 */
import type { LlmSettings } from '../llm/interface.ts';
import { loadLocalModel } from '../llm/local-chat-model.ts';
import { makeForwarderFor } from './forwarder.ts';
import type { RoomServerOptions } from './seams.ts';

export interface RoomServicesOptions {
  /** The teacher's provider and models (null: the room has no model). */
  llm: LlmSettings | null;
  /** The parsed provider flags as given (the local model's file and threads, …). */
  flags: Readonly<Record<string, unknown>>;
  redisUrl?: string;
  /** The room's `--data` folder (the scorer keeps its runs there). */
  dataDir?: string;
  log(line: string): void;
}

/** The services a room is started with, and `close` to free what they hold (a local model) after the room closed. */
export type RoomServices = Pick<RoomServerOptions, 'makeForwarder' | 'makeScorer' | 'stateBackend'> & { close?: () => Promise<void> };

/** The forwarder, scorer and state backend for `options` (the forwarder only in this build: see the module's note). */
export async function roomServices(options: RoomServicesOptions): Promise<RoomServices> {
  if (options.llm === null) {
    options.log('no provider given: the room has no model (students\' model calls answer 503).');
    return {};
  }
  return { makeForwarder: await forwarderService(options.llm, options.flags, options.log) };
}

/**
 * The forwarder factory for the teacher's settings; with `--provider local` the model file is
 * loaded here (node-llama-cpp, `--local-threads`), owned by the forwarder (freed when the room closes).
 * @throws LocalModelMissingError / Error from loadLocalModel for a local model that cannot load
 */
async function forwarderService(llm: LlmSettings, flags: Readonly<Record<string, unknown>>, log: (line: string) => void): Promise<NonNullable<RoomServices['makeForwarder']>> {
  if (llm.provider.presetId !== 'local') return makeForwarderFor(llm, { log });
  const threads = typeof flags['local-threads'] === 'string' ? Number(flags['local-threads']) : 1;
  const localHost = await loadLocalModel(String(flags['model-file']), { threads });
  return makeForwarderFor(llm, { localHost, ownsHost: true, log });
}

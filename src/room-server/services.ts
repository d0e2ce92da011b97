/**
 * What `metattl room` injects into the room server: the model forwarder and the scorer, built
 * from the teacher's provider settings, and the private state's backend when several servers
 * share one room through Redis. The one place these services are chosen (the CLI calls it; a test
 * injects its own through `RoomServerOptions`).
 *
 * In this build no forwarder, scorer or Redis state backend is wired yet: a room answers `/v1/*`
 * with 503 "this room has no model", `/api/evolution` with 503, and `--redis` is refused at start
 * (`RoomSetupError`) rather than sharing the document without the private state. The merge
 * completes it: `createForwarder` (forwarder.ts), `createScorer` (scoring.ts), `RedisState`
 * (redis-state.ts).
 */
import type { LlmSettings } from '../llm/interface.ts';
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

/** The forwarder, scorer and state backend for `options` (none in this build: see the module's note). */
export async function roomServices(options: RoomServicesOptions): Promise<RoomServices> {
  if (options.llm === null) options.log('no provider given: the room has no model (students\' model calls answer 503).');
  return {};
}

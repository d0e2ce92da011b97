/**
 * What `metattl room` injects into the room server: the model forwarder and the scorer, both built
 * from the teacher's provider settings. The one place these services are chosen (the CLI calls it;
 * a test injects its own through `RoomServerOptions`).
 *
 * With a provider the room answers `/v1/*` through the forwarder (forwarder.ts, `makeForwarderFor`)
 * and scores submissions and runs the class's evolution with the scorer (scoring.ts,
 * `roomScorerMaker`, runs kept under `<data>/scoring`); without one, `/v1/*` answers 503 "this room
 * has no model" and submissions stay unscored. With `--provider local` the model file is loaded
 * here, once, and shared by both (freed by `close`). With `--redis`, `startRoomServer` opens the
 * shared private state itself (`RedisState`, redis-state.ts), so no backend is chosen here.
 */
import type { LlmSettings } from '../llm/interface.ts';
import { createLocalChatModels, loadLocalModel, type LocalModelHost } from '../llm/local-chat-model.ts';
import { describeModel } from '../llm/model-label.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { makeForwarderFor } from './forwarder.ts';
import { roomScorerMaker } from './scoring.ts';
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
export type RoomServices = Pick<RoomServerOptions, 'makeForwarder' | 'makeScorer' | 'stateBackend' | 'model'> & { close?: () => Promise<void> };

/**
 * The forwarder and scorer for `options` (none without a provider).
 * @throws LocalModelMissingError / Error from loadLocalModel for a local model that cannot load;
 *   StorageError when the data dir cannot be opened
 */
export async function roomServices(options: RoomServicesOptions): Promise<RoomServices> {
  const { llm } = options;
  if (llm === null) {
    options.log('no provider given: the room has no model (students\' model calls answer 503, submissions are not scored).');
    return {};
  }
  const model = describeModel({ presetId: llm.provider.presetId, actor: llm.roles.actor.model, metaAgent: llm.roles.metaAgent.model, proposer: llm.roles.proposer.model });
  if (llm.provider.presetId !== 'local') {
    return { model, makeForwarder: makeForwarderFor(llm, { log: options.log }), makeScorer: await roomScorerMaker({ llm, ...dataDirOf(options) }) };
  }
  const threads = typeof options.flags['local-threads'] === 'string' ? Number(options.flags['local-threads']) : 1;
  const localHost: LocalModelHost = await loadLocalModel(String(options.flags['model-file']), { threads });
  // One loaded model for both: the forwarder's calls and the scorer's sessions take turns on it.
  const models = createLocalChatModels(localHost, llm, new UsageMeter(llm.caps, llm.prices));
  return {
    model,
    makeForwarder: makeForwarderFor(llm, { localHost, ownsHost: false, log: options.log }),
    makeScorer: await roomScorerMaker({ llm, models, ...dataDirOf(options) }),
    close: async () => localHost.dispose(),
  };
}

const dataDirOf = (options: RoomServicesOptions): { dataDir?: string } => (options.dataDir === undefined ? {} : { dataDir: options.dataDir });

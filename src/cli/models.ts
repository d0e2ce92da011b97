/**
 * The chat models of a CLI run: OpenAI-compatible ones (openai-chat-model.ts) or, with
 * `--provider local --model-file FILE.gguf`, one local model loaded once per process and shared
 * by the roles (local-chat-model.ts; node-llama-cpp is loaded only then). `--reply-grammar on|off`
 * (local models only; default on) enforces the reply contracts with llama.cpp grammars;
 * `--local-threads N` (default 1) sets llama.cpp's CPU threads.
 */
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import type { ChatModel, LlmSettings, Role } from '../llm/interface.ts';
import { createChatModels } from '../llm/openai-chat-model.ts';
import { createSimulatedChatModels, SIMULATED_MODEL, SIMULATED_PROVIDER } from '../llm/simulated-model.ts';
import { describeModel } from '../llm/model-label.ts';
import { createHttpFetch } from './http-fetch.ts';
import type { LocalModelHost } from '../llm/local-chat-model.ts';
import type { UsageMeter } from '../llm/usage-meter.ts';
import { beforeExit } from './exit-hooks.ts';
import { intOption } from './numbers.ts';
import { UsageError } from './usage-error.ts';

/** The preset id of the local provider (CLI only; not a page preset yet). */
export const LOCAL_PROVIDER = 'local';

/** What the CLI knows of a local model run (JSON field `localModel`). */
export interface LocalModelNote {
  /** The model file's name (not its path). */
  file: string;
  /** Tokens of the context opened (from the model file, capped at 8,192). */
  contextSize: number;
  /** Whether the reply contracts were enforced by grammars. */
  replyGrammar: boolean;
  /** llama.cpp CPU threads. */
  threads: number;
  /** Milliseconds the model took to load. */
  loadMs: number;
}

type Flags = Record<string, unknown>;

/** The process's keep-alive fetch for provider calls (http-fetch.ts), shared by every run of it. */
let processFetch: typeof fetch | null = null;
let loaded: { file: string; threads: number; host: Promise<LocalModelHost> } | null = null;

/** The local-model flags, checked. @throws UsageError for a bad --reply-grammar or --local-threads, or one given without --provider local */
export function localFlags(flags: Flags): { modelFile: string; grammar: boolean; threads: number } | null {
  const isLocal = flags.provider === LOCAL_PROVIDER;
  const grammarFlag = flags['reply-grammar'];
  if (!isLocal) {
    if (flags['model-file'] !== undefined) throw new UsageError('--model-file needs --provider local');
    if (grammarFlag !== undefined) throw new UsageError('--reply-grammar applies to --provider local only (OpenAI-compatible providers take no grammar)');
    if (flags['local-threads'] !== undefined) throw new UsageError('--local-threads needs --provider local');
    return null;
  }
  if (typeof flags['model-file'] !== 'string' || flags['model-file'] === '') throw new UsageError('--provider local needs --model-file FILE.gguf');
  if (grammarFlag !== undefined && grammarFlag !== 'on' && grammarFlag !== 'off') throw new UsageError(`--reply-grammar must be on or off, got "${String(grammarFlag)}"`);
  const threads = intOption(typeof flags['local-threads'] === 'string' ? flags['local-threads'] : undefined, 'local-threads', 1, 1, 256);
  return { modelFile: flags['model-file'], grammar: grammarFlag !== 'off', threads };
}

/** `{ replyGrammar }` of a local run's flags (a run's config records it), `{}` for other providers. */
export function replyGrammarOf(flags: Flags): { replyGrammar?: boolean } {
  const local = localFlags(flags);
  return local ? { replyGrammar: local.grammar } : {};
}

/** The loaded local model of this process (loaded on first use). @throws UsageError for a missing file; LocalModelMissingError */
async function localHost(modelFile: string, threads: number): Promise<LocalModelHost> {
  if (loaded && (loaded.file !== modelFile || loaded.threads !== threads)) await closeLocalModel();
  if (!loaded) {
    const info = await stat(modelFile).catch(() => null);
    if (!info?.isFile()) throw new UsageError(`--model-file: no file ${modelFile}`);
    const { loadLocalModel } = await import('../llm/local-chat-model.ts');
    loaded = { file: modelFile, threads, host: loadLocalModel(modelFile, { threads }) };
    beforeExit(closeLocalModel);
    loaded.host.catch(() => { loaded = null; });
  }
  return loaded.host;
}

let simulationAnnounced = false;

/** Says once per process, on stderr (so --json's stdout stays one object), who plays: `Played by the simulated model — not a language model; …`. */
function announceSimulation(): void {
  if (simulationAnnounced) return;
  simulationAnnounced = true;
  process.stderr.write(`${describeModel({ actor: SIMULATED_MODEL, metaAgent: SIMULATED_MODEL, proposer: SIMULATED_MODEL }).sentence}\n`);
}

/**
 * The run's three role models, local, remote or (`--provider simulated`) the simulated model, by the flags.
 * @throws UsageError for bad local flags; LocalModelMissingError when node-llama-cpp is missing
 */
export async function chatModelsFromFlags(flags: Flags, settings: LlmSettings, meter: UsageMeter): Promise<Record<Role, ChatModel>> {
  if (settings.provider.presetId === SIMULATED_PROVIDER) {
    announceSimulation();
    return createSimulatedChatModels(settings, meter);
  }
  const local = localFlags(flags);
  if (!local) return createChatModels(settings, meter, { fetch: (processFetch ??= createHttpFetch()) });
  const host = await localHost(local.modelFile, local.threads);
  const { createLocalChatModels } = await import('../llm/local-chat-model.ts');
  return createLocalChatModels(host, settings, meter, { grammar: local.grammar });
}

/** The local model's context size (tokens) for the flags, or null when the run is not local. */
export async function localContextWindow(flags: Flags): Promise<number | null> {
  const local = localFlags(flags);
  return local ? (await localHost(local.modelFile, local.threads)).contextSize : null;
}

/** The `localModel` note of a local run (null otherwise; loads nothing that is not loaded). */
export async function localModelNote(flags: Flags): Promise<LocalModelNote | null> {
  const local = localFlags(flags);
  if (!local || !loaded) return null;
  const host = await loaded.host;
  return { file: basename(local.modelFile), contextSize: host.contextSize, replyGrammar: local.grammar, threads: local.threads, loadMs: host.loadMs };
}

/** Free the local model, if one was loaded (the CLI calls this before it exits). */
export async function closeLocalModel(): Promise<void> {
  const current = loaded;
  loaded = null;
  if (current) await (await current.host.catch(() => null))?.dispose();
}

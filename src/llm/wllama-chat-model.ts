/**
 * Chat models run in the page on a GGUF file through `@wllama/wllama` (llama.cpp compiled to
 * WebAssembly, running in wllama's own worker, so the main thread stays free) — the only module
 * that imports it, with a dynamic import so the library loads only when this provider is used.
 * Same `ChatModel` contract as the OpenAI-compatible providers and the CLI's local provider
 * (local-chat-model.ts): one call at a time per loaded model, streamed and drained in the
 * background (stream-drain.ts: Stop lets the call go at once, while the worker's request runs on
 * only until wllama cancels it at its next poll, and the next request waits for that), bounded by `requestTimeoutMs`, temperature and max tokens honoured,
 * chat template and context window read from the model file, usage counted by the model's own
 * tokenizer (llama.cpp's figures, never estimated), cost 0, caps enforced, the reply contracts
 * enforced with the grammars of reply-grammars.ts (on by default). DOM-free: the wasm file's URL
 * (and, for tests, the constructor) are injected by the caller.
 */
import type { ChatCompletionChunk, LoadModelParams, Wllama } from '@wllama/wllama';
import { LlmError } from './errors.ts';
import type { ChatMessage, ChatModel, CompleteOptions, Completion, LlmSettings, Role } from './interface.ts';
import { grammarText, replyContractFor, ReplyBudgetError } from './reply-grammars.ts';
import { requestSeed } from './request-seed.ts';
import { serialRoleModels } from './serial-role-models.ts';
import { drain } from './stream-drain.ts';
import type { UsageMeter } from './usage-meter.ts';

/** The part of wllama's `Wllama` class we use (tests inject a stand-in). */
export type WllamaLike = Pick<Wllama, 'loadModel' | 'createChatCompletion' | 'getLoadedContextInfo' | 'getNumThreads' | 'isMultithread' | 'getChatTemplate' | 'exit'>;
/** Builds a wllama instance for the given wasm file URL. */
export type WllamaFactory = (wasmUrl: string) => Promise<WllamaLike>;

/** The wllama module itself (loaded on first use; wllama-model-files.ts uses its cache). */
export function loadWllamaLibrary(): Promise<typeof import('@wllama/wllama')> {
  return import('@wllama/wllama');
}

const defaultFactory: WllamaFactory = async (wasmUrl) => {
  const { Wllama, LoggerWithoutDebug } = await loadWllamaLibrary();
  return new Wllama({ default: wasmUrl }, { logger: LoggerWithoutDebug, suppressNativeLog: true });
};

/** Tokens per second of the last call, from llama.cpp's own timings. */
export interface LocalSpeed {
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
}

/** What the worker is doing, for Settings: a request in it (until wllama has ended or cancelled it) and the tokens it streamed. */
export interface LocalActivity {
  /** True from a request's start until the library has ended it (after Stop: until it cancelled it in the worker). */
  generating: boolean;
  /** Tokens streamed by the worker since the model was loaded (llama.cpp streams one chunk per token), also any after Stop. */
  generatedTokens: number;
  /** True after a stopped request held the worker past `cutAfterMs`: the worker was ended and the model loads again on the next call. */
  workerEnded: boolean;
}

/** A GGUF model loaded in wllama's worker; shared by the three roles of a run. */
export interface BrowserModelHost {
  /** What the model is called in the run's settings (its file name). */
  readonly name: string;
  /** Tokens of the context opened: min(the model's training window, the cap asked for). */
  readonly contextSize: number;
  /** Threads llama.cpp runs on (1 unless the page is cross-origin isolated). */
  readonly threads: number;
  /** True when wllama runs multi-threaded (needs `crossOriginIsolated`). */
  readonly multiThread: boolean;
  /** True when the file carries a chat template (else llama.cpp's default one is used). */
  readonly hasChatTemplate: boolean;
  /** Milliseconds the load took (worker start, wasm, weights, context). */
  readonly loadMs: number;
  /** Speed of the last finished call, null before the first. */
  readonly lastSpeed: LocalSpeed | null;
  /** What the worker is doing now. */
  readonly activity: LocalActivity;
  /** Resolves when no request is left in the worker (a stopped one has been cancelled there, or the worker ended). */
  idle(): Promise<void>;
  /** `idle`, then the model loaded again if its worker was ended after a Stop. @throws Error when that load fails */
  ready(): Promise<void>;
  /** @internal a request was stopped; its worker is ended unless `finished` settles within `cutAfterMs` */
  noteStopped(finished: Promise<void>): void;
  /** @internal a request entered the worker; `finished` settles when the library has ended it */
  noteRequest(finished: Promise<void>): void;
  /** @internal one more token streamed */
  noteToken(): void;
  /** @internal the wllama instance */
  readonly wllama: WllamaLike;
  /** @internal */
  noteSpeed(speed: LocalSpeed): void;
  /** Stop the worker and free the model's memory. */
  dispose(): Promise<void>;
}

/** Options of `loadWllamaModel`. */
export interface LoadWllamaOptions {
  /** The model's name in run settings (its file name). */
  name: string;
  /** URL of wllama's `wllama.wasm` as the page serves it (under the app's base path). */
  wasmUrl: string;
  /** CPU threads wanted (default 1); wllama falls back to 1 when the page is not cross-origin isolated. */
  threads?: number;
  /** Cap on the context opened, tokens (default 8,192, as the CLI). */
  maxContext?: number;
  /** The wllama constructor (default: the real one). */
  create?: WllamaFactory;
  /** Told whenever `activity` changes (a request starts or ends, a token arrives). */
  onActivity?: (activity: LocalActivity) => void;
  /**
   * After Stop (or a timeout), ms the worker may take to cancel the request before it is ended
   * (default 1,000): llama.cpp reads a prompt in batches without looking at cancels, and a batch
   * can take many seconds on a busy CPU. The model then loads again (from its blobs) on the next call.
   */
  cutAfterMs?: number;
}

/**
 * Load a GGUF model (one file, or its shards in order) into wllama's worker.
 * @throws Error naming the model when the file is not a loadable GGUF model
 */
export async function loadWllamaModel(blobs: Blob[], options: LoadWllamaOptions): Promise<BrowserModelHost> {
  const started = performance.now();
  const params: LoadModelParams = { n_ctx: options.maxContext ?? 8192, n_threads: options.threads ?? 1, n_gpu_layers: 0, n_parallel: 1, seed: 1 };
  const open = async (): Promise<WllamaLike> => {
    const instance = await (options.create ?? defaultFactory)(options.wasmUrl);
    try {
      await instance.loadModel(blobs, params);
    } catch (error) {
      await instance.exit().catch(() => undefined);
      throw new Error(`cannot load the local model ${options.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return instance;
  };
  let wllama = await open();
  const info = wllama.getLoadedContextInfo();
  // A damaged file can load with no context at all; it could not answer a single call.
  if (!(info.n_ctx > 0)) {
    await wllama.exit().catch(() => undefined);
    throw new Error(`cannot load the local model ${options.name}: it loaded with a context of ${info.n_ctx} tokens, so the file is damaged or not a chat model; remove it and load it again`);
  }
  let lastSpeed: LocalSpeed | null = null;
  let activity: LocalActivity = { generating: false, generatedTokens: 0, workerEnded: false };
  let busy: Promise<void> = Promise.resolve();
  let reloading: Promise<void> | null = null;
  const tell = (next: Partial<LocalActivity>): void => {
    activity = { ...activity, ...next };
    options.onActivity?.(activity);
  };
  return {
    name: options.name,
    contextSize: Math.min(info.n_ctx, info.n_ctx_train > 0 ? info.n_ctx_train : info.n_ctx),
    threads: wllama.getNumThreads(),
    multiThread: wllama.isMultithread(),
    hasChatTemplate: wllama.getChatTemplate() !== null,
    loadMs: Math.round(performance.now() - started),
    get lastSpeed() {
      return lastSpeed;
    },
    get wllama() {
      return wllama;
    },
    noteSpeed: (speed) => {
      lastSpeed = speed;
    },
    get activity() {
      return activity;
    },
    idle: () => busy,
    ready: async () => {
      await busy;
      if (!activity.workerEnded) return;
      reloading ??= open().then((instance) => {
        wllama = instance;
        tell({ workerEnded: false });
      }).finally(() => (reloading = null));
      await reloading;
    },
    noteRequest: (finished) => {
      tell({ generating: true });
      busy = finished.then(() => tell({ generating: false }));
    },
    noteStopped: (finished) => {
      let settled = false;
      void finished.then(() => (settled = true));
      setTimeout(() => {
        if (settled || activity.workerEnded) return;
        // Still in the worker (llama.cpp reads a prompt batch without looking at cancels): end the worker.
        tell({ workerEnded: true });
        void wllama.exit().catch(() => undefined);
      }, options.cutAfterMs ?? 1000);
    },
    noteToken: () => tell({ generatedTokens: activity.generatedTokens + 1 }),
    dispose: () => wllama.exit(),
  };
}

/** Options of the page's local chat models. */
export interface WllamaModelOptions {
  /** Enforce the reply contracts with grammars (default true). */
  grammar?: boolean;
}

/**
 * The three role models of a run on one loaded model: calls run one at a time (one worker),
 * each within `settings.requestTimeoutMs`; cost is always 0.
 * @throws nothing; each `complete` throws LlmError ('aborted' on Stop, 'timeout', 'bad_request'
 *   when the prompt does not fit the context or a role's max tokens cannot hold its reply grammar,
 *   'bad_response' for an empty reply, 'server' for a llama.cpp failure; 'bad_request' too when a
 *   role's raised budget went on reasoning: serial-role-models.ts) or BudgetReachedError.
 */
export function createWllamaChatModels(host: BrowserModelHost, settings: LlmSettings, meter: UsageMeter, options: WllamaModelOptions = {}): Record<Role, ChatModel> {
  const room = () => (settings.caps.maxTokens === null ? null : settings.caps.maxTokens - meter.totalTokens);
  return serialRoleModels(settings, (role, messages, callOptions, grammar, maxTokens) => completeInPage(host, settings, role, maxTokens, messages, callOptions, meter, grammar), options.grammar ?? true, room);
}

async function completeInPage(host: BrowserModelHost, settings: LlmSettings, role: Role, maxTokens: number, messages: ChatMessage[], options: CompleteOptions, meter: UsageMeter, useGrammar: boolean): Promise<Completion> {
  meter.assertWithinCaps();
  if (options.signal?.aborted) throw new LlmError('aborted', 'The request was stopped before it was sent.');
  const roleSettings = settings.roles[role];
  const contract = useGrammar ? replyContractFor(role, messages) : null;
  let grammar: string | null = null;
  try {
    // The grammar of this call's max tokens: its longest reply fits them (reply-grammars.ts).
    grammar = contract ? grammarText(contract, maxTokens) : null;
  } catch (error) {
    if (error instanceof ReplyBudgetError) throw new LlmError('bad_request', error.message);
    throw error;
  }
  const controller = new AbortController();
  let timedOut = false;
  const forward = (): void => controller.abort();
  options.signal?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.requestTimeoutMs);
  const started = performance.now();
  let content = '';
  let finish: string | null = null;
  let last: ChatCompletionChunk | null = null;
  let inWorker: Promise<void> | null = null;
  try {
    // A request stopped before is cancelled in the worker first (one request at a time there).
    await Promise.race([host.ready(), new Promise((_, reject) => (controller.signal.aborted ? reject(new Error('aborted')) : controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })))]);
    const stream = await host.wllama.createChatCompletion({
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      stream: true,
      max_tokens: maxTokens,
      ...(roleSettings.temperature === null ? {} : { temperature: roleSettings.temperature }),
      ...(grammar === null ? {} : { grammar }),
      seed: requestSeed(messages, options.sampleSalt ?? 0),
      abortSignal: controller.signal,
      cache_prompt: true,
    });
    const drained = drain(stream, (chunk) => {
      if (chunk.choices[0]?.delta.content) host.noteToken();
    });
    host.noteRequest(drained.finished);
    inWorker = drained.finished;
    for await (const chunk of drained.read(controller.signal)) {
      last = chunk;
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? '';
      finish = choice?.finish_reason ?? finish;
    }
  } catch (error) {
    if (inWorker && controller.signal.aborted) host.noteStopped(inWorker);
    if (options.signal?.aborted) throw new LlmError('aborted', 'The request was stopped.');
    if (timedOut) throw new LlmError('timeout', `No complete answer from the local model within ${settings.requestTimeoutMs} ms.`);
    const message = error instanceof Error ? error.message : String(error);
    const kind = (error as { type?: string }).type === 'kv_cache_full' || /context|kv cache/i.test(message) ? 'bad_request' : 'server';
    throw new LlmError(kind, kind === 'bad_request' ? `The prompt does not fit the local model's context of ${host.contextSize} tokens: ${message}` : `The local model failed: ${message}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forward);
  }
  const latencyMs = Math.round(performance.now() - started);
  const timings = last?.timings;
  const usage = {
    promptTokens: last?.usage?.prompt_tokens ?? (timings ? timings.prompt_n + timings.cache_n : 0),
    completionTokens: last?.usage?.completion_tokens ?? timings?.predicted_n ?? 0,
    reasoningTokens: 0,
    latencyMs,
    costUsd: 0,
  };
  if (timings) host.noteSpeed({ promptTokensPerSecond: timings.prompt_per_second, generationTokensPerSecond: timings.predicted_per_second });
  const finishReason = finish === 'length' ? 'length' : 'stop';
  meter.record(role, usage);
  if (content.trim() === '' && finishReason !== 'length') throw new LlmError('bad_response', 'The local model gave an empty reply.');
  return { content, finishReason, model: roleSettings.model, usage };
}

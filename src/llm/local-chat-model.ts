/**
 * Chat models run locally on a GGUF file through `node-llama-cpp` (llama.cpp's Node binding) —
 * the only module that imports it, and only when `--provider local` is used: the package is not
 * part of the default install (with its GPU builds it adds ~730 MB), so it is loaded with a
 * dynamic import and a missing package is a clear `LocalModelMissingError` naming the install
 * command. Same `ChatModel` contract as the OpenAI-compatible providers: one call at a time per
 * loaded model, abortable at once (Stop) and bounded by `requestTimeoutMs`, temperature and max
 * tokens honoured, chat template and context window read from the model file, usage counted by
 * the model's own tokenizer (never estimated), cost 0, caps enforced. The reply contracts can be
 * enforced with llama.cpp grammars (reply-grammars.ts). Node only.
 */
import { MetattlError } from '../common/errors.ts';
import { LlmError } from './errors.ts';
import type { ChatMessage, ChatModel, CompleteOptions, Completion, LlmSettings, Role, RoleSettings } from './interface.ts';
import { grammarText, replyContractFor, ReplyBudgetError, type ReplyContract } from './reply-grammars.ts';
import { requestSeed } from './request-seed.ts';
import { serialRoleModels } from './serial-role-models.ts';
import type { UsageMeter } from './usage-meter.ts';

/** The version we test with; docs/local-models.md ("A local model in the CLI") gives the install command. */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';
/** The command that installs the binding beside the project (not saved in package.json). */
export const LOCAL_INSTALL_COMMAND = `npm install --no-save node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`;

/** `--provider local` was asked for but node-llama-cpp is not installed. */
export class LocalModelMissingError extends MetattlError {
  constructor() {
    super('local_model_missing', `--provider local needs the package node-llama-cpp, which the default install leaves out (it adds ~730 MB). Install it with: ${LOCAL_INSTALL_COMMAND}`);
    this.name = 'LocalModelMissingError';
  }
}

/* The few node-llama-cpp shapes we use (typed here: the package is optional, so tsc must not need it). */
interface Tokenizer { (text: string): unknown[] }
interface LlamaModelLike {
  readonly trainContextSize: number;
  readonly tokenizer: Tokenizer;
  tokenize(text: string): unknown[];
  createContext(options: { contextSize?: number; sequences?: number; threads?: number }): Promise<LlamaContextLike>;
  dispose(): Promise<void>;
}
interface LlamaContextLike { readonly contextSize: number; getSequence(): unknown; dispose(): Promise<void> }
type HistoryItem = { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] };
interface LlamaChatLike {
  readonly chatWrapper: { generateContextState(o: { chatHistory: HistoryItem[] }): { contextText: { tokenize(t: Tokenizer): unknown[] } } };
  generateResponse(history: HistoryItem[], options: Record<string, unknown>): Promise<{ response: string; metadata: { stopReason: string } }>;
  dispose(): void;
}
interface NodeLlamaCpp {
  getLlama(options?: Record<string, unknown>): Promise<{ loadModel(o: { modelPath: string }): Promise<LlamaModelLike>; createGrammar(o: { grammar: string }): Promise<unknown> }>;
  LlamaChat: new (o: { contextSequence: unknown }) => LlamaChatLike;
}

/** A GGUF model loaded once, with one context; shared by the roles of a run. */
export interface LocalModelHost {
  /** The model file, as given. */
  readonly modelFile: string;
  /** Tokens of the context we opened (the model's training window, capped by `maxContext`). */
  readonly contextSize: number;
  /** Milliseconds the load took (file read, weights, context). */
  readonly loadMs: number;
  /** Count tokens with the model's own tokenizer. */
  countTokens(text: string): number;
  /** Free the model and its context. */
  dispose(): Promise<void>;
  /** @internal used by createLocalChatModels */
  readonly chat: LlamaChatLike;
  /** @internal the model's tokenizer, special tokens included (for a templated prompt's tokens) */
  readonly tokenizer: Tokenizer;
  /** @internal the llama.cpp grammar of `contract` for a call of `maxTokens` (reply-grammars.ts), made once per text */
  grammar(contract: ReplyContract, maxTokens: number): Promise<unknown>;
}

const moduleName = 'node-llama-cpp';

async function loadBinding(name: string): Promise<NodeLlamaCpp> {
  try {
    return (await import(/* @vite-ignore */ name)) as NodeLlamaCpp;
  } catch (error) {
    if (error instanceof Error && /Cannot find (package|module)|ERR_MODULE_NOT_FOUND/.test(`${(error as { code?: string }).code ?? ''} ${error.message}`)) throw new LocalModelMissingError();
    throw error;
  }
}

/**
 * Load a GGUF model for local chat.
 * @param modelFile path of a .gguf file (chat template and context window are read from it)
 * @param options.maxContext cap on the context opened, tokens (default 8,192: memory stays small)
 * @param options.packageName the binding's package (default node-llama-cpp; tests name a missing one)
 * @param options.threads CPU threads (default 1: on a busy machine llama.cpp's spinning threads
 *   slow each other down — measured on our 2-core CI, 2 threads were 20× slower than 1 while
 *   other jobs ran; see `npm run bench`)
 * @throws LocalModelMissingError when node-llama-cpp is not installed; Error naming the file when
 *   it is missing or not a loadable GGUF model
 */
export async function loadLocalModel(modelFile: string, options: { maxContext?: number; threads?: number; packageName?: string } = {}): Promise<LocalModelHost> {
  const binding = await loadBinding(options.packageName ?? moduleName);
  const started = performance.now();
  const threads = options.threads ?? 1;
  const llama = await binding.getLlama({ gpu: false, logLevel: 'error', maxThreads: threads });
  let model: LlamaModelLike;
  try {
    model = await llama.loadModel({ modelPath: modelFile });
  } catch (error) {
    throw new Error(`cannot load the local model ${modelFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const context = await model.createContext({ contextSize: Math.min(model.trainContextSize, options.maxContext ?? 8192), sequences: 1, threads });
  const chat = new binding.LlamaChat({ contextSequence: context.getSequence() });
  const grammars = new Map<string, Promise<unknown>>();
  return {
    modelFile,
    contextSize: context.contextSize,
    loadMs: Math.round(performance.now() - started),
    countTokens: (text) => model.tokenize(text).length,
    chat,
    tokenizer: model.tokenizer,
    grammar: (contract, maxTokens) => {
      const text = grammarText(contract, maxTokens);
      if (!grammars.has(text)) grammars.set(text, llama.createGrammar({ grammar: text }));
      return grammars.get(text)!;
    },
    dispose: async () => {
      chat.dispose();
      await context.dispose();
      await model.dispose();
    },
  };
}

/** Options of the local chat models. */
export interface LocalModelOptions {
  /** Enforce the reply contracts with grammars (default true). */
  grammar?: boolean;
}

/**
 * The three role models of a run on one loaded local model: calls run one at a time (one
 * context), each within `settings.requestTimeoutMs`; cost is always 0.
 * Each grammar-bound call gets the grammar of its role's max tokens, whose longest reply fits them
 * (reply-grammars.ts). A reply that spent the whole budget on reasoning raises the role's budget
 * once, then stops the run (serial-role-models.ts).
 * @throws nothing; each `complete` throws LlmError ('aborted', 'timeout', 'bad_response' for an
 *   empty reply, 'bad_request' when a role's max tokens cannot hold its reply grammar or its
 *   raised budget too went on reasoning, 'server' for a llama.cpp failure) or BudgetReachedError.
 */
export function createLocalChatModels(host: LocalModelHost, settings: LlmSettings, meter: UsageMeter, options: LocalModelOptions = {}): Record<Role, ChatModel> {
  const room = () => (settings.caps.maxTokens === null ? null : settings.caps.maxTokens - meter.totalTokens);
  return serialRoleModels(settings, (role, messages, callOptions, grammar, maxTokens) => completeLocal(host, settings, role, { ...settings.roles[role], maxTokens }, messages, callOptions, meter, grammar), options.grammar ?? true, room);
}

/** A role's max tokens too small for its reply grammar: a request the run cannot make (bad_request, not retried). */
function budgetError(error: unknown): never {
  if (error instanceof ReplyBudgetError) throw new LlmError('bad_request', error.message);
  throw error;
}

/** Our messages as llama.cpp chat history (consecutive model turns are kept apart). */
function history(messages: readonly ChatMessage[]): HistoryItem[] {
  return messages.map((m) => (m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content }));
}

async function completeLocal(
  host: LocalModelHost, settings: LlmSettings, role: Role, roleSettings: RoleSettings, messages: ChatMessage[],
  options: CompleteOptions, meter: UsageMeter, useGrammar: boolean,
): Promise<Completion> {
  meter.assertWithinCaps();
  if (options.signal?.aborted) throw new LlmError('aborted', 'The request was stopped before it was sent.');
  const contract = useGrammar ? replyContractFor(role, messages) : null;
  const grammar = contract ? await host.grammar(contract, roleSettings.maxTokens).catch(budgetError) : undefined;
  const chatHistory = history(messages);
  const controller = new AbortController();
  let timedOut = false;
  const forward = () => controller.abort();
  options.signal?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.requestTimeoutMs);
  const started = performance.now();
  let reply: { response: string; metadata: { stopReason: string } };
  try {
    reply = await host.chat.generateResponse(chatHistory, {
      maxTokens: roleSettings.maxTokens,
      ...(roleSettings.temperature === null ? {} : { temperature: roleSettings.temperature }),
      ...(grammar ? { grammar } : {}),
      seed: requestSeed(chatHistory, options.sampleSalt ?? 0),
      signal: controller.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw new LlmError('aborted', 'The request was stopped.');
    if (timedOut) throw new LlmError('timeout', `No complete answer from the local model within ${settings.requestTimeoutMs} ms.`);
    throw new LlmError('server', `The local model failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forward);
  }
  const latencyMs = Math.round(performance.now() - started);
  const promptTokens = promptTokenCount(host, chatHistory);
  const completionTokens = host.countTokens(reply.response);
  const finishReason = reply.metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
  const usage = { promptTokens, completionTokens, reasoningTokens: 0, latencyMs, costUsd: 0 };
  if (reply.response.trim() === '' && finishReason !== 'length') {
    meter.record(role, usage);
    throw new LlmError('bad_response', 'The local model gave an empty reply.');
  }
  meter.record(role, usage);
  return { content: reply.response, finishReason, model: roleSettings.model, usage };
}

/** Prompt tokens as the model sees them: the history rendered by the file's chat template. */
function promptTokenCount(host: LocalModelHost, chatHistory: HistoryItem[]): number {
  try {
    return host.chat.chatWrapper.generateContextState({ chatHistory }).contextText.tokenize(host.tokenizer).length;
  } catch {
    return chatHistory.reduce((n, item) => n + host.countTokens(item.type === 'model' ? item.response.join('') : item.text), 0);
  }
}

/**
 * The forwarder's answer from a model run in the room server's process (`metattl room --provider
 * local --model-file F.gguf`, llm/local-chat-model.ts) in OpenAI's response shapes: a
 * `chat.completion` object, or for `stream: true` an SSE stream (a role chunk, the reply's chunk,
 * the finish chunk, the usage chunk, `[DONE]`). One call at a time on the loaded model; usage is the
 * model's own token count (never estimated).
 */
import type { ServerResponse } from 'node:http';
import pLimit from 'p-limit';
import { MetattlError } from '../common/errors.ts';
import { LlmError } from '../llm/errors.ts';
import type { ChatMessage, LlmSettings } from '../llm/interface.ts';
import { createLocalChatModels, type LocalModelHost } from '../llm/local-chat-model.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import type { CallPlan } from './forwarder-plan.ts';
import type { Refusal } from './forwarder-refusals.ts';
import type { Relayed } from './forwarder-upstream.ts';

/** One reply of the local model. */
export interface LocalReply {
  content: string;
  /** 'stop' or 'length'. */
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
}

/** A model answered in this process. */
export interface LocalChat {
  /** One completion of at most `maxTokens` tokens. @throws LlmError (the model failed, or `signal` aborted it) */
  complete(messages: ChatMessage[], options: { maxTokens: number; temperature: number | null; signal: AbortSignal }): Promise<LocalReply>;
  close?(): Promise<void>;
}

/** The room's local model as the forwarder's upstream. */
export interface LocalUpstream {
  kind: 'local';
  /** The model's name (what `/v1/models` lists), one entry. */
  models: string[];
  chat: LocalChat;
}

/** Completion tokens of a local reply when the request names no limit and no cap bounds it. */
export const DEFAULT_LOCAL_MAX_TOKENS = 1024;

/** The most completion tokens one call may ask of the room's one local model: the largest budget
 * the page asks (its meta-agent's, 4,096), so `max_tokens: 100000` cannot hold the model for long. */
export const LOCAL_MAX_REPLY_TOKENS = 4096;

/** The longest one call may generate on the room's one local model, ms (waiting its turn not
 * counted): every other student and the scoring wait meanwhile. */
export const LOCAL_CALL_MAX_MS = 120_000;

/** A time limit in words: "300 ms", "2 min", "90 s". */
const durationWords = (ms: number): string => (ms < 1000 ? `${ms} ms` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`);

/** A local call that failed after it had its turn on the model (it held the room's model
 * meanwhile): `local_turn_timeout` when it ran out of its time, else `local_turn_failed`. */
export class LocalTurnError extends MetattlError {
  override readonly name = 'LocalTurnError';
  constructor(timedOut: boolean, message: string) {
    super(timedOut ? 'local_turn_timeout' : 'local_turn_failed', message);
  }
}

/**
 * The loaded model `host` as a LocalChat: one call at a time, no reply grammar (a student's
 * free chat), each call generating for at most min(`settings.requestTimeoutMs`, LOCAL_CALL_MAX_MS)
 * once its turn came; a failure after that is a LocalTurnError (the call held the model). `close`
 * frees the model unless `ownsHost` is false (another service of the room shares it and frees it).
 */
export function localChatOf(host: LocalModelHost, settings: LlmSettings, ownsHost = true): LocalChat {
  const limit = pLimit(1);
  const model = settings.roles.actor.model;
  return {
    complete: (messages, options) => limit(async () => {
      if (options.signal.aborted) throw new LlmError('aborted', 'The request was stopped before its turn on the model.');
      const role = { model, temperature: options.temperature, maxTokens: options.maxTokens };
      const callSettings: LlmSettings = {
        ...settings, requestTimeoutMs: Math.min(settings.requestTimeoutMs, LOCAL_CALL_MAX_MS), caps: { maxUsd: null, maxTokens: null }, roles: { actor: role, metaAgent: role, proposer: role },
      };
      const meter = new UsageMeter(callSettings.caps, {});
      try {
        const reply = await createLocalChatModels(host, callSettings, meter, { grammar: false }).actor.complete(messages, { signal: options.signal });
        return { content: reply.content, finishReason: reply.finishReason, promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens };
      } catch (error) {
        const timedOut = error instanceof LlmError && error.kind === 'timeout';
        throw new LocalTurnError(timedOut, timedOut ? `it did not finish within ${durationWords(callSettings.requestTimeoutMs)}, the longest one call may hold the room's model` : error instanceof Error ? error.message : String(error));
      }
    }),
    close: () => (ownsHost ? host.dispose() : Promise.resolve()),
  };
}

let served = 0;

/** Answer `plan` from the local model in OpenAI's shape (JSON or SSE); a model failure is a 502 refusal. */
export async function answerLocal(upstream: LocalUpstream, plan: CallPlan, res: ServerResponse, signal: AbortSignal): Promise<Relayed | Refusal> {
  const temperature = typeof plan.body.temperature === 'number' ? plan.body.temperature : null;
  let reply: LocalReply;
  try {
    reply = await upstream.chat.complete(plan.messages, { maxTokens: Math.min(plan.maxTokens ?? DEFAULT_LOCAL_MAX_TOKENS, LOCAL_MAX_REPLY_TOKENS), temperature, signal });
  } catch (error) {
    const words = (error instanceof Error ? error.message : String(error)).replace(/[.\s]+$/, '');
    const refusal: Refusal = { status: 502, type: 'upstream_error', code: error instanceof LocalTurnError && error.code === 'local_turn_timeout' ? 'local_model_timeout' : 'local_model_failed', message: `The room's model gave no answer: ${words.slice(0, 300)}. Ask for a shorter reply (max_tokens) or try again; if it keeps failing, tell the teacher.` };
    // A call that had its turn held the one model: it counts against the caps (its prompt, estimated).
    return error instanceof LocalTurnError ? { ...refusal, heldModel: true } : refusal;
  }
  const id = `chatcmpl-room-${++served}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens, total_tokens: reply.promptTokens + reply.completionTokens };
  const relayed: Relayed = { reported: { promptTokens: reply.promptTokens, completionTokens: reply.completionTokens, reasoningTokens: 0 }, replyChars: reply.content.length, complete: true };
  if (!plan.stream) {
    const body = JSON.stringify({ id, object: 'chat.completion', created, model: plan.model, choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: reply.finishReason ?? 'stop' }], usage });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    res.end(body);
    return relayed;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: plan.model, choices, ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  res.end(
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]) +
      chunk([{ index: 0, delta: { content: reply.content }, finish_reason: null }]) +
      chunk([{ index: 0, delta: {}, finish_reason: reply.finishReason ?? 'stop' }]) +
      chunk([], { usage }) +
      'data: [DONE]\n\n',
  );
  return relayed;
}

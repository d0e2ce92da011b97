/**
 * The forwarder's answer from a model run in the room server's process (`metattl room --provider
 * local --model-file F.gguf`, llm/local-chat-model.ts) in OpenAI's response shapes: a
 * `chat.completion` object, or for `stream: true` an SSE stream (a role chunk, the reply's chunk,
 * the finish chunk, the usage chunk, `[DONE]`). One call at a time on the loaded model; usage is the
 * model's own token count (never estimated).
 */
import type { ServerResponse } from 'node:http';
import pLimit from 'p-limit';
import { LlmError } from '../llm/errors.ts';
import type { ChatMessage, LlmSettings } from '../llm/interface.ts';
import { createLocalChatModels, type LocalModelHost } from '../llm/local-chat-model.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import type { CallPlan } from './forwarder-plan.ts';
import { upstreamFault, type Refusal } from './forwarder-refusals.ts';
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

/**
 * The loaded model `host` as a LocalChat: one call at a time, no reply grammar (a student's
 * free chat), each call within `settings.requestTimeoutMs`; `close` frees the model unless
 * `ownsHost` is false (another service of the room shares it and frees it).
 */
export function localChatOf(host: LocalModelHost, settings: LlmSettings, ownsHost = true): LocalChat {
  const limit = pLimit(1);
  const model = settings.roles.actor.model;
  return {
    complete: (messages, options) => limit(async () => {
      const role = { model, temperature: options.temperature, maxTokens: options.maxTokens };
      const callSettings: LlmSettings = { ...settings, caps: { maxUsd: null, maxTokens: null }, roles: { actor: role, metaAgent: role, proposer: role } };
      const meter = new UsageMeter(callSettings.caps, {});
      const reply = await createLocalChatModels(host, callSettings, meter, { grammar: false }).actor.complete(messages, { signal: options.signal });
      return { content: reply.content, finishReason: reply.finishReason, promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens };
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
    reply = await upstream.chat.complete(plan.messages, { maxTokens: plan.maxTokens ?? DEFAULT_LOCAL_MAX_TOKENS, temperature, signal });
  } catch (error) {
    return upstreamFault(null, error instanceof LlmError || error instanceof Error ? error.message : String(error));
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

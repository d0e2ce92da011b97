/**
 * The room's OpenAI-compatible forwarder behind `/v1/*`: a student's page calls it with its
 * participant token as the API key, and it calls the teacher's provider (or the room's local
 * model) with the teacher's key, which never leaves the server — not in a reply's body or headers,
 * not in an error (the provider's words are scrubbed, common/secrets.ts), not in a log line.
 *
 * `GET /v1/models` lists the room's models. `POST /v1/chat/completions`, in order: the participant
 * is known, not removed, not paused (one or all), inside the time window, under its caps with its
 * calls in flight counted (else a refusal in OpenAI's error shape, forwarder-refusals.ts); the model
 * is pinned to the room's, the completion bounded by what the token and USD caps leave, and that
 * bound reserved until the call ends (so concurrent calls never pass a cap by more than the local
 * estimate's error); the reply is relayed (JSON, or SSE as it streams, asking the provider for its
 * usage chunk, and sending again without a parameter the forwarder set when the provider refuses
 * it: `stream_options`, or `max_tokens` renamed `max_completion_tokens`); the call's usage is added to the participant (`ForwarderDeps.addUsage`: calls,
 * tokens, USD or null when the model has no price, `estimatedCalls` when the provider sent no
 * believable usage). A failed call (the provider's error, 502) adds nothing, except on the room's
 * local model once the call had its turn: it held the one model, so it counts (its prompt, estimated).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { registerSecret, scrubText } from '../common/secrets.ts';
import { pricesAtProvider } from '../llm/defaults.ts';
import type { LlmSettings, ModelPrice } from '../llm/interface.ts';
import type { LocalModelHost } from '../llm/local-chat-model.ts';
import { answerLocal, localChatOf, type LocalUpstream } from './forwarder-local.ts';
import { accountCall, adaptedBody, planCall, type CallPlan } from './forwarder-plan.ts';
import { accessRefusal, badRequest, capRefusal, upstreamFault, writeRefusal, type InFlight, type Refusal } from './forwarder-refusals.ts';
import { createUpstreamClient, errorReply, relayJson, relayStream, type HttpUpstream, type Relayed, type UpstreamClient } from './forwarder-upstream.ts';
import type { ForwarderDeps, RoomForwarder } from './seams.ts';

export type { HttpUpstream } from './forwarder-upstream.ts';
export type { LocalChat, LocalReply, LocalUpstream } from './forwarder-local.ts';

/** Where the forwarder sends calls. */
export type ForwarderUpstream = HttpUpstream | LocalUpstream;

/** What the forwarder needs beside the server's `ForwarderDeps`: the upstream and its prices. */
export interface ForwarderConfig {
  upstream: ForwarderUpstream;
  /** USD per million tokens by model at this provider (`pricesAtProvider`); a model without a row costs null, never 0. */
  prices: Record<string, ModelPrice>;
  /** The clock, ms since the epoch (default Date.now; tests move it). */
  now?: () => number;
  /** Where the forwarder's log lines go (already scrubbed; default nowhere). */
  log?: (line: string) => void;
}

/** Largest request body a student may send, bytes. */
export const MAX_REQUEST_BYTES = 2 * 1024 * 1024;

/**
 * The forwarder's configuration from the CLI's LLM settings (the usual provider flags): the
 * provider's base URL and key, the room's models (the roles' models, the actor's first — what a
 * student may pick) and the prices that hold at that provider.
 */
export function forwarderConfigOf(settings: LlmSettings): Pick<ForwarderConfig, 'upstream' | 'prices'> {
  const models = [...new Set([settings.roles.actor.model, settings.roles.metaAgent.model, settings.roles.proposer.model])];
  return { upstream: { kind: 'http', baseUrl: settings.provider.baseUrl, apiKey: settings.provider.apiKey, models }, prices: pricesAtProvider(settings.provider, settings.prices) };
}

/**
 * The forwarder's configuration for a model loaded in this process (`--provider local`): its calls
 * cost 0. `ownsHost` false: the forwarder's `close` leaves the model loaded (a shared host).
 */
export function localForwarderConfigOf(host: LocalModelHost, settings: LlmSettings, ownsHost = true): Pick<ForwarderConfig, 'upstream' | 'prices'> {
  const model = settings.roles.actor.model;
  return { upstream: { kind: 'local', models: [model], chat: localChatOf(host, settings, ownsHost) }, prices: { [model]: { inputPerMTokUsd: 0, outputPerMTokUsd: 0 } } };
}

/**
 * What `metattl room` injects as `RoomServerOptions.makeForwarder`, from the teacher's settings
 * (`llmSettingsFromFlags`): the OpenAI-compatible provider they name, or with `--provider local`
 * the model `localHost` already loaded (`loadLocalModel`; the caller frees it, or with `ownsHost`
 * the forwarder's `close` does). Logs
 * once each room model that has no price at the provider (its cost counts as unknown, so a USD
 * cap cannot hold for it: the token cap bounds it).
 * @throws Error when the settings name the local provider and no `localHost` is given, or a
 *   provider without an http(s) address (the simulated model runs in the page, not behind a room)
 */
export function makeForwarderFor(llm: LlmSettings, options: { localHost?: LocalModelHost; ownsHost?: boolean; log?: (line: string) => void } = {}): (deps: ForwarderDeps) => RoomForwarder {
  const local = llm.provider.presetId === 'local';
  if (local && !options.localHost) throw new Error('the room forwarder needs the loaded local model (loadLocalModel) for --provider local');
  if (!local && !/^https?:\/\//i.test(llm.provider.baseUrl)) throw new Error(`the room forwards to an OpenAI-compatible server (an http or https base URL) or a local model, not to ${llm.provider.baseUrl}`);
  const config = local ? localForwarderConfigOf(options.localHost!, llm, options.ownsHost ?? false) : forwarderConfigOf(llm);
  for (const model of config.upstream.models.filter((m) => !(m in config.prices))) {
    options.log?.(`the model ${model} has no price at this provider: students' calls count tokens but no dollars (add --price ${model}=IN/OUT for a USD cap to hold).`);
  }
  return (deps) => createForwarder({ ...deps, ...config, ...(options.log ? { log: options.log } : {}) });
}

/** The request's body parsed, or a refusal when it is over MAX_REQUEST_BYTES (413) or not JSON (400). */
function readJson(req: IncomingMessage): Promise<{ value: unknown } | { refusal: Refusal }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_REQUEST_BYTES) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return resolve({ refusal: badRequest(`The request is over ${MAX_REQUEST_BYTES / 1024 / 1024} MB.`, 413) });
      try {
        resolve({ value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ refusal: badRequest('The request body is not JSON.') });
      }
    });
    const cut = (): void => resolve({ refusal: badRequest('The request was cut off.') });
    req.on('error', cut);
    req.on('close', () => {
      if (!req.complete) cut();
    });
  });
}

/** Our own outcomes: a plan or a relayed reply, or a refusal (the only one with a `status`). */
const isRefusal = <T extends object>(v: T | Refusal): v is Refusal => 'status' in v;

/** `GET /v1/models`: the room's models in OpenAI's list shape, each with its `price` (USD per
 * million tokens, `ModelPrice`) when the room knows it, so the page estimates what it spends of its caps. */
function writeModels(res: ServerResponse, models: readonly string[], prices: Record<string, ModelPrice>): void {
  const body = JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'room', ...(prices[id] ? { price: prices[id] } : {}) })) });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * The forwarder over the server's `deps` and the teacher's upstream. Registers the teacher's key
 * for scrubbing (common/secrets.ts). `handle` never rejects: every fault is answered.
 */
export function createForwarder(deps: ForwarderDeps & ForwarderConfig): RoomForwarder {
  const { upstream } = deps;
  if (upstream.kind === 'http') registerSecret(upstream.apiKey);
  const client: UpstreamClient | null = upstream.kind === 'http' ? createUpstreamClient(upstream) : null;
  const now = deps.now ?? Date.now;
  const inFlight = new Map<string, InFlight>();
  const held = (id: string): InFlight => inFlight.get(id) ?? { calls: 0, tokens: 0, usd: 0 };
  const hold = (id: string, r: InFlight, sign: 1 | -1): void => {
    const h = held(id);
    const next = { calls: h.calls + sign * r.calls, tokens: h.tokens + sign * r.tokens, usd: h.usd + sign * r.usd };
    if (next.calls <= 0) inFlight.delete(id);
    else inFlight.set(id, next);
  };

  /** Send `plan` upstream and relay its answer; a refusal when the provider failed. */
  const forward = async (plan: CallPlan, res: ServerResponse, signal: AbortSignal): Promise<Relayed | Refusal> => {
    if (upstream.kind === 'local') return answerLocal(upstream, plan, res, signal);
    let up: IncomingMessage;
    let body = plan.body;
    // A parameter the forwarder sets may be refused: sent again adapted (at most twice).
    for (let attempt = 0; ; attempt++) {
      try {
        up = await client!.post('/chat/completions', JSON.stringify(body), signal);
      } catch (error) {
        return upstreamFault(null, scrubText(error instanceof Error ? error.message : String(error)));
      }
      const status = up.statusCode ?? 500;
      if (status < 400) break;
      const refusal = await errorReply(up, scrubText);
      const next = attempt < 2 && (status === 400 || status === 422) ? adaptedBody(body, refusal.message) : null;
      if (next === null) return refusal;
      body = next;
    }
    if (/text\/event-stream/i.test(up.headers['content-type'] ?? '')) return relayStream(up, res, scrubText);
    return relayJson(up, res, scrubText);
  };

  const chat = async (req: IncomingMessage, res: ServerResponse, participantId: string): Promise<void> => {
    const read = await readJson(req);
    if ('refusal' in read) return writeRefusal(res, read.refusal);
    // From here to the reservation nothing awaits: no other call of this participant can slip in.
    const participant = deps.participant(participantId);
    const refusal = accessRefusal(participant, deps.settings(), now()) ?? capRefusal(participant!, held(participantId));
    if (refusal) return writeRefusal(res, refusal);
    const plan = planCall(read.value, upstream.models, deps.prices, participant!, held(participantId));
    if (isRefusal(plan)) return writeRefusal(res, plan);
    hold(participantId, plan.reserved, 1);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    try {
      const outcome = await forward(plan, res, controller.signal);
      if (isRefusal(outcome)) {
        deps.log?.(scrubText(`forwarder: ${participantId}'s call failed: ${outcome.message}`));
        if (outcome.heldModel) deps.addUsage(participantId, accountCall(plan, null, 0, deps.prices[plan.model] ?? null).usage);
        return writeRefusal(res, outcome);
      }
      const account = accountCall(plan, outcome.reported, outcome.replyChars, deps.prices[plan.model] ?? null);
      deps.addUsage(participantId, account.usage);
      if (account.estimated) deps.log?.(`forwarder: ${participantId}'s call to ${plan.model}: ${account.usage.tokens} tokens (an estimate: the provider sent no usable usage)`);
    } finally {
      hold(participantId, plan.reserved, -1);
    }
  };

  return {
    unpricedModels: upstream.models.filter((m) => !(m in deps.prices)),
    async handle(req, res, participantId) {
      const path = (req.url ?? '').split('?')[0]!.replace(/\/+$/, '');
      try {
        if (path === '/v1/models' && req.method === 'GET') {
          const refusal = accessRefusal(deps.participant(participantId), deps.settings(), now());
          if (refusal && (refusal.code === 'participant_removed' || refusal.code === 'unknown_participant')) return writeRefusal(res, refusal);
          return writeModels(res, upstream.models, deps.prices);
        }
        if (path === '/v1/chat/completions' && req.method === 'POST') return await chat(req, res, participantId);
        writeRefusal(res, { status: 404, type: 'invalid_request_error', code: 'unknown_route', message: 'The room serves GET /v1/models and POST /v1/chat/completions only.' });
      } catch (error) {
        deps.log?.(scrubText(`forwarder: ${error instanceof Error ? error.message : String(error)}`));
        writeRefusal(res, upstreamFault(null, 'the room server failed'));
      }
    },
    async close() {
      client?.close();
      if (upstream.kind === 'local') await upstream.chat.close?.();
    },
  };
}

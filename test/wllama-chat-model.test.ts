/**
 * The page's local provider (src/llm/wllama-chat-model.ts) over a stand-in for wllama's class:
 * what it asks llama.cpp for (streamed, max tokens, temperature, the reply grammar only for the
 * contracts, a per-request seed), usage from llama.cpp's own counts at cost 0, the context window
 * from the file, and Stop / the request timeout ending a call even while no chunk arrives. The
 * real library runs in Chromium in e2e/local-model.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { LlmError } from '../src/llm/errors.ts';
import { ACTOR_REPLY_GBNF, LEARN_REPLY_GBNF, replyGrammar } from '../src/llm/reply-grammars.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { createWllamaChatModels, loadWllamaModel, type WllamaLike } from '../src/llm/wllama-chat-model.ts';

type Chunk = { choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: { prompt_tokens: number; completion_tokens: number }; timings?: Record<string, number> };

/** A wllama stand-in: records each request and streams `chunks`, or never answers when `hang`. */
function fakeWllama(chunks: Chunk[], hang = false) {
  const requests: Record<string, unknown>[] = [];
  const loads: unknown[] = [];
  const wllama = {
    loadModel: async (_blobs: Blob[], params: unknown) => void loads.push(params),
    getLoadedContextInfo: () => ({ n_ctx: 8192, n_ctx_train: 2048 }),
    getNumThreads: () => 2,
    isMultithread: () => true,
    getChatTemplate: () => '{{ messages }}',
    exit: async () => undefined,
    createChatCompletion: async (request: Record<string, unknown>) => {
      requests.push(request);
      return (async function* () {
        for (const chunk of chunks) yield chunk;
        if (hang) await new Promise(() => undefined);
      })();
    },
  } as unknown as WllamaLike;
  return { wllama, requests, loads };
}

const TIMINGS = { cache_n: 0, prompt_n: 120, prompt_ms: 600, prompt_per_token_ms: 5, prompt_per_second: 200, predicted_n: 9, predicted_ms: 300, predicted_per_token_ms: 33, predicted_per_second: 30 };
const REPLY: Chunk[] = [
  { choices: [{ delta: { content: 'REASONING: pull it.\n' }, finish_reason: null }] },
  { choices: [{ delta: { content: 'ACTION: pull red lever' }, finish_reason: 'stop' }], usage: { prompt_tokens: 120, completion_tokens: 9 }, timings: TIMINGS },
];

async function setup(chunks: Chunk[], hang = false, timeoutMs = 60_000, maxTokens: { actor?: number; metaAgent?: number } = {}) {
  const fake = fakeWllama(chunks, hang);
  const host = await loadWllamaModel([new Blob(['GGUF'])], { name: 'tiny.gguf', wasmUrl: 'http://x/wllama.wasm', threads: 2, create: async () => fake.wllama });
  const settings = { ...defaultLlmSettings(), requestTimeoutMs: timeoutMs };
  for (const role of ['actor', 'metaAgent'] as const) settings.roles[role].maxTokens = maxTokens[role] ?? settings.roles[role].maxTokens;
  const meter = new UsageMeter(settings.caps, settings.prices);
  return { ...fake, host, meter, models: createWllamaChatModels(host, settings, meter) };
}

describe('the in-page local model', () => {
  it('refuses a file that loads with a context of 0 tokens (damaged), naming the model, and ends the worker', async () => {
    const fake = fakeWllama(REPLY);
    let exited = 0;
    const wllama = { ...fake.wllama, getLoadedContextInfo: () => ({ n_ctx: 0, n_ctx_train: 0 }), exit: async () => void exited++ } as unknown as WllamaLike;
    await expect(loadWllamaModel([new Blob(['GGUF'])], { name: 'cut.gguf', wasmUrl: 'http://x/wllama.wasm', create: async () => wllama }))
      .rejects.toThrow('cannot load the local model cut.gguf: it loaded with a context of 0 tokens, so the file is damaged or not a chat model; remove it and load it again');
    expect(exited).toBe(1);
  });

  it('streams a grammar-bound actor reply with llama.cpp usage at cost 0, and reads the context window from the file', async () => {
    const { models, requests, loads, host, meter } = await setup(REPLY);
    expect(loads[0]).toMatchObject({ n_ctx: 8192, n_threads: 2, n_gpu_layers: 0 });
    expect([host.contextSize, host.threads, host.multiThread, host.hasChatTemplate]).toEqual([2048, 2, true, true]);
    const messages = [{ role: 'system' as const, content: 'Answer with REASONING: … then ACTION: …' }, { role: 'user' as const, content: 'You are in a room.' }];
    const reply = await models.actor.complete(messages);
    expect(reply.content).toBe('REASONING: pull it.\nACTION: pull red lever');
    expect(reply.finishReason).toBe('stop');
    expect(reply.usage).toMatchObject({ promptTokens: 120, completionTokens: 9, costUsd: 0 });
    expect(reply.usage.estimated).toBeUndefined();
    const request = requests[0]!;
    expect(request).toMatchObject({ stream: true, max_tokens: models.actor.settings.maxTokens, temperature: models.actor.settings.temperature, grammar: ACTOR_REPLY_GBNF });
    expect(typeof request.seed).toBe('number');
    expect(host.lastSpeed).toEqual({ promptTokensPerSecond: 200, generationTokensPerSecond: 30 });
    expect(meter.byRole.actor.promptTokens).toBe(120);
    // Recorded in the run's settings (session-runner copies it): grammars are on for the page's local model.
    expect([models.actor.replyGrammar, models.metaAgent.replyGrammar]).toEqual([true, true]);
    // The same request gets the same seed; the meta-agent's <learn> contract its own grammar; the proposer none.
    await models.actor.complete(messages);
    expect(requests[1]!.seed).toBe(request.seed);
    await models.metaAgent.complete([{ role: 'user', content: 'Write the new guide in <learn>…</learn>.' }]);
    expect(requests[2]!.grammar).toBe(LEARN_REPLY_GBNF);
    await models.proposer.complete([{ role: 'user', content: 'Write a meta-prompt.' }]);
    expect(requests[3]).not.toHaveProperty('grammar');
  });

  it("each call's grammar is the one of its role's max tokens (its longest reply fits them); a budget below the shortest reply is refused before the worker is asked", async () => {
    const { models, requests } = await setup(REPLY, false, 60_000, { actor: 120, metaAgent: 1024 });
    await models.actor.complete([{ role: 'user', content: 'Answer with REASONING: … then ACTION: …' }]);
    await models.metaAgent.complete([{ role: 'user', content: 'Write the new guide in <learn>…</learn>.' }]);
    expect([requests[0]!.max_tokens, requests[1]!.max_tokens]).toEqual([120, 1024]);
    expect([requests[0]!.grammar, requests[1]!.grammar]).toEqual([replyGrammar('actor', 120), replyGrammar('learn', 1024)]);
    expect(requests[1]!.grammar).not.toBe(LEARN_REPLY_GBNF);
    const tiny = await setup(REPLY, false, 60_000, { actor: 10 });
    await expect(tiny.models.actor.complete([{ role: 'user', content: 'ACTION: …' }])).rejects.toMatchObject({ kind: 'bad_request', message: expect.stringContaining("The actor's max tokens (10) cannot hold a reply in its grammar") });
    expect(tiny.requests).toHaveLength(0);
  });

  it('Stop ends a call while llama.cpp sends nothing (e.g. still reading the prompt), as aborted', async () => {
    const { models } = await setup(REPLY.slice(0, 1), true);
    const stop = new AbortController();
    const call = models.actor.complete([{ role: 'user', content: 'ACTION:' }], { signal: stop.signal });
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    await expect(call).rejects.toBeInstanceOf(LlmError);
  });

  it('Stop lets the call go at once; the worker streams no more tokens, and the next request starts only once the stopped one is cancelled there', async () => {
    // Like wllama: a token per poll, the abort signal checked before each poll, then the request
    // cancelled in the worker (held here until `release`). A later request streams REPLY.
    const log: string[] = [];
    let yielded = 0;
    let yieldedWhenSeen = -1;
    let release = (): void => {};
    const cancelled = new Promise<void>((resolve) => (release = resolve));
    const wllama = {
      ...fakeWllama([]).wllama,
      createChatCompletion: async (request: { abortSignal: AbortSignal }) => {
        log.push('start');
        const first = log.filter((x) => x === 'start').length === 1;
        return (async function* () {
          if (!first) return yield* REPLY;
          for (;;) {
            if (request.abortSignal.aborted) {
              log.push('abort seen');
              yieldedWhenSeen = yielded;
              await cancelled;
              log.push('cancelled');
              throw new DOMException('aborted', 'AbortError');
            }
            await new Promise((r) => setTimeout(r, 5));
            yielded++;
            yield { choices: [{ delta: { content: 'x' }, finish_reason: null }] };
          }
        })();
      },
    } as unknown as WllamaLike;
    const generating: boolean[] = [];
    const host = await loadWllamaModel([new Blob(['GGUF'])], { name: 'tiny.gguf', wasmUrl: 'http://x/wllama.wasm', create: async () => wllama, onActivity: (a) => generating.push(a.generating) });
    const settings = defaultLlmSettings();
    const models = createWllamaChatModels(host, settings, new UsageMeter(settings.caps, settings.prices));
    const stop = new AbortController();
    const call = models.actor.complete([{ role: 'user', content: 'ACTION:' }], { signal: stop.signal });
    while (host.activity.generatedTokens < 3) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    const atStop = host.activity.generatedTokens;
    // The call is over; the worker still holds the request until it is cancelled there.
    expect(host.activity.generating).toBe(true);
    const next = models.actor.complete([{ role: 'user', content: 'ACTION:' }]);
    await new Promise((r) => setTimeout(r, 30));
    expect(log).toEqual(['start', 'abort seen']);
    release();
    const reply = await next;
    expect(reply.content).toBe('REASONING: pull it.\nACTION: pull red lever');
    expect(log).toEqual(['start', 'abort seen', 'cancelled', 'start']);
    await host.idle();
    // After Stop at most the token of the poll then under way; none once the worker saw the abort, but the two of the next reply.
    expect(yieldedWhenSeen - atStop).toBeGreaterThanOrEqual(0);
    expect(yieldedWhenSeen - atStop).toBeLessThanOrEqual(1);
    expect(host.activity).toEqual({ generating: false, generatedTokens: yieldedWhenSeen + 2, workerEnded: false });
    expect(generating).toEqual([true, ...Array<boolean>(yieldedWhenSeen).fill(true), false, true, true, true, false]);
  });

  it('a stopped request that holds the worker past cutAfterMs (llama.cpp inside a prompt batch) ends the worker; the next call loads the model again', async () => {
    const made: { exited: boolean; requests: number }[] = [];
    const create = async (): Promise<WllamaLike> => {
      const me = { exited: false, requests: 0 };
      made.push(me);
      let unload = (): void => {};
      const unloaded = new Promise<never>((_, reject) => (unload = () => reject(new Error('The model was unloaded'))));
      unloaded.catch(() => undefined);
      return {
        ...fakeWllama([]).wllama,
        exit: async () => {
          me.exited = true;
          unload();
        },
        createChatCompletion: async () => {
          me.requests++;
          // The first instance's request never looks at the abort: only ending the worker stops it.
          if (made.length === 1) return (async function* () {
            yield { choices: [{ delta: { content: 'x' }, finish_reason: null }] };
            await unloaded;
          })();
          return (async function* () {
            yield* REPLY;
          })();
        },
      } as unknown as WllamaLike;
    };
    const host = await loadWllamaModel([new Blob(['GGUF'])], { name: 'tiny.gguf', wasmUrl: 'http://x/wllama.wasm', create, cutAfterMs: 50 });
    const settings = defaultLlmSettings();
    const models = createWllamaChatModels(host, settings, new UsageMeter(settings.caps, settings.prices));
    const stop = new AbortController();
    const call = models.actor.complete([{ role: 'user', content: 'ACTION:' }], { signal: stop.signal });
    while (host.activity.generatedTokens < 1) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    expect(made[0]!.exited).toBe(false);
    await host.idle();
    expect(made[0]!.exited).toBe(true);
    expect(host.activity).toEqual({ generating: false, generatedTokens: 1, workerEnded: true });
    const reply = await models.actor.complete([{ role: 'user', content: 'ACTION:' }]);
    expect(reply.content).toBe('REASONING: pull it.\nACTION: pull red lever');
    expect(made.map((m) => m.requests)).toEqual([1, 1]);
    expect(host.activity.workerEnded).toBe(false);
  });

  it('a reply that does not finish within the request timeout fails as timeout; an empty one as bad_response', async () => {
    const slow = await setup(REPLY.slice(0, 1), true, 50);
    await expect(slow.models.actor.complete([{ role: 'user', content: 'ACTION:' }])).rejects.toMatchObject({ kind: 'timeout' });
    const empty = await setup([{ choices: [{ delta: { content: ' ' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1 } }]);
    await expect(empty.models.actor.complete([{ role: 'user', content: 'ACTION:' }])).rejects.toMatchObject({ kind: 'bad_response' });
  });
});

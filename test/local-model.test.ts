/**
 * A real language model in our tests: SmolLM2-135M-Instruct (test/support/local-model.ts) run by
 * the CLI's `--provider local` (node-llama-cpp). The CLI plays a Lever Room episode with every
 * step parsed under the reply grammar, and a 2-episode naive session ends with a guide the
 * meta-agent wrote inside `<learn>`. Each run is a few steps to stay within a couple of minutes on
 * a loaded 2-core machine. Stop and the request timeout end a generation as they end a remote call.
 * Usage errors of the local flags need no model.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';
import { requireSmolLm2 } from './support/local-model.ts';
import { DEFAULT_GUIDING_PROMPT } from '../src/agents/actor-prompt.ts';

const LOCAL = (): string[] => ['--provider', 'local', '--model-file', requireSmolLm2()];
/** What the learn grammar allows (src/llm/reply-grammars.ts). */
const LEARN_REPLY = /^<think>[^<]{0,600}<\/think>\n<learn>[^<]{1,2400}<\/learn>$/;
/** What the actor grammar allows (src/llm/reply-grammars.ts). */
const ACTOR_REPLY = /^REASONING: [^\n<]{1,300}\nACTION: ([a-z]{1,12}(?: [a-z]{1,12}){0,4})$/;

describe('the CLI on a real local model', () => {
  it('plays a Lever Room episode: every reply is in the grammar and parsed, tokens counted by the model, no cost', async () => {
    const r = await runCli(['play', 'lever-room', '--seed', '1', '--steps', '4', '--json', ...LOCAL()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.termination, out.costUsd, out.usageEstimated, out.estimatedCalls]).toEqual(['step_limit', null, false, 0]);
    expect(out.localModel).toMatchObject({ file: 'SmolLM2-135M-Instruct.Q4_1.gguf', replyGrammar: true, threads: 1 });
    expect(out.localModel.contextSize).toBeGreaterThanOrEqual(2048);
    expect(out.steps).toHaveLength(4);
    for (const step of out.steps) {
      const match = ACTOR_REPLY.exec(step.reply);
      expect(match, step.reply).not.toBeNull();
      expect([step.parseStatus, step.action]).toEqual(['ok', match![1]]);
      expect(step.promptTokens).toBeGreaterThan(100);
      expect(step.completionTokens).toBeGreaterThan(3);
    }
    expect(out.usage.calls).toBe(4);
    expect([out.usage.costUsd, out.usage.totalUsd]).toEqual([null, null]); // no price for a local model: no invented cost
  });

  it("a 2-episode naive session completes; the meta-agent's reply sets the second episode's guide", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'metattl-local-')), 'session.json');
    const r = await runCli(['session', 'lever-room', '--seed', '2', '--policy', 'naive', '--episodes', '2', '--steps', '2', '--json', '--out', file, ...LOCAL()]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.status, out.stopReason, out.exchanges, out.costUsd, out.episodes.length]).toEqual(['complete', null, 1, null, 2]);
    expect(out.episodes[0].guidingPrompt).toBe(DEFAULT_GUIDING_PROMPT);
    const guide: string = out.episodes[1].guidingPrompt;
    expect(guide.trim().length).toBeGreaterThan(0);
    expect(guide).not.toMatch(/[<>]/);
    // The meta-agent's reply, bounded by the learn grammar (<think> ≤ 600 characters, a guide of
    // 1–2,400), closed its tags within the 1,024-token limit, and its <learn> text is the new guide
    // (before the grammar's repetitions were kept under llama.cpp's limit, it ran to 1,024 tokens).
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    const record = exported.session ?? exported.record ?? exported;
    expect(record.config.replyGrammar).toBe(true);
    const exchange = record.exchanges[0];
    expect([exchange.kind, exchange.error, exchange.guidingPromptAfter, exchange.learnStatus, exchange.finishReason]).toEqual(['meta_agent', null, guide, 'updated', 'stop']);
    expect(exchange.reply).toMatch(LEARN_REPLY);
    expect(exchange.reply).toContain(guide.trim());
    expect(out.totalTokens).toBeGreaterThan(500);
  }, 420_000); // ~2.5 min at load 25 on the 2 shared cores; the meta-agent's reply is ~800 tokens

  it('refuses local flags that make no sense, before loading anything (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['--provider', 'local'], '--provider local needs --model-file FILE.gguf'],
      [['--provider', 'local', '--model-file', '/no/such/model.gguf'], '--model-file: no file /no/such/model.gguf'],
      [['--provider', 'local', '--model-file', 'x.gguf', '--reply-grammar', 'maybe'], '--reply-grammar must be on or off, got "maybe"'],
      [['--provider', 'local', '--model-file', 'x.gguf', '--base-url', 'http://x/v1'], '--base-url cannot be combined with --provider local'],
      [['--base-url', 'http://127.0.0.1:9/v1', '--model-file', 'x.gguf'], '--model-file needs --provider local'],
      [['--base-url', 'http://127.0.0.1:9/v1', '--reply-grammar', 'on'], '--reply-grammar applies to --provider local only'],
    ];
    for (const [flags, message] of cases) {
      const r = await runCli(['play', 'lever-room', '--steps', '1', ...flags]);
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, `metattl: ${message}${message.endsWith('only') ? ' (OpenAI-compatible providers take no grammar)' : ''}`]);
    }
  });
});

describe('a local model call is stopped like a remote one', () => {
  it('Stop mid-generation rejects as "aborted" and the request timeout as "timeout"; neither is billed', async () => {
    const { createLocalChatModels, loadLocalModel } = await import('../src/llm/local-chat-model.ts');
    const { defaultLlmSettings } = await import('../src/llm/defaults.ts');
    const { UsageMeter } = await import('../src/llm/usage-meter.ts');
    const host = await loadLocalModel(requireSmolLm2(), { maxContext: 2048 });
    try {
      const settings = defaultLlmSettings();
      settings.roles.proposer.maxTokens = 1500;
      const meter = new UsageMeter(settings.caps, {});
      const messages = [{ role: 'user' as const, content: 'Write a very long story about a lever.' }];
      const stop = new AbortController();
      const stopped = createLocalChatModels(host, settings, meter).proposer.complete(messages, { signal: stop.signal });
      setTimeout(() => stop.abort(), 1500);
      await expect(stopped).rejects.toMatchObject({ kind: 'aborted' });
      const timed = createLocalChatModels(host, { ...settings, requestTimeoutMs: 1000 }, meter).proposer.complete(messages);
      await expect(timed).rejects.toMatchObject({ kind: 'timeout', message: 'No complete answer from the local model within 1000 ms.' });
      expect(meter.byRole.proposer.calls).toBe(0);
      const after = await createLocalChatModels(host, { ...settings, roles: { ...settings.roles, proposer: { ...settings.roles.proposer, maxTokens: 8 } } }, meter).proposer.complete(messages);
      expect([after.finishReason, after.usage.completionTokens > 0, meter.byRole.proposer.calls]).toEqual(['length', true, 1]);
    } finally {
      await host.dispose();
    }
  });
});

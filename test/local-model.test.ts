/**
 * A real language model in our tests: SmolLM2-135M-Instruct (test/support/local-model.ts) run by
 * the CLI's `--provider local` (node-llama-cpp). What is asserted is what the product guarantees,
 * never what this model writes: llama.cpp's output differs between CPUs (AVX2 vs AVX-512 kernels
 * round differently) and thread counts, so the words, their number, the score and where the model
 * would stop on its own may all change from one machine to the next. Guaranteed on any CPU: every
 * reply is admitted by the grammar of its call's budget (src/llm/reply-grammars.ts), and since the
 * grammar's longest reply fits that budget, a constrained reply ends by itself (finish "stop") and
 * a complete `<learn>` always updates the guide; a reply cut off by its limit (no grammar) is
 * recorded as truncated and the old guide is kept; tokens are counted by the model's own tokenizer;
 * nothing costs anything. Each run is a few steps to stay within a couple of minutes on a loaded
 * 2-core machine. Stop and the request timeout end a generation as they end a remote call. Usage
 * errors of the local flags need no model.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';
import { gbnfRegex, parseGbnf, worstReplyTokensOf, type TokenizerLike } from './support/gbnf.ts';
import { loadSmolLm2Vocabulary, requireSmolLm2, type SmolLm2Vocabulary } from './support/local-model.ts';
import { DEFAULT_GUIDING_PROMPT } from '../src/agents/actor-prompt.ts';
import { parseActorReply } from '../src/agents/reply-parser.ts';
import { parseLearn } from '../src/agents/meta-prompt.ts';
import { FULL_REPLY_TOKENS, MIN_REPLY_TOKENS, replyGrammar, type ReplyContract } from '../src/llm/reply-grammars.ts';

const LOCAL = (): string[] => ['--provider', 'local', '--model-file', requireSmolLm2()];
/** The texts the grammar of `contract` at `maxTokens` admits, as a regex (test/support/gbnf.ts). */
const admittedBy = (contract: ReplyContract, maxTokens: number): RegExp => gbnfRegex(parseGbnf(replyGrammar(contract, maxTokens)));
/** The meta-agent's budget in the session test: small, so the test is quick whatever the model writes. */
const META_MAX_TOKENS = 300;

let vocabulary: SmolLm2Vocabulary;
beforeAll(async () => {
  vocabulary = await loadSmolLm2Vocabulary();
});
afterAll(() => vocabulary?.dispose());

describe("the reply grammars fit SmolLM2's own vocabulary", () => {
  it('for any budget, the longest reply the grammar admits fits in max_tokens, counted with the GGUF file\'s tokenizer; every admitted character is one token', () => {
    expect(vocabulary.kind).toBe('gpt2'); // byte-level BPE: a token for every byte, so a character can cost its UTF-8 length
    const smol: TokenizerLike = { name: 'SmolLM2-135M-Instruct', encode: vocabulary.encode, decode: vocabulary.decode, byteLevel: true };
    const cache = new Map<string, number>();
    for (const contract of ['actor', 'learn'] as const) {
      for (let budget = MIN_REPLY_TOKENS[contract]; budget <= FULL_REPLY_TOKENS[contract] + 20; budget += contract === 'actor' ? 1 : 7) {
        const worst = worstReplyTokensOf(parseGbnf(replyGrammar(contract, budget)), smol, cache);
        if (worst > budget) expect.fail(`${contract} at ${budget} tokens: the longest reply costs ${worst}`);
      }
    }
    expect([...cache.values()].every((perChar) => perChar === 1)).toBe(true);
    // Digits and the commands' punctuation are single tokens of this vocabulary: the actor can type them.
    for (const c of '0123456789,.\'"-$') expect(vocabulary.encode(c), c).toHaveLength(1);
  }, 60_000); // reads the GGUF vocabulary (~4 s alone, longer on loaded cores)
});

describe('the CLI on a real local model', () => {
  it('plays a Lever Room episode: every reply is in the grammar and parsed, tokens counted by the model, no cost', async () => {
    const r = await runCli(['play', 'lever-room', '--seed', '1', '--steps', '4', '--json', ...LOCAL()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // The score and whether the game ended early depend on what the model typed (CPU-dependent): only the form is asserted.
    expect([out.costUsd, out.usageEstimated, out.estimatedCalls]).toEqual([null, false, 0]);
    expect(['step_limit', 'game_over']).toContain(out.termination);
    expect(out.localModel).toMatchObject({ file: 'SmolLM2-135M-Instruct.Q4_1.gguf', replyGrammar: true, threads: 1 });
    expect(out.localModel.contextSize).toBeGreaterThanOrEqual(2048);
    expect(out.steps.length).toBeGreaterThanOrEqual(1);
    expect(out.steps.length).toBeLessThanOrEqual(4);
    const actorReply = admittedBy('actor', 400);
    for (const step of out.steps) {
      expect(actorReply.test(step.reply), step.reply).toBe(true);
      expect(step.parseStatus).toBe('ok');
      expect(step.action).toBe(parseActorReply(step.reply, 'stop').action);
      expect(step.promptTokens).toBeGreaterThan(100);
      expect(step.completionTokens).toBe(vocabulary.count(step.reply));
      expect(step.completionTokens).toBeLessThanOrEqual(400);
    }
    expect(out.usage.calls).toBe(out.steps.length);
    expect([out.usage.costUsd, out.usage.totalUsd]).toEqual([null, null]); // no price for a local model: no invented cost
  }, 180_000); // loads the model in a child process; ~10 s alone, minutes on loaded cores

  it("a 2-episode naive session completes; the meta-agent's grammar-bound reply ends within its budget and sets the second episode's guide", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'metattl-local-')), 'session.json');
    const r = await runCli(['session', 'lever-room', '--seed', '2', '--policy', 'naive', '--episodes', '2', '--steps', '2', '--meta-max-tokens', String(META_MAX_TOKENS), '--json', '--out', file, ...LOCAL()]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.status, out.stopReason, out.exchanges, out.costUsd, out.episodes.length]).toEqual(['complete', null, 1, null, 2]);
    expect(out.episodes[0].guidingPrompt).toBe(DEFAULT_GUIDING_PROMPT);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    const record = exported.session ?? exported.record ?? exported;
    expect(record.config.replyGrammar).toBe(true);
    const exchange = record.exchanges[0];
    // The reply is admitted by the learn grammar of this budget, whose longest reply fits the budget:
    // so it ended by itself ("stop", on any CPU), and its <learn> text is the new guide.
    expect(exchange.reply).toMatch(admittedBy('learn', META_MAX_TOKENS));
    const guide: string = out.episodes[1].guidingPrompt;
    expect(parseLearn(exchange.reply, 'stop')).toEqual({ guidingPrompt: guide, status: 'updated' });
    expect([exchange.kind, exchange.error, exchange.finishReason, exchange.learnStatus, exchange.guidingPromptAfter]).toEqual(['meta_agent', null, 'stop', 'updated', guide]);
    expect(exchange.usage.completionTokens).toBe(vocabulary.count(exchange.reply));
    expect(exchange.usage.completionTokens).toBeLessThanOrEqual(META_MAX_TOKENS);
    expect(exchange.usage.costUsd).toBe(0);
    expect(out.totalTokens).toBeGreaterThan(500);
  }, 420_000); // ~1–2 min at load 25 on the 2 shared cores; the meta-agent's reply is at most 300 tokens

  it('without the grammar a meta-agent reply cut off by its limit is recorded as truncated and the old guide is kept', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'metattl-local-')), 'session.json');
    const r = await runCli(['session', 'lever-room', '--seed', '2', '--policy', 'naive', '--episodes', '2', '--steps', '1', '--actor-max-tokens', '24', '--meta-max-tokens', '12',
      '--reply-grammar', 'off', '--json', '--out', file, ...LOCAL()]);
    expect(r.code, r.stderr).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    const record = exported.session ?? exported.record ?? exported;
    expect(record.config.replyGrammar).toBe(false);
    const exchange = record.exchanges[0];
    expect(exchange.usage.completionTokens).toBe(vocabulary.count(exchange.reply));
    // Twelve free tokens almost never hold a whole <learn>…</learn>; but where a model stops by itself
    // (its choice, CPU-dependent) the record follows what it wrote, so both outcomes are checked.
    if (exchange.finishReason === 'length') {
      expect([exchange.learnStatus, exchange.guidingPromptAfter, record.episodes[1].guidingPrompt]).toEqual(['truncated', DEFAULT_GUIDING_PROMPT, DEFAULT_GUIDING_PROMPT]);
    } else {
      const parsed = parseLearn(exchange.reply, exchange.finishReason);
      expect(exchange.learnStatus).toBe(parsed.status);
      expect(record.episodes[1].guidingPrompt).toBe(parsed.guidingPrompt ?? DEFAULT_GUIDING_PROMPT);
    }
  }, 240_000);

  it('refuses local flags that make no sense, before loading anything (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['--provider', 'local'], '--provider local needs --model-file FILE.gguf'],
      [['--provider', 'local', '--model-file', '/no/such/model.gguf'], '--model-file: no file /no/such/model.gguf'],
      [['--provider', 'local', '--model-file', 'x.gguf', '--reply-grammar', 'maybe'], '--reply-grammar must be on or off, got "maybe"'],
      [['--provider', 'local', '--model-file', 'x.gguf', '--base-url', 'http://x/v1'], '--base-url cannot be combined with --provider local'],
      [['--base-url', 'http://127.0.0.1:9/v1', '--model-file', 'x.gguf'], '--model-file needs --provider local'],
      [['--base-url', 'http://127.0.0.1:9/v1', '--reply-grammar', 'on'], '--reply-grammar applies to --provider local only'],
      [['--provider', 'local', '--model-file', 'x.gguf', '--actor-max-tokens', '22'], '--actor-max-tokens 22 cannot hold a reply in its grammar: it needs at least 23 (393 for a reply of full size), or use --reply-grammar off'],
      [['--provider', 'local', '--model-file', 'x.gguf', '--meta-max-tokens', '32'], '--meta-max-tokens 32 cannot hold a reply in its grammar: it needs at least 33 (3032 for a reply of full size), or use --reply-grammar off'],
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
      // Stop and the timeout come 300 ms into a call asked for a very long story (up to 1,500 tokens):
      // even a fast CPU is still reading the prompt or writing then, whatever the model would write.
      const stop = new AbortController();
      const stopped = createLocalChatModels(host, settings, meter).proposer.complete(messages, { signal: stop.signal });
      setTimeout(() => stop.abort(), 300);
      await expect(stopped).rejects.toMatchObject({ kind: 'aborted' });
      const timed = createLocalChatModels(host, { ...settings, requestTimeoutMs: 300 }, meter).proposer.complete(messages);
      await expect(timed).rejects.toMatchObject({ kind: 'timeout', message: 'No complete answer from the local model within 300 ms.' });
      expect(meter.byRole.proposer.calls).toBe(0);
      // A call that ends is billed once, with the model's own token count and no cost; "length" when
      // the model wrote to its 8-token limit, "stop" only if it ended by itself (a model's choice).
      const after = await createLocalChatModels(host, { ...settings, roles: { ...settings.roles, proposer: { ...settings.roles.proposer, maxTokens: 8 } } }, meter).proposer.complete(messages);
      expect(['length', 'stop']).toContain(after.finishReason);
      expect([after.usage.completionTokens, after.usage.costUsd, meter.byRole.proposer.calls]).toEqual([host.countTokens(after.content), 0, 1]);
    } finally {
      await host.dispose();
    }
  }, 120_000); // loads the model in-process; ~5 s alone
});

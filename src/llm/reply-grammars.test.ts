import { describe, expect, it } from 'vitest';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as p50k from 'gpt-tokenizer/encoding/p50k_base';
import * as r50k from 'gpt-tokenizer/encoding/r50k_base';
import { parseActorReply } from '../agents/reply-parser.ts';
import { parseLearn } from '../agents/meta-prompt.ts';
import {
  ACTOR_REPLY_GBNF, FULL_REPLY_BOUNDS, FULL_REPLY_TOKENS, grammarText, LEARN_REPLY_GBNF, LLAMA_CPP_MAX_REPETITIONS, MIN_REPLY_TOKENS,
  ReplyBudgetError, replyBounds, replyContractFor, replyGrammar, type ReplyContract,
} from './reply-grammars.ts';
import { LocalModelMissingError, loadLocalModel } from './local-chat-model.ts';
import { REPLY_CONTRACT } from '../agents/actor-prompt.ts';
import { gbnfRegex, longestText, parseGbnf, worstReplyTokensOf, worstTokens, type TokenizerLike } from '../../test/support/gbnf.ts';

/** Real tokenizers (byte-level BPE, as GPT-2-style GGUF vocabularies such as SmolLM2's; test/local-model.test.ts adds SmolLM2's own). */
const TOKENIZERS: TokenizerLike[] = [
  { name: 'cl100k_base', encode: (t) => cl100k.encode(t), decode: (ids) => cl100k.decode(ids), byteLevel: true },
  { name: 'o200k_base', encode: (t) => o200k.encode(t), decode: (ids) => o200k.decode(ids), byteLevel: true },
  { name: 'p50k_base', encode: (t) => p50k.encode(t), decode: (ids) => p50k.decode(ids), byteLevel: true },
  { name: 'r50k_base (GPT-2)', encode: (t) => r50k.encode(t), decode: (ids) => r50k.decode(ids), byteLevel: true },
];

const CONTRACTS: ReplyContract[] = ['actor', 'learn'];

describe('reply contracts for local models', () => {
  it('picks the actor grammar for actor prompts that ask for ACTION, the learn grammar for <learn> prompts, none otherwise', () => {
    expect(replyContractFor('actor', [{ role: 'system', content: REPLY_CONTRACT }, { role: 'user', content: 'A room.' }])).toBe('actor');
    expect(replyContractFor('actor', [{ role: 'user', content: 'Write a poem.' }])).toBeNull();
    expect(replyContractFor('metaAgent', [{ role: 'system', content: 'Answer as <think>…</think>\n<learn>…</learn>' }])).toBe('learn');
    expect(replyContractFor('metaAgent', [{ role: 'user', content: 'Summarise.' }])).toBeNull();
    expect(replyContractFor('proposer', [{ role: 'user', content: 'ACTION: and <learn>' }])).toBeNull();
    expect(grammarText('actor')).toBe(ACTOR_REPLY_GBNF);
    expect(grammarText('learn')).toBe(LEARN_REPLY_GBNF);
    expect(grammarText('actor', 400)).toBe(ACTOR_REPLY_GBNF);
    expect(grammarText('learn', 4096)).toBe(LEARN_REPLY_GBNF);
  });

  it('a reply the grammar admits is what the parsers read: the actor reply parses ok with its command, the learn reply gives its guide', () => {
    const actor = gbnfRegex(parseGbnf(ACTOR_REPLY_GBNF));
    const reply = 'REASONING: the keypad wants the code the guard said.\nACTION: enter 417';
    expect(actor.test(reply)).toBe(true);
    expect(parseActorReply(reply, 'stop')).toMatchObject({ status: 'ok', action: 'enter 417' });
    // A command starts with a letter or digit, so the parser (which drops quotes, '_' and a final '.') never reads it as none.
    for (const command of ['say "float"', 'n.', 'a_', "x'", 'go ...']) {
      expect(actor.test(`REASONING: r\nACTION: ${command}`), command).toBe(true);
      expect(parseActorReply(`REASONING: r\nACTION: ${command}`, 'stop'), command).toMatchObject({ status: 'ok', action: expect.stringMatching(/^[a-z0-9]/) });
    }
    const learn = gbnfRegex(parseGbnf(LEARN_REPLY_GBNF));
    const guide = 'Pull the red lever first.\nThen type ENTER 417 at the keypad.';
    expect(learn.test(`<think>it failed</think>\n<learn>${guide}</learn>`)).toBe(true);
    expect(parseLearn(`<think>it failed</think>\n<learn>${guide}</learn>`, 'stop')).toEqual({ guidingPrompt: guide, status: 'updated' });
  });

  it('the regex read from the grammar agrees with the grammar on known replies (the matcher the other tests use)', () => {
    const actor = gbnfRegex(parseGbnf(ACTOR_REPLY_GBNF));
    const ok = (command: string, reasoning = 'x') => actor.test(`REASONING: ${reasoning}\nACTION: ${command}`);
    expect(['enter 417', "put it on henry's tomb", 'get tobacco,knife,pipe', 'withdraw $603', 'say "float"', 'drop yo-yo', 'n', 'a'.repeat(72)].map((c) => ok(c))).toEqual(Array(8).fill(true));
    expect(['Enter 417', ' look', '', 'look?', 'go <north>', 'a'.repeat(73), 'look\n', 'café', '"look"', '.', '_'].map((c) => ok(c))).toEqual(Array(11).fill(false));
    expect([ok('look', 'r'.repeat(300)), ok('look', 'r'.repeat(301)), ok('look', ''), ok('look', 'see <one or two sentences>')]).toEqual([true, false, false, false]);
    const learn = gbnfRegex(parseGbnf(LEARN_REPLY_GBNF));
    const reply = (think: string, guide: string) => learn.test(`<think>${think}</think>\n<learn>${guide}</learn>`);
    expect([reply('', 'g'), reply('t'.repeat(600), 'g'.repeat(2400)), reply('t\nx', 'Go.\n- then  east'), reply('t'.repeat(601), 'g'), reply('', 'g'.repeat(2401)), reply('', ''), reply('', 'a <b>'), reply('', 'naïve')])
      .toEqual([true, true, true, false, false, false, false, false]);
    // Never blank: a guide of spaces or line breaks only (which parseLearn reads as "empty", keeping the old guide) is refused.
    expect([reply('', ' '), reply('', '\n\n'), reply('', ' Go')]).toEqual([false, false, false]);
  });

  it("every bounded repetition stays below llama.cpp's MAX_REPETITION_THRESHOLD (past it llama.cpp drops the whole grammar), at any budget", () => {
    for (const contract of CONTRACTS) {
      for (const budget of [MIN_REPLY_TOKENS[contract], 100, 1000, 2500, FULL_REPLY_TOKENS[contract], 100_000]) {
        const gbnf = replyGrammar(contract, budget);
        const bounds = [...gbnf.matchAll(/\{(\d+)(?:,(\d+))?\}/g)].map((m) => Number(m[2] ?? m[1]));
        for (const bound of bounds) expect(bound).toBeLessThan(LLAMA_CPP_MAX_REPETITIONS);
      }
    }
    // The full sizes, as documented: reasoning ≤ 300 characters, a command ≤ 72; <think> ≤ 600, a guide of 1–2,400.
    expect(FULL_REPLY_BOUNDS).toEqual({ actor: { first: 300, second: 72 }, learn: { first: 600, second: 2400 } });
    const learnLongest = longestText(parseGbnf(LEARN_REPLY_GBNF));
    expect([...learnLongest.classChars.values()].reduce((a, b) => a + b, 0)).toBe(3000);
  });

  it('for any budget and any of the real tokenizers, the longest reply the grammar admits fits in max_tokens (end-of-generation token included)', () => {
    const cache = new Map<string, number>();
    for (const contract of CONTRACTS) {
      // Every budget from the least one to past the full size, then a few large ones.
      const budgets = [...Array.from({ length: FULL_REPLY_TOKENS[contract] + 60 - MIN_REPLY_TOKENS[contract] }, (_, i) => MIN_REPLY_TOKENS[contract] + i), 4096, 8192, 100_000];
      for (const budget of budgets) {
        const grammar = parseGbnf(replyGrammar(contract, budget));
        for (const tokenizer of TOKENIZERS) {
          const worst = worstReplyTokensOf(grammar, tokenizer, cache);
          if (worst > budget) expect.fail(`${contract} at ${budget} tokens with ${tokenizer.name}: the longest reply costs ${worst}`);
        }
      }
      // At and above the full size the reply keeps its full bounds; one token less and it is smaller, but still fits.
      expect(replyBounds(contract, FULL_REPLY_TOKENS[contract])).toEqual(FULL_REPLY_BOUNDS[contract]);
      const smaller = replyBounds(contract, FULL_REPLY_TOKENS[contract] - 1);
      expect(smaller.first + smaller.second).toBe(FULL_REPLY_BOUNDS[contract].first + FULL_REPLY_BOUNDS[contract].second - 1);
    }
    // The bound is tight: at the full size the worst case is exactly the budget for byte-level vocabularies.
    expect(worstReplyTokensOf(parseGbnf(ACTOR_REPLY_GBNF), TOKENIZERS[0]!, cache)).toBe(FULL_REPLY_TOKENS.actor);
    expect(worstReplyTokensOf(parseGbnf(LEARN_REPLY_GBNF), TOKENIZERS[0]!, cache)).toBe(FULL_REPLY_TOKENS.learn);
  });

  it('the worst case counts a character the vocabulary spells byte by byte at its UTF-8 length, so a grammar admitting any character would not fit', () => {
    expect(TOKENIZERS.map((t) => [worstTokens(t, 'a'), worstTokens(t, 'é'), worstTokens(t, '…'), worstTokens(t, '🙂')])).toEqual(Array(TOKENIZERS.length).fill([1, 2, 3, 4]));
    // The grammar of before (any character but "<"; <think> ≤ 600, a guide ≤ 2,400) at the CLI's old meta-agent limit: up to 12,032 tokens for 1,024.
    const old = parseGbnf(String.raw`root ::= "<think>" think "</think>\n<learn>" guide "</learn>"
think ::= [^<]{0,600}
guide ::= block{0,59} [^<]{1,40}
block ::= [^<]{40}`);
    expect(worstReplyTokensOf(old, TOKENIZERS[0]!)).toBe(31 + 4 * 3000 + 1);
  });

  it('a budget below the shortest reply is a clear error naming the role and the least budget', () => {
    expect(MIN_REPLY_TOKENS).toEqual({ actor: 23, learn: 33 });
    expect(() => replyGrammar('actor', 22)).toThrow(new ReplyBudgetError('actor', 22));
    expect(() => replyGrammar('learn', 32)).toThrow("The meta-agent's max tokens (32) cannot hold a reply in its grammar: it needs at least 33 tokens (3032 for a reply of full size).");
    expect(gbnfRegex(parseGbnf(replyGrammar('actor', 23))).test('REASONING: a\nACTION: n')).toBe(true);
    expect(gbnfRegex(parseGbnf(replyGrammar('learn', 33))).test('<think></think>\n<learn>g</learn>')).toBe(true);
  });

  it('a missing node-llama-cpp is a clear error naming the install command', async () => {
    const error = await loadLocalModel('/nonexistent.gguf', { packageName: 'node-llama-cpp-not-installed-here' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalModelMissingError);
    expect((error as Error).message).toContain('npm install --no-save node-llama-cpp@3.21.1');
  });
});

import { describe, expect, it } from 'vitest';
import { parseActorReply } from '../agents/reply-parser.ts';
import { parseLearn } from '../agents/meta-prompt.ts';
import { ACTOR_REPLY_GBNF, grammarText, LEARN_REPLY_GBNF, LLAMA_CPP_MAX_REPETITIONS, replyContractFor } from './reply-grammars.ts';
import { LocalModelMissingError, loadLocalModel } from './local-chat-model.ts';
import { REPLY_CONTRACT } from '../agents/actor-prompt.ts';

describe('reply contracts for local models', () => {
  it('picks the actor grammar for actor prompts that ask for ACTION, the learn grammar for <learn> prompts, none otherwise', () => {
    expect(replyContractFor('actor', [{ role: 'system', content: REPLY_CONTRACT }, { role: 'user', content: 'A room.' }])).toBe('actor');
    expect(replyContractFor('actor', [{ role: 'user', content: 'Write a poem.' }])).toBeNull();
    expect(replyContractFor('metaAgent', [{ role: 'system', content: 'Answer as <think>…</think>\n<learn>…</learn>' }])).toBe('learn');
    expect(replyContractFor('metaAgent', [{ role: 'user', content: 'Summarise.' }])).toBeNull();
    expect(replyContractFor('proposer', [{ role: 'user', content: 'ACTION: and <learn>' }])).toBeNull();
    expect(grammarText('actor')).toBe(ACTOR_REPLY_GBNF);
    expect(grammarText('learn')).toBe(LEARN_REPLY_GBNF);
  });

  it('the grammars start where the parsers look: a reply of the actor grammar parses ok, one of the learn grammar gives its guide', () => {
    expect(ACTOR_REPLY_GBNF).toMatch(/^root ::= "REASONING: " reason "\\nACTION: " command$/m);
    expect(parseActorReply('REASONING: the red lever is near\nACTION: pull red lever', 'stop')).toMatchObject({ status: 'ok', action: 'pull red lever' });
    expect(LEARN_REPLY_GBNF).toMatch(/^root ::= "<think>" think "<\/think>\\n<learn>" guide "<\/learn>"$/m);
    expect(parseLearn('<think>it failed</think>\n<learn>Pull the red lever first.</learn>', 'stop')).toEqual({ guidingPrompt: 'Pull the red lever first.', status: 'updated' });
  });

  it("every bounded repetition stays below llama.cpp's MAX_REPETITION_THRESHOLD (past it llama.cpp drops the whole grammar)", () => {
    for (const gbnf of [ACTOR_REPLY_GBNF, LEARN_REPLY_GBNF]) {
      const bounds = [...gbnf.matchAll(/\{(\d+)(?:,(\d+))?\}/g)].map((m) => Number(m[2] ?? m[1]));
      expect(bounds.length).toBeGreaterThan(0);
      for (const bound of bounds) expect(bound).toBeLessThan(LLAMA_CPP_MAX_REPETITIONS);
    }
    // The learn grammar's bounds as documented: <think> ≤ 600 characters, a guide of 1–2,400.
    expect(LEARN_REPLY_GBNF).toMatch(/^think ::= \[\^<\]\{0,600\}$/m);
    expect(LEARN_REPLY_GBNF).toMatch(/^guide ::= block\{0,59\} \[\^<\]\{1,40\}$/m);
    expect(LEARN_REPLY_GBNF).toMatch(/^block ::= \[\^<\]\{40\}$/m);
    expect(59 * 40 + 40).toBe(2400);
  });

  it('a missing node-llama-cpp is a clear error naming the install command', async () => {
    const error = await loadLocalModel('/nonexistent.gguf', { packageName: 'node-llama-cpp-not-installed-here' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalModelMissingError);
    expect((error as Error).message).toContain('npm install --no-save node-llama-cpp@3.21.1');
  });
});

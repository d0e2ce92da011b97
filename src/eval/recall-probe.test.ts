/**
 * The walkthrough-recall probe on fake actors whose answers are known: a model that has memorised
 * the walkthrough recalls every asked command and beats the shuffled control (sign test p tiny); a
 * model that always says "north" scores exactly the frequency of "north"; a failed call is left out.
 * The scoring (normalised commands), the positions, the control's context and the statistics
 * (Wilson interval, exact sign test) against hand-computed values.
 */
import { describe, expect, it } from 'vitest';
import { LlmError } from '../llm/errors.ts';
import type { ChatMessage, ChatModel, Completion } from '../llm/interface.ts';
import { commandOfReply, normaliseCommand, probePositions, recallMessages, recallQuestions, runRecallProbe, signTestP, wilsonRate, type RecallGame } from './recall-probe.ts';

const WALK = ['n', 'take lamp', 'open the door', 'go north', 'x mailbox', 'n', 'read leaflet', 'e', 'put lamp in case', 'n', 'climb tree', 'get egg'];
const GAME: RecallGame = { game: 'testgame', title: 'Test Game', walkthrough: WALK };

/** A fake actor answering `answer(context)`; counts calls. */
function fake(answer: (context: string[], messages: ChatMessage[]) => string, fail?: (n: number) => boolean): ChatModel & { calls: number } {
  const m = {
    role: 'actor' as const, settings: {} as ChatModel['settings'], calls: 0,
    async complete(messages: ChatMessage[]): Promise<Completion> {
      m.calls++;
      if (fail?.(m.calls)) throw new LlmError('server', 'HTTP 500');
      const context = [...messages[1]!.content.matchAll(/^\d+\. (.*)$/gm)].map((x) => x[1]!);
      return { content: answer(context, messages), finishReason: 'stop', model: 'fake', providerModel: 'fake-2026', usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } as Completion['usage'] };
    },
  };
  return m;
}

/** Knows the walkthrough: finds the context in it and says the next line. */
const memoriser = fake((context) => {
  for (let i = 0; i + context.length < WALK.length; i++) if (context.every((c, j) => WALK[i + j] === c)) return `ACTION: ${WALK[i + context.length]}`;
  return 'look';
});

describe('scoring', () => {
  it('normalises abbreviations, articles, "go" and punctuation; reads the command off a reply', () => {
    expect(['n', 'go north', 'North.', 'go n'].map(normaliseCommand)).toEqual(['north', 'north', 'north', 'north']);
    expect(normaliseCommand('x the mailbox')).toBe('examine mailbox');
    expect(normaliseCommand('get an egg')).toBe('take egg');
    expect(normaliseCommand('pick up the lamp')).toBe('take lamp');
    expect(normaliseCommand('put lamp in case')).toBe('put lamp in case');
    expect(commandOfReply('ACTION: open door\nThat is all.')).toBe('open door');
    expect(commandOfReply('\n  13. "read leaflet"')).toBe('read leaflet');
    expect(commandOfReply('> n')).toBe('n');
    expect(commandOfReply('')).toBe('');
  });

  it('spreads the positions evenly after the first k; the control never shows the asked command or its k predecessors', () => {
    expect(probePositions(12, 3, 20)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(probePositions(12, 3, 3)).toEqual([3, 6, 9]);
    expect(probePositions(3, 3, 5)).toEqual([]);
    const qs = recallQuestions(GAME, { k: 3, probes: 3, seed: 1 });
    expect(qs.map((q) => [q.kind, q.position, q.target])).toEqual([['recall', 3, 'go north'], ['shuffled', 3, 'go north'], ['recall', 6, 'read leaflet'], ['shuffled', 6, 'read leaflet'], ['recall', 9, 'n'], ['shuffled', 9, 'n']]);
    expect(qs[0]!.context).toEqual(['n', 'take lamp', 'open the door']);
    for (const q of qs.filter((x) => x.kind === 'shuffled')) {
      expect(q.context).toHaveLength(3);
      const window = WALK.slice(q.position - 3, q.position + 1);
      // Drawn from the other positions (a command may repeat elsewhere: "n" is at 0, 5 and 9).
      expect(q.context.every((c) => WALK.includes(c))).toBe(true);
      expect(q.position === 9 || q.context.every((c) => !window.includes(c))).toBe(true);
    }
    // Deterministic in the seed.
    expect(recallQuestions(GAME, { k: 3, probes: 3, seed: 1 })).toEqual(qs);
    expect(recallMessages('Zork I', ['n', 'e'])[1]!.content).toBe('These are consecutive commands from a walkthrough of the text adventure game “Zork I”:\n1. n\n2. e\nWhat is the next command of the walkthrough?');
  });

  it('Wilson intervals and the exact sign test, by hand', () => {
    // 0 of 10: [0, z²/n ÷ (1 + z²/n)] = [0, 0.27753].
    const zero = wilsonRate(0, 10);
    expect([zero.share, zero.low]).toEqual([0, 0]);
    expect(zero.high).toBeCloseTo(0.27753, 5);
    // 5 of 10: 0.5 ± z·√(0.025 + z²/400) / (1 + z²/10) → [0.23659, 0.76341].
    expect(wilsonRate(5, 10).low).toBeCloseTo(0.23659, 5);
    expect(wilsonRate(5, 10).high).toBeCloseTo(0.76341, 5);
    expect(wilsonRate(0, 0)).toEqual({ count: 0, n: 0, share: null, low: null, high: null });
    expect(signTestP(5, 5)).toBeCloseTo(1 / 32, 12);
    // P(X ≥ 7 | n = 9) = (36 + 9 + 1) / 512.
    expect(signTestP(7, 9)).toBeCloseTo(46 / 512, 12);
    expect(signTestP(0, 4)).toBe(1);
    expect(signTestP(0, 0)).toBeNull();
  });
});

describe('runRecallProbe', () => {
  it('a memorising model recalls every asked command and beats the shuffled control', async () => {
    const r = await runRecallProbe([GAME], memoriser, { k: 3, probes: 20, seed: 0 }, { concurrency: 3 });
    const g = r.games[0]!;
    expect(g.probes).toBe(9);
    expect(g.normalised).toMatchObject({ count: 9, n: 9, share: 1 });
    // "ACTION: n" → "n" equals "n" exactly too.
    expect(g.exact.count).toBe(9);
    expect(g.shuffledNormalised.count).toBeLessThan(3);
    expect(g.discordant.recallOnly).toBe(9 - g.shuffledNormalised.count);
    expect(g.discordant.p).toBeCloseTo(Math.pow(0.5, g.discordant.recallOnly), 12);
    expect(g.excess).toBeCloseTo(1 - g.shuffledNormalised.share!, 12);
    expect(r.items.filter((x) => x.kind === 'recall').every((x) => x.providerModel === 'fake-2026')).toBe(true);
    expect(r.pooled).toBeNull();
    // In question order whatever order the calls finished.
    expect(r.items.map((x) => x.kind)).toEqual(Array.from({ length: 18 }, (_, i) => (i % 2 ? 'shuffled' : 'recall')));
  });

  it('a model that always says "north" scores the frequency of north, in recall and control alike; failed calls are left out', async () => {
    const north = fake(() => 'north');
    const r = await runRecallProbe([GAME, { ...GAME, game: 'second' }], north, { k: 3, probes: 20, seed: 0 });
    const g = r.games[0]!;
    // Targets at 3..11: "go north", "n" (5), "n" (9) are north: 3 of 9.
    expect([g.normalised.count, g.shuffledNormalised.count, g.frequencyBaseline.command, g.frequencyBaseline.rate.count]).toEqual([3, 3, 'north', 3]);
    expect(g.exact.count).toBe(0);
    expect(g.discordant).toEqual({ recallOnly: 0, controlOnly: 0, p: null });
    expect(r.pooled).toMatchObject({ game: 'all games', probes: 18, normalised: { count: 6, n: 18 }, walkthroughLines: 24, frequencyBaseline: { command: 'each game\'s own', rate: { count: 6, n: 18 } } });
    const flaky = fake(() => 'north', (n) => n === 2);
    const f = await runRecallProbe([GAME], flaky, { k: 3, probes: 20, seed: 0 });
    expect(f.games[0]).toMatchObject({ failed: 1, shuffledNormalised: { n: 8 } });
    expect(f.items[1]).toMatchObject({ answer: null, reply: 'error: HTTP 500' });
    const refused = fake(() => '', () => true);
    refused.complete = async () => {
      throw new LlmError('auth', 'key refused');
    };
    await expect(runRecallProbe([GAME], refused, { k: 3, probes: 1, seed: 0 })).rejects.toThrow('key refused');
    await expect(runRecallProbe([GAME], north, { k: 0, probes: 1, seed: 0 })).rejects.toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { fitChat } from './chat-budget.ts';

/** One token per word: easy to compute by hand. */
const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

describe('fitChat', () => {
  const history = [
    { episode: 1, userMessage: 'a '.repeat(100), reply: 'r '.repeat(10) },
    { episode: 2, userMessage: 'b '.repeat(100), reply: 'r '.repeat(10) },
  ];

  it('keeps everything when it fits', () => {
    const fit = fitChat('sys', history, 'new log', { count: words, contextWindow: 1000, replyReserve: 100 });
    expect(fit.messages).toHaveLength(6);
    expect(fit.droppedEpisodes).toEqual([]);
    expect(fit.notice).toBeNull();
    expect(fit.userMessage).toBe('new log');
  });

  it('drops the oldest logs first and tells the user, never the model', () => {
    // system 1+4, each turn 100+4 + 10+4 = 118, new 2+4; limit 250 − 100 = 150 fits one turn.
    const fit = fitChat('sys', history, 'new log', { count: words, contextWindow: 250, replyReserve: 100 });
    expect(fit.droppedEpisodes).toEqual([1]);
    expect(fit.messages).toHaveLength(4);
    expect(fit.userMessage).toBe('new log');
    expect(fit.messages.map((m) => m.content).join('\n')).not.toMatch(/note|removed|context window/i);
    expect(fit.notice).toContain('episode 1');
  });

  it('cuts the first steps of the newest log when it alone is too long', () => {
    const log = ['=== EPISODE 3 ===', ...Array.from({ length: 10 }, (_, i) => `[STEP ${i + 1}] ${'w '.repeat(20)}`), '[EPISODE END] done'].join('\n');
    const fit = fitChat('sys', history, log, { count: words, contextWindow: 200, replyReserve: 50 });
    expect(fit.droppedEpisodes).toEqual([1, 2]);
    expect(fit.cutSteps).toBeGreaterThan(0);
    expect(fit.userMessage).not.toContain('[STEP 1] ');
    expect(fit.userMessage).toContain('[STEP 10]');
    expect(fit.userMessage.startsWith('=== EPISODE 3 ===')).toBe(true);
    expect(fit.notice).toContain(`The first ${fit.cutSteps} steps of the newest log were cut`);
  });
});

import { describe, expect, it } from 'vitest';
import { approximateTokens, cachedCounter, estimateTokenCounter, loadTokenCounter } from './token-count.ts';

describe('token counts', () => {
  it('estimates use ⌈characters / 4⌉, within 35% of cl100k_base on game text', async () => {
    expect(estimateTokenCounter()).toBe(approximateTokens);
    expect(approximateTokens('')).toBe(0);
    expect(approximateTokens('abcde')).toBe(2);
    const text = 'A bare stone chamber lit by a single caged lamp. Four levers stand in a row against the south wall: red, green, blue and yellow.';
    const exact = (await loadTokenCounter())(text);
    expect(Math.abs(approximateTokens(text) - exact) / exact).toBeLessThan(0.35);
  });

  it('a cached counter counts each text once and keeps at most `max` texts', () => {
    const seen: string[] = [];
    const count = cachedCounter((t) => (seen.push(t), t.length), 2);
    expect([count('a'), count('a'), count('bb'), count('ccc'), count('a')]).toEqual([1, 1, 2, 3, 1]);
    expect(seen).toEqual(['a', 'bb', 'ccc', 'a']);
  });
});

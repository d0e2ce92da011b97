/** Seed fields: a number or "random"; a random seed is drawn with the injected source. */
import { describe, expect, it } from 'vitest';
import { drawSeed, parseSeedText, seedText } from './seed.ts';

describe('seed fields', () => {
  it('accept a whole number in [0, 2^32) or "random"', () => {
    expect(parseSeedText(' 42 ')).toEqual({ ok: true, choice: { kind: 'fixed', seed: 42 } });
    expect(parseSeedText('RANDOM')).toEqual({ ok: true, choice: { kind: 'random' } });
    expect(parseSeedText('4294967295')).toEqual({ ok: true, choice: { kind: 'fixed', seed: 4294967295 } });
    for (const bad of ['', '-1', '1.5', '4294967296', 'rand', 'abc']) expect(parseSeedText(bad).ok).toBe(false);
    expect(seedText(7, false)).toBe('7');
    expect(seedText(7, true)).toBe('random');
  });

  it('draw one 32-bit seed from the injected source (crypto by default)', () => {
    expect(drawSeed((buffer) => buffer.fill(123456789))).toBe(123456789);
    const seed = drawSeed();
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
  });
});

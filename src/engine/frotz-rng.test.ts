import { describe, expect, it } from 'vitest';
import { createRngState, restartRng, zRandom } from './frotz-rng.ts';

describe('frotz random-number generator', () => {
  it('seed 0 is a fixed state: A=1 then 0x015A4E36 (values hand-computed from A·0x015A4E35+1)', () => {
    const s = createRngState(0);
    expect(zRandom(s, 10)).toBe(1); // A = 1: (1 >> 16) & 0x7FFF = 0 → 0 % 10 + 1
    expect(s.a).toBe(1);
    expect(zRandom(s, 10)).toBe(7); // A = 0x015A4E36: 0x015A = 346 → 346 % 10 + 1
    expect(s.a).toBe(0x015a4e36);
  });

  it('keeps only the low 32 bits of A', () => {
    const s = createRngState(0xffffffff);
    zRandom(s, 100);
    expect(s.a).toBe(Number((BigInt(0xffffffff) * 0x015a4e35n + 1n) & 0xffffffffn));
  });

  it('reseeding: -r in 1..999 is counting mode, 0 returns to the user seed, ≥1000 sets A', () => {
    const s = createRngState(42);
    expect(zRandom(s, -3)).toBe(0);
    expect([1, 2, 3, 4, 5].map(() => zRandom(s, 10))).toEqual([1, 2, 3, 1, 2]);
    zRandom(s, 0);
    expect(s).toMatchObject({ a: 42, interval: 0 });
    zRandom(s, -5000);
    expect(s.a).toBe(5000);
    restartRng(s);
    expect(s.a).toBe(42);
  });

  it('rejects seeds outside [0, 2^32)', () => {
    expect(() => createRngState(-1)).toThrow(RangeError);
    expect(() => createRngState(1.5)).toThrow(RangeError);
  });
});

/**
 * The one seeded random-number generator of the learning loops (bootstrap resampling, minibatch
 * sampling, parent selection): Mulberry32 (Tommy Ettinger, public domain), a 32-bit state that
 * is trivially persisted and resumed. Not for cryptography.
 */

export class SeededRng {
  private state: number;

  /** @param seed any integer; only its low 32 bits are used */
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The generator's state, to persist and resume exactly (see `SeededRng.fromState`). */
  getState(): number {
    return this.state;
  }

  static fromState(state: number): SeededRng {
    return new SeededRng(state);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). @throws RangeError when n < 1 */
  int(n: number): number {
    if (!(n >= 1)) throw new RangeError(`int(n) needs n ≥ 1, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** A uniformly chosen element. @throws RangeError for an empty array */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

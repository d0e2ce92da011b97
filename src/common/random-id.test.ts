/** Random ids made from getRandomValues (no secure context needed). */
import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { randomUuid } from './random-id.ts';

describe('randomUuid', () => {
  it('makes a version-4 UUID from the bytes drawn', () => {
    const fixed = (bytes: Uint8Array): Uint8Array => (bytes.set(Array.from({ length: 16 }, (_, i) => i * 17)), bytes);
    // bytes 00 11 22 33 | 44 55 | 66→46 77 | 88→88 99 | aa bb cc dd ee ff
    expect(randomUuid(fixed)).toBe('00112233-4455-4677-8899-aabbccddeeff');
    const ones = (bytes: Uint8Array): Uint8Array => bytes.fill(0xff);
    expect(randomUuid(ones)).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });

  it('draws a different id each time from a real random source', () => {
    const fill = (bytes: Uint8Array): Uint8Array => (webcrypto.getRandomValues(bytes as Uint8Array<ArrayBuffer>), bytes);
    const ids = new Set(Array.from({ length: 200 }, () => randomUuid(fill)));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

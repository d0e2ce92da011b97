/**
 * Random ids that need no secure context. `crypto.randomUUID` exists only on https or localhost
 * pages; `crypto.getRandomValues` exists on every page (and in Node), so ids are made from it. The
 * random source is injected: this module uses no DOM or Node API.
 */

/** Fills `bytes` with random values and returns it (the shape of `crypto.getRandomValues`). */
export type RandomBytes = (bytes: Uint8Array) => Uint8Array;

/**
 * A random version-4 UUID (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`, lower-case hex, y ∈ 8…b), the
 * same text `crypto.randomUUID` makes.
 * @param fill the random source: 16 bytes are drawn from it
 */
export function randomUuid(fill: RandomBytes): string {
  const bytes = fill(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

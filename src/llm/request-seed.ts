/**
 * The sampling seed of one local-model call, shared by the CLI's and the page's local providers:
 * FNV-1a (32 bit) of the request's JSON, so the same request gets the same reply (runs and tests
 * reproduce) and different requests sample differently. DOM-free.
 */
export function requestSeed(request: unknown): number {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify(request)) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

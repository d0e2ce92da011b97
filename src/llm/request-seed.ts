/**
 * The sampling seed of one local-model call, shared by the CLI's and the page's local providers:
 * FNV-1a (32 bit) of the request's JSON, then — for a non-zero `salt` — of "\u0000salt:<salt>", so
 * the same request in the same repeat gets the same reply (runs and tests reproduce), different
 * requests sample differently, and repeats of one session (salt = the repeat index, passed as
 * `CompleteOptions.sampleSalt`) sample differently instead of copying each other. Salt 0 gives the
 * request's hash alone (the seed before repeats were salted). DOM-free.
 */
export function requestSeed(request: unknown, salt = 0): number {
  let h = 0x811c9dc5;
  const text = JSON.stringify(request) + (salt ? `\u0000salt:${salt}` : '');
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Checksums of stored run events, so a resume can tell an intact run from a damaged one: 32-bit
 * FNV-1a (Fowler, Noll, Vo; offset basis 0x811c9dc5, prime 0x01000193) over the UTF-16 code units
 * of a text, as 8 lower-case hex digits. Not cryptographic: it detects accidents (a lost, repeated,
 * reordered, cut or garbled record), not tampering. Pure; no DOM or Node APIs.
 */

/** FNV-1a 32-bit of `text` (UTF-16 code units, low byte then high byte), 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    hash = Math.imul(hash ^ (unit & 0xff), 0x01000193);
    hash = Math.imul(hash ^ (unit >>> 8), 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The checksum of one event line chained to the one before it (`previous`: its checksum, or
 * the run id for the first line, so a line copied from another run does not fit). */
export function chainSum(previous: string, body: string): string {
  return fnv1a(`${previous}\n${body}`);
}

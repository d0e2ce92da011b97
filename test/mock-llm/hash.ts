/**
 * Content hashing for the mock LLM: every "random" choice the mock makes (reply ids, exploration
 * commands, fault decisions) is a SHA-256 of request content, so replies never depend on arrival
 * order or clocks. Node-only (node:crypto).
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal content gives equal text whatever the
 * client's key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** Lower-case hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A number in [0, 1) derived from the first 32 bits of the SHA-256 of `text`. */
export function unitFromText(text: string): number {
  return parseInt(sha256Hex(text).slice(0, 8), 16) / 0x1_0000_0000;
}

/** An index in [0, length) derived from `text`. @throws RangeError when length < 1 */
export function indexFromText(text: string, length: number): number {
  if (length < 1) throw new RangeError('indexFromText needs a non-empty list');
  return parseInt(sha256Hex(text).slice(0, 8), 16) % length;
}

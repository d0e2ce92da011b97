/**
 * The --policy option: static | reflexion | memory | textgrad | naive | a built-in library id (fact-bank,
 * credit-assignment, route-script) | a meta-prompt file (plain text = the strategy section, or a
 * JSON library entry with a "strategy" field); and --raw-meta-prompt FILE: the file's text as the
 * meta-agent's whole system message, byte for byte.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { BUILT_IN_META_PROMPTS } from '../agents/meta-prompt-library.ts';
import type { PolicySpec } from '../ttl/policy.ts';
import { UsageError } from './usage-error.ts';

/** Story ids a JSON meta-prompt file says it was selected on (`selectedOn`), else []. */
export async function selectedOnFromOption(value: string): Promise<string[]> {
  if (!value.endsWith('.json')) return [];
  try {
    const entry = JSON.parse(await readFile(value, 'utf8')) as { selectedOn?: unknown };
    return Array.isArray(entry.selectedOn) ? entry.selectedOn.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export async function policyFromOption(value: string): Promise<PolicySpec> {
  if (value === 'static' || value === 'reflexion' || value === 'memory' || value === 'textgrad') return { kind: value };
  if (value === 'naive') return { kind: 'meta', name: 'naive', strategy: '' };
  const builtIn = BUILT_IN_META_PROMPTS.find((m) => m.id === value);
  if (builtIn) return { kind: 'meta', name: builtIn.id, strategy: builtIn.strategy };
  let text: string;
  try {
    text = await readFile(value, 'utf8');
  } catch {
    throw new UsageError(`--policy must be static, reflexion, memory, textgrad, naive, ${BUILT_IN_META_PROMPTS.slice(1).map((m) => m.id).join(', ')} or a meta-prompt file; "${value}" is none of these`);
  }
  if (value.endsWith('.json')) {
    let entry: { name?: unknown; strategy?: unknown } | null;
    try {
      entry = JSON.parse(text) as typeof entry;
    } catch (error) {
      throw new UsageError(`${value} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof entry?.strategy !== 'string') throw new UsageError(`${value} has no "strategy" text`);
    return { kind: 'meta', name: typeof entry.name === 'string' ? entry.name : basename(value), strategy: entry.strategy };
  }
  return { kind: 'meta', name: basename(value), strategy: text.trim() };
}

/**
 * `--raw-meta-prompt FILE`: a meta policy whose system message is the file's text byte for byte —
 * no header, no footer, no trimming, line endings and a byte-order mark kept (policy.ts `raw`;
 * meta-prompt.ts `metaPromptOf`). The name is the file's base name.
 * @throws UsageError for an unreadable file, a JSON file (a library entry belongs in --policy), text
 *   that is not UTF-8 (it could not be sent byte for byte) or a file with nothing but white space
 */
export async function rawMetaPromptFromFile(file: string, flag = '--raw-meta-prompt'): Promise<PolicySpec & { kind: 'meta' }> {
  if (file.toLowerCase().endsWith('.json')) throw new UsageError(`${flag} takes the prompt's own text file; ${file} is JSON (a library entry: pass it with --policy, where its "strategy" goes between our header and footer)`);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(`${flag} ${file}: not UTF-8 text, so it cannot be sent byte for byte`);
  }
  if (text.trim() === '') throw new UsageError(`${flag} ${file}: the file is empty (a raw meta-prompt is the meta-agent's whole system message)`);
  return { kind: 'meta', name: basename(file), strategy: text, raw: true };
}

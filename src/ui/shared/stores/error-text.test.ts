import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecrets, KEY_HIDDEN, registerSecret } from '../../../common/secrets.ts';
import { errorText, showingErrors } from './error-text.ts';

const KEY = 'fake-test-key-0123456789abcdefghij';
afterEach(() => forgetSecrets());

describe('the text a view shows for an error', () => {
  it('scrubs a registered key from any thrown value, in the encodings a server echoes it', () => {
    registerSecret(KEY);
    expect(errorText(new Error(`401: bad key ${KEY}`))).toBe(`401: bad key ${KEY_HIDDEN}`);
    expect(errorText(`proxy said ${encodeURIComponent(KEY)}`)).not.toContain(KEY.slice(3));
    expect(errorText(new Error('The story file is not a Z-machine story.'))).toBe('The story file is not a Z-machine story.');
  });

  it('a guarded task that throws shows its scrubbed text and reports false; one that finishes reports true', async () => {
    registerSecret(KEY);
    const shown: string[] = [];
    expect(await showingErrors(async () => Promise.reject(new Error(`echo ${KEY}`)), (m) => shown.push(m))).toBe(false);
    expect(await showingErrors(async () => 1, (m) => shown.push(m))).toBe(true);
    expect(shown).toEqual([`echo ${KEY_HIDDEN}`]);
    expect(await showingErrors(async () => Promise.reject(new Error('x')), (m) => shown.push(m), () => 'custom')).toBe(false);
    expect(shown.at(-1)).toBe('custom');
  });

  it('no view words a caught error itself: every one goes through errorText (or a messageOf built on it)', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.(ts|svelte)$/.test(f) && !f.endsWith('.test.ts'));
    // The raw text of a caught value, unscrubbed: `(error as Error).message`, `error instanceof Error ? error.message : …`,
    // `String(error)` — except wrapped in a new error thrown on (its text is worded where that one is shown).
    const raw = /\((?:error|err|e) as Error\)\.message|(?:error|err) instanceof Error \? (?:error|err)\.message|String\((?:error|err)\)/;
    const offenders = files.filter((f) => !f.endsWith('error-text.ts')).flatMap((f) => readFileSync(join(root, f), 'utf8').split('\n')
      .filter((line) => raw.test(line) && !/\bthrow new \w*Error\(/.test(line)).map((line) => `${f}: ${line.trim()}`));
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecrets, KEY_HIDDEN, registerSecret } from '../../../common/secrets.ts';
import { errorText } from './error-text.ts';

const KEY = 'fake-test-key-0123456789abcdefghij';
afterEach(() => forgetSecrets());

describe('the text a view shows for an error', () => {
  it('scrubs a registered key from any thrown value, in the encodings a server echoes it', () => {
    registerSecret(KEY);
    expect(errorText(new Error(`401: bad key ${KEY}`))).toBe(`401: bad key ${KEY_HIDDEN}`);
    expect(errorText(`proxy said ${encodeURIComponent(KEY)}`)).not.toContain(KEY.slice(3));
    expect(errorText(new Error('The story file is not a Z-machine story.'))).toBe('The story file is not a Z-machine story.');
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

  it('every view shows thrown errors through its one error slot: no view defines a guard of its own or catches into its error field', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.(ts|svelte)$/.test(f) && !f.endsWith('.test.ts'));
    const sources = files.map((f) => ({ f, text: readFileSync(join(root, f), 'utf8') }));
    // A method that runs a task and shows what it throws, written again in a view.
    const guardMethod = /^\s*(?:private |protected |public )?(?:async )?guard\s*[<(]/m;
    // A catch whose first act is to put the caught value's text into the view's error field.
    const catchIntoError = /catch \((\w+)\) \{\s*(?:if \([^)]*\) )?this\.error = [^\n]*\b\1\b/;
    const slotViews = sources.filter(({ text }) => /new ErrorSlot\(|extends (?:RunLifecycle|RunDriver|RunViewState)\b/.test(text));
    expect(sources.filter(({ text }) => guardMethod.test(text)).map(({ f }) => f)).toEqual([]);
    expect(slotViews.length).toBeGreaterThanOrEqual(10);
    expect(slotViews.filter(({ text }) => catchIntoError.test(text)).map(({ f }) => f)).toEqual([]);
    // The old per-view helper is gone; the slot is the one place a task's thrown error is worded and shown.
    expect(sources.filter(({ f, text }) => /\bshowingErrors\b/.test(text) && !f.endsWith('error-slot.svelte.ts')).map(({ f }) => f)).toEqual([]);
  });
});

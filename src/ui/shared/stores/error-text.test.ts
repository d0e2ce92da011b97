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
});

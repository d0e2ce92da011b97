/**
 * A view's error slot: every thrown value (an Error, a string, an error wrapping a cause) shown
 * with the API key scrubbed — the key Settings holds, as settings.messageOf words it, and any
 * registered key by default — the value a task returns, framing, clearing, dismissing, and two
 * tasks running at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecrets, KEY_HIDDEN } from '../../../common/secrets.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import { ApiKeyHolder } from './api-key.svelte.ts';
import { ErrorSlot } from './error-slot.svelte.ts';
import type { LlmServices } from './llm-services.ts';
import { SettingsState } from './settings.svelte.ts';

const KEY = 'fake-test-key-slot-0123456789abcdefghij';
afterEach(() => forgetSecrets());

const llm: LlmServices = { listModels: async () => ['m'], createModels: async () => Promise.reject(new Error('not used')) };

/** A slot worded as a view with Settings words it, the key set in Settings. */
async function settingsSlot(): Promise<ErrorSlot> {
  const key = new ApiKeyHolder();
  const settings = new SettingsState(llm, key);
  await settings.init(new MemoryStore());
  key.set(KEY);
  return new ErrorSlot((error) => settings.messageOf(error));
}

/** A promise the test settles by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('a view’s error slot', () => {
  it('shows an Error’s message with the Settings key scrubbed, and hands back a finished task’s value', async () => {
    const slot = await settingsSlot();
    expect(slot.message).toBeNull();
    expect(await slot.run(async () => 'stored run')).toBe('stored run');
    expect(await slot.run(async () => Promise.reject(new Error(`401 Unauthorized: Incorrect API key provided: ${KEY}`)))).toBeUndefined();
    expect(slot.message).toBe(`401 Unauthorized: Incorrect API key provided: ${KEY_HIDDEN}`);
  });

  it('scrubs the key from thrown values that are not Errors: a string, an encoded echo, an object', async () => {
    const slot = await settingsSlot();
    expect(await slot.attempt(() => Promise.reject(`proxy said ${KEY}`))).toBe(false);
    expect(slot.message).toBe(`proxy said ${KEY_HIDDEN}`);
    await slot.attempt(() => {
      throw `echo ${encodeURIComponent(KEY)}`;
    });
    expect(slot.message).not.toContain(KEY.slice(3, 20));
    expect(slot.message).toContain(KEY_HIDDEN);
    await slot.attempt(() => Promise.reject({ toString: () => `key=${KEY}` }));
    expect(slot.message).toBe(`key=${KEY_HIDDEN}`);
  });

  it('scrubs the key from an error that words its cause into its own text, and never shows the cause raw', async () => {
    const slot = new ErrorSlot();
    new ApiKeyHolder().set(KEY); // the default wording scrubs every registered key
    const inner = new Error(`bad key ${KEY}`);
    const middle = new Error(`the provider refused: ${inner.message}`, { cause: inner });
    await slot.attempt(async () => Promise.reject(new Error(`The session could not start. ${middle.message}`, { cause: middle })));
    expect(slot.message).toBe(`The session could not start. the provider refused: bad key ${KEY_HIDDEN}`);
    await slot.attempt(async () => Promise.reject(new Error('The run stopped.', { cause: inner })));
    expect(slot.message).toBe('The run stopped.');
  });

  it('frames the worded text, clears before a fresh attempt when asked, and dismisses', async () => {
    const slot = await settingsSlot();
    await slot.attempt(() => Promise.reject(new Error(`not JSON: ${KEY}`)), { framed: (text) => `run.json: ${text}` });
    expect(slot.message).toBe(`run.json: not JSON: ${KEY_HIDDEN}`);
    expect(await slot.attempt(async () => undefined)).toBe(true);
    expect(slot.message).toBe(`run.json: not JSON: ${KEY_HIDDEN}`);
    let seen: string | null = 'unset';
    expect(await slot.attempt(() => void (seen = slot.message), { clear: true })).toBe(true);
    expect(seen).toBeNull();
    slot.message = 'A problem found before the run.';
    slot.dismiss();
    expect(slot.message).toBeNull();
  });

  it('of two tasks running at once, a finished one leaves the other’s failure shown and the later failure wins', async () => {
    const slot = await settingsSlot();
    const first = deferred();
    const second = deferred();
    const a = slot.attempt(() => first.promise, { clear: true });
    const b = slot.attempt(() => second.promise, { clear: true });
    second.reject(new Error(`second failed ${KEY}`));
    expect(await b).toBe(false);
    first.resolve();
    expect(await a).toBe(true);
    expect(slot.message).toBe(`second failed ${KEY_HIDDEN}`);

    const third = deferred();
    const fourth = deferred();
    const c = slot.attempt(() => third.promise);
    const d = slot.attempt(() => fourth.promise);
    fourth.reject(new Error('fourth failed'));
    third.reject(new Error('third failed'));
    expect([await c, await d]).toEqual([false, false]);
    expect(slot.message).toBe('third failed');
  });
});

/** The key holder never reveals the key by serialisation, string conversion or cloning. */
import { inspect } from 'node:util';
import { expect, it } from 'vitest';
import { ApiKeyHolder } from './api-key.svelte.ts';

const KEY = 'sk-secret-123456';

it('keeps the key out of JSON, strings, clones and inspection', () => {
  const holder = new ApiKeyHolder();
  expect(holder.isSet).toBe(false);
  holder.set(KEY);
  expect(holder.reveal()).toBe(KEY);
  expect(holder.isSet).toBe(true);
  expect(JSON.stringify(holder)).toBe('{"isSet":true}');
  expect(JSON.stringify({ settings: { holder } })).not.toContain(KEY);
  expect(String(holder)).toBe('[API key hidden]');
  expect(`${holder}`).not.toContain(KEY);
  expect(JSON.stringify(structuredClone(holder))).not.toContain(KEY);
  expect(Object.keys(holder)).toEqual([]);
  expect(inspect(holder, { showHidden: true, depth: 5 })).not.toContain(KEY);
  holder.set('');
  expect(String(holder)).toBe('[no API key]');
});

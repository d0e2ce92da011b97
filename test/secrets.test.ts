/**
 * A key echoed back inside a normal model reply is stored and exported nowhere:
 * every store's write path (runs, events, meta-prompts; IndexedDB, files, memory) and every export
 * path (stringifyWithoutSecrets, entry files, share links) scrub the registered key; the page
 * registers it when it is set.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringifyWithoutSecrets } from '../src/agents/trajectory-io.ts';
import { decodeShare, encodeShare } from '../src/share/share-link.ts';
import { ApiKeyHolder } from '../src/ui/shared/state/api-key.svelte.ts';
import { exportEntry } from '../src/ui/shared/state/entry-io.ts';
import { openIdbStore } from '../src/store/idb-store.ts';
import type { Store } from '../src/store/interface.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { forgetSecrets, KEY_HIDDEN, registerSecret, scrubSecrets, scrubText } from '../src/common/secrets.ts';

// A made-up key (scrubbing matches registered values, not a key format).
const KEY = 'test-key-not-a-secret-0123456789';
const reply = `Sure! Your key is ${KEY}. ACTION: say ${KEY}`;
afterEach(forgetSecrets);

/** A key with characters every encoding changes, and the forms it takes in text we keep. */
const ODD_KEY = 'sk-odd/Key+with=chars é_0123456789';
const percent = (s: string) => [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const ENCODED: [string, string][] = [
  ['raw', ODD_KEY],
  ['encodeURIComponent', encodeURIComponent(ODD_KEY)],
  ['encodeURI', encodeURI(ODD_KEY)],
  ['form-encoded', new URLSearchParams({ k: ODD_KEY }).toString().slice(2)],
  ['percent lowercase', percent(ODD_KEY)],
  ['percent uppercase', percent(ODD_KEY).toUpperCase()],
  ['percent twice', encodeURIComponent(encodeURIComponent(ODD_KEY))],
  ['JSON-escaped slash', ODD_KEY.replace(/\//g, '\\/')],
  ['JSON \\u escapes', [...ODD_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ['HTML references', [...ODD_KEY].map((c) => `&#${c.codePointAt(0)};`).join('')],
  ['base64', Buffer.from(ODD_KEY).toString('base64')],
  ['base64url', Buffer.from(ODD_KEY).toString('base64url')],
  ['hex', Buffer.from(ODD_KEY).toString('hex')],
  ['JavaScript \\x escapes', [...ODD_KEY].map((c) => (c.charCodeAt(0) < 128 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('')],
  ['JavaScript \\u{} escapes', [...ODD_KEY].map((c) => `\\u{${c.charCodeAt(0).toString(16)}}`).join('')],
  // As a server or proxy may echo it: spaced, zero-width spaced, reversed, full-width.
  ['spaced', [...ODD_KEY].join(' ')],
  ['spaced by zero-width characters', [...ODD_KEY].join('\u200b')],
  ['reversed', [...ODD_KEY].reverse().join('')],
  ['reversed and spaced', [...ODD_KEY].reverse().join('  ')],
  ['full-width', [...ODD_KEY].map((c) => (c > ' ' && c < '\u007f' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('')],
];
/** What base64 of a text with the key inside (any alignment) must not contain: the key's bytes
 * from the first whole 3-byte group on. */
const base64Inside = (prefix: string) => Buffer.from(prefix + ODD_KEY).toString('base64');

describe('scrubbing registered keys', () => {
  it('replaces the key in every string of plain data, keeps binary data and leaves the input alone', () => {
    registerSecret(KEY);
    registerSecret('short'); // too short to be a key: never scrubbed
    const bytes = new Uint8Array([1, 2, 3]);
    const value = { reply, nested: [{ observation: `${KEY}${KEY}` }, 5, null], bytes, note: 'short' };
    const clean = scrubSecrets(value);
    expect(clean).toEqual({ reply: `Sure! Your key is ${KEY_HIDDEN}. ACTION: say ${KEY_HIDDEN}`, nested: [{ observation: KEY_HIDDEN + KEY_HIDDEN }, 5, null], bytes, note: 'short' });
    expect(clean.bytes).toBe(bytes);
    expect(value.reply).toBe(reply);
    const untouched = { a: 'nothing secret' };
    expect(scrubSecrets(untouched)).toBe(untouched);
    expect(scrubText(`x${KEY}y`)).toBe(`x${KEY_HIDDEN}y`);
  });

  it.each(ENCODED)('finds the key %s inside a URL and hides it', (_name, form) => {
    registerSecret(ODD_KEY);
    expect(scrubText(`GET https://x.example/v1?key=${form}&alt=json failed`)).toBe(`GET https://x.example/v1?key=${KEY_HIDDEN}&alt=json failed`);
  });

  it.each(['', 'a', 'ab', 'Basic user:'])('hides the key inside base64 of %j + key (any alignment): at most 4 characters of the key’s encoding are left', (prefix) => {
    registerSecret(ODD_KEY);
    const encoded = base64Inside(prefix);
    const clean = scrubText(encoded);
    expect(clean).toContain(KEY_HIDDEN);
    expect(clean.replace(KEY_HIDDEN, '').length).toBeLessThanOrEqual(Buffer.from(prefix).toString('base64').length + 8);
  });

  it('leaves ordinary text, other keys’ encodings and pieces shorter than 12 characters alone', () => {
    registerSecret(ODD_KEY);
    const text = `sk-odd/Key+! h=chars é_0! 12345678 ${encodeURIComponent('sk-other/Key')} ${Buffer.from('hello world').toString('base64')} 100% %41 a sentence with words like internationalisation`;
    expect(scrubText(text)).toBe(text);
    // One character short of the whole key is most of it: hidden.
    expect(scrubText(`key ${ODD_KEY.slice(0, -1)}!`)).toBe(`key ${KEY_HIDDEN}!`);
  });

  it('hides each piece of a key split across two replies, forwards or reversed, and only the piece', () => {
    registerSecret(ODD_KEY);
    for (const cut of [12, 17, 20]) {
      const replies = { steps: [{ reply: `ACTION: say ${ODD_KEY.slice(0, cut)}` }, { reply: `${ODD_KEY.slice(cut)} (continued)` }] };
      expect(scrubSecrets(replies), `cut at ${cut}`).toEqual({ steps: [{ reply: `ACTION: say ${KEY_HIDDEN}` }, { reply: `${KEY_HIDDEN} (continued)` }] });
      const reversed = [...ODD_KEY].reverse().join('');
      // (a piece may begin with the key's own space, which is left where it was)
      expect(scrubText(`${reversed.slice(0, cut)} | ${reversed.slice(cut)}`).replace(/\s+/g, ' ')).toBe(`${KEY_HIDDEN} | ${KEY_HIDDEN}`);
    }
    // Two keys' pieces in one text, and the key twice, spaced: each hidden where it is.
    expect(scrubText(`a ${ODD_KEY.slice(0, 14)} b ${[...ODD_KEY].join(' ')} c`)).toBe(`a ${KEY_HIDDEN} b ${KEY_HIDDEN} c`);
  });

  it('scrubs a 1 MB reply with no key in linear time', () => {
    registerSecret(ODD_KEY);
    const text = 'The quick brown fox jumps over the lazy dog 0123456789. '.repeat(20_000);
    expect(scrubText(text)).toBe(text);
  });

  it('the page registers the key when it is set', () => {
    expect(scrubText(KEY)).toBe(KEY);
    new ApiKeyHolder().set(KEY);
    expect(scrubText(KEY)).toBe(KEY_HIDDEN);
  });
});

describe('every store writes runs, events and meta-prompts without the key', () => {
  const stores: [string, () => Promise<{ store: Store; raw: () => string | Promise<string> }>][] = [
    ['files', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'metattl-secrets-'));
      const store = await openNodeStore(dir);
      const raw = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) => readFileSync(join(f.parentPath, f.name), 'utf8')).join('\n');
      return { store, raw };
    }],
    ['IndexedDB', async () => {
      const dbName = `secrets-${Math.random()}`;
      const store = await openIdbStore({ dbName });
      const raw = async () => {
        const db = await new Promise<IDBDatabase>((resolve) => {
          const request = indexedDB.open(dbName);
          request.onsuccess = () => resolve(request.result);
        });
        const tx = db.transaction(['runs', 'runEvents', 'metaPrompts']);
        const all = await Promise.all(['runs', 'runEvents', 'metaPrompts'].map((name) => new Promise<unknown>((resolve) => {
          const request = tx.objectStore(name).getAll();
          request.onsuccess = () => resolve(request.result);
        })));
        db.close();
        return JSON.stringify(all);
      };
      return { store, raw };
    }],
    ['memory', async () => ({ store: new MemoryStore(), raw: () => '' })],
  ];
  for (const [name, make] of stores) {
    it(name, async () => {
      registerSecret(KEY);
      const { store, raw } = await make();
      const header = { id: 'r1', kind: 'session' as const, updatedAt: 1, summary: { title: reply }, data: { guide: reply } };
      await store.appendRunEvents('r1', [{ seq: 1, data: { reply, action: `say ${KEY}` } }], header);
      await store.putRun({ ...header, updatedAt: 2 });
      await store.rewriteRun({ ...header, updatedAt: 3 }, [{ seq: 1, data: { reply } }, { seq: 2, data: { reply } }]);
      await store.appendRunEvents('r1', [{ seq: 3, data: { reply } }]);
      await store.putMetaPrompt({ id: 'm1', createdAt: 1, entry: { strategy: reply } });
      registerSecret(ODD_KEY);
      await store.appendRunEvents('r1', [{ seq: 4, data: { error: ENCODED.map(([name, form]) => `${name}: ?key=${form}`).join('\n') } }]);
      const run = await store.getRun('r1');
      const everything = JSON.stringify([run, await store.listRuns('session'), await store.listMetaPrompts()]) + (await raw());
      expect(everything).toContain(KEY_HIDDEN);
      expect(everything).not.toContain(KEY);
      for (const [, form] of ENCODED) expect(everything).not.toContain(JSON.stringify(form).slice(1, -1));
      expect(run?.damage).toBeNull();
      store.close();
    });
  }
});

describe('every export path leaves the key out', () => {
  it('export files, entry files and share links', () => {
    registerSecret(KEY);
    expect(stringifyWithoutSecrets({ steps: [{ reply }] })).not.toContain(KEY);
    const entry = { id: 'e', name: 'n', description: reply, strategy: reply, provenance: { kind: 'hand-written' as const }, selectedOn: [], evaluations: [] };
    expect(exportEntry(entry)).not.toContain(KEY);
    const shared = decodeShare(encodeShare({ kind: 'meta-prompt', metaPrompt: { name: 'n', description: '', strategy: reply, provenance: 'x', selectedOn: [] } }));
    expect(JSON.stringify(shared)).not.toContain(KEY);
    expect(shared.kind === 'meta-prompt' && shared.metaPrompt.strategy).toBe(`Sure! Your key is ${KEY_HIDDEN}. ACTION: say ${KEY_HIDDEN}`);
  });
});

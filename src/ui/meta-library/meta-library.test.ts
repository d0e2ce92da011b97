/** The meta-prompt library in Node: the entry file validator, the catalog over a memory store,
 * the Library state (editor, full prompt and tokens, share link, import) and the share inbox. */
import { describe, expect, it } from 'vitest';
import { META_PROMPT_FOOTER, META_PROMPT_HEADER } from '../../agents/meta-prompt.ts';
import { decodeShare, shareUrl } from '../../share/share-link.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import { ENTRY_FILE_FORMAT, EntryImportError, exportEntry, importEntry, provenanceText, readStoredEntry, type LibraryMetaPrompt } from '../shared/state/entry-io.ts';
import { MetaLibraryState } from './meta-library.svelte.ts';
import { BUILT_IN_ENTRIES, MetaPromptCatalog } from '../shared/state/meta-prompt-catalog.svelte.ts';
import { ShareInbox } from './share-inbox.svelte.ts';
import type { ShareLocation } from './share-location.ts';

const entry: LibraryMetaPrompt = {
  id: 'e1', name: 'Mine', description: 'd', strategy: 'Be brief.', provenance: { kind: 'evolved', runId: 'run-7', parentId: 'c2', iteration: 3 },
  selectedOn: ['advent'], evaluations: [{ taskSet: 'OOD', meanWAuc: 0.2, low: 0.1, high: 0.3 }],
};

function catalogOn(store = new MemoryStore()): MetaPromptCatalog {
  let n = 0;
  let clock = 100;
  return new MetaPromptCatalog({ store: async () => store, now: () => clock++, newId: () => `user-${++n}` });
}

describe('entry files', () => {
  it('round-trips an entry under a new id, provenance "imported"', () => {
    const back = importEntry(exportEntry(entry), 'new-id', 'mine.json');
    expect(back).toEqual({ ...entry, id: 'new-id', provenance: { kind: 'imported', from: 'mine.json (evolved in run run-7)' } });
  });

  it('says clearly what is wrong with a bad file', () => {
    const bad = (text: string) => () => importEntry(text, 'x', 'f.json');
    expect(bad('not json')).toThrow(EntryImportError);
    expect(bad('not json')).toThrow(/This file is not JSON/);
    expect(bad('{"format":"other"}')).toThrow(`its "format" is not "${ENTRY_FILE_FORMAT}"`);
    expect(bad(JSON.stringify({ format: ENTRY_FILE_FORMAT, entry: { id: 'a', name: ' ', strategy: '' } }))).toThrow(/entry\.name: a name is required/);
    expect(bad(JSON.stringify({ format: ENTRY_FILE_FORMAT, entry: { id: 'a', name: 'n', strategy: 'x'.repeat(20_001) } }))).toThrow(/entry\.strategy/);
    expect(bad(JSON.stringify({ format: ENTRY_FILE_FORMAT, entry: { id: 'a', name: 'n', strategy: '', evaluations: [{ taskSet: 'A' }] } }))).toThrow(/entry\.evaluations\.0\.meanWAuc/);
    expect(bad(JSON.stringify({ format: ENTRY_FILE_FORMAT, entry: { id: 'a', name: 'n', strategy: '', evaluations: [{ taskSet: 'A', meanWAuc: 1e308, low: 0, high: 1 }] } }))).toThrow(/entry\.evaluations\.0\.meanWAuc: Too big/);
  });

  it('reads stored entries leniently (defaults) and skips bad ones', () => {
    expect(readStoredEntry({ id: 'a', name: 'n', strategy: 's' })).toEqual({ id: 'a', name: 'n', description: '', strategy: 's', provenance: { kind: 'hand-written' }, selectedOn: [], evaluations: [] });
    expect(readStoredEntry({ name: 'no id' })).toBeNull();
    expect(provenanceText(entry.provenance)).toBe('Evolved in run run-7 from parent c2 (iteration 3)');
  });
});

describe('MetaPromptCatalog', () => {
  it('lists built-ins then stored entries; built-ins are read-only; survives a reopen', async () => {
    const store = new MemoryStore();
    const catalog = catalogOn(store);
    await catalog.init();
    expect(catalog.entries.map((e) => e.id)).toEqual(BUILT_IN_ENTRIES.map((e) => e.id));
    await expect(catalog.save({ ...entry, id: 'naive' })).rejects.toThrow(RangeError);
    await catalog.save(entry);
    await catalog.save({ ...entry, name: 'Renamed' });
    await store.putMetaPrompt({ id: 'junk', createdAt: 1, entry: 'not an entry' });
    const again = catalogOn(store);
    await again.init();
    expect(again.userEntries.map((e) => e.name)).toEqual(['Renamed']);
    expect(again.skipped).toBe(1);
    await again.remove('e1');
    expect(again.find('e1')).toBeUndefined();
    expect((await store.listMetaPrompts()).map((s) => s.id)).toEqual(['junk']);
  });
});

describe('MetaLibraryState', () => {
  function makeState() {
    const catalog = catalogOn();
    const downloads: { fileName: string; text: string }[] = [];
    const shown: unknown[] = [];
    const copied: string[] = [];
    const state = new MetaLibraryState({
      catalog,
      services: { download: (fileName, text) => void downloads.push({ fileName, text: String(text) }), readFile: async (file) => new Uint8Array(await file.arrayBuffer()), query: () => new URLSearchParams('entry=fact-bank') },
      show: (view, params) => void shown.push({ view, params }), pageUrl: () => 'http://page.invalid/sub/?view=library', copyText: async (text) => void copied.push(text),
      loadCounter: async () => (text: string) => text.split(/\s+/).length,
    });
    return { state, catalog, downloads, shown, copied };
  }

  it('shows the full meta-prompt and its token count live while editing, then saves', async () => {
    const { state, catalog } = makeState();
    await state.enter();
    expect(state.selected?.id).toBe('fact-bank');
    state.newEntry();
    state.changeDraft({ name: 'Brief', strategy: 'Keep guides short.' });
    expect(state.fullPrompt).toBe(`${META_PROMPT_HEADER}\n\nStrategy:\nKeep guides short.\n\n${META_PROMPT_FOOTER}`);
    expect(state.tokenCount).toBe(state.fullPrompt.split(/\s+/).length);
    await state.saveDraft();
    expect(state.draft).toBeNull();
    expect(state.selected?.name).toBe('Brief');
    expect(state.selected?.provenance).toEqual({ kind: 'hand-written' });
    expect(catalog.userEntries).toHaveLength(1);
  });

  it('refuses to save a nameless entry; edits keep provenance; built-ins duplicate instead', async () => {
    const { state, catalog } = makeState();
    await state.init();
    state.newEntry();
    await state.saveDraft();
    expect(state.error).toMatch(/name: a name is required/);
    state.cancelDraft();
    await catalog.save(entry);
    state.edit(catalog.find('e1')!);
    state.changeDraft({ strategy: 'Changed.' });
    await state.saveDraft();
    expect(catalog.find('e1')).toMatchObject({ strategy: 'Changed.', provenance: entry.provenance, evaluations: entry.evaluations });
    state.edit(BUILT_IN_ENTRIES[1]!);
    expect(state.draft?.replaces).toBe(false);
    expect(state.draft?.id).not.toBe('fact-bank');
  });

  it('every entry the Library accepts can be shared, or is refused with a clear message (never a schema dump)', async () => {
    const { state, catalog } = makeState();
    await state.init();
    // At the Library's limits: 200 task sets of 200 characters, the longest provenance texts, a 200-character name.
    const long = (i: number) => `task-${i}-`.padEnd(200, 'x');
    const shareable = { ...entry, id: 'e2', name: 'N'.repeat(200), provenance: { kind: 'imported' as const, from: 'f'.repeat(500) }, selectedOn: Array.from({ length: 200 }, (_, i) => long(i)) };
    const evolved = { ...entry, id: 'e3', provenance: { kind: 'evolved' as const, runId: 'r'.repeat(200), parentId: 'p'.repeat(200), iteration: 99999 } };
    for (const e of [shareable, evolved]) {
      await catalog.save(e);
      await state.copyShareLink(catalog.find(e.id)!);
      expect(state.error).toBeNull();
      expect(decodeShare(new URL(state.shareLink!).hash)).toMatchObject({ kind: 'meta-prompt', metaPrompt: { name: e.name, selectedOn: e.selectedOn } });
    }
    // Too much to compress into a link: said in words, with what to do instead.
    let x = 7;
    const noise = () => Array.from({ length: 200 }, () => String.fromCharCode(33 + (((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 16) % 90))).join('');
    const huge = { ...entry, id: 'e4', selectedOn: Array.from({ length: 200 }, noise) };
    await catalog.save(huge);
    await state.copyShareLink(catalog.find('e4')!);
    expect(state.error).toMatch(/^This is too long to share as a link \(\d+ characters\); export it as a file instead\.$/);
  });

  it('makes a share link without a key; "try" opens Learn with the entry; export and import', async () => {
    const { state, catalog, shown, copied, downloads } = makeState();
    await state.init();
    await catalog.save(entry);
    await state.copyShareLink(catalog.find('e1')!);
    expect(state.copied).toBe(true);
    expect(copied).toEqual([state.shareLink]);
    const payload = decodeShare(new URL(state.shareLink!).hash);
    expect(payload).toEqual({ kind: 'meta-prompt', metaPrompt: { name: 'Mine', description: 'd', strategy: 'Be brief.', provenance: 'Evolved in run run-7 from parent c2 (iteration 3)', selectedOn: ['advent'] } });
    state.tryIt(catalog.find('e1')!);
    expect(shown).toEqual([{ view: 'learn', params: { metaPrompt: 'e1' } }]);
    state.exportEntry(catalog.find('e1')!);
    await state.importFile(new File([downloads[0]!.text], 'mine.json'));
    expect(state.message).toBe('Imported “Mine”.');
    expect(catalog.userEntries).toHaveLength(2);
    await state.importFile(new File(['{}'], 'bad.json'));
    expect(state.error).toMatch(/not a Meta-TTL meta-prompt file/);
  });
});

describe('ShareInbox', () => {
  function location(hash: string): ShareLocation & { cleared: number; fire(): void; hashValue: string } {
    let listener = () => undefined as void;
    const loc = {
      hashValue: hash, cleared: 0,
      hash: () => loc.hashValue,
      clearHash: () => void ((loc.hashValue = ''), loc.cleared++),
      onHashChange: (l: () => void) => void (listener = l),
      fire: () => listener(),
    };
    return loc;
  }

  it('previews a shared meta-prompt and adds it to the library', async () => {
    const url = shareUrl('http://p/', { kind: 'meta-prompt', metaPrompt: { name: 'S', description: '', strategy: 'x', provenance: 'hand-written', selectedOn: [] } });
    const loc = location(new URL(url).hash);
    const catalog = catalogOn();
    const shown: unknown[] = [];
    const inbox = new ShareInbox(loc, { catalog, applySetup: async () => undefined, applyProvider: () => undefined, show: (view, params) => void shown.push({ view, params }) });
    inbox.start();
    expect(inbox.preview.status).toBe('meta-prompt');
    await inbox.addToLibrary();
    expect(catalog.userEntries[0]).toMatchObject({ name: 'S', strategy: 'x', provenance: { kind: 'imported', from: 'a shared link (hand-written)' } });
    expect(shown).toEqual([{ view: 'library', params: { entry: catalog.userEntries[0]!.id } }]);
    expect(inbox.preview.status).toBe('none');
    expect(loc.cleared).toBe(1);
  });

  it('loads a shared setup; a damaged link shows why; later hash changes are followed', async () => {
    const loc = location('#share=v1.AAAA');
    const applied: unknown[] = [];
    const inbox = new ShareInbox(loc, { catalog: catalogOn(), applySetup: async (s) => void applied.push(s), applyProvider: () => undefined, show: () => undefined });
    inbox.start();
    expect(inbox.preview).toEqual({ status: 'error', message: expect.stringContaining('damaged') });
    const setup = { storyId: 'advent', storyMd5: 'a'.repeat(32), storyTitle: 'A', seed: 1, policy: { kind: 'static' as const }, episodes: 2, maxSteps: 3, models: { actor: 'a', metaAgent: 'b' } };
    loc.hashValue = new URL(shareUrl('http://p/', { kind: 'setup', setup })).hash;
    loc.fire();
    expect(inbox.preview).toEqual({ status: 'setup', setup });
    await inbox.loadSetup();
    expect(applied).toEqual([setup]);
  });

  it('previews a classroom setup link and applies it to Settings, then shows Settings', async () => {
    const provider = { presetId: 'lmstudio', baseUrl: 'http://10.1.1.5:1234/v1', models: { actor: 'qwen2.5-0.5b-instruct', metaAgent: '', proposer: '' } };
    const loc = location(new URL(shareUrl('http://p/?view=settings', { kind: 'provider', provider })).hash);
    const applied: unknown[] = [];
    const shown: unknown[] = [];
    const inbox = new ShareInbox(loc, { catalog: catalogOn(), applySetup: async () => undefined, applyProvider: (p) => void applied.push(p), show: (view) => void shown.push(view) });
    inbox.start();
    expect(inbox.preview).toEqual({ status: 'provider', provider });
    expect(applied).toEqual([]);
    await inbox.applyProvider();
    expect(applied).toEqual([provider]);
    expect(shown).toEqual(['settings']);
    expect(inbox.preview.status).toBe('none');
    expect(loc.cleared).toBe(1);
  });
});

/**
 * The player page's state: the story library, the story being played (matched to the catalog by
 * md5), seed, max score, the running `GameSession`, and the one visible error. Every action
 * catches what it throws and shows it in `error` (a bad story file's `StoryFileError` message as
 * is); the page keeps working. All I/O goes through the injected `PlayerServices`.
 */
import { findByMd5, parseCatalog, rulesFor, type Catalog, type CatalogEntry } from '../engine/catalog.ts';
import type { Store } from '../store/interface.ts';
import { MemoryStore } from '../store/memory-store.ts';
import { GameSession } from './game-session.svelte.ts';
import { localEntries, maxScoreHint, nameFromUrl, shippedEntries, storyUrl, userEntry, userStoryId, type LibraryEntry } from './library.ts';
import type { PlayerServices } from './services.ts';

/** The story being played. */
export interface CurrentStory {
  entry: LibraryEntry;
  /** md5 of the Z-code image (engine's `StoryInfo.md5`). */
  md5: string;
  /** Catalog entry matched by md5, null when the story is unknown. */
  catalog: CatalogEntry | null;
  bytes: Uint8Array;
}

/** A user story that could not be stored (kept for this page's life). */
interface UnsavedStory {
  entry: LibraryEntry;
  bytes: Uint8Array;
}

const LAST_STORY_KEY = 'lastStoryId';
const maxScoreKey = (md5: string): string => `maxScore:${md5}`;
/** frotz seeds are integers in [0, 2^32). */
const isSeed = (seed: number): boolean => Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32;
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class Player {
  readonly session: GameSession;
  library = $state.raw<LibraryEntry[]>([]);
  /** Value of the story picker ('' = none). */
  selectedId = $state('');
  current = $state.raw<CurrentStory | null>(null);
  /** Max score in score points; null = unknown (W-AUC n/a). */
  maxScore = $state<number | null>(null);
  /** Seed for the next (re)start; the running game's seed is `session.seed`. */
  seed = $state(0);
  error = $state<string | null>(null);
  /** Why saving is impossible (IndexedDB unavailable or blocked); null when persistent. */
  memoryOnlyReason = $state<string | null>(null);
  loading = $state(false);
  ready = $state(false);
  /** The max score the game stated ("out of a possible N"), offered when it is unknown. */
  readonly maxScoreHint = $derived.by(() =>
    this.maxScore === null ? maxScoreHint(this.session.transcript.filter((e) => e.kind === 'output').map((e) => e.text)) : null,
  );

  private store: Store = new MemoryStore();
  private catalog: Catalog | null = null;
  private localListing: unknown = undefined;
  /** User stories that could not be stored, playable until the page closes. */
  private unsaved: readonly UnsavedStory[] = [];
  private loadToken = 0;

  constructor(private readonly services: PlayerServices) {
    this.session = new GameSession(() => this.store, services.now);
  }

  /** Open the store, read the catalog and local stories, and reopen the last story played. */
  async init(): Promise<void> {
    const s = this.services;
    const [opened, catalogJson, localListing] = await Promise.all([
      s.openStore(), s.fetchOptionalJson(s.resolve('stories/catalog.json')), s.fetchOptionalJson(s.resolve('local-stories/index.json')),
    ]);
    this.store = opened.store;
    this.memoryOnlyReason = opened.problem ?? (opened.store.persistent ? null : 'IndexedDB is not available.');
    this.localListing = localListing;
    try {
      this.catalog = parseCatalog(catalogJson);
    } catch (error) {
      this.error = `The story catalog (stories/catalog.json) could not be loaded, so the shipped stories are missing: ${messageOf(error)}`;
    }
    await this.guard(async () => {
      await this.refreshLibrary();
      const query = s.query();
      const wanted = query.get('story') ?? (await this.store.getSetting(LAST_STORY_KEY));
      const seed = query.has('seed') ? Number(query.get('seed')) : undefined;
      if (typeof wanted === 'string' && this.library.some((e) => e.id === wanted)) await this.selectStory(wanted, seed);
    });
    this.ready = true;
  }

  /** Load and start the library story `id` (a no-op for the story already playing), with `seed`
   * or else the catalog's default seed (0 for unknown stories). */
  async selectStory(id: string, seed?: number): Promise<void> {
    const entry = this.library.find((e) => e.id === id);
    if (!entry || (id === this.current?.entry.id && !this.loading)) return;
    this.selectedId = id;
    this.error = null;
    await this.withLoading(async () => {
      const bytes = await this.bytesOf(entry);
      if (await this.play(entry, bytes, seed)) await this.store.setSetting(LAST_STORY_KEY, id);
    });
  }

  /** Add story files (file picker or drop): validate, store, then play the last one. */
  async addFiles(files: readonly File[]): Promise<void> {
    this.error = null;
    for (const file of files) {
      await this.withLoading(async () => this.addBytes(file.name, await this.services.readFile(file)));
    }
  }

  /** Download a story from `address` (absolute, or relative to the page), then add it. */
  async addUrl(address: string): Promise<void> {
    this.error = null;
    await this.withLoading(async () => {
      const url = storyUrl(address, this.services.resolve('./'));
      await this.addBytes(nameFromUrl(url), await this.services.fetchBytes(url));
    });
  }

  /** Remove a user story from the library (its save slots stay). */
  async removeStory(id: string): Promise<void> {
    this.error = null;
    await this.guard(async () => {
      if (this.isUnsaved(id)) this.unsaved = this.unsaved.filter((u) => u.entry.id !== id);
      else await this.store.deleteStory(id);
      if (this.current?.entry.id === id) {
        this.session.end();
        this.current = null;
        this.selectedId = '';
      }
      await this.refreshLibrary();
    });
  }

  /** Restart the game: with the same seed a cheap reset, with a new seed a fresh load. */
  async restart(): Promise<void> {
    const current = this.current;
    if (!current) return;
    await this.guard(async () => {
      if (this.seed === this.session.seed) return this.session.restart();
      const engine = await this.services.loadEngine(current.bytes, { seed: this.seed, rules: current.catalog ? rulesFor(current.catalog) : undefined });
      await this.session.begin(engine);
    });
  }

  /** Set the seed for the next restart. Shows an error for anything but an integer in [0, 2^32). */
  setSeed(seed: number): void {
    if (!isSeed(seed)) {
      this.error = 'The seed must be a whole number from 0 to 4294967295.';
      return;
    }
    this.seed = seed;
  }

  /** Record the max score the user supplied for the current story (null = unknown). */
  async setMaxScore(maxScore: number | null): Promise<void> {
    const current = this.current;
    if (!current) return;
    if (maxScore !== null && (!Number.isInteger(maxScore) || maxScore <= 0)) {
      this.error = 'The max score must be a whole number above 0.';
      return;
    }
    this.maxScore = maxScore;
    await this.guard(async () => {
      await this.store.setSetting(maxScoreKey(current.md5), maxScore);
      if (current.entry.source === 'user' && !this.isUnsaved(current.entry.id)) await this.store.setStoryMaxScore(current.entry.id, maxScore);
    });
  }

  send(command: string): Promise<boolean> {
    return this.guard(() => this.session.send(command));
  }

  undo(): Promise<boolean> {
    return this.guard(() => this.session.undo());
  }

  save(name: string): Promise<boolean> {
    this.error = null;
    return this.guard(() => this.session.save(name));
  }

  restoreSlot(name: string): Promise<boolean> {
    this.error = null;
    return this.guard(() => this.session.restoreSlot(name));
  }

  deleteSlot(name: string): Promise<boolean> {
    this.error = null;
    return this.guard(() => this.session.deleteSlot(name));
  }

  dismissError(): void {
    this.error = null;
  }

  private isUnsaved(id: string): boolean {
    return this.unsaved.some((u) => u.entry.id === id);
  }

  /** Validate, store (or keep unsaved if storing fails) and play a user story. */
  private async addBytes(name: string, bytes: Uint8Array): Promise<void> {
    const { md5 } = this.services.identify(bytes);
    const id = userStoryId(md5);
    const previous = await this.store.getStory(id).catch(() => undefined);
    const story = { id, name, bytes, md5, addedAt: this.services.now(), maxScore: previous?.maxScore ?? null };
    try {
      await this.store.putStory(story);
      this.unsaved = this.unsaved.filter((u) => u.entry.id !== id);
    } catch (error) {
      this.unsaved = [...this.unsaved.filter((u) => u.entry.id !== id), { entry: userEntry(story, this.catalog, true), bytes }];
      this.error = `${messageOf(error)} The story is playable until you close the page.`;
    }
    await this.refreshLibrary();
    const entry = this.library.find((e) => e.id === id);
    this.selectedId = id;
    if (entry) await this.play(entry, bytes);
  }

  /** Start `bytes` as `entry`; false when a newer load superseded this one. */
  private async play(entry: LibraryEntry, bytes: Uint8Array, seedOverride?: number): Promise<boolean> {
    const token = ++this.loadToken;
    const { md5 } = this.services.identify(bytes);
    const known = (this.catalog && findByMd5(this.catalog, md5)) ?? null;
    const seed = seedOverride !== undefined && isSeed(seedOverride) ? seedOverride : (known?.defaultSeed ?? 0);
    const engine = await this.services.loadEngine(bytes, { seed, rules: known ? rulesFor(known) : undefined });
    if (token !== this.loadToken) {
      engine.dispose();
      return false;
    }
    this.current = { entry, md5, catalog: known, bytes };
    this.selectedId = entry.id;
    this.seed = seed;
    this.maxScore = known?.maxScore ?? null;
    if (this.maxScore === null) {
      const saved = await this.store.getSetting(maxScoreKey(md5)).catch(() => undefined);
      this.maxScore = typeof saved === 'number' ? saved : entry.storedMaxScore;
    }
    await this.session.begin(engine);
    return true;
  }

  private async bytesOf(entry: LibraryEntry): Promise<Uint8Array> {
    if (entry.path !== null) return this.services.fetchBytes(this.services.resolve(entry.path));
    const bytes = this.unsaved.find((u) => u.entry.id === entry.id)?.bytes ?? (await this.store.getStory(entry.id))?.bytes;
    if (!bytes) throw new Error(`The story “${entry.title}” is no longer stored.`);
    return bytes;
  }

  private async refreshLibrary(): Promise<void> {
    const catalog = this.catalog;
    const stored = (await this.store.listStories()).map((s) => userEntry(s, catalog));
    const unsaved = this.unsaved.map((u) => u.entry).filter((u) => !stored.some((s) => s.id === u.id));
    this.library = [...(catalog ? shippedEntries(catalog) : []), ...localEntries(this.localListing, catalog), ...stored, ...unsaved];
  }

  /** `guard` with the loading flag; the picker falls back to the story still playing on failure. */
  private async withLoading(task: () => Promise<void>): Promise<void> {
    this.loading = true;
    const ok = await this.guard(task);
    this.loading = false;
    if (!ok) this.selectedId = this.current?.entry.id ?? '';
  }

  /** Run `task`, showing anything it throws; true when it succeeded. */
  private async guard(task: () => Promise<void>): Promise<boolean> {
    try {
      await task();
      return true;
    } catch (error) {
      this.error = messageOf(error);
      return false;
    }
  }
}

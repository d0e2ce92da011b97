/**
 * The page's story shelf, shared by every view (Play, Agent, …): the store, the catalog, the
 * entries of the story picker (shelf.ts), adding and removing user stories, loading a story's
 * bytes matched to the catalog by md5, and the max score a story is known to have. Opened once
 * (`init` is idempotent). All I/O goes through the injected `PlayerServices`; errors are thrown
 * for the view to show.
 */
import { findByMd5, parseCatalog, rulesFor, type Catalog, type CatalogEntry } from '../../../engine/catalog.ts';
import type { LoadOptions } from '../../../engine/interface.ts';
import { StoryFileError } from '../../../engine/errors.ts';
import type { Store } from '../../../store/interface.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import { localEntries, nameFromUrl, shippedEntries, storyUrl, userEntry, userStoryId, type ShelfEntry } from './shelf.ts';
import type { PlayerServices } from './services.ts';
import { errorText } from './error-text.ts';

/** A story's bytes, ready to run. */
export interface LoadedStory {
  entry: ShelfEntry;
  /** md5 of the Z-code image (engine's `StoryInfo.md5`). */
  md5: string;
  /** Catalog entry matched by md5, null when the story is unknown. */
  catalog: CatalogEntry | null;
  bytes: Uint8Array;
  /** What is odd about the file but does not stop it (a header checksum mismatch); empty when none. */
  warnings: string[];
}

/** The result of adding a story: it, why it could not be stored (null when it was), and whether
 * it was new to the story shelf (so a story that then fails to start can be taken out again). */
export interface AddedStory {
  story: LoadedStory;
  problem: string | null;
  isNew: boolean;
}

/** A user story that could not be stored (kept for this page's life). */
interface UnsavedStory {
  entry: ShelfEntry;
  bytes: Uint8Array;
}

/** Store setting: the id of the story last played by hand. */
export const LAST_STORY_KEY = 'lastStoryId';
const maxScoreKey = (md5: string): string => `maxScore:${md5}`;
const messageOf = (error: unknown): string => errorText(error);

export class StoryShelf {
  entries = $state.raw<ShelfEntry[]>([]);
  /** Why saving is impossible (IndexedDB unavailable or blocked); null when persistent. */
  memoryOnlyReason = $state<string | null>(null);
  /** Why the catalog could not be read (the shipped stories are then missing); null when fine. */
  catalogProblem = $state<string | null>(null);
  ready = $state(false);
  /** The opened store (a memory store until `init` has run). */
  store: Store = new MemoryStore();

  private catalog: Catalog | null = null;
  private localListing: unknown = undefined;
  private unsaved: readonly UnsavedStory[] = [];
  private opening: Promise<void> | null = null;

  constructor(private readonly services: PlayerServices) {}

  /** The catalog's entries (empty until `init` has read it). */
  get catalogEntries(): readonly CatalogEntry[] {
    return this.catalog?.stories ?? [];
  }

  /** Open the store, read the catalog and local stories, list the story shelf. Runs once.
   * @throws the store's error when listing the stored stories fails */
  init(): Promise<void> {
    this.opening ??= this.open();
    return this.opening;
  }

  find(id: string): ShelfEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** md5 of `bytes`, its catalog entry and warnings. @throws StoryFileError for bytes that are not a story */
  identify(bytes: Uint8Array): { md5: string; catalog: CatalogEntry | null; warnings: string[] } {
    const { md5, warnings = [] } = this.services.identify(bytes);
    return { md5, catalog: (this.catalog && findByMd5(this.catalog, md5)) ?? null, warnings };
  }

  /** The bytes of a shelf entry, identified. @throws Error (download, missing story, bad file) */
  async load(entry: ShelfEntry): Promise<LoadedStory> {
    const bytes = await this.bytesOf(entry);
    return { entry, bytes, ...this.identify(bytes) };
  }

  /** Engine load options for a story: the seed and the catalog's rules. */
  loadOptions(story: LoadedStory, seed: number): LoadOptions {
    return { seed, rules: story.catalog ? rulesFor(story.catalog) : undefined };
  }

  /** The seed a story starts with unless the user chose one (the catalog's, else 0). */
  defaultSeed(entry: ShelfEntry | undefined): number {
    return entry?.catalog?.defaultSeed ?? 0;
  }

  /** Validate and store a story (kept unsaved for this page when storing fails).
   * @throws StoryFileError for bytes that are not a runnable story (its message starts with the file's name) */
  async add(name: string, bytes: Uint8Array): Promise<AddedStory> {
    let identified: ReturnType<typeof this.identify>;
    try {
      identified = this.identify(bytes);
    } catch (error) {
      // Name the file the message is about.
      if (error instanceof StoryFileError) throw new StoryFileError(error.code, `“${name}”: ${error.message}`);
      throw error;
    }
    const { md5, catalog, warnings } = identified;
    const id = userStoryId(md5);
    const previous = await this.store.getStory(id).catch(() => undefined);
    const isNew = !previous && !this.unsaved.some((u) => u.entry.id === id);
    const story = { id, name, bytes, md5, addedAt: this.services.now(), maxScore: previous?.maxScore ?? null };
    let problem: string | null = null;
    try {
      await this.store.putStory(story);
      this.unsaved = this.unsaved.filter((u) => u.entry.id !== id);
    } catch (error) {
      this.unsaved = [...this.unsaved.filter((u) => u.entry.id !== id), { entry: userEntry(story, this.catalog, true), bytes }];
      problem = `${messageOf(error)} The story is playable until you close the page.`;
    }
    await this.refresh();
    const entry = this.find(id) ?? userEntry(story, this.catalog, problem !== null);
    return { story: { entry, md5, catalog, bytes, warnings }, problem, isNew };
  }

  /** Add a story file from the file picker or a drop. */
  async addFile(file: File): Promise<AddedStory> {
    return this.add(file.name, await this.services.readFile(file));
  }

  /** Download a story from `address` (absolute, or relative to the page), then add it. */
  async addUrl(address: string): Promise<AddedStory> {
    const url = storyUrl(address, this.services.resolve('./'));
    return this.add(nameFromUrl(url), await this.services.fetchBytes(url));
  }

  /** Remove a user story from the story shelf (its save slots stay). */
  async remove(id: string): Promise<void> {
    if (this.unsaved.some((u) => u.entry.id === id)) this.unsaved = this.unsaved.filter((u) => u.entry.id !== id);
    else await this.store.deleteStory(id);
    await this.refresh();
  }

  /** Max score in score points (catalog, else the user's), null when unknown. */
  async maxScoreOf(story: LoadedStory): Promise<number | null> {
    if (story.catalog?.maxScore != null) return story.catalog.maxScore;
    const saved = await this.store.getSetting(maxScoreKey(story.md5)).catch(() => undefined);
    return typeof saved === 'number' ? saved : story.entry.storedMaxScore;
  }

  /** Record the max score the user supplied (null = unknown). @throws the store's errors */
  async setMaxScore(story: LoadedStory, maxScore: number | null): Promise<void> {
    await this.store.setSetting(maxScoreKey(story.md5), maxScore);
    const { entry } = story;
    if (entry.source === 'user' && !this.unsaved.some((u) => u.entry.id === entry.id)) await this.store.setStoryMaxScore(entry.id, maxScore);
  }

  private async open(): Promise<void> {
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
      this.catalogProblem = `The story catalog (stories/catalog.json) could not be loaded, so the shipped stories are missing: ${messageOf(error)}`;
    }
    try {
      await this.refresh();
    } finally {
      this.ready = true;
    }
  }

  private async bytesOf(entry: ShelfEntry): Promise<Uint8Array> {
    if (entry.path !== null) return this.services.fetchBytes(this.services.resolve(entry.path));
    const bytes = this.unsaved.find((u) => u.entry.id === entry.id)?.bytes ?? (await this.store.getStory(entry.id))?.bytes;
    if (!bytes) throw new Error(`The story “${entry.title}” is no longer stored.`);
    return bytes;
  }

  private async refresh(): Promise<void> {
    const catalog = this.catalog;
    const stored = (await this.store.listStories()).map((s) => userEntry(s, catalog));
    const unsaved = this.unsaved.map((u) => u.entry).filter((u) => !stored.some((s) => s.id === u.id));
    this.entries = [...(catalog ? shippedEntries(catalog) : []), ...localEntries(this.localListing, catalog), ...stored, ...unsaved];
  }
}

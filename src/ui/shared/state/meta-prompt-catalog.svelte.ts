/**
 * The page's meta-prompt library (shared by the Library and Learn views, and linked to by
 * Evolve): the built-in entries (read-only, from agents/meta-prompt-library.ts) followed by the
 * user's entries from the store (`listMetaPrompts` / `putMetaPrompt` / `deleteMetaPrompt`, the
 * entry data as `LibraryMetaPrompt`). Stored entries that do not read back are skipped and
 * counted. Store errors are thrown for the view to show (StorageFullError included).
 */
import { BUILT_IN_META_PROMPTS } from '../../../agents/meta-prompt-library.ts';
import type { Store } from '../../../store/interface.ts';
import { readStoredEntry, storedEntryOf, type LibraryMetaPrompt } from './entry-io.ts';
import { errorText } from './error-text.ts';

/** The built-ins as library entries (no evaluations recorded). */
export const BUILT_IN_ENTRIES: readonly LibraryMetaPrompt[] = BUILT_IN_META_PROMPTS.map((e) => ({ ...e, evaluations: [] }));

export interface CatalogDeps {
  /** The opened store (waits for the story shelf to open it). */
  store(): Promise<Store>;
  /** ms since the Unix epoch. */
  now(): number;
  /** A fresh unique id for a new entry. */
  newId(): string;
}

export class MetaPromptCatalog {
  /** The user's entries, oldest first. */
  userEntries = $state.raw<LibraryMetaPrompt[]>([]);
  /** Built-ins, then the user's entries. */
  readonly entries = $derived<readonly LibraryMetaPrompt[]>([...BUILT_IN_ENTRIES, ...this.userEntries]);
  /** Stored entries that could not be read (skipped). */
  skipped = $state(0);
  /** Why the library could not be loaded; null when fine. */
  error = $state<string | null>(null);
  loaded = $state(false);
  private loading: Promise<void> | null = null;
  /** When each user entry was first stored (ms since the Unix epoch); not reactive. */
  private createdAt: Record<string, number> = {};

  constructor(private readonly deps: CatalogDeps) {}

  /** Load the user's entries. Runs once. */
  init(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  find(id: string): LibraryMetaPrompt | undefined {
    return this.entries.find((e) => e.id === id);
  }

  isBuiltIn(id: string): boolean {
    return BUILT_IN_ENTRIES.some((e) => e.id === id);
  }

  /** A fresh id for a new entry. */
  newId(): string {
    return this.deps.newId();
  }

  /** Insert or replace a user entry. @throws RangeError for a built-in id; the store's errors */
  async save(entry: LibraryMetaPrompt): Promise<void> {
    if (this.isBuiltIn(entry.id)) throw new RangeError('Built-in entries are read-only: duplicate one to edit it.');
    const createdAt = this.createdAt[entry.id] ?? this.deps.now();
    await (await this.deps.store()).putMetaPrompt({ id: entry.id, createdAt, entry: storedEntryOf(entry) });
    this.createdAt[entry.id] = createdAt;
    const exists = this.userEntries.some((e) => e.id === entry.id);
    this.userEntries = exists ? this.userEntries.map((e) => (e.id === entry.id ? entry : e)) : [...this.userEntries, entry];
  }

  /** Delete a user entry. @throws the store's errors */
  async remove(id: string): Promise<void> {
    if (this.isBuiltIn(id)) return;
    await (await this.deps.store()).deleteMetaPrompt(id);
    delete this.createdAt[id];
    this.userEntries = this.userEntries.filter((e) => e.id !== id);
  }

  /** Re-read the store (e.g. after another view saved an evolved entry). */
  async reload(): Promise<void> {
    await this.load();
  }

  private async load(): Promise<void> {
    try {
      const stored = await (await this.deps.store()).listMetaPrompts();
      const entries: LibraryMetaPrompt[] = [];
      let skipped = 0;
      for (const s of stored) {
        const entry = readStoredEntry(s.entry);
        if (entry && !this.isBuiltIn(entry.id)) {
          entries.push({ ...entry, id: s.id });
          this.createdAt[s.id] = s.createdAt;
        } else skipped++;
      }
      this.userEntries = entries;
      this.skipped = skipped;
      this.error = null;
    } catch (error) {
      this.error = `The meta-prompt library could not be loaded: ${errorText(error)}`;
    } finally {
      this.loaded = true;
    }
  }
}

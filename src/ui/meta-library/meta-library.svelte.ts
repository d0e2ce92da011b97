/**
 * The Library view's state: the meta-prompt library (built-ins read-only, the user's entries
 * editable), the entry shown, the editor draft with a live view of the FULL meta-prompt (header +
 * strategy + footer, `buildMetaPrompt`) and its token count (cl100k_base, `loadTokenCounter`),
 * import / export of an entry file (entry-io.ts), share links (`#share=`, never a key) and "Try
 * this meta-prompt" (the Learn view with `?metaPrompt=<id>`). Errors are shown, never thrown.
 */
import { buildMetaPrompt } from '../../agents/meta-prompt.ts';
import { loadTokenCounter, type TokenCounter } from '../../llm/token-count.ts';
import { shareUrl } from '../../share/share-link.ts';
import type { PlayerServices } from '../shared/state/services.ts';
import { entrySchema, exportEntry, importEntry, provenanceText, type LibraryMetaPrompt } from '../shared/state/entry-io.ts';
import type { MetaPromptCatalog } from '../shared/state/meta-prompt-catalog.svelte.ts';
import { ErrorSlot } from '../shared/state/error-slot.svelte.ts';

/** The entry being written: a new one, a duplicate, or an edit of a user entry. */
export interface EntryDraft {
  id: string;
  name: string;
  description: string;
  strategy: string;
  /** The entry it replaces or was copied from (its provenance, games and evaluations are kept on edit). */
  base: LibraryMetaPrompt | null;
  /** True when saving replaces `base` (an edit), false for a new entry or duplicate. */
  replaces: boolean;
}

export interface MetaLibraryDeps {
  catalog: MetaPromptCatalog;
  services: Pick<PlayerServices, 'download' | 'readFile' | 'query'>;
  /** Show another view with query parameters (the router's `open`). */
  show(view: 'learn' | 'library', params?: Record<string, string>): void;
  /** The page's URL (share links are made from it). */
  pageUrl(): string;
  copyText(text: string): Promise<void>;
  loadCounter?: () => Promise<TokenCounter>;
}

export class MetaLibraryState {
  selectedId = $state<string | null>(null);
  readonly selected = $derived.by(() => this.deps.catalog.find(this.selectedId ?? '') ?? this.deps.catalog.entries[0] ?? null);
  draft = $state.raw<EntryDraft | null>(null);
  /** The full meta-prompt of the draft (when editing) or of the entry shown. */
  readonly fullPrompt = $derived(buildMetaPrompt(this.draft ? this.draft.strategy : (this.selected?.strategy ?? '')));
  private counter = $state.raw<TokenCounter | null>(null);
  /** Tokens of `fullPrompt` (cl100k_base); null until the tokenizer has loaded. */
  readonly tokenCount = $derived(this.counter ? this.counter(this.fullPrompt) : null);
  /** The last share link made, for the entry `shareFor`. */
  shareLink = $state<string | null>(null);
  shareFor = $state<string | null>(null);
  copied = $state(false);
  /** The view's error slot. */
  readonly errors = new ErrorSlot();
  /** The error slot's text (a thrown error's, key scrubbed, or a problem found here); null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }
  /** A short confirmation ("Saved.", "Imported …"); null when none. */
  message = $state<string | null>(null);
  ready = $state(false);
  private starting: Promise<void> | null = null;

  constructor(private readonly deps: MetaLibraryDeps) {}

  get entries(): readonly LibraryMetaPrompt[] {
    return this.deps.catalog.entries;
  }

  isBuiltIn(id: string): boolean {
    return this.deps.catalog.isBuiltIn(id);
  }

  provenance(entry: LibraryMetaPrompt): string {
    return provenanceText(entry.provenance);
  }

  /** Load the library and the tokenizer. Runs once. */
  init(): Promise<void> {
    this.starting ??= this.start();
    return this.starting;
  }

  /** On every visit: show `?entry=<id>` when given. */
  async enter(): Promise<void> {
    await this.init();
    const wanted = this.deps.services.query().get('entry');
    if (wanted !== null && this.deps.catalog.find(wanted)) this.select(wanted);
  }

  select(id: string): void {
    if (this.draft) return;
    this.selectedId = id;
    this.shareLink = null;
  }

  newEntry(): void {
    this.startDraft({ id: this.deps.catalog.newId(), name: '', description: '', strategy: '', base: null, replaces: false });
  }

  duplicate(entry: LibraryMetaPrompt): void {
    this.startDraft({ id: this.deps.catalog.newId(), name: `${entry.name} (copy)`, description: entry.description, strategy: entry.strategy, base: entry, replaces: false });
  }

  edit(entry: LibraryMetaPrompt): void {
    if (this.isBuiltIn(entry.id)) return this.duplicate(entry);
    this.startDraft({ id: entry.id, name: entry.name, description: entry.description, strategy: entry.strategy, base: entry, replaces: true });
  }

  changeDraft(patch: Partial<Pick<EntryDraft, 'name' | 'description' | 'strategy'>>): void {
    if (this.draft) this.draft = { ...this.draft, ...patch };
  }

  cancelDraft(): void {
    this.draft = null;
    this.error = null;
  }

  /** Validate and store the draft. */
  async saveDraft(): Promise<void> {
    const draft = this.draft;
    if (!draft) return;
    const base = draft.replaces ? draft.base : null;
    const candidate = {
      id: draft.id, name: draft.name, description: draft.description, strategy: draft.strategy,
      provenance: base?.provenance ?? { kind: 'hand-written' }, selectedOn: draft.base?.selectedOn ?? [], evaluations: base?.evaluations ?? [],
    };
    const result = entrySchema.safeParse(candidate);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      this.error = `The entry cannot be saved: ${issue.path.join('.') || 'entry'}: ${issue.message}`;
      return;
    }
    this.message = null;
    await this.errors.run(async () => {
      await this.deps.catalog.save(result.data);
      this.draft = null;
      this.selectedId = result.data.id;
      this.message = `Saved “${result.data.name}”.`;
    }, { clear: true });
  }

  async remove(entry: LibraryMetaPrompt): Promise<void> {
    this.message = null;
    await this.errors.run(async () => {
      await this.deps.catalog.remove(entry.id);
      if (this.selectedId === entry.id) this.selectedId = null;
      this.message = `Deleted “${entry.name}”.`;
    }, { clear: true });
  }

  exportEntry(entry: LibraryMetaPrompt): void {
    const slug = entry.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'meta-prompt';
    this.deps.services.download(`meta-prompt-${slug}.json`, exportEntry(entry), 'application/json');
  }

  /** Add an exported entry file to the library (EntryImportError messages shown as they are). */
  async importFile(file: File): Promise<void> {
    this.message = null;
    await this.errors.run(async () => {
      const text = new TextDecoder().decode(await this.deps.services.readFile(file));
      const entry = importEntry(text, this.deps.catalog.newId(), file.name);
      await this.deps.catalog.save(entry);
      this.selectedId = entry.id;
      this.message = `Imported “${entry.name}”.`;
    }, { clear: true });
  }

  /** Make the entry's share link, show it and copy it to the clipboard. */
  async copyShareLink(entry: LibraryMetaPrompt): Promise<void> {
    this.message = null;
    await this.errors.run(async () => {
      const link = shareUrl(this.deps.pageUrl(), {
        kind: 'meta-prompt',
        metaPrompt: { name: entry.name, description: entry.description, strategy: entry.strategy, provenance: provenanceText(entry.provenance), selectedOn: entry.selectedOn },
      });
      this.shareLink = link;
      this.shareFor = entry.id;
      this.copied = false;
      this.copied = await this.deps.copyText(link).then(() => true, () => false);
    }, { clear: true });
  }

  /** Open the Learn view with this meta-prompt chosen. */
  tryIt(entry: LibraryMetaPrompt): void {
    this.deps.show('learn', { metaPrompt: entry.id });
  }

  dismiss(): void {
    this.error = null;
    this.message = null;
  }

  private startDraft(draft: EntryDraft): void {
    this.draft = draft;
    this.error = null;
    this.message = null;
    this.shareLink = null;
  }

  private async start(): Promise<void> {
    await this.deps.catalog.init();
    const counter = await this.errors.run(() => (this.deps.loadCounter ?? loadTokenCounter)(), {
      framed: (text) => `The tokenizer could not be loaded, so no token count is shown: ${text}`,
    });
    if (counter) this.counter = counter;
    this.ready = true;
  }
}

/**
 * Opening a share link (`#share=…`, src/share/share-link.ts): the payload is decoded when the
 * page opens and on every hash change, and shown as a text-only preview with one action — "add
 * to library" for a meta-prompt, "load this setup" for a setup (it fills the Learn form), "apply
 * to Settings" for a classroom's provider setup (preset, base URL, models; never a key). A
 * damaged link shows the ShareError's message. The fragment is removed once handled, so a reload
 * does not ask again. Location I/O is injected (`ShareLocation`).
 */
import { decodeShare, type SharedMetaPrompt, type SharedProviderSetup, type SharedSetup } from '../../share/share-link.ts';
import type { LibraryMetaPrompt } from '../shared/state/entry-io.ts';
import type { MetaPromptCatalog } from '../shared/state/meta-prompt-catalog.svelte.ts';
import type { ShareLocation } from './share-location.ts';
import { errorText } from '../shared/state/error-text.ts';

export type { ShareLocation } from './share-location.ts';

export type SharePreview =
  | { status: 'none' }
  | { status: 'meta-prompt'; metaPrompt: SharedMetaPrompt }
  | { status: 'setup'; setup: SharedSetup }
  | { status: 'provider'; provider: SharedProviderSetup }
  | { status: 'error'; message: string };

/** What the inbox needs of the Learn view and the router. */
export interface ShareTargets {
  catalog: MetaPromptCatalog;
  /** Fill the Learn form with a shared setup. */
  applySetup(setup: SharedSetup): Promise<void>;
  /** Fill Settings with a classroom's provider setup (the key is left as it is). */
  applyProvider(provider: SharedProviderSetup): void | Promise<void>;
  /** Show the Library, Learn or Settings view. */
  show(view: 'library' | 'learn' | 'settings', params?: Record<string, string>): void;
  /** The preview is gone (handled or dismissed), e.g. so the first-visit tour may open. */
  settled?(): void;
}

/** A shared meta-prompt as a new library entry ("imported from a shared link"). */
export function entryFromShare(shared: SharedMetaPrompt, id: string): LibraryMetaPrompt {
  return {
    id, name: shared.name, description: shared.description, strategy: shared.strategy,
    provenance: { kind: 'imported', from: `a shared link (${shared.provenance})` }, selectedOn: [...shared.selectedOn], evaluations: [],
  };
}

export class ShareInbox {
  preview = $state.raw<SharePreview>({ status: 'none' });
  /** Why the action failed (e.g. storage full); null when fine. */
  error = $state<string | null>(null);
  busy = $state(false);

  constructor(
    private readonly location: ShareLocation,
    private readonly targets: ShareTargets,
  ) {}

  /** The library entry (built-in or the user's) with the previewed meta-prompt's strategy, if any:
   * adding it again would only make a copy. */
  get existing(): LibraryMetaPrompt | undefined {
    const preview = this.preview;
    if (preview.status !== 'meta-prompt') return undefined;
    const strategy = preview.metaPrompt.strategy.trim();
    return this.targets.catalog.entries.find((e) => e.strategy.trim() === strategy);
  }

  /** Read the fragment now and whenever it changes. */
  start(): void {
    this.location.onHashChange(() => this.read());
    this.read();
  }

  /** Add the previewed meta-prompt to the library and show it there (or show the entry that
   * already has its strategy, `existing`, without adding a copy). */
  async addToLibrary(): Promise<void> {
    const preview = this.preview;
    if (preview.status !== 'meta-prompt') return;
    await this.act(async () => {
      const { catalog } = this.targets;
      await catalog.init();
      const same = this.existing;
      if (same) {
        this.targets.show('library', { entry: same.id });
        return;
      }
      const entry = entryFromShare(preview.metaPrompt, catalog.newId());
      await catalog.save(entry);
      this.targets.show('library', { entry: entry.id });
    });
  }

  /** Fill the Learn form with the previewed setup and show it. */
  async loadSetup(): Promise<void> {
    const preview = this.preview;
    if (preview.status !== 'setup') return;
    await this.act(async () => {
      this.targets.show('learn');
      await this.targets.applySetup(preview.setup);
    });
  }

  /** Apply the previewed provider setup to Settings and show them. */
  async applyProvider(): Promise<void> {
    const preview = this.preview;
    if (preview.status !== 'provider') return;
    await this.act(async () => {
      await this.targets.applyProvider(preview.provider);
      this.targets.show('settings');
    });
  }

  dismiss(): void {
    this.preview = { status: 'none' };
    this.error = null;
    this.location.clearHash();
    this.targets.settled?.();
  }

  private async act(task: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await task();
      this.dismiss();
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  private read(): void {
    const hash = this.location.hash();
    if (!hash.startsWith('#share=')) return;
    this.error = null;
    try {
      const payload = decodeShare(hash);
      this.preview = payload.kind === 'meta-prompt' ? { status: 'meta-prompt', metaPrompt: payload.metaPrompt }
        : payload.kind === 'setup' ? { status: 'setup', setup: payload.setup }
        : { status: 'provider', provider: payload.provider };
      // Load the user's entries so `existing` also finds a copy added before.
      if (payload.kind === 'meta-prompt') void this.targets.catalog.init().catch(() => undefined);
    } catch (error) {
      this.preview = { status: 'error', message: errorText(error) };
    }
  }
}

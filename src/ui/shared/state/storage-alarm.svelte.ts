/**
 * The page's alarm when saving fails or storage runs low (store/storage-watch.ts reports every
 * failed write): a plain-words message and "Export everything now", offered before any reload —
 * a reload after Chromium closed the database can lose it all. Export reads every run, meta-prompt
 * and the story list into one JSON file (`exportEverything`).
 */
import { dateAt } from './services.ts';
import { exportEverything } from '../../../store/storage-watch.ts';
import { StorageBlockedError, StorageFullError, type Store } from '../../../store/interface.ts';
import { errorText } from './error-text.ts';

export interface StorageAlarmDeps {
  store: () => Store;
  download: (fileName: string, data: string, mimeType: string) => void;
  now: () => number;
}

export class StorageAlarm {
  /** What happened, in plain words; null when nothing is wrong. */
  message = $state<string | null>(null);
  /** After "Export everything now": what was exported, or why it failed. */
  exported = $state<string | null>(null);

  constructor(private readonly deps: StorageAlarmDeps) {}

  /** A write failed: raise the alarm for storage that is low, full or closed (other errors are the view's). */
  raise(error: unknown): void {
    if (error instanceof StorageFullError) {
      this.message = `${error.message} Do not reload the page before exporting: the browser may not be able to open its storage again.`;
    } else if (error instanceof StorageBlockedError || (error as { name?: string } | null)?.name === 'AbortError') {
      this.message = `Saving failed: the browser closed this page's storage (${errorText(error)}). Export everything now, before you reload the page: a reload may not be able to open it again.`;
    }
  }

  /** Download everything stored as one JSON file. */
  async exportNow(): Promise<void> {
    try {
      const everything = await exportEverything(this.deps.store(), this.deps.now());
      const stamp = dateAt(this.deps.now()).toISOString().replace(/[:.]/g, '-');
      this.deps.download(`metattl-everything-${stamp}.json`, JSON.stringify(everything), 'application/json');
      this.exported = `Exported ${(everything.runs as unknown[]).length} runs and ${(everything.metaPrompts as unknown[]).length} meta-prompts.`;
    } catch (error) {
      this.exported = `The export failed: ${errorText(error)}`;
    }
  }

  dismiss(): void {
    this.message = null;
    this.exported = null;
  }
}

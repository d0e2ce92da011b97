/**
 * The store in memory: same contract as the IndexedDB store, nothing survives a reload. Used when
 * IndexedDB is unavailable (the UI then shows a "memory-only" banner) and in tests.
 * Must not import ui or any storage library.
 */
import {
  byAddedAt, byCreatedAt, bySavedAtDesc, byUpdatedAtDesc, checkSlotName, StorageBlockedError, StorageError, summariseRun,
  summariseSave, summariseStory, type RunEvent, type RunHeader, type RunKind, type RunSummary, type SaveSlot,
  type SaveSlotSummary, type SettingValue, type Store, type StoredMetaPrompt, type StoredRun, type StoredStory, type StorySummary,
} from './interface.ts';
import { scrubSecrets } from '../common/secrets.ts';

const slotKey = (storyMd5: string, name: string): string => JSON.stringify([storyMd5, name]);

export class MemoryStore implements Store {
  readonly kind = 'memory';
  readonly persistent = false;
  private readonly stories = new Map<string, StoredStory>();
  private readonly settings = new Map<string, SettingValue>();
  private readonly saves = new Map<string, SaveSlot>();
  private readonly runs = new Map<string, { header: RunHeader; events: Map<number, RunEvent> }>();
  private readonly metaPrompts = new Map<string, StoredMetaPrompt>();
  private closed = false;

  async listStories(): Promise<StorySummary[]> {
    this.check();
    return [...this.stories.values()].map(summariseStory).sort(byAddedAt);
  }

  async getStory(id: string): Promise<StoredStory | undefined> {
    this.check();
    const story = this.stories.get(id);
    return story && structuredClone(story);
  }

  async putStory(story: StoredStory): Promise<void> {
    this.check();
    this.stories.set(story.id, structuredClone(story));
  }

  async setStoryMaxScore(id: string, maxScore: number | null): Promise<void> {
    this.check();
    const story = this.stories.get(id);
    if (!story) throw new StorageError(`No stored story with id "${id}".`);
    story.maxScore = maxScore;
  }

  async deleteStory(id: string): Promise<void> {
    this.check();
    this.stories.delete(id);
  }

  async getSetting(key: string): Promise<SettingValue | undefined> {
    this.check();
    const value = this.settings.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  async setSetting(key: string, value: SettingValue): Promise<void> {
    this.check();
    this.settings.set(key, structuredClone(value));
  }

  async deleteSetting(key: string): Promise<void> {
    this.check();
    this.settings.delete(key);
  }

  async listSaves(storyMd5: string): Promise<SaveSlotSummary[]> {
    this.check();
    return [...this.saves.values()].filter((s) => s.storyMd5 === storyMd5).map(summariseSave).sort(bySavedAtDesc);
  }

  async getSave(storyMd5: string, name: string): Promise<SaveSlot | undefined> {
    this.check();
    const slot = this.saves.get(slotKey(storyMd5, name.trim()));
    return slot && structuredClone(slot);
  }

  async putSave(slot: SaveSlot): Promise<void> {
    this.check();
    const name = checkSlotName(slot.name);
    this.saves.set(slotKey(slot.storyMd5, name), structuredClone({ ...slot, name }));
  }

  async deleteSave(storyMd5: string, name: string): Promise<void> {
    this.check();
    this.saves.delete(slotKey(storyMd5, name.trim()));
  }

  async listRuns(kind: RunKind): Promise<RunSummary[]> {
    this.check();
    return [...this.runs.values()].map((r) => r.header).filter((h) => h.kind === kind).map(summariseRun).sort(byUpdatedAtDesc);
  }

  async getRun(id: string): Promise<StoredRun | undefined> {
    this.check();
    const run = this.runs.get(id);
    if (!run) return undefined;
    return { ...structuredClone({ header: run.header, events: [...run.events.values()].sort((a, b) => a.seq - b.seq) }), damage: null, where: 'memory (this tab)' };
  }

  async rewriteRun(header: RunHeader, events: RunEvent[]): Promise<void> {
    this.check();
    this.runs.set(header.id, { header: structuredClone(scrubSecrets(header)), events: new Map(structuredClone(scrubSecrets(events)).map((e) => [e.seq, e])) });
  }

  async putRun(header: RunHeader): Promise<void> {
    this.check();
    const run = this.runs.get(header.id);
    this.runs.set(header.id, { header: structuredClone(scrubSecrets(header)), events: run?.events ?? new Map() });
  }

  async appendRunEvents(runId: string, events: RunEvent[], header?: RunHeader): Promise<void> {
    this.check();
    const copies = structuredClone(scrubSecrets(events));
    header = scrubSecrets(header);
    const run = this.runs.get(runId);
    if (!run && !header) throw new StorageError(`No run with id "${runId}".`);
    const target = run ?? { header: structuredClone(header!), events: new Map<number, RunEvent>() };
    if (header) target.header = structuredClone(header);
    for (const event of copies) target.events.set(event.seq, event);
    this.runs.set(runId, target);
  }

  async deleteRun(id: string): Promise<void> {
    this.check();
    this.runs.delete(id);
  }

  async listMetaPrompts(): Promise<StoredMetaPrompt[]> {
    this.check();
    return structuredClone([...this.metaPrompts.values()].sort(byCreatedAt));
  }

  async putMetaPrompt(entry: StoredMetaPrompt): Promise<void> {
    this.check();
    this.metaPrompts.set(entry.id, structuredClone(scrubSecrets(entry)));
  }

  async deleteMetaPrompt(id: string): Promise<void> {
    this.check();
    this.metaPrompts.delete(id);
  }

  close(): void {
    this.closed = true;
  }

  private check(): void {
    if (this.closed) throw new StorageBlockedError('The store is closed.');
  }
}

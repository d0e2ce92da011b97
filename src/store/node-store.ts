/**
 * The store on JSON files in one directory, for the CLI (Node only; no DOM). Layout:
 * `stories/<sha1(id)>.json`, `saves/<storyMd5>/<sha1(name)>.json`, `settings.json`; binary data
 * is base64 (json-codec.ts). Each write goes to a temporary file that is then renamed over the
 * target, so a failed write (disk full → `StorageFullError`) leaves the old file intact.
 * Writes are serialised within the process; two processes on one directory are not supported.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  byAddedAt, bySavedAtDesc, checkSlotName, StorageBlockedError, StorageError, StorageFullError, summariseSave,
  summariseStory, type SaveSlot, type SaveSlotSummary, type SettingValue, type Store, type StoredStory,
  type StorySummary,
} from './interface.ts';
import { decodeJson, encodeJson } from './json-codec.ts';

const fileKey = (text: string): string => createHash('sha1').update(text).digest('hex');
const isMd5 = (md5: string): boolean => /^[0-9a-f]{32}$/.test(md5);
const errorCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

/** Open (creating if needed) a file store in `dir`. @throws StorageError if `dir` cannot be created */
export async function openNodeStore(dir: string): Promise<NodeStore> {
  try {
    await mkdir(join(dir, 'stories'), { recursive: true });
    await mkdir(join(dir, 'saves'), { recursive: true });
  } catch (error) {
    throw new StorageError(`Cannot use the store directory ${dir}: ${(error as Error).message}`, { cause: error });
  }
  return new NodeStore(dir);
}

export class NodeStore implements Store {
  readonly kind = 'files';
  readonly persistent = true;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private tmpCounter = 0;

  constructor(private readonly dir: string) {}

  async listStories(): Promise<StorySummary[]> {
    const stories = await this.readAll<StoredStory>(join(this.dir, 'stories'));
    return stories.map(summariseStory).sort(byAddedAt);
  }

  getStory(id: string): Promise<StoredStory | undefined> {
    return this.read<StoredStory>(this.storyPath(id));
  }

  putStory(story: StoredStory): Promise<void> {
    return this.write(`the story "${story.name}"`, this.storyPath(story.id), story);
  }

  setStoryMaxScore(id: string, maxScore: number | null): Promise<void> {
    return this.serialised(async () => {
      const story = await this.read<StoredStory>(this.storyPath(id));
      if (!story) throw new StorageError(`No stored story with id "${id}".`);
      await this.writeNow(`the story "${story.name}"`, this.storyPath(id), { ...story, maxScore });
    });
  }

  deleteStory(id: string): Promise<void> {
    return this.serialised(() => rm(this.storyPath(id), { force: true }));
  }

  async getSetting(key: string): Promise<SettingValue | undefined> {
    return (await this.readSettings())[key];
  }

  setSetting(key: string, value: SettingValue): Promise<void> {
    return this.serialised(async () => {
      const settings = await this.readSettings();
      await this.writeNow(`the setting "${key}"`, join(this.dir, 'settings.json'), { ...settings, [key]: value });
    });
  }

  deleteSetting(key: string): Promise<void> {
    return this.serialised(async () => {
      const { [key]: _removed, ...rest } = await this.readSettings();
      await this.writeNow(`the setting "${key}"`, join(this.dir, 'settings.json'), rest);
    });
  }

  async listSaves(storyMd5: string): Promise<SaveSlotSummary[]> {
    if (!isMd5(storyMd5)) return [];
    const saves = await this.readAll<SaveSlot>(join(this.dir, 'saves', storyMd5));
    return saves.map(summariseSave).sort(bySavedAtDesc);
  }

  async getSave(storyMd5: string, name: string): Promise<SaveSlot | undefined> {
    return isMd5(storyMd5) ? this.read<SaveSlot>(this.savePath(storyMd5, name.trim())) : undefined;
  }

  async putSave(slot: SaveSlot): Promise<void> {
    const name = checkSlotName(slot.name);
    if (!isMd5(slot.storyMd5)) throw new StorageError('A save slot needs the story md5 (32 hex digits).');
    return this.serialised(async () => {
      await mkdir(join(this.dir, 'saves', slot.storyMd5), { recursive: true });
      await this.writeNow(`the save slot "${name}"`, this.savePath(slot.storyMd5, name), { ...slot, name });
    });
  }

  deleteSave(storyMd5: string, name: string): Promise<void> {
    if (!isMd5(storyMd5)) return Promise.resolve();
    return this.serialised(() => rm(this.savePath(storyMd5, name.trim()), { force: true }));
  }

  close(): void {
    this.closed = true;
  }

  private storyPath(id: string): string {
    return join(this.dir, 'stories', `${fileKey(id)}.json`);
  }

  private savePath(storyMd5: string, name: string): string {
    return join(this.dir, 'saves', storyMd5, `${fileKey(name)}.json`);
  }

  private async readSettings(): Promise<Record<string, SettingValue>> {
    return (await this.read<Record<string, SettingValue>>(join(this.dir, 'settings.json'))) ?? {};
  }

  /** Run `task` after every earlier write of this store. */
  private serialised<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StorageBlockedError('The store is closed.'));
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private write(what: string, path: string, value: unknown): Promise<void> {
    return this.serialised(() => this.writeNow(what, path, value));
  }

  /** Write to a temporary file, then rename it over `path` (atomic on one file system). */
  private async writeNow(what: string, path: string, value: unknown): Promise<void> {
    const tmp = `${path}.tmp-${process.pid}-${this.tmpCounter++}`;
    try {
      await writeFile(tmp, encodeJson(value));
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true }).catch(() => undefined);
      const code = errorCode(error);
      if (code === 'ENOSPC' || code === 'EDQUOT') throw new StorageFullError(what, { cause: error });
      throw new StorageError(`Could not save ${what}: ${(error as Error).message}`, { cause: error });
    }
  }

  private async read<T>(path: string): Promise<T | undefined> {
    if (this.closed) throw new StorageBlockedError('The store is closed.');
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw new StorageError(`Could not read ${path}: ${(error as Error).message}`, { cause: error });
    }
    try {
      return decodeJson(text) as T;
    } catch (error) {
      throw new StorageError(`The store file ${path} is corrupt: ${(error as Error).message}`, { cause: error });
    }
  }

  private async readAll<T>(dir: string): Promise<T[]> {
    if (this.closed) throw new StorageBlockedError('The store is closed.');
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw new StorageError(`Could not list ${dir}: ${(error as Error).message}`, { cause: error });
    }
    const records: (T | undefined)[] = await Promise.all(names.map((n) => this.read<T>(join(dir, n))));
    return records.filter((r): r is T => r !== undefined);
  }
}

/**
 * The store on JSON files in one directory, for the CLI (Node only; no DOM). Layout:
 * `stories/<sha1(id)>.json`, `saves/<storyMd5>/<sha1(name)>.json`, `settings.json`,
 * `runs/<sha1(id)>.json` (header) + `runs/<sha1(id)>.events.jsonl` (one event per line, appended;
 * a later line with the same seq replaces an earlier one), `meta-prompts/<sha1(id)>.json`; binary
 * data is base64 (json-codec.ts). Each whole-file write goes to a temporary file that is then
 * renamed over the target, so a failed write (disk full → `StorageFullError`) leaves the old file
 * intact; an event append that fails part-way leaves a torn last line, which reads ignore.
 * Writes are serialised within the process; two processes on one directory are not supported.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  byAddedAt, byCreatedAt, bySavedAtDesc, byUpdatedAtDesc, checkSlotName, StorageBlockedError, StorageError,
  StorageFullError, summariseRun, summariseSave, summariseStory, type RunEvent, type RunHeader, type RunKind,
  type RunSummary, type SaveSlot, type SaveSlotSummary, type SettingValue, type Store, type StoredMetaPrompt,
  type StoredStory, type StorySummary,
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
    await mkdir(join(dir, 'runs'), { recursive: true });
    await mkdir(join(dir, 'meta-prompts'), { recursive: true });
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

  async listRuns(kind: RunKind): Promise<RunSummary[]> {
    const headers = await this.readAll<RunHeader>(join(this.dir, 'runs'));
    return headers.filter((h) => h.kind === kind).map(summariseRun).sort(byUpdatedAtDesc);
  }

  async getRun(id: string): Promise<{ header: RunHeader; events: RunEvent[] } | undefined> {
    const header = await this.read<RunHeader>(this.runPath(id));
    if (!header) return undefined;
    let text = '';
    try {
      text = await readFile(this.eventsPath(id), 'utf8');
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw new StorageError(`Could not read the events of run "${id}": ${(error as Error).message}`, { cause: error });
    }
    const bySeq = new Map<number, RunEvent>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const event = decodeJson(line) as RunEvent;
        bySeq.set(event.seq, event);
      } catch {
        // a torn last line from an interrupted append: ignored
      }
    }
    return { header, events: [...bySeq.values()].sort((a, b) => a.seq - b.seq) };
  }

  putRun(header: RunHeader): Promise<void> {
    return this.write(`the run "${header.id}"`, this.runPath(header.id), header);
  }

  appendRunEvents(runId: string, events: RunEvent[], header?: RunHeader): Promise<void> {
    return this.serialised(async () => {
      if (!header && !(await this.read<RunHeader>(this.runPath(runId)))) throw new StorageError(`No run with id "${runId}".`);
      const lines = events.map((e) => encodeJson({ seq: e.seq, data: e.data }) + '\n').join('');
      try {
        await appendFile(this.eventsPath(runId), lines);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOSPC' || code === 'EDQUOT') throw new StorageFullError(`the run "${runId}"`, { cause: error });
        throw new StorageError(`Could not save the run "${runId}": ${(error as Error).message}`, { cause: error });
      }
      if (header) await this.writeNow(`the run "${runId}"`, this.runPath(runId), header);
    });
  }

  deleteRun(id: string): Promise<void> {
    return this.serialised(async () => {
      await rm(this.runPath(id), { force: true });
      await rm(this.eventsPath(id), { force: true });
    });
  }

  async listMetaPrompts(): Promise<StoredMetaPrompt[]> {
    return (await this.readAll<StoredMetaPrompt>(join(this.dir, 'meta-prompts'))).sort(byCreatedAt);
  }

  putMetaPrompt(entry: StoredMetaPrompt): Promise<void> {
    return this.write('the meta-prompt library', join(this.dir, 'meta-prompts', `${fileKey(entry.id)}.json`), entry);
  }

  deleteMetaPrompt(id: string): Promise<void> {
    return this.serialised(() => rm(join(this.dir, 'meta-prompts', `${fileKey(id)}.json`), { force: true }));
  }

  close(): void {
    this.closed = true;
  }

  private runPath(id: string): string {
    return join(this.dir, 'runs', `${fileKey(id)}.json`);
  }

  private eventsPath(id: string): string {
    return join(this.dir, 'runs', `${fileKey(id)}.events.jsonl`);
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

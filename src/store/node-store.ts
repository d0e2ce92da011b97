/**
 * The store on JSON files in one directory, for the CLI (Node only; no DOM). Layout:
 * `stories/<sha1(id)>.json`, `saves/<storyMd5>/<sha1(name)>.json`, `settings.json`,
 * `runs/<sha1(id)>.json` (header) + `runs/<sha1(id)>.events.jsonl` (one event per line, appended;
 * a later line with the same seq replaces an earlier one), `meta-prompts/<sha1(id)>.json`; binary
 * data is base64 (json-codec.ts). Each whole-file write goes to a temporary file that is then
 * renamed over the target, so a failed write (disk full → `StorageFullError`) leaves the old file
 * intact. Writes are serialised within the process; two processes on one directory are not
 * supported.
 *
 * Damage detection (checked by `getRun`): every event line ends with `"sum":"<8 hex>"`, the
 * checksum (checksum.ts) of the line chained to the previous line's (the run id for the first), so
 * a line that was lost, repeated, moved, cut short or garbled breaks the chain there; the header
 * file records in `$events` how many event lines the run had and the last one's checksum when it
 * was written, so lost lines at the end, an empty or a missing events file are found too. Lines
 * appended after the last header write and then lost cannot be told from a crash before they were
 * written (the run simply redoes that work). Files written before checksums (no `sum`) are read
 * as they are.
 *
 * A torn last line — the file does not end with a newline, because a kill or a full disk cut an
 * append short — that the header's mark does not count is not a committed event: it is dropped
 * (not damage; the run redoes that work), said once through `onNotice`, and cut off the file
 * before the next append. A torn line the mark counts was committed and is damage as before.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chainSum } from './checksum.ts';
import { scrubSecrets } from '../common/secrets.ts';
import {
  byAddedAt, byCreatedAt, bySavedAtDesc, byUpdatedAtDesc, checkSlotName, StorageBlockedError, StorageError,
  StorageFullError, summariseRun, summariseSave, summariseStory, type RunEvent, type RunHeader, type RunKind,
  type RunDamage, type RunSummary, type SaveSlot, type SaveSlotSummary, type SettingValue, type Store, type StoredMetaPrompt, type StoredRun,
  type StoredStory, type StorySummary,
} from './interface.ts';
import { decodeJson, encodeJson } from './json-codec.ts';

const fileKey = (text: string): string => createHash('sha1').update(text).digest('hex');
const isMd5 = (md5: string): boolean => /^[0-9a-f]{32}$/.test(md5);
const errorCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

/** How far a run's event file went: its lines and the last line's checksum (the run id when
 * none); `torn` when the file does not end with a newline (the torn line is counted in `lines`
 * only when it is damage); `keepBytes`: the file's bytes before a dropped torn line. Stored in
 * header files as `$events` (lines and sum only). */
interface EventsMark {
  lines: number;
  sum: string;
  torn?: boolean;
  keepBytes?: number;
}

/** A torn last line that was dropped: where it was and how many bytes of it there were. */
export interface DroppedTornLine {
  record: string;
  bytes: number;
}

/** A header file: the run's header plus the events mark at the time it was written. */
type HeaderFile = RunHeader & { $events?: EventsMark };

/** An event line's checksum suffix: `…,"sum":"0123abcd"}`. */
const SUM_SUFFIX = /,"sum":"([0-9a-f]{8})"\}$/;

/** The text of one event line (without its newline) chained to `previous`; returns it and its sum. */
function eventLine(previous: string, event: RunEvent): { line: string; sum: string } {
  const body = encodeJson({ seq: event.seq, data: event.data });
  const sum = chainSum(previous, body);
  return { line: `${body.slice(0, -1)},"sum":"${sum}"}`, sum };
}

/** What reading an events file found: events before the first damage, the damage, the mark. */
interface EventScan {
  events: RunEvent[];
  damage: Omit<RunDamage, 'where'> | null;
  mark: EventsMark;
  /** The torn last line dropped as no committed event, else null. */
  dropped: DroppedTornLine | null;
}

/**
 * Read an events file's text line by line, checking the chain of checksums and, when the header
 * recorded one, the mark (`expected`). Pure.
 */
export function scanEventLines(runId: string, text: string, expected: EventsMark | undefined): EventScan {
  const lines = text.split('\n');
  const torn = lines.at(-1) !== '';
  // The torn last line is dropped unless the header's mark counts it (then it was committed).
  let dropped: DroppedTornLine | null = null;
  if (!torn) lines.pop();
  else if (!expected || expected.lines < lines.length) {
    const partial = lines.pop()!;
    dropped = { record: `line ${lines.length + 1}`, bytes: Buffer.byteLength(partial) };
  }
  const bySeq = new Map<number, RunEvent>();
  let damage: EventScan['damage'] = null;
  let previous = runId;
  let chained = false;
  let count = 0;
  lines.forEach((line, i) => {
    const at = `line ${i + 1}`;
    count++;
    const match = SUM_SUFFIX.exec(line);
    const body = match ? `${line.slice(0, match.index)}}` : line;
    if (match) {
      const ok = match[1] === chainSum(previous, body);
      previous = match[1]!;
      chained = true;
      if (!ok) damage ??= { record: at, problem: 'its checksum does not fit: the line is garbled, or a line before it is missing, repeated or out of order' };
    } else if (chained) {
      damage ??= { record: at, problem: line.trim() ? 'it is cut short or garbled (no checksum)' : 'it is empty' };
    }
    if (expected && i + 1 === expected.lines && previous !== expected.sum) {
      damage ??= { record: at, problem: 'it is not the record the run counted there when it was last saved' };
    }
    if (damage) return;
    let event: RunEvent;
    try {
      event = decodeJson(body) as RunEvent;
    } catch {
      damage = { record: at, problem: 'it is not readable JSON (cut short or garbled)' };
      return;
    }
    if (typeof event !== 'object' || event === null || !Number.isInteger(event.seq) || !('data' in event)) {
      damage = { record: at, problem: 'it is not an event record (no whole seq and data)' };
      return;
    }
    bySeq.set(event.seq, { seq: event.seq, data: event.data });
  });
  if (!damage && expected && count < expected.lines) {
    damage = {
      record: count === 0 ? 'the whole file' : `after line ${count}`,
      problem: `${count === 0 ? 'it is empty or missing' : `it holds ${count} event records`} but the run had ${expected.lines} when it was last saved: records were lost`,
    };
  }
  const keepBytes = dropped ? Buffer.byteLength(text) - dropped.bytes : undefined;
  return {
    events: [...bySeq.values()].sort((a, b) => a.seq - b.seq), damage, dropped,
    mark: { lines: count, sum: previous, torn: torn && (count > 0 || dropped !== null), ...(keepBytes === undefined ? {} : { keepBytes }) },
  };
}

/** Options of a file store. */
export interface NodeStoreOptions {
  /** Told (once per run) of a repair made without asking: a dropped torn last line (default: a line on stderr). */
  onNotice?: (message: string) => void;
}

/** Open (creating if needed) a file store in `dir`. @throws StorageError if `dir` cannot be created */
export async function openNodeStore(dir: string, options: NodeStoreOptions = {}): Promise<NodeStore> {
  try {
    await mkdir(join(dir, 'stories'), { recursive: true });
    await mkdir(join(dir, 'saves'), { recursive: true });
    await mkdir(join(dir, 'runs'), { recursive: true });
    await mkdir(join(dir, 'meta-prompts'), { recursive: true });
  } catch (error) {
    throw new StorageError(`Cannot use the store directory ${dir}: ${(error as Error).message}`, { cause: error });
  }
  return new NodeStore(dir, options.onNotice);
}

export class NodeStore implements Store {
  readonly kind = 'files';
  readonly persistent = true;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private tmpCounter = 0;
  /** Per run: how far its events file goes (read once, then kept up to date by our appends). */
  private readonly marks = new Map<string, EventsMark>();
  /** Runs whose header this process wrote (or found) and has not deleted since: appending to one
   * needs no read of its header file first (one file read less per step). */
  private readonly knownRuns = new Set<string>();

  /** Runs whose dropped torn line was already told. */
  private readonly noticed = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly onNotice: (message: string) => void = (message) => void process.stderr.write(`metattl: ${message}\n`),
  ) {}

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

  async getRun(id: string): Promise<StoredRun | undefined> {
    const file = await this.read<HeaderFile>(this.runPath(id));
    if (!file) return undefined;
    const { $events: expected, ...header } = file;
    const where = this.eventsPath(id);
    const scan = scanEventLines(id, await this.readEvents(id), expected);
    if (scan.dropped && !this.noticed.has(id)) {
      this.noticed.add(id);
      this.onNotice(
        `${where}, ${scan.dropped.record}: the last line was cut short (${scan.dropped.bytes} bytes, no newline), as a kill or a full disk during a write leaves it; ` +
          'it is not a committed event, so it was dropped and that work is done again.',
      );
    }
    return { header, events: scan.events, damage: scan.damage && { where, ...scan.damage }, where };
  }

  putRun(header: RunHeader): Promise<void> {
    return this.serialised(async () => this.writeHeader(header, await this.markOf(header.id)));
  }

  appendRunEvents(runId: string, rawEvents: RunEvent[], rawHeader?: RunHeader): Promise<void> {
    const events = scrubSecrets(rawEvents);
    const header = scrubSecrets(rawHeader);
    return this.serialised(async () => {
      if (!header && !this.knownRuns.has(runId)) {
        if (!(await this.read<RunHeader>(this.runPath(runId)))) throw new StorageError(`No run with id "${runId}".`);
        this.knownRuns.add(runId);
      }
      const mark = await this.markOf(runId);
      let sum = mark.sum;
      const lines = events.map((e) => {
        const next = eventLine(sum, e);
        sum = next.sum;
        return next.line + '\n';
      });
      try {
        // A dropped torn line is cut off first; a torn line that is damage stays, and we start on a fresh line.
        if (mark.keepBytes !== undefined) await truncate(this.eventsPath(runId), mark.keepBytes);
        await appendFile(this.eventsPath(runId), (mark.torn && mark.keepBytes === undefined ? '\n' : '') + lines.join(''));
      } catch (error) {
        this.marks.delete(runId);
        const code = errorCode(error);
        if (code === 'ENOSPC' || code === 'EDQUOT') throw new StorageFullError(`the run "${runId}"`, { cause: error });
        throw new StorageError(`Could not save the run "${runId}": ${(error as Error).message}`, { cause: error });
      }
      const next = { lines: mark.lines + lines.length, sum };
      this.marks.set(runId, next);
      if (header) await this.writeHeader(header, next);
    });
  }

  rewriteRun(rawHeader: RunHeader, rawEvents: RunEvent[]): Promise<void> {
    const header = scrubSecrets(rawHeader);
    const events = scrubSecrets(rawEvents);
    return this.serialised(async () => {
      let sum = header.id;
      const lines = [...events].sort((a, b) => a.seq - b.seq).map((e) => {
        const next = eventLine(sum, e);
        sum = next.sum;
        return next.line + '\n';
      });
      // Header without a mark first, so no moment pairs the new events with an old mark.
      this.marks.delete(header.id);
      await this.writeNow(`the run "${header.id}"`, this.runPath(header.id), header);
      await this.writeText(`the run "${header.id}"`, this.eventsPath(header.id), lines.join(''));
      const mark = { lines: lines.length, sum };
      this.marks.set(header.id, mark);
      await this.writeHeader(header, mark);
    });
  }

  deleteRun(id: string): Promise<void> {
    return this.serialised(async () => {
      this.marks.delete(id);
      this.knownRuns.delete(id);
      await rm(this.runPath(id), { force: true });
      await rm(this.eventsPath(id), { force: true });
    });
  }

  async listMetaPrompts(): Promise<StoredMetaPrompt[]> {
    return (await this.readAll<StoredMetaPrompt>(join(this.dir, 'meta-prompts'))).sort(byCreatedAt);
  }

  putMetaPrompt(entry: StoredMetaPrompt): Promise<void> {
    return this.write('the meta-prompt library', join(this.dir, 'meta-prompts', `${fileKey(entry.id)}.json`), scrubSecrets(entry));
  }

  deleteMetaPrompt(id: string): Promise<void> {
    return this.serialised(() => rm(join(this.dir, 'meta-prompts', `${fileKey(id)}.json`), { force: true }));
  }

  close(): void {
    this.closed = true;
  }

  /** The text of a run's events file ('' when there is none). */
  private async readEvents(id: string): Promise<string> {
    try {
      return await readFile(this.eventsPath(id), 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return '';
      throw new StorageError(`Could not read the events of run "${id}": ${(error as Error).message}`, { cause: error });
    }
  }

  /** How far run `id`'s events file goes (read from the file the first time). */
  private async markOf(id: string): Promise<EventsMark> {
    const known = this.marks.get(id);
    if (known) return known;
    const header = await this.read<HeaderFile>(this.runPath(id));
    const mark = scanEventLines(id, await this.readEvents(id), header?.$events).mark;
    this.marks.set(id, mark);
    return mark;
  }

  private writeHeader(header: RunHeader, mark: EventsMark): Promise<void> {
    const file: HeaderFile = { ...scrubSecrets(header), $events: { lines: mark.lines, sum: mark.sum } };
    return this.writeNow(`the run "${header.id}"`, this.runPath(header.id), file).then(() => void this.knownRuns.add(header.id));
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
  private writeNow(what: string, path: string, value: unknown): Promise<void> {
    return this.writeText(what, path, encodeJson(value));
  }

  private async writeText(what: string, path: string, text: string): Promise<void> {
    const tmp = `${path}.tmp-${process.pid}-${this.tmpCounter++}`;
    try {
      await writeFile(tmp, text);
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

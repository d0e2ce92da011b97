/**
 * Getting Jericho's story files: each game's public
 * download address (jericho-sources.json, from the TALES suite's list) and the md5 Jericho's
 * walkthroughs, seeds and score reads are for (the catalog's `md5`, from Jericho's games.json).
 * A file is kept only when the md5 of its Z-code (out of a zip or a Blorb when it comes in one)
 * equals Jericho's. Fetch, storage and time are injected, so the same code serves the CLI (Node)
 * and the page; no DOM or Node imports here.
 */
import { unzipSync } from 'fflate';
import type { CatalogEntry } from '../engine/catalog.ts';
import { identifyStory } from '../engine/story-file.ts';
import sources from './jericho-sources.json' with { type: 'json' };

/** Where a game is downloaded from. `zipMember`: the file inside a zip at `url`. `listedMd5`: the
 * md5 the list gives when it is not Jericho's (that address may serve another release). */
export interface StorySource {
  fileName: string;
  url: string;
  zipMember?: string;
  listedMd5?: string;
}

/** Every Jericho game with a known download address, by catalog id. */
export const STORY_SOURCES: Readonly<Record<string, StorySource>> = sources.games;

/** Where the addresses come from (shown in `--help` and docs/stories.md). */
export const STORY_SOURCES_ORIGIN: string = sources.source;

/** The paper's six Jericho games (Meta-TTL §5: ID detective, zork1, temple; OOD balances, library, zork3). */
export const PAPER_GAMES: readonly string[] = ['detective', 'zork1', 'temple', 'balances', 'library', 'zork3'];

/** What happened to one game. */
export type StoryGetStatus = 'fetched' | 'already there' | 'md5 mismatch' | 'not found' | 'failed';

export interface StoryGetResult {
  id: string;
  fileName: string;
  status: StoryGetStatus;
  /** The address fetched (or that would have been), after `--mirror`. */
  url: string;
  /** Jericho's md5 of the game (expected). */
  md5: string;
  /** The md5 of what was received (Z-code), when something was. */
  receivedMd5?: string;
  /** Bytes written (Z-code), when fetched. */
  bytes?: number;
  /** The catalog's licence text. */
  licence: string;
  /** A sentence for the user (why it failed, what to do). */
  message: string;
}

/** What `getStories` needs of the outside world. */
export interface StoryGetIo {
  /** `fetch` (redirects followed). */
  fetch: typeof fetch;
  /** The bytes of `fileName` in the target directory, or null when absent. */
  readExisting(fileName: string): Promise<Uint8Array | null>;
  /** Write `bytes` as `fileName` in the target directory (atomically: never a half file). */
  write(fileName: string, bytes: Uint8Array): Promise<void>;
}

export interface StoryGetOptions {
  /** Fetch `<mirror>/<fileName>` instead of the listed address (a local copy, no zip). */
  mirror?: string;
  /** Longest wait for one download, headers and body, ms (default 60,000). */
  timeoutMs?: number;
  /** Called as each game finishes (in order). */
  onResult?: (result: StoryGetResult) => void;
  /** The addresses to use (default STORY_SOURCES). */
  sources?: Readonly<Record<string, StorySource>>;
  /** Bytes received so far of game `id`'s download, and the total when the server says it. */
  onProgress?: (id: string, receivedBytes: number, totalBytes: number | null) => void;
  /** Stops every download at once (then each unfinished game is `failed`, "stopped"). */
  signal?: AbortSignal;
}

/** Game ids for a suite name: `jericho` (every game with an address) or `paper` (the six). */
export function suiteGames(suite: string): string[] {
  if (suite === 'jericho') return Object.keys(STORY_SOURCES).sort();
  if (suite === 'paper') return [...PAPER_GAMES];
  throw new Error(`unknown suite "${suite}" (expected jericho or paper)`);
}

const md5Of = (bytes: Uint8Array): string | null => {
  try {
    return identifyStory(bytes).md5;
  } catch {
    return null;
  }
};

/** The Z-code of a received file: the zip member when the source names one, a Blorb's ZCOD chunk, or the file. */
function zcodeOf(received: Uint8Array, member: string | undefined): Uint8Array {
  let bytes = received;
  if (member !== undefined) {
    const files = unzipSync(received, { filter: (file) => file.name === member || file.name.endsWith(`/${member}`) });
    const found = Object.values(files)[0];
    if (!found) throw new Error(`the zip has no file named ${member}`);
    bytes = found;
  }
  return identifyStory(bytes).zcode;
}

async function download(url: string, io: StoryGetIo, timeoutMs: number, onProgress: (received: number, total: number | null) => void, stop?: AbortSignal): Promise<Uint8Array | { status: number }> {
  const signal = stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs);
  const response = await io.fetch(url, { signal, redirect: 'follow' });
  if (!response.ok) return { status: response.status };
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(received, total);
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * Get each game in `ids` (catalog ids) into the target directory: a file already there with
 * Jericho's md5 is left as it is; otherwise it is downloaded, its Z-code's md5 checked, and
 * written only when it matches. Never throws for one game's fault: each result says what happened.
 * @throws Error for an id that is not a known Jericho game (before anything is fetched)
 */
export async function getStories(ids: readonly string[], catalog: readonly CatalogEntry[], io: StoryGetIo, options: StoryGetOptions = {}): Promise<StoryGetResult[]> {
  const table = options.sources ?? STORY_SOURCES;
  const unknown = ids.filter((id) => !table[id] || !catalog.some((e) => e.id === id));
  if (unknown.length > 0) throw new Error(`not a Jericho game with a known address: ${unknown.join(', ')} (see --suite jericho)`);
  const results: StoryGetResult[] = [];
  for (const id of ids) {
    const result = await getOne(id, table[id]!, catalog.find((e) => e.id === id)!, io, options);
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}

async function getOne(id: string, source: StorySource, entry: CatalogEntry, io: StoryGetIo, options: StoryGetOptions): Promise<StoryGetResult> {
  const mirror = options.mirror?.replace(/\/+$/, '');
  const url = mirror !== undefined ? `${mirror}/${encodeURIComponent(source.fileName)}` : source.url;
  const base = { id, fileName: source.fileName, url, md5: entry.md5, licence: entry.licence };
  const existing = await io.readExisting(source.fileName);
  if (existing !== null && md5Of(existing) === entry.md5) return { ...base, status: 'already there', message: `${source.fileName} is already there with Jericho's md5.` };
  let received: Uint8Array | { status: number };
  try {
    received = await download(url, io, options.timeoutMs ?? 60_000, (got, total) => options.onProgress?.(id, got, total), options.signal);
  } catch (error) {
    const stopped = options.signal?.aborted === true;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    if (stopped) return { ...base, status: 'failed', message: `Stopped before ${source.fileName} was complete.` };
    const cause = timedOut ? `no complete answer within ${Math.round((options.timeoutMs ?? 60_000) / 1000)} s` : error instanceof Error ? error.message : String(error);
    return { ...base, status: 'failed', message: `Could not download ${url}: ${cause}. Try again, or use --mirror with a local copy.` };
  }
  if (!(received instanceof Uint8Array)) {
    return { ...base, status: received.status === 404 || received.status === 410 ? 'not found' : 'failed', message: `${url} answered HTTP ${received.status}.` };
  }
  let zcode: Uint8Array;
  try {
    zcode = zcodeOf(received, mirror === undefined ? source.zipMember : undefined);
  } catch (error) {
    return { ...base, status: 'failed', message: `${url} did not give a Z-machine story file: ${(error as Error).message}` };
  }
  const got = md5Of(zcode)!;
  if (got !== entry.md5) {
    const listed = source.listedMd5 === got ? ` It is the release the address list names (${got}), not the one Jericho's walkthrough and score reads are for; use --mirror with a copy of Jericho's file.` : '';
    return { ...base, status: 'md5 mismatch', receivedMd5: got, message: `${source.fileName}: md5 ${got}, expected Jericho's ${entry.md5}; not kept.${listed}` };
  }
  await io.write(source.fileName, zcode);
  return { ...base, status: 'fetched', receivedMd5: got, bytes: zcode.length, message: `${source.fileName}: fetched, md5 matches Jericho's.` };
}

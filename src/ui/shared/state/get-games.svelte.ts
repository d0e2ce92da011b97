/**
 * "Get the games": the page's side of `metattl stories get` — Jericho's story files
 * downloaded by this browser from their public addresses (src/stories/story-download.ts), through
 * an optional CORS proxy prefix, each checked against Jericho's md5 and added to the story
 * library; one row per game with its licence, a progress bar, the outcome and a retry. Nothing is
 * fetched until the user asks. Fetch and the story shelf are injected.
 */
import type { CatalogEntry } from '../../../engine/catalog.ts';
import type { StoryGetResult } from '../../../stories/story-download.ts';
import { errorText } from './error-text.ts';

/** The download code and the address list (with fflate), loaded when the panel is first opened. */
const downloads = () => import('../../../stories/story-download.ts');

/** One game's row. `progress`: 0–1 while downloading (null when the size is unknown). */
export interface GameRow {
  id: string;
  title: string;
  licence: string;
  fileName: string;
  status: 'idle' | 'downloading' | StoryGetResult['status'];
  progress: number | null;
  message: string;
}

/** What the panel needs of the page. */
export interface GetGamesDeps {
  fetch: typeof fetch;
  /** The catalog's entries (the story shelf's). */
  catalog: () => readonly CatalogEntry[];
  /** md5s of the Z-code of the stories already on the story shelf. */
  shelfMd5s: () => ReadonlySet<string>;
  /** Add a checked story file to the story shelf. @throws when it cannot be stored */
  add: (fileName: string, bytes: Uint8Array) => Promise<void>;
}

/** The suites offered: the paper's six games, or every Jericho game with a public address. */
export type GameSuite = 'paper' | 'jericho';

export class GetGamesState {
  suite = $state<GameSuite>('paper');
  /** Put before each address, e.g. `https://proxy.example/?` (browsers cannot fetch every archive directly). */
  proxyPrefix = $state('');
  rows = $state.raw<GameRow[]>([]);
  busy = $state(false);
  private controller: AbortController | null = null;

  constructor(private readonly deps: GetGamesDeps) {}

  /** The suite's games as rows (outcomes of this page visit kept). */
  async refresh(): Promise<void> {
    const { PAPER_GAMES, STORY_SOURCES } = await downloads();
    const ids = this.suite === 'paper' ? [...PAPER_GAMES] : Object.keys(STORY_SOURCES).sort();
    const catalog = this.deps.catalog();
    const have = this.deps.shelfMd5s();
    const old = this.rows;
    this.rows = ids.flatMap((id) => {
      const entry = catalog.find((e) => e.id === id);
      if (!entry) return [];
      const kept = old.find((r) => r.id === id);
      const there = have.has(entry.md5);
      return [kept && kept.status !== 'idle' ? kept : {
        id, title: entry.title, licence: entry.licence, fileName: STORY_SOURCES[id]!.fileName,
        status: there ? 'already there' : 'idle', progress: null, message: there ? 'On your story shelf.' : '',
      }];
    });
  }

  setSuite(suite: GameSuite): Promise<void> {
    this.suite = suite;
    return this.refresh();
  }

  /** Get every game of the suite not on the story shelf yet (or `ids` only: a retry). */
  async get(ids: readonly string[] = this.rows.filter((r) => r.status !== 'already there' && r.status !== 'fetched').map((r) => r.id)): Promise<void> {
    if (this.busy || ids.length === 0) return;
    this.busy = true;
    this.controller = new AbortController();
    const prefix = this.proxyPrefix.trim();
    try {
      const { getStories } = await downloads();
      await getStories(ids, this.deps.catalog(), {
        fetch: (url, init) => this.deps.fetch(prefix === '' ? url : `${prefix}${String(url)}`, init),
        readExisting: async () => null,
        write: (fileName, bytes) => this.deps.add(fileName, bytes),
      }, {
        signal: this.controller.signal,
        onProgress: (id, received, total) => this.update(id, { status: 'downloading', progress: total === null ? null : Math.min(1, received / total), message: `${Math.round(received / 1024)} KB` }),
        onResult: (result) => this.update(result.id, { status: result.status, progress: null, message: this.explain(result) }),
      }).catch((error: unknown) => {
        for (const id of ids) this.update(id, { status: 'failed', progress: null, message: errorText(error) });
      });
    } finally {
      this.busy = false;
      this.controller = null;
    }
  }

  /** Stop the downloads in flight (their rows say so; a retry starts them again). */
  stop(): void {
    this.controller?.abort();
  }

  private explain(result: StoryGetResult): string {
    if (result.status === 'fetched') return 'Added to your story shelf; its md5 is Jericho’s.';
    if (result.status === 'failed' && /Failed to fetch|NetworkError|Load failed/i.test(result.message)) {
      return `${result.message.replace(/ Try again, or use --mirror with a local copy\.$/, '')} The archive may not allow this page to fetch it (CORS): set a CORS proxy prefix and retry, or download the file yourself and add it with “Add story file…”.`;
    }
    return result.message.replace(/; use --mirror with a copy of Jericho's file\.$/, '; add a copy of Jericho’s file yourself.').replace(/ Try again, or use --mirror with a local copy\.$/, ' Retry, or add the file yourself.');
  }

  private update(id: string, patch: Partial<GameRow>): void {
    this.rows = this.rows.map((r) => (r.id === id ? { ...r, ...patch } : r));
  }
}

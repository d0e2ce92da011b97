/**
 * The story shelf as plain data: shipped stories (catalog entries with a file), local stories
 * (dev/test server's `local-stories/index.json`) and user stories (from the store). Ids are what
 * the story picker uses: the catalog id for shipped stories ("advent"), `local:<file name>` and
 * `user:<md5>`. Pure functions; no I/O.
 */
import type { Catalog, CatalogEntry } from '../../../engine/catalog.ts';
import type { StorySummary } from '../../../store/interface.ts';

export type StorySource = 'shipped' | 'local' | 'user';

export interface ShelfEntry {
  id: string;
  title: string;
  source: StorySource;
  /** Page-relative path of the file for shipped and local stories; null for user stories. */
  path: string | null;
  /** The catalog entry known before loading (by file name or md5); re-checked by md5 on load. */
  catalog: CatalogEntry | null;
  /** User stories: the max score the user supplied (null = unknown). */
  storedMaxScore: number | null;
  /** User stories that could not be stored (memory only, or the store failed). */
  unsaved: boolean;
}

const STORY_FILE = /^[\w.-]+\.(z[1-8]|zblorb|zlb)$/i;

/** frotz seeds are integers in [0, 2^32) (the engine's check, shared with share links). */
export { isSeed } from '../../../engine/frotz-rng.ts';

export const localStoryId = (fileName: string): string => `local:${fileName}`;
export const userStoryId = (md5: string): string => `user:${md5}`;

/** Catalog entries that ship their file under `stories/`. */
export function shippedEntries(catalog: Catalog): ShelfEntry[] {
  return catalog.stories
    .filter((s) => s.file !== null)
    .map((s) => ({ id: s.id, title: s.title, source: 'shipped', path: `stories/${s.file}`, catalog: s, storedMaxScore: null, unsaved: false }));
}

/** Entries for the file names listed by `local-stories/index.json`; anything malformed is skipped. */
export function localEntries(listing: unknown, catalog: Catalog | null): ShelfEntry[] {
  if (!Array.isArray(listing)) return [];
  return listing
    .filter((name): name is string => typeof name === 'string' && STORY_FILE.test(name))
    .sort()
    .map((name) => {
      const known = catalog?.stories.find((s) => s.localName === name) ?? null;
      return {
        id: localStoryId(name), title: known ? `${known.title} (${name})` : name, source: 'local',
        path: `local-stories/${encodeURIComponent(name)}`, catalog: known, storedMaxScore: null, unsaved: false,
      };
    });
}

/** Entries for stories the user added, titled from the catalog when their md5 is known. */
export function userEntry(story: Pick<StorySummary, 'id' | 'name' | 'md5' | 'maxScore'>, catalog: Catalog | null, unsaved = false): ShelfEntry {
  const known = catalog?.stories.find((s) => s.md5 === story.md5) ?? null;
  return {
    id: story.id, title: known ? `${known.title} (${story.name})` : story.name, source: 'user', path: null,
    catalog: known, storedMaxScore: story.maxScore, unsaved,
  };
}

/** A max score the game stated itself, with the words it used. */
export interface MaxScoreHint {
  maxScore: number;
  /** The game's words, e.g. "out of a possible 350" or "(of 350 points)". */
  quote: string;
}

/** "out of a possible N", "out of a maximum of N", "out of N", "(of N points)". */
const MAX_SCORE_PATTERN = /out of (?:a (?:possible|maximum(?: of)?) )?(\d+)|\(of (\d+) points\)/gi;

/** The last max score a game printed (its answer to SCORE), or null when it never did. */
export function maxScoreHint(texts: readonly string[]): MaxScoreHint | null {
  for (let i = texts.length - 1; i >= 0; i--) {
    const last = [...(texts[i] ?? '').matchAll(MAX_SCORE_PATTERN)].at(-1);
    const value = Number(last?.[1] ?? last?.[2]);
    if (last && Number.isInteger(value) && value > 0) return { maxScore: value, quote: last[0] };
  }
  return null;
}

/** A display name for a story downloaded from `url`: the last path segment, else the host. */
export function nameFromUrl(url: URL): string {
  const last = decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? '');
  return last || url.host || 'story';
}

/**
 * `address` (an http(s) URL, or a path relative to `base`) as a URL.
 * @throws Error "… is not a URL" for anything else (empty, spaces inside, another scheme)
 */
export function storyUrl(address: string, base: URL): URL {
  const text = address.trim();
  const notUrl = new Error(`“${text}” is not a URL: give an address such as https://example.org/games/story.z5 (or a path on this site).`);
  if (text === '' || /\s/.test(text)) throw notUrl;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') throw notUrl;
  try {
    return new URL(text, base);
  } catch {
    throw notUrl;
  }
}

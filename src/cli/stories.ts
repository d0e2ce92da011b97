/**
 * Story lookup for the CLI: a path, or a catalog id / file name found in STORIES_DIR; the catalog
 * (public/stories/catalog.json) gives rules and max score by md5. Node only.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { findByMd5, parseCatalog, rulesFor, type Catalog, type CatalogEntry } from '../engine/catalog.ts';
import type { StoryRules } from '../engine/interface.ts';
import { identifyStory, md5Hex } from '../engine/story-file.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ResolvedStory {
  path: string;
  bytes: Uint8Array;
  entry: CatalogEntry | undefined;
  rules: StoryRules | undefined;
}

export async function loadCatalog(): Promise<Catalog> {
  return parseCatalog(JSON.parse(await readFile(resolve(ROOT, 'public/stories/catalog.json'), 'utf8')));
}

/** Where `metattl stories get` puts story files: $METATTL_STORIES_DIR, else ~/.cache/metattl-stories
 * (outside the repository, so downloaded games are never committed or shipped in a build). */
export function downloadedStoriesDir(): string {
  return process.env.METATTL_STORIES_DIR ?? resolve(homedir(), '.cache/metattl-stories');
}

/** Every directory a story given by id or bare name is looked for in, whether it exists or not:
 * STORIES_DIR (when set), public/stories, the downloaded stories (`downloadedStoriesDir`),
 * ../shared/stories (or $SHARED_DIR/stories). Absolute paths. */
export function storySearchDirs(): string[] {
  const dirs = [process.env.STORIES_DIR, resolve(ROOT, 'public/stories'), downloadedStoriesDir(), resolve(process.env.SHARED_DIR ?? resolve(ROOT, '../shared'), 'stories')];
  return dirs.filter((d): d is string => !!d).map((d) => resolve(d));
}

/** The directories of `storySearchDirs` that exist: where a story is looked up. */
export function storyDirs(): string[] {
  return storySearchDirs().filter((d) => existsSync(d));
}

/**
 * Resolve `spec` (a path, a file name in a stories directory, or a catalog id) and read it.
 * @throws Error when no such story file exists
 */
export async function resolveStory(spec: string): Promise<ResolvedStory> {
  const catalog = await loadCatalog();
  const byId = catalog.stories.find((s) => s.id === spec);
  const candidates = [resolve(spec), ...storyDirs().flatMap((d) => [resolve(d, basename(spec)), ...(byId?.localName ? [resolve(d, byId.localName)] : [])])];
  const path = candidates.find((p) => existsSync(p));
  if (!path) throw new Error(`story file not found: ${spec} (looked in ${candidates.join(', ')})`);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new Error(`cannot read the story file ${path}: ${code === 'EISDIR' ? 'it is a directory' : (error as Error).message}`);
  }
  const entry = findByMd5(catalog, md5Hex(bytes));
  // A header checksum that does not match is worth a word, not a refusal: the story may still run.
  try {
    for (const warning of identifyStory(bytes).warnings) process.stderr.write(`metattl: warning: ${path}: ${warning}\n`);
  } catch {
    // not a story file: the engine says so when it loads it
  }
  return { path, bytes, entry, rules: entry ? rulesFor(entry) : undefined };
}

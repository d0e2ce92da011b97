/**
 * `metattl stories get <game…|--suite jericho|--suite paper> [--mirror BASE] [--dir DIR] [--json]`
 *: downloads Jericho's story files from their public addresses (or `BASE/<file name>`, BASE an
 * http(s) address or a `file://` directory), keeps each only when its md5 is Jericho's, into the
 * directory the CLI finds stories in (`--dir`, else $METATTL_STORIES_DIR, else
 * ~/.cache/metattl-stories). One line per game (fetched / already there / md5 mismatch / not found
 * / failed); exit 1 if any failed. A download that failed without `--mirror` (offline) names the
 * local copies of the file in the directories the CLI looks in (../shared/stories among them) and
 * how to use them, or every directory it looked in when none holds one.
 * `--json`: `{ dir, results: [{ id, fileName, status, url, md5, receivedMd5?, bytes?, licence, message }] }`.
 */
import { STORIES_GET } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getStories, suiteGames, type StoryGetResult } from '../stories/story-download.ts';
import { downloadedStoriesDir, loadCatalog, storySearchDirs } from './stories.ts';
import { UsageError } from './usage-error.ts';

/**
 * `fetch` that also reads `file:` addresses (a `--mirror file:///dir`): the file's bytes with
 * status 200, or status 404 when there is no such file; every other address goes to the built-in
 * fetch.
 */
export const fileOrHttpFetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith('file:')) return globalThis.fetch(input, init);
  try {
    return new Response(new Uint8Array(await readFile(fileURLToPath(url))), { status: 200 });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return new Response('not found', { status: 404 });
    throw error;
  }
}) as typeof fetch;

/**
 * `r` with, when its download failed, what the local copies offer: the copies of its file in the
 * directories the CLI finds stories in (other than `dir`, the target), which the CLI already plays,
 * and the `--mirror file://` line that copies them into `dir`; or, with none, every directory it
 * looked in. Unchanged when it did not fail.
 */
export function withLocalCopies(r: StoryGetResult, dir: string, searchDirs: readonly string[] = storySearchDirs()): StoryGetResult {
  if (r.status !== 'failed' && r.status !== 'not found') return r;
  const others = searchDirs.filter((d) => resolve(d) !== resolve(dir));
  const copies = others.map((d) => join(d, r.fileName)).filter((p) => existsSync(p));
  if (copies.length === 0) return { ...r, message: `${r.message} No local copy of ${r.fileName} either (looked in ${others.join(', ')}); with one, use --mirror file:///its/directory.` };
  const from = pathToFileURL(resolve(copies[0]!, '..')).href;
  return { ...r, message: `${r.message} A local copy is at ${copies.join(', ')}: the CLI already plays it from there (e.g. "npx metattl replay ${r.id} --commands FILE"), or copy it here with "npx metattl stories get ${r.id} --mirror ${from}".` };
}

const line = (r: StoryGetResult): string => `${r.id.padEnd(12)} ${r.status.padEnd(14)} ${r.status === 'fetched' || r.status === 'already there' ? `${r.fileName} (${r.licence})` : r.message}\n`;

export async function storiesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'overlap') return (await import('./stories-overlap.ts')).storiesOverlapCommand(rest);
  if (sub !== 'get') throw new UsageError(sub === undefined ? 'stories: expected "get" or "overlap"' : `stories: unknown subcommand "${sub}" (expected get or overlap)`);
  const { values, positionals } = parseCommand(STORIES_GET, rest);
  if (values.suite !== undefined && positionals.length > 0) throw new UsageError('stories get: give games or --suite, not both');
  let ids: string[];
  try {
    ids = values.suite !== undefined ? suiteGames(values.suite) : positionals;
  } catch (error) {
    throw new UsageError(`stories get --suite: ${(error as Error).message}`);
  }
  if (ids.length === 0) throw new UsageError('stories get: name the games (e.g. detective zork1) or --suite jericho|paper');
  if (values.mirror !== undefined && !/^(?:https?:\/\/|file:\/\/)/.test(values.mirror)) throw new UsageError(`stories get --mirror: expected an http(s) base address or a file:// directory, got "${values.mirror}"`);
  const timeoutMs = values['timeout-ms'] === undefined ? 60_000 : Number(values['timeout-ms']);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`stories get --timeout-ms: expected a positive whole number, got "${values['timeout-ms']}"`);
  const dir = resolve(values.dir ?? downloadedStoriesDir());
  const catalog = await loadCatalog();
  // Offline without a mirror: say which local copies could be used instead.
  const explain = (r: StoryGetResult): StoryGetResult => (values.mirror === undefined ? withLocalCopies(r, dir) : r);
  await mkdir(dir, { recursive: true });
  let results: StoryGetResult[];
  try {
    results = await getStories(ids, catalog.stories, {
      fetch: fileOrHttpFetch,
      readExisting: async (name) => readFile(resolve(dir, name)).then((b) => new Uint8Array(b), () => null),
      write: async (name, bytes) => {
        const tmp = resolve(dir, `.${name}.${process.pid}.part`);
        await writeFile(tmp, bytes);
        await rename(tmp, resolve(dir, name));
      },
    }, { ...(values.mirror !== undefined ? { mirror: values.mirror } : {}), timeoutMs, onResult: (r) => void (values.json ? undefined : process.stdout.write(line(explain(r)))) });
  } catch (error) {
    throw new UsageError(`stories get: ${(error as Error).message}`);
  }
  results = results.map(explain);
  if (values.json) process.stdout.write(JSON.stringify({ dir, results }) + '\n');
  else process.stdout.write(`stories in ${dir}\n`);
  return results.every((r) => r.status === 'fetched' || r.status === 'already there') ? 0 : 1;
}

/**
 * `metattl stories get <game…|--suite jericho|--suite paper> [--mirror BASE] [--dir DIR] [--json]`
 *: downloads Jericho's story files from their public addresses (or `BASE/<file name>`),
 * keeps each only when its md5 is Jericho's, into the directory the CLI finds stories in
 * (`--dir`, else $METATTL_STORIES_DIR, else ~/.cache/metattl-stories). One line per game
 * (fetched / already there / md5 mismatch / not found / failed); exit 1 if any failed.
 * `--json`: `{ dir, results: [{ id, fileName, status, url, md5, receivedMd5?, bytes?, licence, message }] }`.
 */
import { STORIES_GET } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { getStories, suiteGames, type StoryGetResult } from '../stories/story-download.ts';
import { downloadedStoriesDir, loadCatalog } from './stories.ts';
import { UsageError } from './usage-error.ts';

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
  if (values.mirror !== undefined && !/^https?:\/\//.test(values.mirror)) throw new UsageError(`stories get --mirror: expected an http(s) base address, got "${values.mirror}"`);
  const timeoutMs = values['timeout-ms'] === undefined ? 60_000 : Number(values['timeout-ms']);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`stories get --timeout-ms: expected a positive whole number, got "${values['timeout-ms']}"`);
  const dir = resolve(values.dir ?? downloadedStoriesDir());
  const catalog = await loadCatalog();
  await mkdir(dir, { recursive: true });
  let results: StoryGetResult[];
  try {
    results = await getStories(ids, catalog.stories, {
      fetch: globalThis.fetch,
      readExisting: async (name) => readFile(resolve(dir, name)).then((b) => new Uint8Array(b), () => null),
      write: async (name, bytes) => {
        const tmp = resolve(dir, `.${name}.${process.pid}.part`);
        await writeFile(tmp, bytes);
        await rename(tmp, resolve(dir, name));
      },
    }, { ...(values.mirror !== undefined ? { mirror: values.mirror } : {}), timeoutMs, onResult: (r) => void (values.json ? undefined : process.stdout.write(line(r))) });
  } catch (error) {
    throw new UsageError(`stories get: ${(error as Error).message}`);
  }
  if (values.json) process.stdout.write(JSON.stringify({ dir, results }) + '\n');
  else process.stdout.write(`stories in ${dir}\n`);
  return results.every((r) => r.status === 'fetched' || r.status === 'already there') ? 0 : 1;
}

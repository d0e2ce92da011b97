/**
 * `metattl stories overlap --train GAME,… [GAME|FILE|DIR …] [--walkthroughs FILE] [--json]`: each
 * game's vocabulary overlap with the training games (src/eval/vocabulary-overlap.ts has the
 * formula): the share of its Z-machine dictionary words, and of its walkthrough words, that the
 * training games also have. Games are story files, file names or catalog ids (found as every
 * command finds stories, src/cli/stories.ts) or directories (every .z1–.z8/.zblorb file in them).
 * Walkthroughs come from a Jericho games.json (`--walkthroughs`, else ../shared/jericho/games.json
 * when present), matched by the story file's md5. Rows are printed least dictionary overlap first.
 * `--json`: `{ formula, training: [{game, file, version, words}], games: [{game, file, version,
 * resolution, dictionary: {shared, total, share}, walkthrough: {…} | null}] }`. Node only.
 */
import { STORIES_OVERLAP } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { md5Hex, identifyStory } from '../engine/story-file.ts';
import { readStoryDictionary } from '../engine/story-dictionary.ts';
import { overlapTable, type GameVocabulary } from '../eval/vocabulary-overlap.ts';
import { walkthroughGames, type WalkthroughEntry } from '../eval/walkthrough-file.ts';
import { resolveStory } from './stories.ts';
import { UsageError } from './usage-error.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const STORY_EXT = /\.(z[1-8]|zblorb|zlb)$/i;

/** The overlap formula, as printed with the table and in the JSON. */
export const OVERLAP_FORMULA = 'overlap = |V(game) ∩ V(training)| / |V(game)| over distinct words (letters, digits, \' and -; with a letter) cut to the smallest resolution among the games compared (6 characters if any is a version 1–3 file, else 9); V(training) = the union of the training games\' words';

/** A loaded game: its vocabularies and where they came from. */
export interface LoadedVocabulary extends GameVocabulary {
  file: string;
  version: number;
}

/** ../shared/jericho/games.json (or $SHARED_DIR/jericho/games.json): where Jericho's walkthroughs are by default. */
export const defaultGamesJson = (): string => resolve(process.env.SHARED_DIR ?? resolve(ROOT, '../shared'), 'jericho/games.json');

/**
 * The games of a Jericho games.json file (src/eval/walkthrough-file.ts `walkthroughGames`), for
 * `stories overlap` and `probe recall` alike.
 * @throws UsageError naming `--walkthroughs` when the file cannot be read, is not JSON, or has no walkthrough
 */
export async function readJerichoGames(path: string): Promise<WalkthroughEntry[]> {
  let games: unknown;
  try {
    games = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--walkthroughs ${path}: cannot read it as JSON (${(error as Error).message.split('\n')[0]})`);
  }
  try {
    return walkthroughGames(games, `--walkthroughs ${path}`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Walkthroughs by story md5 from a Jericho games.json: `file`, else `defaultGamesJson()` when it
 * exists, else none.
 * @throws UsageError when `file` is given and cannot be read or is not an array of games
 */
export async function loadWalkthroughs(file?: string): Promise<Map<string, string[]>> {
  const path = file ?? defaultGamesJson();
  if (file === undefined && !existsSync(path)) return new Map();
  return new Map((await readJerichoGames(path)).flatMap((g) => (g.md5 ? [[g.md5, g.walkthrough] as const] : [])));
}

/**
 * One game's vocabularies from a story spec (path, file name or catalog id).
 * @throws Error when the story is not found or is not a Z-machine story (StoryFileError's message)
 */
export async function loadVocabulary(spec: string, walkthroughs: ReadonlyMap<string, string[]>): Promise<LoadedVocabulary> {
  const story = await resolveStory(spec);
  const dictionary = readStoryDictionary(story.bytes);
  const md5 = (() => {
    try {
      return identifyStory(story.bytes).md5;
    } catch {
      return md5Hex(story.bytes);
    }
  })();
  return {
    game: story.entry?.id ?? basename(story.path, extname(story.path)), file: story.path, version: dictionary.version, resolution: dictionary.resolution,
    dictionary: dictionary.words, walkthrough: walkthroughs.get(md5) ?? null,
  };
}

/**
 * The vocabularies of `games` (ids or files as the CLI names them; web tasks skipped), keyed by the
 * name given; a game whose story file is missing or unreadable is left out (reports list it as
 * missing). Walkthroughs from ../shared/jericho/games.json when present.
 */
export async function vocabulariesFor(games: readonly string[]): Promise<Record<string, GameVocabulary>> {
  const walkthroughs = await loadWalkthroughs().catch(() => new Map<string, string[]>());
  const out: Record<string, GameVocabulary> = {};
  for (const game of new Set(games)) {
    if (game.startsWith('web:')) continue;
    try {
      out[game] = { ...(await loadVocabulary(game, walkthroughs)), game };
    } catch {
      // missing or not a story
    }
  }
  return out;
}

/** Expand directories to their story files (sorted); other specs as they are. */
async function expand(specs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const spec of specs) {
    if (existsSync(spec) && statSync(spec).isDirectory()) {
      const files = (await readdir(spec)).filter((f) => STORY_EXT.test(f)).sort();
      if (!files.length) throw new UsageError(`stories overlap: no story files (.z1–.z8, .zblorb) in the directory ${spec}`);
      out.push(...files.map((f) => resolve(spec, f)));
    } else out.push(spec);
  }
  return out;
}

const pct = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(1)} %`);

export async function storiesOverlapCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(STORIES_OVERLAP, argv);
  const trainSpecs = (values.train ?? []).flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean);
  if (!trainSpecs.length) throw new UsageError('stories overlap: name the training games with --train (e.g. --train detective,zork1,temple)');
  if (!positionals.length) throw new UsageError('stories overlap: name the games to compare (story files, ids or directories) after the options');
  const walkthroughs = await loadWalkthroughs(values.walkthroughs);
  const load = async (specs: string[]) => {
    const out: LoadedVocabulary[] = [];
    for (const spec of specs) out.push(await loadVocabulary(spec, walkthroughs));
    return out;
  };
  const training = await load(await expand(trainSpecs));
  const games = await load(await expand(positionals));
  const rows = overlapTable(games, training);
  const byGame = new Map(games.map((g) => [g.game, g]));
  const trainingOut = training.map((t) => ({ game: t.game, file: t.file, version: t.version, words: new Set(t.dictionary).size }));
  const gamesOut = rows.map((r) => ({ file: byGame.get(r.game)!.file, version: byGame.get(r.game)!.version, ...r }));
  if (values.json) {
    process.stdout.write(JSON.stringify({ formula: OVERLAP_FORMULA, training: trainingOut, games: gamesOut }) + '\n');
    return 0;
  }
  const lines = [
    `vocabulary overlap with the training games ${training.map((t) => t.game).join(', ')}`,
    `${'game'.padEnd(14)} ${'version'.padStart(7)} ${'words'.padStart(6)} ${'shared'.padStart(6)} ${'dictionary'.padStart(10)} ${'walkthrough'.padStart(11)} ${'(words)'.padStart(8)}`,
    ...gamesOut.map((r) => `${r.game.padEnd(14)} ${String(r.version).padStart(7)} ${String(r.dictionary.total).padStart(6)} ${String(r.dictionary.shared).padStart(6)} ${pct(r.dictionary.share).padStart(10)} ${pct(r.walkthrough?.share ?? null).padStart(11)} ${(r.walkthrough ? String(r.walkthrough.total) : '—').padStart(8)}`),
    OVERLAP_FORMULA,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

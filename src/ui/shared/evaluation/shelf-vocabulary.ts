/**
 * Games' vocabularies read from the page's story shelf, for the vocabulary-overlap column and
 * section of the Evaluate and Experiments reports (src/eval/vocabulary-overlap.ts has the formula):
 * each game's Z-machine dictionary from the story shelf story that plays it. The page has no Jericho
 * games.json: a game's `walkthrough` is the one the caller was given (an experiment file's
 * `recallProbe.walkthroughs`), else null (the CLI's reports add Jericho's). Pure but for the
 * injected story reader.
 */
import { readStoryDictionary } from '../../../engine/story-dictionary.ts';
import type { GameVocabulary } from '../../../eval/vocabulary-overlap.ts';

/** The story shelf entry that plays `game` (its catalog id, else its shelf id). */
function entryOf<E extends { id: string; catalog: { id: string } | null }>(entries: readonly E[], game: string): E | undefined {
  return entries.find((e) => (e.catalog?.id ?? e.id) === game) ?? entries.find((e) => e.id === game);
}

/**
 * The vocabularies of `games` (catalog ids or shelf ids; web tasks skipped), each read with
 * `readBytes` from the story shelf entry that plays it. A game no entry plays, or whose file is not a
 * readable story, is left out: the reports list it as missing. `walkthroughs` (game → commands)
 * gives a game its walkthrough; a game without one has `walkthrough` null.
 */
export async function shelfGameVocabularies<E extends { id: string; catalog: { id: string } | null }>(
  games: readonly string[], entries: readonly E[], readBytes: (entry: E) => Promise<Uint8Array>, walkthroughs: Readonly<Record<string, readonly string[]>> = {},
): Promise<Record<string, GameVocabulary>> {
  const out: Record<string, GameVocabulary> = {};
  for (const game of new Set(games)) {
    if (game.startsWith('web:')) continue;
    const entry = entryOf(entries, game);
    if (!entry) continue;
    try {
      const dictionary = readStoryDictionary(await readBytes(entry));
      out[game] = { game, resolution: dictionary.resolution, dictionary: dictionary.words, walkthrough: walkthroughs[game]?.length ? walkthroughs[game]! : null };
    } catch {
      // Not a readable story: listed as missing.
    }
  }
  return out;
}

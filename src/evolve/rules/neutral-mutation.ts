/**
 * The matched random control (method.md, "Controls"; proposer mode `random-neutral`): each
 * proposal replaces a span of the parent's words with words drawn from a neutral corpus, and the
 * edit's size — its word edit distance from the parent — is drawn from the LLM arm's edit sizes,
 * so the two arms change their strategies by the same amounts and differ only in what they write.
 * The older `random` mode (random-mutation.ts: one sentence from our own curated strategies) is
 * kept unchanged for the runs that used it.
 *
 * The corpus is NEUTRAL_CORPUS: sentences written for this control (by the playground's authors,
 * not taken from any game, walkthrough or curated strategy) about playing text games in general;
 * none names a game, a place, an object, a route or a solution.
 */
import { wordsOf } from '../accounting.ts';
import type { SeededRng } from '../../ttl/rng.ts';

/** Generic advice about text games with no game-specific facts (see the module comment). */
export const NEUTRAL_CORPUS: readonly string[] = [
  'Read the text of each turn before choosing the next command.',
  'Short commands made of a verb and a noun are understood most often.',
  'When the game does not understand a word, try a simpler one.',
  'Looking around again can show details that were missed the first time.',
  'Carrying items can matter later, so it is often worth picking them up.',
  'Keep track of which directions have been tried from each place.',
  'A message that repeats may mean that the same action will not work.',
  'Examining things can reveal more than the first description says.',
  'Some actions only work in the right place or at the right time.',
  'If progress stops, going back to an earlier place can help.',
  'The score can change when something useful has been done.',
  'Reading signs, notes and labels can give hints.',
  'Doors, containers and passages may need to be opened first.',
  'An inventory check shows what is being carried.',
  'Talking to characters or asking them about things can help.',
  'Dangerous situations may end the game, so caution can pay off.',
  'Saving effort on repeated failures leaves more turns for new ideas.',
  'A map of the places visited makes it easier to plan a route.',
  'The same puzzle may accept several different phrasings.',
  'Light, keys and tools are common needs in games of this kind.',
  'Waiting a turn can sometimes let events unfold.',
  'Each episode is a chance to try something that was not tried before.',
  'Notes from earlier episodes can save turns in later ones.',
  'Combining two items or using one on another is sometimes required.',
  'The game may describe exits in the room description.',
  'Plain, literal commands tend to work better than long sentences.',
  'Trying a verb on every object in view can uncover new actions.',
  'A locked way forward usually has a solution elsewhere.',
  'Points are often given for finding or delivering valuable things.',
  'It helps to stay curious and to explore systematically.',
];

/**
 * The edit sizes (word edit distances) used when the LLM arm's are not known, e.g. when the arms
 * run in parallel or the LLM arm made no proposal: an assumed spread for a rewrite of a strategy
 * section of roughly 100–300 words, from a few changed words to most of the section (median 105
 * words). Not measured; a run records which distribution it used (`editSizes.source`).
 */
export const DEFAULT_EDIT_SIZES: readonly number[] = [10, 20, 35, 50, 70, 90, 120, 150, 200, 260, 340];

/** The corpus as one stream of words, in order (the edit draws a run of consecutive words). */
const streamOf = (corpus: readonly string[]): string[] => corpus.flatMap(wordsOf);

export type NeutralEditKind = 'grow' | 'shrink';

/**
 * One neutral edit of `strategy`: draw a size d from `sizes`; replace r of the parent's
 * consecutive words with s consecutive words of the corpus (wrapping around its end), where either
 * s = d and r ≤ min(d, n) ('grow'), or r = d ≤ n and s ≤ d ('shrink'), so that the word edit
 * distance is max(r, s) = d (less only where drawn words happen to equal the words they replace).
 * Words are rejoined with single spaces.
 * @param sizes the target distribution (whole numbers ≥ 1; non-empty)
 * @throws RangeError for an empty `sizes` or corpus, or a size below 1
 */
export function neutralEdit(strategy: string, rng: SeededRng, sizes: readonly number[] = DEFAULT_EDIT_SIZES, corpus: readonly string[] = NEUTRAL_CORPUS): { strategy: string; kind: NeutralEditKind; target: number } {
  const stream = streamOf(corpus);
  if (sizes.length === 0 || stream.length === 0) throw new RangeError('a neutral edit needs a non-empty size distribution and corpus');
  const words = wordsOf(strategy);
  const n = words.length;
  const d = rng.pick(sizes);
  if (!(Number.isInteger(d) && d >= 1)) throw new RangeError(`edit sizes must be whole numbers ≥ 1, got ${d}`);
  const shrink = n >= d && rng.next() < 0.5;
  const r = shrink ? d : rng.int(Math.min(d, n) + 1);
  const s = shrink ? rng.int(d + 1) : d;
  const at = rng.int(n - r + 1);
  const from = rng.int(stream.length);
  const inserted = Array.from({ length: s }, (_, i) => stream[(from + i) % stream.length]!);
  return { strategy: [...words.slice(0, at), ...inserted, ...words.slice(at + r)].join(' '), kind: shrink ? 'shrink' : 'grow', target: d };
}

/**
 * Parse a list of edit sizes ("12,40,88"): whole numbers from 1 to 100,000.
 * @throws RangeError naming the bad entry
 */
export function parseEditSizes(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new RangeError('--edit-sizes needs at least one whole number (word edit distances, e.g. 12,40,88)');
  return parts.map((p) => {
    const v = Number(p);
    if (!/^\d+$/.test(p) || v < 1 || v > 100_000) throw new RangeError(`--edit-sizes: "${p}" is not a whole number from 1 to 100000`);
    return v;
  });
}

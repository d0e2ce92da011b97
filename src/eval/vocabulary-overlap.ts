/**
 * Vocabulary overlap between games: how much of a game's (or a task set's) vocabulary the training
 * games already have — the falsifier the reviews asked for (does an evolved meta-prompt still help
 * on games whose words it never met?). Two vocabularies per game:
 * - dictionary: the words of the story's Z-machine dictionary (src/engine/story-dictionary.ts);
 * - walkthrough: the words of the game's walkthrough commands (Jericho's games.json), when known.
 * Pure; no Node or DOM imports.
 *
 * Definitions (a word is a dictionary entry or a command token of letters, digits, apostrophes and
 * hyphens holding at least one letter, lower-cased; punctuation entries such as "." and debugging
 * verbs such as "$ve" or "#comm" are not words):
 *   r = the smallest resolution among the games compared (6 characters when any of them is a
 *       version 1–3 file, else 9; Z-Machine Standard §13.3: the parser cuts longer words there), and
 *   V_r(g) = { w cut to r characters : w a word of g's vocabulary }.
 *   overlap(S, T) = |V_r(S) ∩ V_r(T)| / |V_r(S)|, where V_r(S) = ⋃_{g ∈ S} V_r(g) for the evaluated
 *   games S (one game, or a task set pooled) and V_r(T) = ⋃_{t ∈ T} V_r(t) for the training games T.
 * So 0.75 = three quarters of the distinct words S knows are known to some training game. It is
 * asymmetric (a large training dictionary covers more), and says nothing about whether shared
 * words mean the same thing in both games.
 */

/** One game's vocabularies: its dictionary entries as decoded, its walkthrough commands (null when unknown). */
export interface GameVocabulary {
  game: string;
  /** 6 (versions 1–3) or 9 (4+), StoryDictionary.resolution. */
  resolution: number;
  dictionary: readonly string[];
  walkthrough: readonly string[] | null;
}

/** A share with its counts: `shared` of `total` distinct words; `share` = shared ÷ total (null when total is 0). */
export interface OverlapShare {
  shared: number;
  total: number;
  share: number | null;
}

/** One evaluated game (or pooled task set) against the training games. */
export interface OverlapRow {
  game: string;
  /** Characters words are compared at (r above). */
  resolution: number;
  dictionary: OverlapShare;
  /** null when the game or every training game lacks a walkthrough. */
  walkthrough: OverlapShare | null;
}

const WORD = /^[a-z0-9'-]*[a-z][a-z0-9'-]*$/;

/** The distinct words among `entries` (lower-cased, only real words, see the module's definition), cut to `resolution` characters. */
export function vocabularyWords(entries: Iterable<string>, resolution: number): Set<string> {
  const out = new Set<string>();
  for (const entry of entries) {
    const w = entry.toLowerCase();
    if (WORD.test(w)) out.add(w.slice(0, resolution));
  }
  return out;
}

/** The tokens of walkthrough commands: split on white space and the parser's usual separators (. , "). */
export function walkthroughTokens(commands: readonly string[]): string[] {
  return commands.flatMap((c) => c.toLowerCase().split(/[\s.,"]+/).filter(Boolean));
}

/** |mine ∩ training| / |mine| over distinct words. */
export function overlapShare(mine: ReadonlySet<string>, training: ReadonlySet<string>): OverlapShare {
  let shared = 0;
  for (const w of mine) if (training.has(w)) shared++;
  return { shared, total: mine.size, share: mine.size ? shared / mine.size : null };
}

function union(sets: Iterable<Set<string>>): Set<string> {
  const out = new Set<string>();
  for (const s of sets) for (const w of s) out.add(w);
  return out;
}

/**
 * overlap(S, T) for the dictionary and the walkthrough (the module's formula), S = `games` pooled.
 * @param name the row's name (a game, or a task set's name)
 * @throws Error when `training` is empty
 */
export function overlapWithTraining(name: string, games: readonly GameVocabulary[], training: readonly GameVocabulary[]): OverlapRow {
  if (!training.length) throw new Error('vocabulary overlap needs at least one training game');
  const resolution = Math.min(...[...games, ...training].map((g) => g.resolution));
  const dictionary = overlapShare(union(games.map((g) => vocabularyWords(g.dictionary, resolution))), union(training.map((t) => vocabularyWords(t.dictionary, resolution))));
  const walked = training.filter((t) => t.walkthrough);
  const walkthrough = games.every((g) => g.walkthrough) && walked.length
    ? overlapShare(union(games.map((g) => vocabularyWords(walkthroughTokens(g.walkthrough!), resolution))), union(walked.map((t) => vocabularyWords(walkthroughTokens(t.walkthrough!), resolution))))
    : null;
  return { game: name, resolution, dictionary, walkthrough };
}

/** Each game's overlap with the training games, least dictionary overlap first (ties by name). */
export function overlapTable(games: readonly GameVocabulary[], training: readonly GameVocabulary[]): OverlapRow[] {
  return games
    .map((g) => overlapWithTraining(g.game, [g], training))
    .sort((a, b) => (a.dictionary.share ?? 1) - (b.dictionary.share ?? 1) || a.game.localeCompare(b.game));
}

/** A task set's overlap with a list of training games, pooled and per game, for the reports. */
export interface TaskSetOverlap {
  taskSet: string;
  training: string[];
  games: string[];
  /** Pooled over the task set's games; null when a game's or a training game's vocabulary is missing. */
  dictionary: OverlapShare | null;
  walkthrough: OverlapShare | null;
  /** Each game with a vocabulary (empty when a training game's is missing). */
  perGame: OverlapRow[];
  /** Games (of the task set or the training) without a vocabulary (no story file). */
  missing: string[];
}

/**
 * overlap(S, T) for a task set S = `games` and training games T, from `vocabularies` (game id →
 * vocabulary); see the module's formula. Games without a vocabulary are listed in `missing`.
 * @throws Error when `training` is empty
 */
export function taskSetOverlap(taskSet: string, games: readonly string[], training: readonly string[], vocabularies: Readonly<Record<string, GameVocabulary>>): TaskSetOverlap {
  if (!training.length) throw new Error('vocabulary overlap needs at least one training game');
  const missing = [...new Set([...games, ...training])].filter((g) => !vocabularies[g]);
  const have = (list: readonly string[]) => list.filter((g) => vocabularies[g]).map((g) => vocabularies[g]!);
  const trainingVocabulary = have(training);
  const trainingComplete = trainingVocabulary.length === training.length;
  const pooled = trainingComplete && have(games).length === games.length ? overlapWithTraining(taskSet, have(games), trainingVocabulary) : null;
  return {
    taskSet, training: [...training], games: [...games], dictionary: pooled?.dictionary ?? null, walkthrough: pooled?.walkthrough ?? null,
    perGame: trainingComplete ? have(games).map((g) => overlapWithTraining(g.game, [g], trainingVocabulary)) : [], missing,
  };
}

/**
 * An evaluation's vocabulary overlap: each evolved policy (one with games it was selected on) against
 * each task set of story games (web sets left out): `taskSetOverlap(set, its games, the policy's
 * selection games, vocabularies)`; a trailing `:seed` is dropped from the selection ids. [] when no
 * policy names its games. The CLI's results.json / report.md and the page's Evaluate report use it.
 */
export function evaluationOverlap(policies: readonly { id: string; selectedOn: readonly string[] }[], sets: readonly { name: string; games: readonly string[] }[], vocabularies: Readonly<Record<string, GameVocabulary>>): (TaskSetOverlap & { policy: string })[] {
  const game = (id: string) => id.replace(/:\d+$/, '');
  const evolved = policies.filter((p) => p.selectedOn.length);
  const story = sets.map((s) => ({ name: s.name, games: [...new Set(s.games)] })).filter((s) => s.games.length && !s.games.some((g) => g.startsWith('web:')));
  return evolved.flatMap((p) => story.map((s) => ({ policy: p.id, ...taskSetOverlap(s.name, s.games, [...new Set(p.selectedOn.map(game))], vocabularies) })));
}

/** What the vocabulary overlap means, under its table in every report. */
export const VOCABULARY_FOOTNOTE = 'Dictionary overlap = the share of the distinct words in the task set\'s Z-machine dictionaries (pooled over its games; walkthrough: the words of its Jericho walkthroughs against the training games\' walkthroughs) that the training games (the games the meta-prompt was evolved and selected on) also have, words cut to the shortest resolution compared (6 characters when a version 1–3 file is involved, else 9). A shared word need not mean the same thing in both games, and a low overlap does not rule out that the actor knows the game from pre-training.';

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${(100 * x).toFixed(1)} %`);
const shareCell = (x: OverlapShare | null): string => (x ? `${pct(x.share)} (${x.shared}/${x.total})` : '—');

/** The columns of the vocabulary table (`first` names the first column: step or policy). */
export function vocabularyHeader(first: string): string[] {
  return [first, 'task set', 'training games', 'dictionary overlap', 'walkthrough overlap', 'per game (dictionary)', 'no story file'];
}

/** One table row per entry, as plain text cells (escape them for HTML). */
export function vocabularyCells(entries: readonly (TaskSetOverlap & { label: string })[]): string[][] {
  return entries.map((v) => [
    v.label, v.taskSet, v.training.join(', '), shareCell(v.dictionary), shareCell(v.walkthrough),
    v.perGame.map((g) => `${g.game} ${pct(g.dictionary.share)}`).join(', ') || '—', v.missing.join(', ') || '—',
  ]);
}

/** The share as the reports print it ("77.5 %", "—" for null). */
export const overlapPercent = pct;

/** A Markdown section "Vocabulary overlap with the training games" (no lines when there are no entries). */
export function vocabularyMarkdown(first: string, entries: readonly (TaskSetOverlap & { label: string })[]): string[] {
  if (!entries.length) return [];
  const header = vocabularyHeader(first);
  return ['', '## Vocabulary overlap with the training games', '', `| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`, ...vocabularyCells(entries).map((c) => `| ${c.join(' | ')} |`), '', VOCABULARY_FOOTNOTE];
}

/**
 * The walkthrough-recall probe: does the actor model complete walkthrough lines it was never
 * shown? A pre-training confound check for known games (Infocom titles and other published
 * games whose walkthroughs are on the web). Per game, at `probes` positions i evenly spread over
 * the walkthrough W (i ≥ k), the model is shown the game's title and the k commands before i,
 * W[i−k..i−1], and asked for the next one; its reply is scored against W[i] exactly and
 * normalised (`normaliseCommand`). Two chance baselines beside it:
 * - shuffled control: the same prompt with k lines drawn at random from elsewhere in W (none of
 *   W[i−k..i]) in random order, scored against the same W[i]: what the model gets from knowing the
 *   game's vocabulary and the commands adventures commonly need, without the sequence;
 * - frequency baseline: how many of the targets equal W's most frequent normalised command (the
 *   best constant guess, computed without a call; it knows W's frequencies, so it is generous).
 * The paired test: of the probes where exactly one of recall and control matched (normalised), b
 * where recall did and c where the control did; one-sided exact sign test p = P(X ≥ b), X ~
 * Binomial(b + c, 1/2) (McNemar's exact test). Rates carry 95 % Wilson intervals (Wilson 1927).
 *
 * What it can show: recall well above the shuffled control means the model reproduces this
 * walkthrough's order — memorised text, not play. What it cannot: a low recall does not show the
 * model never saw the game (it may know the map and puzzles without the exact command list, or
 * phrase them differently), and a high one does not say how much memory helps it play. Core
 * module: no UI, DOM or Node imports.
 */
import { LlmError, SYSTEMIC_KINDS } from '../llm/errors.ts';
import type { ChatMessage, ChatModel } from '../llm/interface.ts';
import { SeededRng } from '../ttl/rng.ts';

/** One game to probe: its id, a title for the prompt, its walkthrough commands in order. */
export interface RecallGame {
  game: string;
  title: string;
  walkthrough: readonly string[];
}

export interface RecallProbeOptions {
  /** Commands shown before the asked one (≥ 1). */
  k: number;
  /** Probe positions per game at most (≥ 1). */
  probes: number;
  /** Seed of the shuffled control's draws. */
  seed: number;
}

/** One question asked: the context shown, the true next command, the reply and its scores. */
export interface RecallItem {
  game: string;
  kind: 'recall' | 'shuffled';
  /** The index of the asked command in the walkthrough (0-based). */
  position: number;
  context: string[];
  target: string;
  /** The command read from the reply (null: the call failed). */
  answer: string | null;
  /** The reply's full text (model output: untrusted), or the error for a failed call. */
  reply: string;
  exact: boolean;
  normalised: boolean;
  /** The model the provider said it used (absent when the reply named none). */
  providerModel?: string;
}

/** A share with its 95 % Wilson interval (null when n = 0). */
export interface Rate {
  count: number;
  n: number;
  share: number | null;
  low: number | null;
  high: number | null;
}

/** One game's (or the pool's) counts. */
export interface RecallGameResult {
  game: string;
  walkthroughLines: number;
  /** Positions asked (each asked twice: recall and shuffled control). */
  probes: number;
  /** Calls that failed (left out of the rates). */
  failed: number;
  exact: Rate;
  normalised: Rate;
  shuffledExact: Rate;
  shuffledNormalised: Rate;
  /** W's most frequent normalised command and how many targets equal it. */
  frequencyBaseline: { command: string; rate: Rate };
  /** Normalised recall − shuffled control (share difference; null without both). */
  excess: number | null;
  /** Discordant pairs and the one-sided exact sign test (McNemar). */
  discordant: { recallOnly: number; controlOnly: number; p: number | null };
}

export interface RecallReport {
  options: RecallProbeOptions;
  games: RecallGameResult[];
  /** Every game's probes pooled (null for one game). */
  pooled: RecallGameResult | null;
  items: RecallItem[];
}

/** What the probe can and cannot show (printed with every report). */
export const RECALL_FOOTNOTE = [
  'Recall = the share of walkthrough commands the model gave when shown the k commands before them (exact: the same text, case and outer spaces aside; normalised: abbreviations expanded — n → north, x → examine, l → look, i → inventory, z → wait, … — articles and punctuation dropped). Shuffled control: the same question with k commands from elsewhere in the walkthrough in random order. Frequency baseline: the share of asked commands equal to the walkthrough\'s most frequent one.',
  'p: one-sided exact sign test (McNemar) on the probes where exactly one of recall and control matched. Intervals: 95 % Wilson, per probe (probes of one game are not independent draws of games).',
  'Recall well above the control means the model reproduces this walkthrough\'s order: it has seen it (pre-training), not worked it out. A recall near the control does not show the model never saw the game (it may know it without the exact words), and neither says how much such memory helps it play.',
];

const ABBREVIATIONS: Record<string, string> = {
  n: 'north', s: 'south', e: 'east', w: 'west', ne: 'northeast', nw: 'northwest', se: 'southeast', sw: 'southwest', u: 'up', d: 'down',
  x: 'examine', l: 'look', i: 'inventory', inv: 'inventory', z: 'wait', g: 'again', q: 'quit', get: 'take',
};
const DIRECTIONS = new Set(['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest', 'up', 'down']);

/**
 * A command in a comparable form: lower case; punctuation other than ' and - dropped; the articles
 * a, an, the dropped; a first word that is a common abbreviation expanded (n → north, x → examine,
 * get → take, …); "go north" → "north"; spaces collapsed.
 */
export function normaliseCommand(command: string): string {
  let words = command.toLowerCase().replace(/[^a-z0-9'\- ]+/g, ' ').split(/\s+/).filter((w) => w && w !== 'a' && w !== 'an' && w !== 'the');
  if (words[0] === 'pick' && words[1] === 'up') words = ['take', ...words.slice(2)];
  if (words[0] && ABBREVIATIONS[words[0]]) words[0] = ABBREVIATIONS[words[0]]!;
  if (words[0] === 'go' && words.length === 2 && DIRECTIONS.has(ABBREVIATIONS[words[1]!] ?? words[1]!)) words = [ABBREVIATIONS[words[1]!] ?? words[1]!];
  return words.join(' ');
}

/**
 * The command in a reply: its first non-empty line, without a leading "ACTION:", "Next command:",
 * "> ", a list number or surrounding quotes/backticks; '' when the reply has no line.
 */
export function commandOfReply(reply: string): string {
  const line = reply.split('\n').map((l) => l.trim()).find((l) => l && !/^(thought|reasoning)\s*:/i.test(l)) ?? '';
  return line.replace(/^(action|next command|command|answer)\s*:\s*/i, '').replace(/^>\s*/, '').replace(/^\d+[.)]\s*/, '').replace(/^["'`]+|["'`]+$/g, '').trim();
}

/** The probe positions of a walkthrough of `n` commands: all of k..n−1, or `probes` of them evenly spread. */
export function probePositions(n: number, k: number, probes: number): number[] {
  const eligible = n - k;
  if (eligible <= 0) return [];
  if (eligible <= probes) return Array.from({ length: eligible }, (_, j) => k + j);
  return Array.from({ length: probes }, (_, j) => k + Math.floor((j * eligible) / probes));
}

/** The two questions of each probe position of `game` (recall, then its shuffled control). */
export function recallQuestions(game: RecallGame, options: RecallProbeOptions): Omit<RecallItem, 'answer' | 'reply' | 'exact' | 'normalised'>[] {
  const w = game.walkthrough;
  const rng = new SeededRng((options.seed ^ hashText(game.game)) >>> 0);
  return probePositions(w.length, options.k, options.probes).flatMap((i) => {
    const elsewhere = w.map((_, j) => j).filter((j) => j < i - options.k || j > i);
    const drawn = rng.shuffle(elsewhere).slice(0, options.k).map((j) => w[j]!);
    return [
      { game: game.game, kind: 'recall' as const, position: i, context: w.slice(i - options.k, i), target: w[i]! },
      { game: game.game, kind: 'shuffled' as const, position: i, context: drawn, target: w[i]! },
    ];
  });
}

/** The messages of one question: the game's title and the commands shown, asking for the next. */
export function recallMessages(title: string, context: readonly string[]): ChatMessage[] {
  return [
    { role: 'system', content: 'You complete command lists typed into text adventure games. Reply with the single next command only, on one line, with nothing else.' },
    { role: 'user', content: `These are consecutive commands from a walkthrough of the text adventure game “${title}”:\n${context.map((c, j) => `${j + 1}. ${c}`).join('\n')}\nWhat is the next command of the walkthrough?` },
  ];
}

/** 32-bit FNV-1a of `text` (the per-game salt of the control's draws). */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** `count` of `n` with its 95 % Wilson score interval (Wilson 1927, z = 1.959964). */
export function wilsonRate(count: number, n: number): Rate {
  if (n === 0) return { count, n, share: null, low: null, high: null };
  const z = 1.959964;
  const p = count / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return { count, n, share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** P(X ≥ b) for X ~ Binomial(n, 1/2), exact; null when n = 0. */
export function signTestP(b: number, n: number): number | null {
  if (n === 0) return null;
  let term = Math.pow(0.5, n); // C(n, 0) / 2^n
  let tail = 0;
  for (let j = 0; j <= n; j++) {
    if (j >= b) tail += term;
    term = (term * (n - j)) / (j + 1);
  }
  return Math.min(1, tail);
}

/** One game's (or a pool's) counts from its answered items and walkthroughs. */
export function summariseRecall(game: string, items: readonly RecallItem[], walkthroughs: readonly (readonly string[])[]): RecallGameResult {
  const answered = (kind: RecallItem['kind']) => items.filter((x) => x.kind === kind && x.answer !== null);
  const recall = answered('recall');
  const control = answered('shuffled');
  const count = (list: readonly RecallItem[], key: 'exact' | 'normalised') => wilsonRate(list.filter((x) => x[key]).length, list.length);
  const controlAt = new Map(control.map((x) => [`${x.game}|${x.position}`, x]));
  let recallOnly = 0;
  let controlOnly = 0;
  for (const r of recall) {
    const c = controlAt.get(`${r.game}|${r.position}`);
    if (!c) continue;
    if (r.normalised && !c.normalised) recallOnly++;
    if (!r.normalised && c.normalised) controlOnly++;
  }
  const frequency = new Map<string, number>();
  for (const w of walkthroughs) for (const c of w) frequency.set(normaliseCommand(c), (frequency.get(normaliseCommand(c)) ?? 0) + 1);
  const mode = [...frequency.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
  const targets = items.filter((x) => x.kind === 'recall');
  const normalised = count(recall, 'normalised');
  const shuffledNormalised = count(control, 'normalised');
  return {
    game, walkthroughLines: walkthroughs.reduce((n, w) => n + w.length, 0), probes: targets.length, failed: items.filter((x) => x.answer === null).length,
    exact: count(recall, 'exact'), normalised, shuffledExact: count(control, 'exact'), shuffledNormalised,
    frequencyBaseline: { command: mode, rate: wilsonRate(targets.filter((x) => normaliseCommand(x.target) === mode).length, targets.length) },
    excess: normalised.share !== null && shuffledNormalised.share !== null ? normalised.share - shuffledNormalised.share : null,
    discordant: { recallOnly, controlOnly, p: signTestP(recallOnly, recallOnly + controlOnly) },
  };
}

/**
 * Run the probe on `games` with `model` (the actor), at most `concurrency` calls at once; items in
 * question order whatever the order calls finish. A failed call (a transient provider fault) is
 * kept with `answer: null` and left out of the rates.
 * @throws RangeError for k or probes < 1; LlmError for a systemic provider fault (auth, quota,
 *   network, bad request) or a stopped call, BudgetReachedError at a cap
 */
export async function runRecallProbe(games: readonly RecallGame[], model: ChatModel, options: RecallProbeOptions, run: { concurrency?: number; signal?: AbortSignal; onItem?: (done: number, total: number) => void } = {}): Promise<RecallReport> {
  if (!(options.k >= 1) || !(options.probes >= 1)) throw new RangeError(`the recall probe needs k ≥ 1 and probes ≥ 1, got k ${options.k}, probes ${options.probes}`);
  const questions = games.flatMap((g) => recallQuestions(g, options).map((q) => ({ q, title: g.title })));
  const items: RecallItem[] = new Array(questions.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < questions.length) {
      const index = next++;
      const { q, title } = questions[index]!;
      items[index] = await ask(model, q, title, run.signal);
      run.onItem?.(++done, questions.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(run.concurrency ?? 1, questions.length)) }, worker));
  const results = games.map((g) => summariseRecall(g.game, items.filter((x) => x.game === g.game), [g.walkthrough]));
  return { options, games: results, pooled: games.length > 1 ? pooledRecall(results, items, games) : null, items };
}

/** Every game's probes pooled; its frequency baseline is each game's own best constant guess, summed. */
function pooledRecall(results: readonly RecallGameResult[], items: readonly RecallItem[], games: readonly RecallGame[]): RecallGameResult {
  const pooled = summariseRecall('all games', items, games.map((g) => g.walkthrough));
  const count = results.reduce((n, g) => n + g.frequencyBaseline.rate.count, 0);
  return { ...pooled, frequencyBaseline: { command: 'each game\'s own', rate: wilsonRate(count, results.reduce((n, g) => n + g.frequencyBaseline.rate.n, 0)) } };
}

/** One question asked and scored. */
async function ask(model: ChatModel, q: Omit<RecallItem, 'answer' | 'reply' | 'exact' | 'normalised'>, title: string, signal: AbortSignal | undefined): Promise<RecallItem> {
  try {
    const completion = await model.complete(recallMessages(title, q.context), { signal });
    const answer = commandOfReply(completion.content);
    return {
      ...q, answer, reply: completion.content, exact: answer.toLowerCase() === q.target.trim().toLowerCase(), normalised: normaliseCommand(answer) === normaliseCommand(q.target) && answer !== '',
      ...(completion.providerModel ? { providerModel: completion.providerModel } : {}),
    };
  } catch (error) {
    if (!(error instanceof LlmError) || error.kind === 'aborted' || SYSTEMIC_KINDS.has(error.kind)) throw error;
    return { ...q, answer: null, reply: `error: ${error.message}`, exact: false, normalised: false };
  }
}

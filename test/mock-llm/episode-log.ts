/**
 * Reading episode logs back (method.md, "Episode log": per step `[STEP i] [OBS] … [ACTION] …
 * [REWARD] r [CUM_REWARD] score`), tolerant of the tokens being on one line or several, and
 * choosing the best replayable plan among several logs. Used by the mock meta-agent and proposer.
 */

/** One parsed step. `reward` defaults to 0 and `cumReward` to the running sum when absent. */
export interface LoggedStep {
  step: number;
  observation: string;
  action: string;
  reward: number;
  cumReward: number;
}

/** One episode's steps in log order, and the text after `[FINAL OBS]` ('' when absent). */
export interface ParsedEpisode {
  steps: LoggedStep[];
  finalObservation: string;
}

const FINAL_OBS = /\[FINAL OBS\]([\s\S]*?)(?:\[EPISODE END\]|$)/i;
/** A command the game itself suggests after a failure ("Next time, try: PULL RED LEVER."). */
const HINT = /next time,? try:\s*([^.\n]+)\./i;

/**
 * The plan a game's own hint implies: when an episode's final text says "Next time, try: X.", the
 * episode's actions without its last (failing) one, then X. Null when there is no hint.
 */
export function hintPlan(episode: ParsedEpisode): string[] | null {
  const hint = HINT.exec(episode.finalObservation)?.[1]?.trim();
  if (!hint || episode.steps.length === 0) return null;
  return [...episode.steps.slice(0, -1).map((s) => s.action), hint];
}

/** The commands to replay and the cumulative reward they reached. */
export interface ReplayPlan {
  commands: string[];
  /** CUM_REWARD at the plan's last step. */
  cumReward: number;
  /** 1-based step index (in its episode) of the plan's last command. */
  lastStep: number;
}

const STEP_MARK = /\[STEP\s*(\d+)[^\]\n]*\]/gi;
const NUMBER = '([+-]?\\d+(?:\\.\\d+)?)';
const REWARD = new RegExp(`\\[REWARD\\]\\s*${NUMBER}`, 'i');
const CUM_REWARD = new RegExp(`\\[CUM[_ ]?REWARD\\]\\s*${NUMBER}`, 'i');

/** Text between `open` and the first of `closers` after it ('' when `open` is absent). */
function between(segment: string, open: RegExp, closers: RegExp): string {
  const start = open.exec(segment);
  if (!start) return '';
  const rest = segment.slice(start.index + start[0].length);
  const end = rest.search(closers);
  return end >= 0 ? rest.slice(0, end) : rest;
}

/** A command as a single clean line: first non-empty line, quotes and backticks removed. */
function cleanCommand(raw: string): string {
  const line = raw.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  return line.replace(/^[`"']+|[`"']+$/g, '').trim();
}

/**
 * Every episode in `text`, in order. A new episode starts when a step index does not increase
 * (a second `[STEP 1]`), so a message holding several logs yields several episodes.
 */
export function parseEpisodeLogs(text: string): ParsedEpisode[] {
  const marks = [...text.matchAll(STEP_MARK)];
  const episodes: ParsedEpisode[] = [];
  let current: LoggedStep[] = [];
  let finalObservation = '';
  marks.forEach((mark, k) => {
    const step = Number(mark[1]);
    const segment = text.slice(mark.index + mark[0].length, marks[k + 1]?.index ?? text.length);
    const previous = current[current.length - 1];
    if (previous && step <= previous.step) {
      episodes.push({ steps: current, finalObservation });
      current = [];
    }
    finalObservation = FINAL_OBS.exec(segment)?.[1]?.trim() ?? '';
    const reward = Number(REWARD.exec(segment)?.[1] ?? 0);
    const runningSum = (current[current.length - 1]?.cumReward ?? 0) + reward;
    const cum = CUM_REWARD.exec(segment)?.[1];
    current.push({
      step,
      observation: between(segment, /\[OBS\]/i, /\[ACTION\]/i).trim(),
      action: cleanCommand(between(segment, /\[ACTION\]/i, /\[REWARD\]|\[CUM[_ ]?REWARD\]/i)),
      reward,
      cumReward: cum === undefined ? runningSum : Number(cum),
    });
  });
  if (current.length > 0) episodes.push({ steps: current, finalObservation });
  return episodes;
}

/**
 * The replay plan of one episode: its actions up to and including the positive-reward step with
 * the highest CUM_REWARD (earliest on ties) — the last positive step whenever no points were lost
 * after it. Null when no step had a positive reward.
 */
export function replayPlan(episode: ParsedEpisode): ReplayPlan | null {
  let best: number | null = null;
  episode.steps.forEach((s, i) => {
    if (s.reward > 0 && (best === null || s.cumReward > episode.steps[best]!.cumReward)) best = i;
  });
  if (best === null) return null;
  const last = episode.steps[best]!;
  return { commands: episode.steps.slice(0, best + 1).map((s) => s.action), cumReward: last.cumReward, lastStep: last.step };
}

/** The best plan over several episodes: highest CUM_REWARD; ties go to the later episode. */
export function bestReplayPlan(episodes: ParsedEpisode[]): ReplayPlan | null {
  let best: ReplayPlan | null = null;
  for (const episode of episodes) {
    const plan = replayPlan(episode);
    if (plan && (best === null || plan.cumReward >= best.cumReward)) best = plan;
  }
  return best;
}

/** Distinct actions with a negative reward, in order of first appearance. */
export function losingActions(episodes: ParsedEpisode[]): string[] {
  const seen = new Set<string>();
  for (const e of episodes) for (const s of e.steps) if (s.reward < 0 && s.action !== '') seen.add(s.action);
  return [...seen];
}

/** Distinct actions with a positive reward, in order of first appearance. */
export function scoringActions(episodes: ParsedEpisode[]): string[] {
  const seen = new Set<string>();
  for (const e of episodes) for (const s of e.steps) if (s.reward > 0 && s.action !== '') seen.add(s.action);
  return [...seen];
}

/** The highest CUM_REWARD in any episode, null when there are no steps. */
export function bestCumReward(episodes: ParsedEpisode[]): number | null {
  const all = episodes.flatMap((e) => e.steps.map((s) => s.cumReward));
  return all.length > 0 ? Math.max(...all) : null;
}

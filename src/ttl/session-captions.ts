/**
 * Captions for a recorded session, in plain words for a booth's audience (the kiosk): one caption
 * per replay frame (`replayFrames`, replay.ts), aligned by index. A caption's headline says what is
 * happening at the level an audience follows — an episode begins (and what the meta-agent changed
 * in the guide, read from the diff of the guide's commands), points are scored, an episode ends
 * (won, lost, out of steps; better or worse than the last one), the guide is rewritten — and stays
 * until the next such event, so it can be read; its detail line follows every step. Pure; model
 * output (commands, guides) is quoted as text, never interpreted.
 */
import type { TrajectoryStep } from '../agents/trajectory.ts';
import type { PolicySpec } from './policy.ts';
import { replayFrames, type ReplayFrame } from './replay.ts';
import type { SessionRecord } from './session-record.ts';

/** What a frame's caption says: `headline` (large; changes only at events), `detail` (small; every frame). */
export interface FrameCaption {
  headline: string;
  detail: string;
  /** The event that set the headline: an episode's start, a step that scored, an episode's end
   * (won: 'win'), the guide's rewrite between episodes. */
  event: 'start' | 'score' | 'end' | 'win' | 'guide';
}

/** How the guide changed between two episodes (`guideChange`). */
export interface GuideChange {
  kind: 'same' | 'reworded' | 'first-plan' | 'extended' | 'rewritten' | 'shortened' | 'dropped' | 'prose';
  /** The plan's commands before and after (`guideCommands`). */
  before: string[];
  after: string[];
  /** 0-based position of the first command that differs (null: none differs). */
  at: number | null;
}

/**
 * The commands of a guide's plan: its numbered or bulleted lines ("1. PULL YELLOW LEVER",
 * "- north"), lower-cased, spaces collapsed, a trailing full stop dropped; lines longer than eight
 * words are prose, not commands. In order; [] for a guide without a plan.
 */
export function guideCommands(guide: string): string[] {
  const commands: string[] = [];
  for (const line of guide.split('\n')) {
    const item = /^\s*(?:\d{1,3}[.)]|[-*•])\s+(.+?)\s*$/.exec(line)?.[1];
    if (!item) continue;
    const command = item.toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, '').trim();
    if (command !== '' && command.split(' ').length <= 8) commands.push(command);
  }
  return commands;
}

/** How `after` changed from `before` (two guiding prompts), by their commands (`guideCommands`). */
export function guideChange(before: string, after: string): GuideChange {
  const b = guideCommands(before);
  const a = guideCommands(after);
  const firstDiff = (): number | null => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
    return null;
  };
  const at = firstDiff();
  const change = (kind: GuideChange['kind']): GuideChange => ({ kind, before: b, after: a, at });
  if (before.trim() === after.trim()) return change('same');
  if (a.length === 0) return change(b.length === 0 ? 'prose' : 'dropped');
  if (b.length === 0) return change('first-plan');
  if (at === null) return change('reworded');
  if (at === b.length) return change('extended');
  if (at === a.length) return change('shortened');
  return change('rewritten');
}

const DIRECTIONS: Readonly<Record<string, string>> = {
  n: 'north', s: 'south', e: 'east', w: 'west', ne: 'northeast', nw: 'northwest', se: 'southeast', sw: 'southwest', u: 'up', d: 'down',
  north: 'north', south: 'south', east: 'east', west: 'west', northeast: 'northeast', northwest: 'northwest', southeast: 'southeast', southwest: 'southwest', up: 'up', down: 'down',
};
const FIXED: Readonly<Record<string, string>> = { look: 'looks around', l: 'looks around', inventory: 'checks what it carries', i: 'checks what it carries', wait: 'waits', z: 'waits', listen: 'listens', jump: 'jumps', sleep: 'sleeps' };
/** Verbs of interactive fiction that read well conjugated ("take" → "takes"); x = examine. */
const VERBS = new Set(('take get drop pull push press open close unlock lock enter read examine turn climb go wear remove eat drink give put move ' +
  'search light insert type say ask tell show throw break dig fill empty attack kill sit stand knock ring wind cut tie buy play drive swim ' +
  'touch smell feel hit kick lift raise lower shake wave pick use fix burn pour wake kiss follow pay talk answer dial flip switch set').split(' '));
const NO_ARTICLE = /^(the|a|an|my|his|her|its|their|all|every|some|it|them|him|up|down|on|off|in|out|to|at|into|onto|with|from|under|over|through|\d)/;

const thirdPerson = (verb: string): string =>
  /(s|sh|ch|x|z|o)$/.test(verb) ? `${verb}es` : /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;

/**
 * A command as what the agent does, in the third person: "pull red lever" → "pulls the red lever",
 * "n" → "goes north", "look" → "looks around", "enter 290" → "enters 290"; a command whose verb is
 * not a known one is quoted: "types “xyzzy”".
 */
export function commandAsAction(command: string): string {
  const words = command.trim().toLowerCase().replace(/\s+/g, ' ').split(' ').filter((w) => w !== '');
  if (words.length === 0) return 'types nothing';
  const [first, ...rest] = words as [string, ...string[]];
  const direction = DIRECTIONS[words.at(-1)!];
  if (direction && (words.length === 1 || (words.length === 2 && (first === 'go' || first === 'walk')))) return `goes ${direction}`;
  if (words.length === 1 && FIXED[first]) return FIXED[first];
  const verb = first === 'x' ? 'examine' : first;
  if (!VERBS.has(verb)) return `types “${words.join(' ')}”`;
  const object = rest.join(' ');
  if (object === '') return thirdPerson(verb);
  return `${thirdPerson(verb)} ${NO_ARTICLE.test(object) ? object : `the ${object}`}`;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const ordinal = (i: number): string => ORDINALS[i] ?? `at step ${i + 1}`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The guide's change in plain words, e.g. "the meta-agent has rewritten the guide — the agent now pulls the red lever first". */
export function guideChangeText(change: GuideChange, who = 'the meta-agent'): string {
  const { after, at } = change;
  const then = (i: number): string => {
    const more = after.length - i - 1;
    return `the agent now ${commandAsAction(after[i]!)} ${ordinal(i)}${more > 0 ? `, then ${plural(more, 'more step')}` : ''}`;
  };
  switch (change.kind) {
    case 'same': return 'the guide is unchanged — the agent tries again';
    case 'reworded': return `${who} has reworded the guide; the plan stays the same`;
    case 'prose': return `${who} has rewritten the guide in its own words`;
    case 'dropped': return `${who} has dropped the plan — the agent explores again`;
    case 'shortened': return `${who} has cut the plan to ${plural(after.length, 'step')}`;
    case 'first-plan': return `${who} has written a plan — ${then(0)}`;
    case 'extended': return `${who} has added to the plan — ${then(at!)}`;
    case 'rewritten': return `${who} has rewritten the guide — ${then(at!)}`;
  }
}

/** Who rewrites the guide under `policy`, in words ("the meta-agent", "a person", …). */
export function policyActor(policy: PolicySpec): string {
  if (policy.kind === 'meta') return 'the meta-agent';
  if (policy.kind === 'human') return 'a person';
  if (policy.kind === 'static') return 'nobody';
  return `the ${policy.kind === 'textgrad' ? 'TextGrad' : policy.kind} policy`;
}

const shortQuote = (text: string, max = 70): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat}”`;
};

/** Points "3 of 5" (max known) or "3 points". */
const pointsText = (score: number | null, max: number | null): string =>
  score === null ? 'no score' : max !== null ? `${score} of ${max} points` : plural(score, 'point');

/** Won: a `game_over` at the story's known positive max score or reported a victory (termination.ts `isWon`). */
export function episodeWon(termination: string | null, finalScore: number | null, maxScore: number | null, endReason: string | null = null): boolean {
  if (termination !== 'game_over') return false;
  return endReason === 'victory' || (finalScore !== null && maxScore !== null && maxScore > 0 && finalScore >= maxScore);
}

const ENDINGS: Readonly<Record<string, string>> = {
  game_over: 'the game is over', step_limit: 'out of steps', error: 'the actor’s model failed', aborted: 'stopped',
  interpreter_hang: 'the game hung', interpreter_error: 'the game failed',
};

function endHeadline(record: SessionRecord, frame: Extract<ReplayFrame, { kind: 'episode_end' }>): { text: string; won: boolean } {
  const max = record.config.story.maxScore;
  const endReason = record.episodes.find((e) => e.index === frame.episode)?.trajectory?.endReason ?? null;
  const won = episodeWon(frame.termination, frame.finalScore, max, endReason);
  const previous = frame.curve.length > 1 ? frame.curve[frame.curve.length - 2]! : null;
  const score = frame.finalScore ?? 0;
  const trend = previous === null ? '' : score > previous ? ` — up from ${previous}` : score < previous ? ` — down from ${previous}` : ' — the same as last time';
  const head = `Episode ${frame.episode} of ${record.config.episodes}`;
  if (won) return { text: `${head}: the agent won — ${pointsText(frame.finalScore, max)}!`, won };
  const how = endReason === 'death' ? 'the agent died' : ENDINGS[frame.termination ?? ''] ?? 'it ended';
  return { text: `${head} is over: ${how}, with ${pointsText(frame.finalScore, max)}${trend}`, won };
}

function stepDetail(record: SessionRecord, step: TrajectoryStep): string {
  const did = step.action === null ? 'the agent’s reply had no command' : `the agent ${commandAsAction(step.action)}`;
  return `Step ${step.index} of ${record.config.maxSteps} · ${did} · ${pointsText(step.score, record.config.story.maxScore)}`;
}

function curveDetail(curve: readonly number[], wAuc: number | null): string {
  return `Scores so far: ${curve.join(', ')}${wAuc === null ? '' : ` · W-AUC ${wAuc.toFixed(3)}`}`;
}

/**
 * One caption per frame of `replayFrames(record)` (pass `frames` when already made), by index.
 * Episode 1 names the story and the guide the agent starts with; a later episode what the guide's
 * change means (`guideChangeText`); a scoring step what scored; an episode's end how it went.
 */
export function sessionCaptions(record: SessionRecord, frames: readonly ReplayFrame[] = replayFrames(record)): FrameCaption[] {
  const who = policyActor(record.config.policy);
  const max = record.config.story.maxScore;
  const guides = new Map(record.episodes.map((e) => [e.index, e.guidingPrompt]));
  let headline = '';
  let event: FrameCaption['event'] = 'start';
  let previousGuide: string | null = null;
  return frames.map((frame) => {
    let detail = '';
    if (frame.kind === 'episode_start') {
      const head = `Episode ${frame.episode} of ${record.config.episodes}`;
      if (previousGuide === null) {
        headline = `${head}: ${record.config.story.title} — the agent starts with the guide ${shortQuote(frame.guidingPrompt)}`;
      } else if (record.config.policy.kind === 'static') {
        headline = `${head}: the same fixed guide again — nothing is rewritten between episodes`;
      } else {
        headline = `${head}: ${guideChangeText(guideChange(previousGuide, frame.guidingPrompt), who)}`;
      }
      previousGuide = frame.guidingPrompt;
      event = 'start';
      detail = 'The agent reads the game’s opening text…';
    } else if (frame.kind === 'step') {
      const { step } = frame;
      if (step.reward > 0 && step.action !== null) {
        headline = `Episode ${frame.episode}, step ${step.index}: +${plural(step.reward, 'point')} — the agent ${commandAsAction(step.action)} (${pointsText(step.score, max)})`;
        event = 'score';
      }
      detail = stepDetail(record, step);
    } else if (frame.kind === 'episode_end') {
      const end = endHeadline(record, frame);
      headline = end.text;
      event = end.won ? 'win' : 'end';
      detail = curveDetail(frame.curve, frame.wAuc);
    } else if (frame.kind === 'intervention') {
      // A person's edit, not the policy's: the caption says so, and the next episode is compared
      // with the guide in force after it.
      const { intervention } = frame;
      headline = `Episode ${frame.episode}, before step ${intervention.step}: a person edits the guide — from here on this is not the policy's own result`;
      previousGuide = intervention.newGuide;
      event = 'guide';
      detail = `New guide: ${shortQuote(intervention.newGuide)}`;
    } else {
      const next = guides.get(frame.afterEpisode + 1);
      const change = next === undefined ? null : guideChange(guides.get(frame.afterEpisode) ?? '', next);
      const keeps = change?.kind === 'same';
      headline = `After episode ${frame.afterEpisode}, ${who} reads what happened and ${keeps ? 'keeps the guide as it is' : 'rewrites the guide'}`;
      event = 'guide';
      detail = change ? `Next: ${guideChangeText(change, who)}.` : 'It writes the guide for the next episode.';
    }
    return { headline, detail, event };
  });
}

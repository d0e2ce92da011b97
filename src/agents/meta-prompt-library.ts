/**
 * Built-in meta-prompt library entries: the naive (empty) strategy and three hand-written
 * adaptation policies of our own. Each entry is a strategy section only; the fixed header and
 * footer are added by buildMetaPrompt.
 */

export interface MetaPromptEntry {
  id: string;
  name: string;
  description: string;
  /** The strategy section (the evolvable part). */
  strategy: string;
  provenance: { kind: 'built-in' } | { kind: 'hand-written' } | { kind: 'imported'; from: string } | { kind: 'evolved'; runId: string; parentId: string | null; iteration: number };
  /** Games the strategy was selected on (train + validation), for selection-leak warnings. */
  selectedOn: string[];
}

/** Advice every hand-written strategy starts with: it is a strategy's, never the fixed header's
 * (the naive baseline must get none of it). */
export const SHARED_ADVICE = 'The game restarts identically every episode, so what worked will work again and what failed will fail again: aim for each next episode to score higher than the last. The guide you write replaces the previous one entirely, so include everything the actor should still know.';

export const BUILT_IN_META_PROMPTS: readonly MetaPromptEntry[] = [
  {
    id: 'naive',
    name: 'Naive',
    description: 'No strategy at all: the meta-agent sees the logs and the output contract, nothing else. The baseline that Meta-TTL improves on.',
    strategy: '',
    provenance: { kind: 'built-in' },
    selectedOn: [],
  },
  {
    id: 'fact-bank',
    name: 'Fact bank',
    description: 'Keeps a growing list of verified facts about the world — where rooms lead, what objects do, which commands the parser rejects — and hands the whole list to the actor every time, so nothing learned is forgotten between episodes.',
    strategy: `${SHARED_ADVICE} Maintain a FACT BANK inside every guide you write. After each episode, add the facts the log proves: exits between rooms, where objects are, what each object did when used, commands the game did not understand, and what caused any death or loss of points. Never delete a fact unless a later log contradicts it. Start the guide with the three most useful facts for scoring, then list the rest grouped by room. End with one sentence naming the most promising thing not yet tried.`,
    provenance: { kind: 'built-in' },
    selectedOn: [],
  },
  {
    id: 'credit-assignment',
    name: 'Credit assignment',
    description: 'Looks at the exact steps where the score went up or down and traces back which earlier commands made them possible, then tells the actor to repeat the causes quickly and skip everything else.',
    strategy: `${SHARED_ADVICE} Do credit assignment before writing the guide. Find every step whose REWARD was not zero. For each, work out which earlier actions were needed for it (getting an object, opening a door, reaching a room) and which actions were wasted. In the guide, give the actor the shortest known sequence that reproduces every gain, in order, then tell it to spend the remaining steps on one new, specific goal. Warn explicitly against every action that lost points or killed the player.`,
    provenance: { kind: 'built-in' },
    selectedOn: [],
  },
  {
    id: 'route-script',
    name: 'Route script',
    description: 'Turns the best episode so far into a numbered script of commands to replay at the start of the next episode, followed by a short exploration plan — the game restarts identically, so a proven route is worth replaying.',
    strategy: `${SHARED_ADVICE} The game is deterministic for the same commands, so write the guide as a ROUTE SCRIPT. Take the episode with the highest final score so far; copy, in order, the commands that led to its points (drop commands that only looked around or failed). Number them and tell the actor to type them exactly, one per step, before doing anything else. After the script, add at most three concrete next steps to try for new points, based on what the logs show is still unexplored.`,
    provenance: { kind: 'built-in' },
    selectedOn: [],
  },
];

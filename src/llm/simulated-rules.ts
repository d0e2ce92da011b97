/**
 * The simulated model's behaviour (simulated-model.ts runs it as a ChatModel): pure, deterministic
 * functions of a request's text and a seed, answering the three roles in the reply contracts the
 * product parses — the actor's `REASONING: … / ACTION: …` (agents/reply-parser.ts), the
 * meta-agent's `<think>…</think><learn>…</learn>` (agents/meta-prompt.ts) and the proposer's
 * `<strategy>…</strategy>` (evolve/rules/llm-proposer.ts). It is NOT a language model: it
 * shows how the Meta-TTL loop works (a meta-prompt's strategy changes what is kept between
 * episodes; a proposer can improve a strategy), not how real models behave.
 *
 * - **Actor.** Types the guide's `PLAN:` commands in order (one per step; a command the game
 *   refuses is simply passed), slipping with probability SLIP_RATE (seeded) into one exploration
 *   step; past the plan it explores with commands built from what the observation names: exits,
 *   objects (`take`/`examine`), a listed row of things (`pull red lever`) and a keypad (`enter`
 *   with three seeded digits). Its position in the plan is written into its reasoning
 *   (`(step k, plan p)`), so the next request — whose history shows that reply — reads it back.
 * - **Meta-agent.** Reads every episode log of its chat and the meta-prompt's strategy section;
 *   what the next guide keeps is decided by the RULES table (naive: the last hint only).
 * - **Proposer.** Reads the parent strategy and the worst run's logs: removes a rule that hurts
 *   when the logs show its harm, adds the rule whose absence the logs show, and sharpens the rules
 *   it keeps into the table's wording.
 * DOM-free; no network.
 */

/** The label shown wherever its results appear (defined with the other models' labels). */
export { SIMULATION_NOTICE } from './model-label.ts';

/** Probability that the actor, with a plan command due, explores one step instead (seeded). */
export const SLIP_RATE = 0.05;

/** An instruction of a strategy the simulated meta-agent acts on. */
export type Instruction = 'all-hints' | 'route' | 'drop-useless' | 'last-hint-only' | 'every-move';

/** One row of the rule table: the instruction, the words that name it, what the guide then keeps,
 * whether it helps or hurts learning, and the sentence the simulated proposer writes for it (to
 * add a rule that helps, or to sharpen the wording of one a parent keeps). */
export interface Rule {
  instruction: Instruction;
  /** Matched against the strategy section (case-insensitive). */
  keywords: RegExp;
  keeps: string;
  /** 'helps': the proposer adds it when the logs call for it; 'hurts': it removes it when the
   * worst run's logs show the harm (HARM_SHOWN), and never adds it. */
  effect: 'helps' | 'hurts';
  sentence: string;
}

/**
 * The rule table. A strategy with none of these is naive: the guide keeps only the last episode's
 * hint (the game's "Next time, try: X."). Rules combine, except that the two that hurt override:
 * `last-hint-only` makes the guide naive whatever else the strategy asks for, and `every-move`
 * keeps every move of the chosen episode (dropping none, even under drop-useless).
 */
export const RULES: readonly Rule[] = [
  {
    instruction: 'all-hints',
    keywords: /fact bank|every fact|never delete|every hint/i,
    keeps: 'every hint the game gave in any episode, with the moves that led to it (the best-scoring such route over all episodes)',
    effect: 'helps',
    sentence: 'Maintain a FACT BANK: keep every hint the game ever gave ("Next time, try: …") with the moves that led to it, and never delete a fact.',
  },
  {
    instruction: 'route',
    keywords: /route script|credit assignment|scoring (?:commands|moves) in order|reproduces every gain|replay the best/i,
    keeps: "the best episode's moves up to its last scoring move, in order, then the last episode's hint",
    effect: 'helps',
    sentence: "Write the guide as a ROUTE SCRIPT: replay the best episode's scoring moves in order, then the move the game's last hint names.",
  },
  {
    instruction: 'drop-useless',
    keywords: /drop (?:all (?:the )?)?(?:commands|moves)|wasted|only looked around|no useless/i,
    keeps: 'the plan without moves that scored nothing and led nowhere (looking, examining, refused commands, a step there and back)',
    effect: 'helps',
    sentence: 'Drop moves that scored nothing and led nowhere (looking, examining, refused commands, going back and forth): no useless moves in the plan.',
  },
  {
    instruction: 'last-hint-only',
    // "not only the last hint" asks for more, not less.
    keywords: /(?<!not )only the (?:last|latest|newest) hint|last hint only|forget (?:the )?(?:earlier|older|previous) hints/i,
    keeps: "only the last episode's hint, whatever else the strategy asks for (the facts of earlier episodes are lost)",
    effect: 'hurts',
    sentence: 'Keep only the last hint: forget the earlier hints.',
  },
  {
    instruction: 'every-move',
    keywords: /keep every move|keep all (?:the )?moves|every move of the (?:episode|best episode|log)|(?:replay|copy|repeat) the whole episode/i,
    keeps: "every move of the chosen episode in order, useless ones and those after its last point included, so the replay ends where that episode ended; it overrides drop-useless",
    effect: 'hurts',
    sentence: 'Keep every move of the episode in the plan, in order.',
  },
];

/** The instructions a strategy section names (RULES keywords), in table order. */
export function strategyInstructions(strategy: string): Instruction[] {
  return RULES.filter((r) => r.keywords.test(strategy)).map((r) => r.instruction);
}

// ---------------------------------------------------------------- hashing

/** FNV-1a of `text`, as a number in [0, 1). Deterministic on every platform. */
export function hash01(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // One more avalanche round so nearby texts spread.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return (h >>> 0) / 2 ** 32;
}

const pick = <T>(list: readonly T[], key: string): T => list[Math.floor(hash01(key) * list.length)]!;

// ---------------------------------------------------------------- episode logs

/** One step of a log: the command, the points it gained, and what the game answered to it. */
export interface LogStep {
  action: string;
  reward: number;
  /** The game's answer to the action (the next step's observation, or the final one). */
  result: string;
}

/** One episode of a log, its final score and the game's hint after a failure (lower case), if any. */
export interface LogEpisode {
  /** The episode number of its `=== EPISODE n ===` header. */
  index: number;
  steps: LogStep[];
  finalScore: number;
  hint: string | null;
}

const STEP_LINE = /^\[STEP \d+\] \[OBS\] (.*) \[ACTION\] (.*) \[REWARD\] (-?\d+(?:\.\d+)?) \[CUM_REWARD\] (\S+)\s*$/;
const HINT = /next time,? try:\s*([^.\n]+)\./i;

/** The episodes of every `=== EPISODE n ===` log in `text` (agents/episode-log.ts's format), in order. */
export function parseEpisodeLogs(text: string): LogEpisode[] {
  const episodes: LogEpisode[] = [];
  const parts = text.split(/^=== EPISODE (\d+) ===$/m);
  for (let k = 1; k + 1 < parts.length; k += 2) {
    const index = Number(parts[k]);
    const block = parts[k + 1]!;
    const rows: { obs: string; action: string; reward: number; cum: number }[] = [];
    let final = '';
    for (const line of block.split('\n')) {
      const m = STEP_LINE.exec(line);
      if (m) {
        const obs = m[1] === '(same as previous step)' ? (rows.at(-1)?.obs ?? '') : m[1]!;
        const cum = Number(m[4]);
        rows.push({ obs, action: m[2]!.trim(), reward: Number(m[3]), cum: Number.isFinite(cum) ? cum : (rows.at(-1)?.cum ?? 0) + Number(m[3]) });
      } else if (line.startsWith('[FINAL OBS] ')) final = line.slice('[FINAL OBS] '.length);
    }
    if (rows.length === 0) continue;
    const steps = rows.map((r, i) => ({ action: r.action, reward: r.reward, result: rows[i + 1]?.obs ?? final }));
    episodes.push({ index, steps, finalScore: rows.at(-1)!.cum, hint: HINT.exec(final)?.[1]?.trim().toLowerCase() ?? null });
  }
  return episodes;
}

const DIRECTIONS = ['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest', 'up', 'down'] as const;
const OPPOSITE: Record<string, string> = { north: 'south', south: 'north', east: 'west', west: 'east', northeast: 'southwest', southwest: 'northeast', northwest: 'southeast', southeast: 'northwest', up: 'down', down: 'up' };
const REFUSAL = /can't|cannot|can not|don't|not a verb|no such|you see no|that's not|i only understood|isn't something|what do you want|nothing happens|fixed in place|not open|is closed|no exit/i;

/** A room's arrival text on one log line: its title (capitalised words) straight before the description ("Vault Door The corridor ends …"). */
const ARRIVAL = /^[A-Z][a-z]+(?: (?:[A-Z][a-z]+|of|the|in)){0,4} [A-Z]/;

/**
 * Whether a step was useful: it scored, or it moved the player (a direction the game did not
 * refuse). Looking, examining, refused commands and other zero-point moves are useless.
 */
export function usefulStep(step: LogStep): boolean {
  if (step.reward > 0) return true;
  return (DIRECTIONS as readonly string[]).includes(step.action) && ARRIVAL.test(step.result) && !REFUSAL.test(step.result);
}

/** `moves` without useless ones (usefulStep) and without a step there and straight back. */
export function dropUseless(steps: readonly LogStep[]): string[] {
  const kept: string[] = [];
  for (const s of steps) {
    if (!usefulStep(s)) continue;
    if (s.reward <= 0 && kept.length > 0 && OPPOSITE[s.action] === kept.at(-1)) kept.pop();
    else kept.push(s.action);
  }
  return kept;
}

/** A route the meta-agent can hand on: commands in order and how far it gets (points; +0.5 for a hint at its end). */
interface Route {
  steps: LogStep[];
  value: number;
  /** The route with every move of its episode kept (what `every-move` hands on): the scoring
   * route's whole episode, the hint route as it is. */
  whole: LogStep[];
}

/** The episode's moves up to its last scoring step (null when nothing scored). */
function scoringRoute(e: LogEpisode): Route | null {
  let last = -1;
  e.steps.forEach((s, i) => { if (s.reward > 0) last = i; });
  if (last < 0) return null;
  let cum = 0;
  for (const s of e.steps.slice(0, last + 1)) cum += s.reward;
  return { steps: e.steps.slice(0, last + 1), value: cum, whole: e.steps };
}

/** The episode's moves but its last (failing) one, then the hint (null without a hint). */
function hintRoute(e: LogEpisode): Route | null {
  if (!e.hint) return null;
  const steps = [...e.steps.slice(0, -1), { action: e.hint, reward: 1, result: '' }];
  return { steps, value: e.finalScore + 0.5, whole: steps };
}

/** The meta-agent's decision: the plan, the facts it lists, and what it did (for `<think>`). */
export interface GuideDecision {
  /** The number of the episode the guide is for (the last log's + 1). */
  attempt: number;
  plan: string[];
  facts: string[];
  instructions: Instruction[];
}

/**
 * The next guide's plan from the episodes of the chat under the strategy's instructions:
 * - none (naive): the last episode's hint alone;
 * - `route`: the best of every episode's scoring route and the last episode's hint route;
 * - `all-hints`: the best of every episode's scoring route and hint route;
 * - `drop-useless`: the chosen route without useless moves (dropUseless);
 * - `every-move` (hurts): every move of the chosen route's episode, in order — useless ones and
 *   those after its last point included (drop-useless or not), so the replay ends where that
 *   episode ended; alone, every move of the last episode but its failing one, then its hint;
 * - `last-hint-only` (hurts): naive, whatever else the strategy names.
 * Best = most points reached (a hint counts half a point more than the score before it); ties go
 * to the later episode.
 */
export function decideGuide(episodes: readonly LogEpisode[], instructions: readonly Instruction[]): GuideDecision {
  const onlyLast = instructions.includes('last-hint-only');
  const has = (i: Instruction) => instructions.includes(i) && !(onlyLast && i !== 'last-hint-only');
  const last = episodes.at(-1);
  const attempt = (last?.index ?? 0) + 1;
  const facts: string[] = [];
  if (has('all-hints')) {
    for (const [i, e] of episodes.entries()) if (e.hint) facts.push(`after ${e.finalScore} point(s) in episode ${i + 1}, the game said to ${e.hint}`);
  }
  if (has('every-move') && !has('route') && !has('all-hints')) {
    // Every move of the last episode but its failing one, then its hint (or all of them without a hint).
    const moves = last ? (last.hint ? [...last.steps.slice(0, -1).map((s) => s.action), last.hint] : last.steps.map((s) => s.action)) : [];
    return { attempt, plan: moves, facts, instructions: [...instructions] };
  }
  if (!has('route') && !has('all-hints')) return { attempt, plan: last?.hint ? [last.hint] : [], facts, instructions: [...instructions] };
  const candidates: Route[] = [];
  for (const [i, e] of episodes.entries()) {
    const scored = scoringRoute(e);
    if (scored) candidates.push(scored);
    if (has('all-hints') || i === episodes.length - 1) {
      const hinted = hintRoute(e);
      if (hinted) candidates.push(hinted);
    }
  }
  let best: Route | null = null;
  for (const c of candidates) if (!best || c.value >= best.value) best = c;
  const plan = !best ? [] : has('every-move') ? best.whole.map((s) => s.action) : has('drop-useless') ? dropUseless(best.steps) : best.steps.map((s) => s.action);
  for (const s of best?.steps ?? []) if (s.reward > 0 && s.result !== '' && has('all-hints')) facts.push(`${s.action} scored ${s.reward}`);
  return { attempt, plan, facts, instructions: [...instructions] };
}

/** The guide text of a decision: a `PLAN:` block first (the actor reads it), then the facts. */
export function guideText(decision: GuideDecision): string {
  const lines = decision.plan.length > 0
    ? ['PLAN:', ...decision.plan.map((c, i) => `${i + 1}. ${c}`), '', `Then explore what you have not tried yet (this is attempt ${decision.attempt}).`]
    : [`Explore: try the exits and objects you have not tried yet (this is attempt ${decision.attempt}).`];
  if (decision.facts.length > 0) lines.push('', 'Facts learned so far:', ...decision.facts.map((f) => `- ${f}`));
  return lines.join('\n');
}

/** The strategy section of a meta-prompt (agents/meta-prompt.ts: after `Strategy:`, before the fixed footer); '' = naive. */
export function strategySection(system: string): string {
  const start = system.indexOf('\n\nStrategy:\n');
  if (start < 0) return '';
  const rest = system.slice(start + '\n\nStrategy:\n'.length);
  const end = rest.indexOf('\n\nAnswer in this format');
  return (end >= 0 ? rest.slice(0, end) : rest).trim();
}

/**
 * The meta-agent's reply: `<think>` naming the rules applied, `<learn>` the guide (decideGuide).
 * @param system the meta-prompt; @param userTexts every user message of the chat (the logs)
 * @param tagged whether the prompt asks for `<learn>` (else the guide is the whole reply, as the
 *   reflection baselines read it)
 */
export function metaAgentReply(system: string, userTexts: readonly string[], tagged = true): string {
  const episodes = userTexts.flatMap(parseEpisodeLogs);
  const decision = decideGuide(episodes, strategyInstructions(strategySection(system)));
  const rules = decision.instructions.length > 0 ? decision.instructions.join(', ') : 'none (naive: last hint only)';
  const guide = guideText(decision);
  if (!tagged) return guide;
  return `<think>Simulated meta-agent: read ${episodes.length} episode log(s); strategy rules applied: ${rules}.</think>\n<learn>\n${guide}\n</learn>`;
}

// ---------------------------------------------------------------- actor

const PLAN_HEAD = /^\s*PLAN\b[^:\n]*:\s*$/i;
const ITEM = /^\s*(?:\d+\s*[.)]|[-*•])\s+(.+?)\s*$/;
const DO_LINE = /^\s*DO:\s*(.+?)\s*$/i;

/** The guide's explicit commands in order: items of a list under a `PLAN…:` line (up to the first
 * other non-blank line) and `DO: <command>` lines; lower-cased, quotes and a final full stop dropped. */
export function guidePlan(guide: string): string[] {
  const out: string[] = [];
  let inPlan = false;
  for (const line of guide.split('\n')) {
    const item = ITEM.exec(line);
    const doLine = DO_LINE.exec(line);
    if (doLine) out.push(doLine[1]!);
    else if (PLAN_HEAD.test(line)) inPlan = true;
    else if (inPlan && item) out.push(item[1]!);
    else if (line.trim() !== '') inPlan = false;
  }
  return out.map((c) => c.replace(/^[`"']+|[`"']+$/g, '').replace(/\.$/, '').trim().toLowerCase()).filter((c) => c !== '');
}

const STOP = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'with', 'for', 'by', 'from', 'and', 'or', 'is', 'are', 'was', 'lit', 'that', 'which', 'who', 'after', 'before', 'into', 'against', 'faces', 'leads', 'stand', 'stands', 'sits', 'lies', 'set', 'has', 'have', 'it', 'you', 'your', 'under', 'below', 'above', 'ends', 'towards']);
/** Words that name nothing one could use ("the score", "a row"). */
const SCENERY = new Set(['score', 'point', 'points', 'row', 'one', 'out', 'hand', 'floor', 'wall', 'ceiling', 'dark', 'game', 'company', 'puzzle', 'idea', 'time', 'building', 'night', 'effort', 'code', 'way', 'place', 'moment', 'lobby', 'corridor', 'chamber', 'stripe', 'reader']);
const VERB_FOR_ROW: Record<string, string> = { lever: 'pull', button: 'push', switch: 'flip', bell: 'ring' };

/**
 * Exploration commands built from what `observation` names: its exits, `take`/`examine` of the
 * head noun after each article, `pull red lever` for a listed row ("Four levers …: red, green, blue
 * and yellow"), `enter NNN` (three digits from `digitsKey`) for a keypad. Lower case, no repeats.
 */
export function exploreCommands(observation: string, digitsKey: string): string[] {
  return exploreGroups(observation, digitsKey).flatMap((g) => g.commands);
}

/**
 * exploreCommands grouped by kind — exits, a listed row, a keypad, objects — so the actor picks a
 * kind first and scenery does not drown the few things that matter. Empty groups are left out.
 */
export function exploreGroups(observation: string, digitsKey: string): ExploreGroup[] {
  const text = observation.toLowerCase();
  const exits = DIRECTIONS.filter((d) => new RegExp(`\\b${d}\\b`).test(text));
  const rowCommands: string[] = [];
  const row = /\b([a-z]+?)s\b[^.:]*:\s*((?:[a-z]+,\s*)*[a-z]+\s+and\s+[a-z]+)/.exec(text);
  if (row) {
    const noun = row[1]!;
    for (const kind of row[2]!.split(/,\s*|\s+and\s+/)) rowCommands.push(`${VERB_FOR_ROW[noun] ?? 'examine'} ${kind} ${noun}`);
  }
  const objects = new Set<string>();
  for (const m of text.matchAll(/\b(?:a|an|the)\s+([a-z]+(?:\s+[a-z]+){0,2})/g)) {
    const words: string[] = [];
    for (const w of m[1]!.split(/\s+/)) {
      if (STOP.has(w)) break;
      words.push(w);
    }
    const head = words.at(-1);
    if (!head || head.length < 3 || STOP.has(head) || (DIRECTIONS as readonly string[]).includes(head) || SCENERY.has(head)) continue;
    objects.add(`examine ${head}`);
    objects.add(`take ${head}`);
  }
  // A thing set out on its own ("On the pedestal is a gem.") is worth taking.
  const items = [...text.matchAll(/\b(?:is|are) (?:a|an|some) (?:[a-z]+ )?([a-z]+)\.\s*$/gm)].map((m) => `take ${m[1]}`);
  const keypad = /\bkeypad\b/.test(text) ? [`enter ${[0, 1, 2].map((i) => Math.floor(hash01(`${digitsKey}#${i}`) * 10)).join('')}`] : [];
  return [
    { kind: 'exits' as const, commands: [...exits] },
    { kind: 'row' as const, commands: rowCommands },
    { kind: 'keypad' as const, commands: keypad },
    { kind: 'items' as const, commands: items },
    { kind: 'objects' as const, commands: [...objects] },
  ].filter((g) => g.commands.length > 0);
}

/** A kind of exploration command and its commands. */
export interface ExploreGroup {
  kind: 'exits' | 'row' | 'keypad' | 'items' | 'objects';
  commands: string[];
}

/** How often the actor picks each kind of exploration command, relative: the things a room names to operate, then exits, then objects. */
export const EXPLORE_WEIGHTS: Readonly<Record<ExploreGroup['kind'], number>> = { row: 3, keypad: 3, items: 3, exits: 2, objects: 1 };

/** The parts of an actor request the simulated actor reads. */
export interface ActorView {
  guide: string;
  /** Visible earlier turns, oldest first. */
  turns: { observation: string; reply: string }[];
  observation: string;
}

/** The actor request's parts (agents/actor-prompt.ts layout). */
export function actorView(system: string, user: string): ActorView {
  const start = system.indexOf('Follow this guide:\n');
  const rest = start >= 0 ? system.slice(start + 'Follow this guide:\n'.length) : '';
  const cut = rest.indexOf('\n\nYour most recent turns in this episode');
  const guide = (cut >= 0 ? rest.slice(0, cut) : rest).trim();
  const turns = (cut >= 0 ? rest.slice(cut) : '').split('\n[OBSERVATION]\n').slice(1).map((t) => {
    const [observation, reply] = t.split('\n[YOUR REPLY]\n');
    return { observation: (observation ?? '').trim(), reply: (reply ?? '').trim() };
  });
  const end = user.search(/\n\s*\nReply in exactly/);
  return { guide, turns, observation: (end >= 0 ? user.slice(0, end) : user).trim() };
}

/** A room's description in an observation: a short title line, then a line of description. */
const ROOM_DESCRIPTION = /^[A-Z][A-Za-z' ]{0,40}\n[A-Z]/m;

const MARK = /\(step (\d+), plan (\d+)\)/;

/**
 * The actor's reply: the next plan command (unless a seeded slip), else an untried exploration
 * command; its reasoning carries the mark `(step k, plan p)`.
 * @param seed mixed into every draw (the model's seed and the session's repeat)
 */
export function actorReply(view: ActorView, seed: string): string {
  const mark = view.turns.map((t) => MARK.exec(t.reply)).filter((m) => m !== null).at(-1);
  const step = mark ? Number(mark[1]) + 1 : view.turns.length + 1;
  const done = mark ? Number(mark[2]) : 0;
  const plan = guidePlan(view.guide);
  const key = `${seed}|${view.guide}|${view.observation}|${step}`;
  const reply = (reasoning: string, action: string, p: number) => `REASONING: ${reasoning} (step ${step}, plan ${p})\nACTION: ${action}`;
  const slip = done < plan.length && hash01(`slip|${key}`) < SLIP_RATE;
  if (done < plan.length && !slip) return reply(`Following the guide: command ${done + 1} of ${plan.length}.`, plan[done]!, done + 1);
  // The room is the latest observation that describes one (a title line, then its description);
  // what was tried counts from there, so an exit used on the way in may be taken again.
  const observations = [...view.turns.map((t) => t.observation), view.observation];
  const roomAt = observations.findLastIndex((o) => ROOM_DESCRIPTION.test(o));
  const commandOf = (t: { reply: string }) => /ACTION:\s*(.+)$/m.exec(t.reply)?.[1]?.trim() ?? '';
  const tried = new Set(view.turns.slice(Math.max(roomAt, 0)).map(commandOf).filter((c) => c !== ''));
  // The room's description has left the window: look, as a player would.
  if (roomAt < 0 && !tried.has('look')) return reply('I no longer see the room described, so I look.', 'look', done);
  const room = roomAt >= 0 ? observations[roomAt]! : undefined;
  const current = exploreGroups(view.observation, `${seed}|${view.guide}`);
  const roomGroups = room === undefined || room === view.observation ? [] : exploreGroups(room, `${seed}|${view.guide}`);
  const groups = [...current, ...roomGroups]
    .map((g) => ({ ...g, commands: g.commands.filter((c) => !tried.has(c)) }))
    .filter((g) => g.commands.length > 0);
  const weighted = groups.flatMap((g) => Array.from({ length: EXPLORE_WEIGHTS[g.kind] }, () => g.commands));
  const action = pick(weighted.length > 0 ? pick(weighted, `kind|${key}`) : ['look'], `explore|${key}`);
  return reply(slip ? 'I slip from the plan and try something else.' : 'No plan command left, so I explore what the room names.', action, done);
}

// ---------------------------------------------------------------- proposer

/** The parent strategy in a proposer request: `<current_strategy>…</current_strategy>`, or the best (last) `<solution>` of an OPRO prompt; '' = naive. */
export function currentStrategy(text: string): string {
  const current = /<current_strategy>([\s\S]*?)<\/current_strategy>/i.exec(text)?.[1];
  if (current !== undefined) return current.trim();
  // An OPRO prompt lists scored solutions, best last (evolve/rules/opro-proposer.ts): build on the best.
  const best = [...text.matchAll(/<solution[^>]*>([\s\S]*?)<\/solution>/gi)].at(-1)?.[1]?.trim() ?? '';
  return best.startsWith('(empty:') ? '' : best;
}

/** The proposer's choice: the new strategy and why (its reasoning). */
export interface Proposal {
  strategy: string;
  reason: string;
}

/** Why the worst run's logs call for a rule (the proposer's reasons), by instruction. */
function ruleReasons(episodes: readonly LogEpisode[]): Record<Instruction, { shown: boolean; why: string }> {
  const hinted = episodes.filter((e) => e.hint).length;
  const worse = episodes.some((e, i) => episodes.slice(0, i).some((p) => p.finalScore > e.finalScore));
  const useless = episodes.some((e) => e.steps.some((s) => !usefulStep(s)));
  return {
    'all-hints': { shown: hinted >= 2, why: `the game gave a hint in ${hinted} episodes, and a guide that keeps only the last one forgets the others` },
    route: { shown: worse, why: 'an episode scored less than an earlier one: the scoring moves were not replayed' },
    'drop-useless': { shown: useless, why: 'the worst run spent steps on moves that scored nothing and led nowhere' },
    'last-hint-only': { shown: hinted >= 2, why: `the game gave a hint in ${hinted} episodes and the rule threw all but the last away: facts were lost` },
    'every-move': { shown: useless, why: 'the worst run replayed moves that scored nothing and led nowhere, and the rule keeps them in the plan' },
  };
}

/**
 * A child strategy, one edit of the parent after reading the worst run's logs (`record`):
 * 1. **remove** the first rule that hurts (table order) whose harm the logs show: `last-hint-only`
 *    when the game gave a hint in two or more episodes (facts were lost), `every-move` when the
 *    logs hold useless moves (the rule keeps them);
 * 2. **add** one missing rule that helps — the one the logs call for: `all-hints` when the game
 *    gave a hint in two or more episodes, `route` when an episode scored less than an earlier one,
 *    `drop-useless` when the logs hold useless moves; else (nothing removed) the first missing one;
 * 3. **sharpen**: every rule kept is rewritten as the table's sentence; sentences that name no
 *    rule are kept as written. With every helpful rule present and nothing to remove, the strategy
 *    is only sharpened. A rule that hurts but whose harm the logs do not show is kept (sharpened).
 */
export function propose(parent: string, dataset: string): Proposal {
  const present = strategyInstructions(parent);
  const reasons = ruleReasons(parseEpisodeLogs(dataset));
  const remove = RULES.find((r) => r.effect === 'hurts' && present.includes(r.instruction) && reasons[r.instruction].shown)?.instruction;
  const missing = RULES.filter((r) => r.effect === 'helps' && !present.includes(r.instruction)).map((r) => r.instruction);
  const add = missing.find((i) => reasons[i].shown) ?? (remove ? undefined : missing[0]);
  const kept = parent.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter((s) => s !== '' && strategyInstructions(s).length === 0);
  const rules = RULES.filter((r) => (present.includes(r.instruction) && r.instruction !== remove) || r.instruction === add).map((r) => r.sentence);
  const strategy = [...kept, ...rules].join(' ');
  const said = [
    ...(remove ? [`Removing the rule "${remove}": ${reasons[remove].why}.`] : []),
    ...(add ? [`Adding the rule "${add}": ${reasons[add].why}.`] : []),
  ];
  const reason = said.length > 0 ? said.join(' ') : 'Every rule of the table that helps is present, and none that hurts shows its harm; sharpening their wording.';
  return { strategy, reason };
}

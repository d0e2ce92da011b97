/**
 * The simulated model (src/llm/simulated-model.ts, simulated-rules.ts): each rule of its table
 * pinned on hand-written logs, its replies read by the product's own parsers, and the product
 * claims it exists for checked in-process on the teaching games — a meta-prompt that keeps every
 * hint beats naive on The Lever Room, The Vault is learned in two episodes, an evolution from
 * naive accepts a child within a small budget, and learned plans hold no useless moves.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GUIDING_PROMPT } from '../src/agents/actor-prompt.ts';
import { BUILT_IN_META_PROMPTS } from '../src/agents/meta-prompt-library.ts';
import { buildMetaPrompt, parseLearn } from '../src/agents/meta-prompt.ts';
import { parseActorReply } from '../src/agents/reply-parser.ts';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { runEvolution } from '../src/evolve/evolution-runner.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { buildProposerMessages, parseProposal } from '../src/evolve/rules/llm-proposer.ts';
import { buildOproMessages } from '../src/evolve/rules/opro-proposer.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createSimulatedChatModels, simulatedReply, SIMULATED_MODEL } from '../src/llm/simulated-model.ts';
import { actorReply, decideGuide, EXPLORE_WEIGHTS, dropUseless, exploreCommands, guidePlan, guideText, parseEpisodeLogs, propose, RULES, strategyInstructions, type LogEpisode } from '../src/llm/simulated-rules.ts';
import { approximateTokens } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { EnginePool } from '../src/ttl/engine-pool.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import { evaluateSession } from '../src/ttl/session-evaluator.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { MemoryCache } from './support/scripted-evolution.ts';
import { REPO_ROOT } from './support/shared.ts';

const strategyOf = (id: string) => BUILT_IN_META_PROMPTS.find((p) => p.id === id)!.strategy;

/** An episode log in the product's format (agents/episode-log.ts). */
function log(index: number, steps: [string, number, string][], final: string): string {
  let cum = 0;
  const lines = [`=== EPISODE ${index} ===`, 'Guiding prompt used:', 'Explore.', ''];
  for (const [i, [action, reward, obs]] of steps.entries()) {
    cum += reward;
    lines.push(`[STEP ${i + 1}] [OBS] ${obs} [ACTION] ${action} [REWARD] ${reward} [CUM_REWARD] ${cum}`);
  }
  lines.push('', `[FINAL OBS] ${final}`, `[EPISODE END] the game ended after ${steps.length} steps. Final score: ${cum} out of 5.`);
  return lines.join('\n');
}
const ROOM = 'Lever Room A bare stone chamber. Four levers stand in a row against the south wall: red, green, blue and yellow.';
const CLICK = 'You haul the lever down. Click!';
const died = (hint: string) => `Wrong lever. Next time, try: ${hint}. *** You have died ***`;
/** Three failed Lever Room episodes: hints YELLOW (0 points), BLUE (after 1), GREEN (after 2). */
const LEVER_LOGS = [
  log(1, [['look', 0, ROOM], ['pull red lever', 0, ROOM]], died('PULL YELLOW LEVER')),
  log(2, [['pull yellow lever', 1, ROOM], ['examine door', 0, CLICK], ['pull red lever', 0, 'A heavy iron door.']], died('PULL BLUE LEVER')),
  log(3, [['look', 0, ROOM], ['pull green lever', 0, ROOM]], died('PULL YELLOW LEVER')),
];
const episodes = (texts: string[]): LogEpisode[] => texts.flatMap(parseEpisodeLogs);

describe('the rule table', () => {
  it('reads the built-in strategies: naive none, fact bank every hint, credit assignment and route script the scoring route without useless moves', () => {
    expect(strategyInstructions(strategyOf('naive'))).toEqual([]);
    expect(strategyInstructions(strategyOf('fact-bank'))).toEqual(['all-hints']);
    expect(strategyInstructions(strategyOf('credit-assignment'))).toEqual(['route', 'drop-useless']);
    expect(strategyInstructions(strategyOf('route-script'))).toEqual(['route', 'drop-useless']);
  });

  it('naive keeps only the last hint', () => {
    expect(decideGuide(episodes(LEVER_LOGS), []).plan).toEqual(['pull yellow lever']);
    expect(decideGuide(episodes(LEVER_LOGS.slice(0, 2)), []).plan).toEqual(['pull blue lever']);
  });

  it('a fact bank keeps every hint: the best hint route over all episodes, even when the last episode went worse', () => {
    const d = decideGuide(episodes(LEVER_LOGS), ['all-hints']);
    expect(d.plan).toEqual(['pull yellow lever', 'examine door', 'pull blue lever']);
    expect(d.facts.filter((f) => f.includes('the game said'))).toHaveLength(3);
  });

  it("a route keeps the best episode's scoring moves and the last hint; a route alone forgets earlier hints", () => {
    expect(decideGuide(episodes(LEVER_LOGS), ['route']).plan).toEqual(['pull yellow lever']);
    expect(decideGuide(episodes(LEVER_LOGS.slice(0, 2)), ['route']).plan).toEqual(['pull yellow lever', 'examine door', 'pull blue lever']);
  });

  it('dropping useless moves removes what scored nothing and led nowhere, and a step there and back', () => {
    expect(decideGuide(episodes(LEVER_LOGS.slice(0, 2)), ['route', 'drop-useless']).plan).toEqual(['pull yellow lever', 'pull blue lever']);
    const moves = parseEpisodeLogs(log(1, [
      ['take card', 1, 'Lobby A quiet lobby.'], ['west', 0, 'You pick up the card.'], ['east', 0, 'The revolving doors are locked.'],
      ['west', 0, 'Vault Door The corridor ends.'], ['east', 0, 'Lobby A quiet lobby.'], ['examine keypad', 0, 'Vault Door The corridor ends.'],
      ['enter 290', 2, 'Ten buttons.'],
    ], 'The door swings open.'))[0]!.steps;
    expect(dropUseless(moves)).toEqual(['take card', 'east', 'enter 290']);
  });

  it('the meta-agent reads its strategy from the meta-prompt: the same logs give different guides', () => {
    const guide = (id: string) => parseLearn(simulatedReply('metaAgent', [{ role: 'system', content: buildMetaPrompt(strategyOf(id)) }, ...LEVER_LOGS.map((c) => ({ role: 'user' as const, content: c }))]), 'stop');
    const naive = guide('naive');
    const bank = guide('fact-bank');
    expect(naive.status).toBe('updated');
    expect(guidePlan(naive.guidingPrompt!)).toEqual(['pull yellow lever']);
    expect(guidePlan(bank.guidingPrompt!)).toEqual(['pull yellow lever', 'examine door', 'pull blue lever']);
  });

  it('the proposer adds the rule the worst run calls for, and the product reads its proposal', () => {
    const record = LEVER_LOGS.join('\n\n');
    const reply = simulatedReply('proposer', buildProposerMessages('', record));
    const parsed = parseProposal(reply, 'stop', '');
    expect(parsed.status).toBe('ok');
    expect(strategyInstructions(parsed.strategy!)).toEqual(['all-hints']);
    // From a fact bank, a worse later episode calls for the route; then useless moves for dropping them.
    expect(strategyInstructions(propose(parsed.strategy!, record).strategy)).toEqual(['all-hints', 'route']);
    const full = propose(propose(parsed.strategy!, record).strategy, record).strategy;
    expect(strategyInstructions(full)).toEqual(['all-hints', 'route', 'drop-useless']);
    // Every rule present: only sharpened, the behaviour unchanged.
    expect(strategyInstructions(propose(full, record).strategy)).toEqual(['all-hints', 'route', 'drop-useless']);
    // OPRO's prompt: built on its best (last) solution.
    const opro = parseProposal(simulatedReply('proposer', buildOproMessages([{ candidateId: 'c0', strategy: '', score: 0.1 }, { candidateId: 'c1', strategy: parsed.strategy!, score: 0.5 }], record)), 'stop', '');
    expect(strategyInstructions(opro.strategy!)).toEqual(['all-hints', 'route']);
    // A sentence that names no rule is kept.
    expect(propose('Be brief.', record).strategy.startsWith('Be brief.')).toBe(true);
  });
});

describe('the rule table, rule by rule', () => {
  const PHRASES: Record<string, string[]> = {
    'all-hints': ['Keep a fact bank.', 'Record every fact.', 'Never delete anything.', 'Keep every hint.'],
    route: ['Write a route script.', 'Do credit assignment.', 'List the scoring moves in order.', 'List the scoring commands in order.', 'A guide that reproduces every gain.', 'Replay the best episode.'],
    'drop-useless': ['Drop moves that failed.', 'Drop commands that failed.', 'Cut wasted steps.', 'Skip steps that only looked around.', 'No useless moves.'],
    'last-hint-only': ['Keep only the last hint.', 'Write the last hint only.', 'Forget the earlier hints.', 'Keep only the latest hint.'],
    'every-move': ['Keep every move.', 'Keep all the moves.', 'Replay the whole episode.', 'List every move of the episode.'],
  };

  it("each rule is named by each of its table's phrases, by that rule alone, and by the sentence the proposer writes for it", () => {
    for (const rule of RULES) {
      for (const phrase of PHRASES[rule.instruction]!) expect(strategyInstructions(phrase), phrase).toEqual([rule.instruction]);
      expect(strategyInstructions(rule.sentence)).toEqual([rule.instruction]);
    }
    expect(strategyInstructions('Be concise and helpful.')).toEqual([]);
    // Near misses name no rule that hurts: asking for more than the last hint, reading the whole log.
    expect(strategyInstructions('Keep not only the last hint but every hint.')).toEqual(['all-hints']);
    expect(strategyInstructions('Read the whole episode log, then drop moves that failed.')).toEqual(['drop-useless']);
    expect(strategyInstructions('Drop all moves that scored nothing.')).toEqual(['drop-useless']);
  });

  it('naive with no hint in the last episode gives no plan, only the advice to explore; facts are listed only by a fact bank', () => {
    const quiet = episodes([log(1, [['look', 0, ROOM]], 'Time passes.')]);
    const naive = decideGuide(quiet, []);
    expect(naive.plan).toEqual([]);
    expect(guideText(naive)).toBe('Explore: try the exits and objects you have not tried yet (this is attempt 2).');
    expect(decideGuide(episodes(LEVER_LOGS), []).facts).toEqual([]);
    expect(decideGuide(episodes(LEVER_LOGS), ['route']).facts).toEqual([]);
    expect(guideText(decideGuide(episodes(LEVER_LOGS), ['all-hints']))).toContain('Facts learned so far:\n- after 0 point(s) in episode 1, the game said to pull yellow lever');
  });

  it('rules combine: a fact bank that drops useless moves keeps every hint and none of the moves that did nothing', () => {
    const d = decideGuide(episodes(LEVER_LOGS), ['all-hints', 'drop-useless']);
    expect(d.plan).toEqual(['pull yellow lever', 'pull blue lever']);
    expect(guidePlan(guideText(d))).toEqual(d.plan);
  });

  it('the proposer adds the route when the worst run has a worse later episode and one hint at most', () => {
    const record = [log(1, [['pull yellow lever', 1, ROOM], ['pull blue lever', 1, CLICK]], 'Time passes.'), log(2, [['pull yellow lever', 1, ROOM]], died('PULL BLUE LEVER'))].join('\n\n');
    const child = propose('', record);
    expect(strategyInstructions(child.strategy)).toEqual(['route']);
    expect(child.reason).toMatch(/^Adding the rule "route": an episode scored less than an earlier one/);
  });

  it('the proposer adds dropping useless moves when the logs show only them', () => {
    const record = log(1, [['look', 0, ROOM], ['pull red lever', 1, ROOM]], 'Time passes.');
    const child = propose('', record);
    expect(strategyInstructions(child.strategy)).toEqual(['drop-useless']);
    expect(child.reason).toMatch(/^Adding the rule "drop-useless"/);
  });

  it('with logs that call for nothing, the proposer adds the first missing rule of the table; every rule present, it sharpens the wording only', () => {
    const record = log(1, [['pull red lever', 1, ROOM]], 'Time passes.');
    expect(strategyInstructions(propose('', record).strategy)).toEqual(['all-hints']);
    expect(strategyInstructions(propose('Keep every hint.', record).strategy)).toEqual(['all-hints', 'route']);
    const sharpened = propose('Keep every hint. Write a route script. No useless moves.', record);
    expect(sharpened.strategy).toBe(RULES.filter((r) => r.effect === 'helps').map((r) => r.sentence).join(' '));
    expect(sharpened.reason).toBe('Every rule of the table that helps is present, and none that hurts shows its harm; sharpening their wording.');
  });
});

describe('the rules that hurt, and the proposer removing them', () => {
  /** One episode with a useless look before a point, no hint, no worse episode: it shows only useless moves. */
  const USELESS = log(1, [['look', 0, ROOM], ['pull yellow lever', 1, ROOM]], 'Time passes.');
  /** One episode that scored at once: it shows nothing. */
  const QUIET = log(1, [['pull red lever', 1, ROOM]], 'Time passes.');

  it('the table marks which rules help (the proposer adds them) and which hurt (it removes them)', () => {
    expect(RULES.map((r) => [r.instruction, r.effect])).toEqual([
      ['all-hints', 'helps'], ['route', 'helps'], ['drop-useless', 'helps'], ['last-hint-only', 'hurts'], ['every-move', 'hurts'],
    ]);
    // No built-in meta-prompt names a rule that hurts.
    for (const p of BUILT_IN_META_PROMPTS) expect(strategyInstructions(p.strategy).filter((i) => RULES.find((r) => r.instruction === i)!.effect === 'hurts'), p.id).toEqual([]);
  });

  it('"keep only the last hint" makes the guide naive whatever else the strategy asks for: the facts of earlier episodes are lost', () => {
    const d = decideGuide(episodes(LEVER_LOGS), ['all-hints', 'route', 'last-hint-only']);
    expect(d.plan).toEqual(['pull yellow lever']);
    expect(d.facts).toEqual([]);
    expect(decideGuide(episodes(LEVER_LOGS), ['all-hints']).plan).toEqual(['pull yellow lever', 'examine door', 'pull blue lever']);
  });

  it('"keep every move" keeps the useless moves that drop-useless removes; alone it replays the last episode, then its hint', () => {
    const two = episodes(LEVER_LOGS.slice(0, 2));
    expect(decideGuide(two, ['route', 'drop-useless']).plan).toEqual(['pull yellow lever', 'pull blue lever']);
    expect(decideGuide(two, ['route', 'drop-useless', 'every-move']).plan).toEqual(['pull yellow lever', 'examine door', 'pull blue lever']);
    expect(decideGuide(two, ['every-move']).plan).toEqual(['pull yellow lever', 'examine door', 'pull blue lever']);
    expect(decideGuide(episodes([USELESS]), ['every-move']).plan).toEqual(['look', 'pull yellow lever']);
  });

  it('the proposer removes "keep only the last hint" when the worst run got hints in several episodes, and adds the fact bank they call for', () => {
    const record = LEVER_LOGS.join('\n\n');
    const reply = simulatedReply('proposer', buildProposerMessages('Be brief. Keep only the last hint.', record));
    const parsed = parseProposal(reply, 'stop', '');
    expect(parsed.status).toBe('ok');
    expect(parsed.strategy).toBe(`Be brief. ${RULES[0]!.sentence}`);
    expect(strategyInstructions(parsed.strategy!)).toEqual(['all-hints']);
    expect(reply).toContain('Removing the rule "last-hint-only": the game gave a hint in 3 episodes and the rule threw all but the last away: facts were lost. Adding the rule "all-hints"');
    // The child's guide keeps what the parent's lost.
    expect(decideGuide(episodes(LEVER_LOGS), strategyInstructions(parsed.strategy!)).plan).toEqual(['pull yellow lever', 'examine door', 'pull blue lever']);
  });

  it('the proposer removes "keep every move" when the worst run wasted moves, and adds dropping them', () => {
    const child = propose('Write a route script. Keep every move of the episode.', USELESS);
    expect(strategyInstructions(child.strategy)).toEqual(['route', 'drop-useless']);
    expect(child.reason).toBe('Removing the rule "every-move": the worst run replayed moves that scored nothing and led nowhere, and the rule keeps them in the plan. Adding the rule "drop-useless": the worst run spent steps on moves that scored nothing and led nowhere.');
    // With every rule that helps already present, the child is the parent without the harmful rule.
    const full = `${RULES.filter((r) => r.effect === 'helps').map((r) => r.sentence).join(' ')} Keep every move.`;
    const removed = propose(full, USELESS);
    expect(strategyInstructions(removed.strategy)).toEqual(['all-hints', 'route', 'drop-useless']);
    expect(removed.reason).toMatch(/^Removing the rule "every-move": [^.]*\.$/);
  });

  it('a rule that hurts is kept (in the table\'s wording) while the logs do not show its harm', () => {
    const child = propose('Keep only the latest hint.', QUIET);
    expect(strategyInstructions(child.strategy)).toEqual(['all-hints', 'last-hint-only']);
    expect(child.strategy).toContain('Keep only the last hint: forget the earlier hints.');
    expect(strategyInstructions(propose('Keep every move.', QUIET).strategy)).toEqual(['all-hints', 'every-move']);
  });

  it('the proposer sharpens each rule it keeps into the table\'s sentence, phrase by phrase, and never adds a rule that hurts', () => {
    const PHRASINGS: Record<string, string> = { 'all-hints': 'Record every fact.', route: 'Do credit assignment.', 'drop-useless': 'Cut wasted steps.', 'last-hint-only': 'Forget the earlier hints.', 'every-move': 'Replay the whole episode.' };
    for (const rule of RULES) {
      const child = propose(`Stay calm. ${PHRASINGS[rule.instruction]!}`, QUIET).strategy;
      expect(child.startsWith('Stay calm. '), rule.instruction).toBe(true);
      expect(child, rule.instruction).toContain(rule.sentence);
      expect(child, rule.instruction).not.toContain(PHRASINGS[rule.instruction]!);
    }
    for (const record of [QUIET, USELESS, LEVER_LOGS.join('\n\n')]) {
      let strategy = '';
      for (let i = 0; i < 4; i++) strategy = propose(strategy, record).strategy;
      expect(strategyInstructions(strategy)).toEqual(['all-hints', 'route', 'drop-useless']);
    }
  });
});

describe('the actor', () => {
  const view = (guide: string, observation: string, turns: { observation: string; reply: string }[] = []) => ({ guide, observation, turns });

  it("types the guide's plan in order, reading its place from its last reply, in the contract the product parses", () => {
    const guide = 'PLAN:\n1. take card\n2. east\n\nThen explore.';
    let followed = 0;
    for (const seed of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
      const first = actorReply(view(guide, 'Lobby\nA lobby. A corridor leads east.'), seed);
      const parsed = parseActorReply(first, 'stop');
      expect(parsed.status).toBe('ok');
      if (/slip/.test(parsed.reasoning ?? '')) continue;
      followed++;
      expect(parsed.action).toBe('take card');
      const second = parseActorReply(actorReply(view(guide, 'Taken.', [{ observation: 'Lobby\nA lobby.', reply: first }]), seed), 'stop');
      if (!/slip/.test(second.reasoning ?? '')) expect(second.action).toBe('east');
    }
    expect(followed).toBeGreaterThanOrEqual(8);
  });

  it('explores with what the observation names: exits, a row of levers, a keypad with three digits, a thing to take', () => {
    expect(exploreCommands(ROOM, 'k')).toEqual(expect.arrayContaining(['south', 'pull red lever', 'pull yellow lever']));
    const vault = exploreCommands('The corridor ends at a vault door. Beside it is a keypad with a small screen. The lobby is back to the west.\n\nOn the floor is a gem.', 'k');
    expect(vault).toEqual(expect.arrayContaining(['west', 'take gem']));
    expect(vault.filter((c) => /^enter \d{3}$/.test(c))).toHaveLength(1);
  });

  it('past the plan it explores untried commands of the room; a command the game refused still counts as done', () => {
    const guide = 'PLAN:\n1. pull purple lever';
    const room = ROOM.replace('Lever Room ', 'Lever Room\n');
    let checked = 0;
    for (const seed of ['0', '1', '2', '3', '4']) {
      const first = actorReply(view(guide, room), seed);
      if (/slip/.test(first)) continue;
      checked++;
      expect(parseActorReply(first, 'stop').action).toBe('pull purple lever');
      // The game refused the command; the actor does not retry it but explores what the room names.
      const second = parseActorReply(actorReply(view(guide, "You can't see any such thing.", [{ observation: room, reply: first }]), seed), 'stop');
      expect(second.reasoning).toMatch(/^No plan command left, so I explore what the room names\. \(step 2, plan 1\)$/);
      expect(exploreCommands(room, 'k')).toContain(second.action);
      expect(second.action).not.toBe('pull purple lever');
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it('weights what it explores: a row of levers, a keypad and things to take before exits, exits before scenery', () => {
    expect(EXPLORE_WEIGHTS).toEqual({ row: 3, keypad: 3, items: 3, exits: 2, objects: 1 });
  });

  it('slips from the plan now and then, deterministically per seed', () => {
    const guide = 'PLAN:\n1. take card';
    const actions = Array.from({ length: 200 }, (_, i) => parseActorReply(actorReply(view(guide, `Lobby\nA lobby ${i}. A corridor leads east.`), 'seed'), 'stop').action);
    const slips = actions.filter((a) => a !== 'take card').length;
    expect(slips).toBeGreaterThan(0);
    expect(slips).toBeLessThan(30);
    expect(actorReply(view(guide, 'Lobby\nA lobby 7.'), 'seed')).toBe(actorReply(view(guide, 'Lobby\nA lobby 7.'), 'seed'));
  });
});

// ---------------------------------------------------------------- the teaching games, in-process

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const story = (id: string) => {
  const entry = catalog.stories.find((s) => s.id === id)!;
  return { entry, bytes: new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!))) };
};
function simulatedSettings(): LlmSettings {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'simulated', baseUrl: 'in-page:simulated', apiKey: '' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = SIMULATED_MODEL;
  return s;
}

async function session(id: string, strategy: string, seed: number, episodes = 4) {
  const { entry, bytes } = story(id);
  const s = simulatedSettings();
  const parts = buildSession(
    { story: { id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed, policy: { kind: 'meta', name: 'x', strategy }, episodes, maxSteps: 15, initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, contextWindow: 32_000 },
    s, createSimulatedChatModels(s, new UsageMeter(s.caps, s.prices)), approximateTokens,
  );
  return runSession({ id: 's', config: parts.config, engine: syncEngine(loadStory(bytes, { seed, rules: rulesFor(entry) })), actor: parts.actor, policy: parts.policy });
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const SEEDS = [1, 2, 3];

describe('the simulated model on the teaching games', () => {
  it('a meta-prompt that keeps every hint beats naive on The Lever Room (which needs four facts), on every seed', async () => {
    for (const seed of SEEDS) {
      const naive = await session('lever-room', strategyOf('naive'), seed);
      const bank = await session('lever-room', strategyOf('fact-bank'), seed);
      expect(bank.wAuc!, `seed ${seed}`).toBeGreaterThan(naive.wAuc!);
    }
  });

  it('The Vault is learned in two episodes: the code the guard gave reaches the actor and opens the vault in episode 2', async () => {
    const wins = [];
    for (const seed of SEEDS) {
      const run = await session('vault', strategyOf('route-script'), seed, 2);
      expect(run.scores[0], `seed ${seed}`).toBeLessThanOrEqual(1);
      expect(run.scores[1], `seed ${seed}`).toBeGreaterThanOrEqual(3);
      wins.push(run.scores[1] === 5);
      const naive = await session('vault', strategyOf('naive'), seed, 2);
      expect(naive.scores[1]!, `seed ${seed}`).toBeLessThan(run.scores[1]!);
    }
    expect(wins.filter(Boolean).length).toBeGreaterThanOrEqual(2);
  });

  it('the same seed plays the same session, move for move', async () => {
    const a = await session('lever-room', strategyOf('naive'), 1, 2);
    const b = await session('lever-room', strategyOf('naive'), 1, 2);
    expect(a.episodes.map((e) => e.trajectory?.steps.map((x) => x.action))).toEqual(b.episodes.map((e) => e.trajectory?.steps.map((x) => x.action)));
  });

  it('learned plans contain no useless moves: every command of a route script scores or moves the player when replayed', async () => {
    for (const id of ['lever-room', 'vault']) {
      const run = await session(id, strategyOf('route-script'), 1);
      const guide = run.episodes.at(-1)!.trajectory!.guidingPrompt;
      const plan = guidePlan(guide);
      expect(plan.length, id).toBeGreaterThan(0);
      const { entry, bytes } = story(id);
      const game = loadStory(bytes, { seed: 1, rules: rulesFor(entry) });
      game.reset();
      let score = 0;
      for (const command of plan) {
        const r = game.step(command);
        const moved = /^[A-Z][A-Za-z' ]{0,40}\n[A-Z]/.test(r.text);
        expect(r.score! > score || moved, `${id}: "${command}" in ${plan.join(', ')}`).toBe(true);
        score = r.score ?? score;
      }
    }
  });

  async function evolve(seedStrategy: string, game = 'lever-room'): Promise<EvolutionState> {
    const { entry, bytes } = story(game);
    const task = { id: `${game}:1`, storyId: entry.id, title: entry.title, md5: entry.md5, seed: 1, maxScore: entry.maxScore! };
    const s = simulatedSettings();
    const models = createSimulatedChatModels(s, new UsageMeter(s.caps, s.prices));
    const pool = new EnginePool(async () => ({ ...syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) })), dispose: () => undefined }));
    const cfg = {
      train: [task], val: [task], repeats: 1, episodes: 4, maxSteps: 15, initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, seedStrategy, minibatchSize: 1,
      budgetMetricCalls: 6, maxConsecutiveFailures: 3, proposer: 'llm' as const, rngSeed: 1, concurrency: 1,
      models: { actor: SIMULATED_MODEL, metaAgent: SIMULATED_MODEL, proposer: SIMULATED_MODEL }, contextWindow: 32_000,
    };
    const options = { settings: s, models, countTokens: approximateTokens, pool, episodes: cfg.episodes, maxSteps: cfg.maxSteps, initialGuidingPrompt: cfg.initialGuidingPrompt, contextWindow: cfg.contextWindow };
    return runEvolution('evo', cfg, {
      proposer: models.proposer, cache: new MemoryCache(),
      evaluate: (strategy, t, _repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, t, sessionId, signal),
    });
  }

  it('an evolution from naive accepts a child within a small budget', async () => {
    const state = await evolve('');
    const accepted = state.candidates.filter((c) => c.status === 'accepted');
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(strategyInstructions(accepted[0]!.strategy).length).toBeGreaterThan(0);
    expect(mean(Object.values(accepted[0]!.valScores))).toBeGreaterThan(mean(Object.values(state.candidates[0]!.valScores)));
  });

  it('an evolution from a strategy with a rule that hurts accepts a child with that rule removed', async () => {
    for (const [seed, game] of [['Keep only the last hint.', 'lever-room'], ['Keep a fact bank. Keep only the last hint.', 'lever-room']] as const) {
      const state = await evolve(seed, game);
      const harmful = strategyInstructions(seed).find((i) => RULES.find((r) => r.instruction === i)!.effect === 'hurts')!;
      const accepted = state.candidates.filter((c) => c.status === 'accepted');
      expect(accepted.length, seed).toBeGreaterThanOrEqual(1);
      expect(accepted[0]!.parentId, seed).toBe(state.candidates[0]!.id);
      expect(strategyInstructions(accepted[0]!.strategy), seed).not.toContain(harmful);
      expect(mean(Object.values(accepted[0]!.valScores)), seed).toBeGreaterThan(mean(Object.values(state.candidates[0]!.valScores)));
    }
  });
});

describe('--provider simulated', () => {
  it('needs no key or base URL, names every role model "simulated" and refuses another model name', async () => {
    const { llmSettingsFromFlags, contextWindowFromFlags } = await import('../src/cli/llm-options.ts');
    const { chatModelsFromFlags } = await import('../src/cli/models.ts');
    const s = llmSettingsFromFlags({ provider: 'simulated' }, {});
    expect(s.provider).toEqual({ presetId: 'simulated', baseUrl: 'in-page:simulated', apiKey: '' });
    expect(Object.values(s.roles).map((r) => r.model)).toEqual(['simulated', 'simulated', 'simulated']);
    expect(() => llmSettingsFromFlags({ provider: 'simulated', 'actor-model': 'gpt-4o' }, {})).toThrow(/its model is "simulated"/);
    expect(() => llmSettingsFromFlags({ provider: 'simulated', 'base-url': 'http://x' }, {})).toThrow(/--base-url/);
    expect(await contextWindowFromFlags({ provider: 'simulated' }, s, () => {})).toBe(128_000);
    const models = await chatModelsFromFlags({ provider: 'simulated' }, s, new UsageMeter(s.caps, s.prices));
    const reply = await models.actor.complete([{ role: 'system', content: 'Follow this guide:\nPLAN:\n1. take card' }, { role: 'user', content: 'Lobby\nA lobby.\n\nReply in exactly two lines:' }]);
    expect(reply.model).toBe('simulated');
    expect(reply.usage.costUsd).toBe(0);
  });
});

describe('the simulated model in the CLI', () => {
  it('`eval --provider simulated` runs with no key, and its report, results and summary say it is a simulation', async () => {
    const { runCli } = await import('./support/cli.ts');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const out = mkdtempSync(join(tmpdir(), 'metattl-simulated-'));
    try {
      const r = await runCli(['eval', '--policies', 'naive,fact-bank', '--tasks', 'lever-room:1', '--repeats', '1', '--episodes', '3', '--steps', '15', '--provider', 'simulated', '--out', out], { ...process.env, OPENAI_API_KEY: '' });
      expect(r.code, r.stderr).toBe(0);
      const notice = 'simulated model — not a language model; it shows how the loop works, not how real models behave';
      expect(readFileSync(join(out, 'report.md'), 'utf8').split('\n')).toContain(`> **Model: simulated (${notice}).**`);
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
      expect(results.simulated).toBe(notice);
      expect(results.report.simulated).toBe(notice);
      expect(results.config.models).toEqual({ actor: 'simulated', metaAgent: 'simulated' });
      // The rule table at work: the fact bank out-learns naive on the same game and seed.
      const wAuc = (id: string) => results.sessions.find((s: { policyId: string }) => s.policyId === id).wAuc;
      expect(wAuc('fact-bank')).toBeGreaterThan(wAuc('naive'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

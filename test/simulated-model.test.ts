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
import { buildProposerMessages, parseProposal } from '../src/evolve/strategies/llm-proposer.ts';
import { buildOproMessages } from '../src/evolve/strategies/opro-proposer.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createSimulatedChatModels, simulatedReply, SIMULATED_MODEL } from '../src/llm/simulated-model.ts';
import { actorReply, decideGuide, dropUseless, exploreCommands, guidePlan, parseEpisodeLogs, propose, strategyInstructions, type LogEpisode } from '../src/llm/simulated-rules.ts';
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

  it('an evolution from naive accepts a child within a small budget', async () => {
    const { entry, bytes } = story('lever-room');
    const task = { id: 'lever-room:1', storyId: entry.id, title: entry.title, md5: entry.md5, seed: 1, maxScore: entry.maxScore! };
    const s = simulatedSettings();
    const models = createSimulatedChatModels(s, new UsageMeter(s.caps, s.prices));
    const pool = new EnginePool(async () => ({ ...syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) })), dispose: () => undefined }));
    const cfg = {
      train: [task], val: [task], repeats: 1, episodes: 4, maxSteps: 15, initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, seedStrategy: '', minibatchSize: 1,
      budgetMetricCalls: 6, maxConsecutiveFailures: 3, proposer: 'llm' as const, rngSeed: 1, concurrency: 1,
      models: { actor: SIMULATED_MODEL, metaAgent: SIMULATED_MODEL, proposer: SIMULATED_MODEL }, contextWindow: 32_000,
    };
    const options = { settings: s, models, countTokens: approximateTokens, pool, episodes: cfg.episodes, maxSteps: cfg.maxSteps, initialGuidingPrompt: cfg.initialGuidingPrompt, contextWindow: cfg.contextWindow };
    const state: EvolutionState = await runEvolution('evo', cfg, {
      proposer: models.proposer, cache: new MemoryCache(),
      evaluate: (strategy, t, _repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, t, sessionId, signal),
    });
    const accepted = state.candidates.filter((c) => c.status === 'accepted');
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(strategyInstructions(accepted[0]!.strategy).length).toBeGreaterThan(0);
    expect(mean(Object.values(accepted[0]!.valScores))).toBeGreaterThan(mean(Object.values(state.candidates[0]!.valScores)));
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
      expect(readFileSync(join(out, 'report.md'), 'utf8').split('\n')[2]).toBe(`> **Model: simulated (${notice}).**`);
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

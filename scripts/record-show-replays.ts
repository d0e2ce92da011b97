/**
 * Records the evolution and the evaluation shipped in public/replays/ (Replay lists them beside
 * the Learn recording, scripts/record-replays.sh): the real CLI (`metattl evolve`, then `metattl
 * eval` of static and naive against the evolved best) against the deterministic mock provider
 * (test/mock-llm) *scripted* so that an evolution has something to show: its proposer writes
 * strategy "A" for the seed, "B" for a child of A, and a meta-agent whose meta-prompt carries A
 * or B writes a guide that knows a route (the walkthroughs of games/README.md, seed 1). So A is
 * accepted and tops The Vault, B (A's child) is accepted and tops The Lever Room: two Pareto
 * fronts and a lineage c0 → A → B. None of this is a real model; the shipped labels say so.
 *
 *   npx tsx scripts/record-show-replays.ts            # writes public/replays/{evolution,evaluation}-scripted.json
 *   npx tsx scripts/record-show-replays.ts --tiny DIR # the smallest run, into DIR (the unit test)
 *
 * Re-run after changing the games, the prompts, the loop or the file formats, then update
 * `recordedOn` in src/ui/shared/replay/shipped-replays.ts.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { MockOptions } from '../test/mock-llm/interface.ts';
import { startMockLlm } from '../test/mock-llm/server.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const MODEL = 'scripted-test-model';

/** The routes the scripted meta-agent knows (games/README.md, seed 1). */
const LEVER_ROUTE = ['pull yellow lever', 'pull blue lever', 'pull green lever', 'pull red lever', 'north'];
const VAULT_ROUTE = ['take card', 'east', 'enter 290', 'east', 'take gem'];
const plan = (commands: readonly string[]): string => ['PLAN:', ...commands.map((c, i) => `${i + 1}. ${c}`)].join('\n');

/** Strategy section texts the scripted proposer writes (each names its marker, A or B). */
export const STRATEGY_A = 'Strategy A — keep what the game revealed: when a failure names a code or a command, put it into the PLAN at the point where it is needed, after the moves that lead there.';
export const STRATEGY_B = 'Strategy B — replay the whole winning order: when the order of actions matters, write every step of the order into the PLAN, not only the one the last failure named.';

/** The scripted mock's options (test/mock-llm/interface.ts). */
export const SCRIPTED_MOCK: MockOptions = {
  models: [MODEL],
  exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'],
  proposerRules: [
    { whenParentIncludes: 'Strategy B', strategy: `${STRATEGY_B}\nStrategy C — and nothing else.` },
    { whenParentIncludes: 'Strategy A', strategy: STRATEGY_B },
    { whenParentIncludes: '', strategy: STRATEGY_A },
  ],
  metaAgentRules: [
    { whenSystemIncludes: 'Strategy B', whenLogIncludes: 'Lever Room', guide: `${plan(LEVER_ROUTE)}\nThe whole order, from the hints of every failure.` },
    { whenSystemIncludes: 'Strategy A', whenLogIncludes: 'Lever Room', guide: `${plan(LEVER_ROUTE.slice(0, 3))}\nThen explore the last lever.` },
    { whenSystemIncludes: 'Strategy A', whenLogIncludes: 'key card', guide: `${plan(VAULT_ROUTE)}\nThe code the guard said, where the keypad is.` },
  ],
};

/** Sizes of the recorded runs (K episodes, S steps, budget in metric calls; the evaluation's K and S
 * are smaller to keep its file, which holds every session, under ~300 kB): shipped (what
 * public/replays holds) and tiny (the unit test). */
export const SIZES = {
  shipped: { episodes: 4, steps: 8, budget: 14, evalEpisodes: 3, evalSteps: 6 },
  tiny: { episodes: 2, steps: 6, budget: 10, evalEpisodes: 2, evalSteps: 6 },
} as const;

/** The seed of the games (`--seed` of the tasks) and of the loop (`--rng-seed`). */
export const GAME_SEED = 1;
export const RNG_SEED = 2;

/** The `metattl evolve` arguments after the provider flags. */
export function evolveArgs(size: keyof typeof SIZES, store: string): string[] {
  const s = SIZES[size];
  return ['evolve', '--train', `lever-room:${GAME_SEED}`, '--val', `lever-room:${GAME_SEED},vault:${GAME_SEED}`, '--repeats', '1', '--episodes', String(s.episodes),
    '--steps', String(s.steps), '--budget', String(s.budget), '--rng-seed', String(RNG_SEED), '--guide', 'Explore.', '--id', `scripted-${size}`, '--store', store];
}

/** The `metattl eval` arguments after the provider flags; `evolved` is the best candidate's library-entry file. */
export function evalArgs(size: keyof typeof SIZES, evolved: string, out: string): string[] {
  const s = SIZES[size];
  return ['eval', '--policies', `static,naive,${evolved}`, '--tasks', `lever-room:${GAME_SEED},vault:${GAME_SEED}`, '--repeats', '1', '--episodes', String(s.evalEpisodes),
    '--steps', String(s.evalSteps), '--out', out];
}

const run = promisify(execFile);

async function metattl(args: string[], baseUrl: string): Promise<void> {
  const provider = ['--base-url', baseUrl, '--actor-model', MODEL, '--meta-model', MODEL, ...(args[0] === 'evolve' ? ['--proposer-model', MODEL] : [])];
  await run(process.execPath, [join(ROOT, 'bin/metattl.js'), ...args, ...provider, '--json'], { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: 'unused' }, maxBuffer: 64 << 20 });
}

/** Where a recording went. */
export interface Recorded {
  evolution: string;
  evaluation: string;
}

/**
 * Record both runs into `outDir` as evolution-scripted.json (the run's state, format
 * "metattl-evolution-1") and evaluation-scripted.json (`metattl eval`'s results.json).
 * @throws Error when a CLI command fails
 */
export async function recordShowReplays(outDir: string, size: keyof typeof SIZES): Promise<Recorded> {
  const mock = await startMockLlm(SCRIPTED_MOCK);
  const work = mkdtempSync(join(tmpdir(), 'metattl-show-'));
  try {
    const store = join(work, 'store');
    await metattl(evolveArgs(size, store), mock.baseUrl);
    const header = readdirSync(join(store, 'runs')).find((f) => f.endsWith('.json'))!;
    const state = (JSON.parse(readFileSync(join(store, 'runs', header), 'utf8')) as { data: { best: { byMean: string }; candidates: { id: string; strategy: string }[]; id: string } }).data;
    const evolution = join(outDir, 'evolution-scripted.json');
    writeFileSync(evolution, JSON.stringify(state) + '\n');
    const best = state.candidates.find((c) => c.id === state.best.byMean)!;
    const entry = join(work, `evolved-${best.id}.json`);
    writeFileSync(entry, JSON.stringify({ name: `Evolved ${best.id} (scripted run)`, strategy: best.strategy, selectedOn: ['lever-room', 'vault'] }));
    const out = join(work, 'eval');
    await metattl(evalArgs(size, entry, out), mock.baseUrl);
    const evaluation = join(outDir, 'evaluation-scripted.json');
    copyFileSync(join(out, 'results.json'), evaluation);
    return { evolution, evaluation };
  } finally {
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tiny = process.argv.indexOf('--tiny');
  const dir = tiny >= 0 ? process.argv[tiny + 1]! : join(ROOT, 'public/replays');
  const done = await recordShowReplays(dir, tiny >= 0 ? 'tiny' : 'shipped');
  console.log(`wrote ${done.evolution}\nwrote ${done.evaluation}`);
}

/**
 * Records the evolution and the evaluation shipped in public/replays/ (Replay lists them beside
 * the Learn recordings, scripts/record-replays.sh): the real CLI (`metattl evolve` from the naive
 * seed, then `metattl eval` of static, naive and the evolved best) with `--provider simulated`, the
 * in-process simulated model (src/llm/simulated-model.ts, its rule table in simulated-rules.ts):
 * deterministic, no server, no key. Its proposer adds the instruction the worst run calls for, so
 * children are accepted and the lineage grows; its meta-agent follows the strategy's instructions,
 * so the evaluated meta-prompts score differently. None of this is a language model (the files'
 * models are named `simulated`; the Replay labels say so).
 *
 *   npx tsx scripts/record-show-replays.ts            # writes public/replays/{evolution,evaluation}-scripted.json
 *   npx tsx scripts/record-show-replays.ts --tiny DIR # the smallest run, into DIR (the unit test)
 *
 * The files keep their names (links to `?view=replay&replay=evolution-scripted` stay valid).
 * Re-run after changing the games, the prompts, the loop, the simulated rules or the file formats,
 * then update `recordedOn` in src/ui/shared/replay/shipped-replays.ts.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Sizes of the recorded runs (K episodes, S steps, budget in metric calls; the evaluation's K and S
 * are smaller to keep its file, which holds every session, under ~300 kB): shipped (what
 * public/replays holds) and tiny (the unit test). */
export const SIZES = {
  shipped: { episodes: 4, steps: 10, budget: 14, evalEpisodes: 3, evalSteps: 7 },
  tiny: { episodes: 2, steps: 6, budget: 10, evalEpisodes: 2, evalSteps: 6 },
} as const;

/** The seed of the games (`--seed` of the tasks) and of the loop (`--rng-seed`). */
export const GAME_SEED = 1;
export const RNG_SEED = 2;

/** The `metattl evolve` arguments after the provider flags. */
export function evolveArgs(size: keyof typeof SIZES, store: string): string[] {
  const s = SIZES[size];
  return ['evolve', '--train', `lever-room:${GAME_SEED}`, '--val', `lever-room:${GAME_SEED},vault:${GAME_SEED}`, '--repeats', '1', '--episodes', String(s.episodes),
    '--steps', String(s.steps), '--budget', String(s.budget), '--rng-seed', String(RNG_SEED), '--guide', 'Explore.', '--id', `simulated-${size}`, '--store', store];
}

/** The `metattl eval` arguments after the provider flags; `evolved` is the best candidate's library-entry file. */
export function evalArgs(size: keyof typeof SIZES, evolved: string, out: string): string[] {
  const s = SIZES[size];
  return ['eval', '--policies', `static,naive,${evolved}`, '--tasks', `lever-room:${GAME_SEED},vault:${GAME_SEED}`, '--repeats', '1', '--episodes', String(s.evalEpisodes),
    '--steps', String(s.evalSteps), '--out', out];
}

const run = promisify(execFile);

async function metattl(args: string[]): Promise<void> {
  await run(process.execPath, [join(ROOT, 'bin/metattl.js'), ...args, '--provider', 'simulated', '--json'], { cwd: ROOT, maxBuffer: 64 << 20 });
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
  const work = mkdtempSync(join(tmpdir(), 'metattl-show-'));
  try {
    const store = join(work, 'store');
    await metattl(evolveArgs(size, store));
    const header = readdirSync(join(store, 'runs')).find((f) => f.endsWith('.json'))!;
    const state = (JSON.parse(readFileSync(join(store, 'runs', header), 'utf8')) as { data: { best: { byMean: string }; candidates: { id: string; strategy: string }[]; id: string } }).data;
    const evolution = join(outDir, 'evolution-scripted.json');
    writeFileSync(evolution, JSON.stringify(state) + '\n');
    const best = state.candidates.find((c) => c.id === state.best.byMean)!;
    const entry = join(work, `evolved-${best.id}.json`);
    writeFileSync(entry, JSON.stringify({ name: `Evolved ${best.id} (simulated run)`, strategy: best.strategy, selectedOn: ['lever-room', 'vault'] }));
    const out = join(work, 'eval');
    await metattl(evalArgs(size, entry, out));
    const evaluation = join(outDir, 'evaluation-scripted.json');
    copyFileSync(join(out, 'results.json'), evaluation);
    return { evolution, evaluation };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tiny = process.argv.indexOf('--tiny');
  const dir = tiny >= 0 ? process.argv[tiny + 1]! : join(ROOT, 'public/replays');
  const done = await recordShowReplays(dir, tiny >= 0 ? 'tiny' : 'shipped');
  console.log(`wrote ${done.evolution}\nwrote ${done.evaluation}`);
}

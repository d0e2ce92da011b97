/**
 * `metattl experiment run` and the commands it stands for share one path: an experiment's
 * evolution step and `metattl evolve` given the same settings store the same config and end in
 * the same state, and its evaluation step and `metattl eval` given the same policies write the
 * same results (config, every session's W-AUC, the report's numbers). Keyless: the simulated
 * model, on the Lever Room and The Vault.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { runCli } from './support/cli.ts';

const provider = ['--provider', 'simulated'];
const dir = () => mkdtempSync(join(tmpdir(), 'exp-parity-'));

async function stateOf(storeDir: string, id: string): Promise<EvolutionState> {
  const store = await openNodeStore(storeDir);
  try {
    return (await loadEvolutionState(store, id))!;
  } finally {
    store.close();
  }
}

/** What an evolution's end means, without its clocks and code version. */
const evolutionMeaning = (s: EvolutionState) => ({
  config: s.config, status: s.status, stopReason: s.stopReason, metricCallsUsed: s.metricCallsUsed, sessionsPlayed: s.sessionsPlayed, best: s.best, fronts: s.fronts,
  candidates: s.candidates.map((c) => ({ id: c.id, parentId: c.parentId, status: c.status, strategy: c.strategy, valScores: c.valScores })),
  calls: s.metricCalls.map((c) => [c.key, c.wAuc]).sort(),
});

interface Results { config: unknown; completedSessions: number; report: { rows?: unknown; comparisons: unknown }; sessions: { key: string; wAuc: number }[] }
const evaluationMeaning = (r: Results) => ({ config: r.config, completed: r.completedSessions, comparisons: r.report.comparisons, sessions: r.sessions.map((s) => [s.key, s.wAuc]).sort() });

describe('an experiment step is the command it stands for', () => {
  it('the evolution step equals metattl evolve, the evaluation step metattl eval, with the same settings', async () => {
    const root = dir();
    const file = join(root, 'parity.json');
    writeFileSync(file, JSON.stringify({
      name: 'parity', episodes: 3, steps: 10, repeats: 1, taskSets: { T: ['lever-room', 'vault'] },
      evolutions: [{ id: 'meta', train: 'T', val: 'T', budget: 8, minibatch: 1, trainRepeats: 1, valRepeats: 1, proposer: 'llm', rngSeed: 3 }],
      arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'meta' }], baseline: 'naive', evaluateOn: ['T'],
    }));
    const experiment = join(root, 'store');
    const run = await runCli(['experiment', 'run', file, ...provider, '--store', experiment, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const steps = join(experiment, 'experiments', 'parity');

    const stepped = await stateOf(join(steps, 'evolve-meta', 'store'), 'evolve-meta');
    expect(stepped.candidates.length).toBeGreaterThan(1);
    const ids = (tasks: { id: string }[]) => tasks.map((t) => t.id).join(',');
    const evolveStore = join(root, 'evolve');
    const evolve = await runCli(['evolve', ...provider, '--train', ids(stepped.config.train), '--val', ids(stepped.config.val), '--episodes', '3', '--steps', '10', '--budget', '8', '--minibatch', '1',
      '--train-repeats', '1', '--val-repeats', '1', '--rng-seed', '3', '--store', evolveStore, '--id', 'evolve-meta', '--json']);
    expect(evolve.code, evolve.stderr).toBe(0);
    expect(evolutionMeaning(await stateOf(evolveStore, 'evolve-meta'))).toEqual(evolutionMeaning(stepped));

    const stepResults = JSON.parse(readFileSync(join(steps, 'eval-T', 'out', 'results.json'), 'utf8')) as Results & { config: { taskSets: { tasks: { id: string }[] }[] } };
    const out = join(root, 'eval-out');
    const evaluation = await runCli(['eval', ...provider, '--policies', `naive,${join(steps, 'eval-T', 'evolved.json')}`, '--tasks', stepResults.config.taskSets.flatMap((s) => s.tasks.map((t) => t.id)).join(','),
      '--repeats', '1', '--episodes', '3', '--steps', '10', '--baseline', 'naive', '--store', join(root, 'eval'), '--id', 'eval-T', '--out', out, '--json']);
    expect(evaluation.code, evaluation.stderr).toBe(0);
    const direct = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(direct.completedSessions).toBe(4);
    expect(evaluationMeaning(direct)).toEqual(evaluationMeaning(stepResults));
  }, 240_000);
});

/**
 * Run defaults are defined once per run kind in the core (ttl/run-defaults.ts for sessions,
 * eval/run-defaults.ts for evaluations, evolve/run-defaults.ts for evolutions) and everything else
 * reads them: the CLI's help pages print them (`default: …`), its parsers fill them in, the page's
 * forms start from them, and the strategy defaults are names the strategies know.
 */
import { describe, expect, it } from 'vitest';
import { EVAL, EVOLVE, PLAY, SESSION } from '../src/cli/commands.ts';
import { commandHelp, type CommandSpec } from '../src/cli/option-defs.ts';
import { EVALUATION_DEFAULTS } from '../src/eval/run-defaults.ts';
import { DEFAULT_POWER_DELTA } from '../src/eval/comparisons.ts';
import { EVOLUTION_DEFAULTS } from '../src/evolve/run-defaults.ts';
import { ACCEPTANCES } from '../src/evolve/rules/acceptance.ts';
import { CANDIDATE_SELECTIONS, DEFAULT_EPSILON, DEFAULT_TOP_K } from '../src/evolve/rules/candidate-selection.ts';
import { DEFAULT_MAX_MERGES } from '../src/evolve/rules/merge.ts';
import { OPTIMIZERS } from '../src/evolve/rules/opro-proposer.ts';
import { SESSION_DEFAULTS, sessionDefaults, WEB_SESSION_DEFAULTS } from '../src/ttl/run-defaults.ts';
import { WEB_DEFAULT_EPISODES, WEB_DEFAULT_MAX_STEPS } from '../src/web/tasks/catalog.ts';
import { EVOLVE_DEFAULTS, EVOLVE_FORM_FIELDS } from '../src/ui/evolve/evolve-form.svelte.ts';
import { OUTER_LOOP_FIELDS } from '../src/ui/evolve/outer-loop-form.svelte.ts';
import { EVALUATE_DEFAULTS, EVALUATE_FORM_FIELDS } from '../src/ui/evaluate/evaluate-form.svelte.ts';
import { DEFAULT_EPISODES, DEFAULT_MAX_STEPS, defaultLearnForm } from '../src/ui/shared/format/learn-form.ts';
import { WEB_DEFAULTS } from '../src/ui/shared/format/web-task-list.ts';

/** The help entry of `--name` on `spec`'s page: its label line and the indented lines under it,
 * wrapping flattened. */
const entry = (spec: CommandSpec, name: string): string => {
  const lines = commandHelp(spec).split('\n');
  const at = lines.findIndex((l) => l === `  --${name}` || l.startsWith(`  --${name} `));
  expect(at, `--${name} on the ${spec.name} page`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > at && !l.startsWith('      '));
  return lines.slice(at, end < 0 ? undefined : end).join(' ').replace(/\s+/g, ' ');
};

describe('the CLI help prints the core\'s run defaults', () => {
  it('K and S on every command that runs sessions', () => {
    for (const spec of [SESSION, EVAL, EVOLVE]) {
      expect(entry(spec, 'episodes')).toContain(`default: ${SESSION_DEFAULTS.episodes}; web tasks ${WEB_SESSION_DEFAULTS.episodes}`);
      expect(entry(spec, 'steps')).toContain(`default: ${SESSION_DEFAULTS.maxSteps}; web tasks ${WEB_SESSION_DEFAULTS.maxSteps}`);
    }
    expect(entry(PLAY, 'steps')).toContain(`default: ${SESSION_DEFAULTS.maxSteps}; web tasks ${WEB_SESSION_DEFAULTS.maxSteps}`);
    expect([SESSION_DEFAULTS.episodes, SESSION_DEFAULTS.maxSteps, WEB_SESSION_DEFAULTS.episodes, WEB_SESSION_DEFAULTS.maxSteps]).toEqual([6, 50, 3, 10]);
  });

  it('evolve: repeats, budget, minibatch, RNG seed, max failures and the strategies', () => {
    const expected: [string, string | number][] = [
      ['repeats', EVOLUTION_DEFAULTS.repeats], ['budget', EVOLUTION_DEFAULTS.budgetMetricCalls], ['minibatch', EVOLUTION_DEFAULTS.minibatchSize],
      ['rng-seed', EVOLUTION_DEFAULTS.rngSeed], ['max-failures', EVOLUTION_DEFAULTS.maxConsecutiveFailures], ['top-k', EVOLUTION_DEFAULTS.topK],
      ['max-merges', EVOLUTION_DEFAULTS.maxMerges], ['proposer', EVOLUTION_DEFAULTS.proposer], ['proposer-instruction', EVOLUTION_DEFAULTS.proposerInstruction],
      ['optimizer', EVOLUTION_DEFAULTS.optimizer], ['proposer-input', EVOLUTION_DEFAULTS.proposerInput], ['selection', EVOLUTION_DEFAULTS.candidateSelection],
      ['accept', EVOLUTION_DEFAULTS.acceptance],
    ];
    for (const [name, value] of expected) expect(entry(EVOLVE, name)).toContain(`default: ${value}`);
    expect(EVOLUTION_DEFAULTS).toMatchObject({ repeats: 1, budgetMetricCalls: 50, minibatchSize: 1, rngSeed: 0, maxConsecutiveFailures: 5 });
  });

  it('eval: repeats, bootstrap seed, power delta, policies and baseline', () => {
    expect(entry(EVAL, 'repeats')).toContain(`default: ${EVALUATION_DEFAULTS.repeats}`);
    expect(entry(EVAL, 'bootstrap-seed')).toContain(`default: ${EVALUATION_DEFAULTS.bootstrapSeed}`);
    expect(entry(EVAL, 'power-delta')).toContain(`default: ${EVALUATION_DEFAULTS.powerDelta}`);
    expect(entry(EVAL, 'policies')).toContain(`default: ${EVALUATION_DEFAULTS.policies.join(',')}`);
    expect(entry(EVAL, 'baseline')).toContain(`default: ${EVALUATION_DEFAULTS.baseline} if compared`);
    expect(EVALUATION_DEFAULTS).toMatchObject({ repeats: 3, bootstrapSeed: 0, powerDelta: 0.05 });
  });
});

describe('the rest of the code reads the same constants', () => {
  it('the strategy defaults are names the strategies know, and their modules re-export the numbers', () => {
    expect(CANDIDATE_SELECTIONS).toContain(EVOLUTION_DEFAULTS.candidateSelection);
    expect(ACCEPTANCES).toContain(EVOLUTION_DEFAULTS.acceptance);
    expect(OPTIMIZERS).toContain(EVOLUTION_DEFAULTS.optimizer);
    expect([DEFAULT_MAX_MERGES, DEFAULT_TOP_K, DEFAULT_EPSILON, DEFAULT_POWER_DELTA]).toEqual([EVOLUTION_DEFAULTS.maxMerges, EVOLUTION_DEFAULTS.topK, EVOLUTION_DEFAULTS.epsilon, EVALUATION_DEFAULTS.powerDelta]);
    expect([WEB_DEFAULT_EPISODES, WEB_DEFAULT_MAX_STEPS]).toEqual([WEB_SESSION_DEFAULTS.episodes, WEB_SESSION_DEFAULTS.maxSteps]);
    expect(sessionDefaults(true)).toEqual(WEB_SESSION_DEFAULTS);
    expect(sessionDefaults(false)).toEqual(SESSION_DEFAULTS);
  });

  it('the page\'s forms start from them', () => {
    expect(EVOLVE_DEFAULTS).toEqual({
      trainRepeats: EVOLUTION_DEFAULTS.trainRepeats, valRepeats: EVOLUTION_DEFAULTS.valRepeats, episodes: SESSION_DEFAULTS.episodes, maxSteps: SESSION_DEFAULTS.maxSteps,
      minibatchSize: EVOLUTION_DEFAULTS.minibatchSize, budgetMetricCalls: EVOLUTION_DEFAULTS.budgetMetricCalls, rngSeed: EVOLUTION_DEFAULTS.rngSeed, maxConsecutiveFailures: EVOLUTION_DEFAULTS.maxConsecutiveFailures,
    });
    expect(EVOLVE_FORM_FIELDS).toMatchObject({ proposer: EVOLUTION_DEFAULTS.proposer, proposerInstruction: EVOLUTION_DEFAULTS.proposerInstruction, optimizer: EVOLUTION_DEFAULTS.optimizer, seedStrategy: EVOLUTION_DEFAULTS.seedStrategy });
    expect(OUTER_LOOP_FIELDS).toMatchObject({ selection: EVOLUTION_DEFAULTS.candidateSelection, acceptance: EVOLUTION_DEFAULTS.acceptance, maxMerges: EVOLUTION_DEFAULTS.maxMerges });
    expect(EVALUATE_DEFAULTS).toEqual({ repeats: EVALUATION_DEFAULTS.repeats, episodes: SESSION_DEFAULTS.episodes, maxSteps: SESSION_DEFAULTS.maxSteps });
    expect(EVALUATE_FORM_FIELDS).toMatchObject({ chosen: [...EVALUATION_DEFAULTS.policies], baseline: EVALUATION_DEFAULTS.baseline });
    expect([DEFAULT_EPISODES, DEFAULT_MAX_STEPS]).toEqual([SESSION_DEFAULTS.episodes, SESSION_DEFAULTS.maxSteps]);
    expect(defaultLearnForm()).toMatchObject({ episodes: SESSION_DEFAULTS.episodes, maxSteps: SESSION_DEFAULTS.maxSteps });
    expect(WEB_DEFAULTS).toEqual(WEB_SESSION_DEFAULTS);
  });
});

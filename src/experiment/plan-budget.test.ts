/** An experiment plan's budget check (the one `experiment run`, `experiment register` and the page's
 * Start and Register share): the first evolution step whose budget cannot pay for the seed's
 * validation plus one full iteration, in budgetRefusal's words. */
import { describe, expect, it } from 'vitest';
import { BUILTIN_EXPERIMENTS, applyOverrides } from './builtins.ts';
import { budgetRefusal, planBudget } from '../evolve/rules/budget.ts';
import { planBudgetProblem, planExperiment } from './plan.ts';

describe('planBudgetProblem', () => {
  const base = BUILTIN_EXPERIMENTS['random-control']!;

  it('names the first evolution step whose budget is too small, with budgetRefusal\'s sentence and minimum', () => {
    const plan = planExperiment(applyOverrides(base, { budget: 2 }));
    const first = plan.steps.find((s) => s.kind === 'evolution')!;
    if (first.kind !== 'evolution') throw new Error('no evolution step');
    const e = first.evolution;
    const budget = planBudget({ budgetMetricCalls: 2, minibatchSize: e.minibatch, trainTasks: first.train.length, valTasks: first.val.length, trainRepeats: e.trainRepeats, valRepeats: e.valRepeats });
    expect(budget.minimumBudget).toBeGreaterThan(2);
    expect(planBudgetProblem(plan)).toBe(`${first.id}: ${budgetRefusal(budget, 2)!}`);
    expect(planBudgetProblem(plan)).toContain(`at least ${budget.minimumBudget} are needed`);
  });

  it('is null when every step can pay for one iteration (exactly the minimum), and for a plan with no evolution', () => {
    const probe = planExperiment(applyOverrides(base, { budget: 2 }));
    const step = probe.steps.find((s) => s.kind === 'evolution')!;
    if (step.kind !== 'evolution') throw new Error('no evolution step');
    const e = step.evolution;
    const minimum = planBudget({ budgetMetricCalls: 2, minibatchSize: e.minibatch, trainTasks: step.train.length, valTasks: step.val.length, trainRepeats: e.trainRepeats, valRepeats: e.valRepeats }).minimumBudget;
    expect(planBudgetProblem(planExperiment(applyOverrides(base, { budget: minimum })))).toBeNull();
    expect(planBudgetProblem(planExperiment(applyOverrides(base, { budget: minimum - 1 })))).toContain(`at least ${minimum} are needed`);
    expect(planBudgetProblem(planExperiment({ ...base, evolutions: [], arms: base.arms.filter((a) => 'policy' in a) }))).toBeNull();
  });
});

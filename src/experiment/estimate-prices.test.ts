/**
 * The models and prices an experiment's cost range is at: each model once with every role it
 * plays over all model sets, its price as the estimate used it (null without one), and the text
 * the CLI's `experiment plan` and the page's plan print.
 */
import { describe, expect, it } from 'vitest';
import { pricesOfPlan, pricesText } from './estimate.ts';
import type { EstimateModels } from '../ttl/cost-estimate.ts';

const role = (model: string) => ({ model, maxTokens: 400 });
const prices: EstimateModels['prices'] = {
  'gpt-4o-mini': { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6, cachedInputPerMTokUsd: 0.075 },
  'gpt-5': { inputPerMTokUsd: 1.25, outputPerMTokUsd: 10, cachedInputPerMTokUsd: 0.125 },
};

describe('the prices a plan is at', () => {
  it('one model in every role: one clause naming all three roles', () => {
    const models: EstimateModels = { roles: { actor: role('gpt-4o-mini'), metaAgent: role('gpt-4o-mini'), proposer: role('gpt-4o-mini') }, prices };
    const used = pricesOfPlan({ models: [] }, () => models);
    expect(used).toEqual([{ model: 'gpt-4o-mini', roles: ['actor', 'meta-agent', 'proposer'], price: prices['gpt-4o-mini'] }]);
    expect(pricesText(used)).toBe('gpt-4o-mini $0.15/$0.60 per M tokens in/out (cached in $0.075) (actor, meta-agent, proposer)');
  });

  it('two model sets: each model once with the roles it plays in any set; an unpriced model says so', () => {
    const sets: EstimateModels[] = [
      { roles: { actor: role('gpt-4o-mini'), metaAgent: role('gpt-5'), proposer: role('gpt-4o-mini') }, prices },
      { roles: { actor: role('my-finetune'), metaAgent: role('gpt-5'), proposer: role('gpt-5') }, prices },
    ];
    const used = pricesOfPlan({ models: [{}, {}] as never }, (i) => sets[i]!);
    expect(used.map((p) => [p.model, p.roles, p.price?.outputPerMTokUsd ?? null])).toEqual([
      ['gpt-4o-mini', ['actor', 'proposer'], 0.6], ['gpt-5', ['meta-agent', 'proposer'], 10], ['my-finetune', ['actor'], null],
    ]);
    expect(pricesText(used)).toBe('gpt-4o-mini $0.15/$0.60 per M tokens in/out (cached in $0.075) (actor, proposer); gpt-5 $1.25/$10.00 per M tokens in/out (cached in $0.125) (meta-agent, proposer); my-finetune no price (actor)');
    // The simulated model costs nothing: "free", not "no price".
    expect(pricesText([{ model: 'simulated', roles: ['actor', 'meta-agent'], price: null } as unknown as (typeof used)[number]])).toBe('simulated free (actor, meta-agent)');
  });
});

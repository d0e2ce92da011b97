/** The evaluation estimate: sessions = policies × tasks × repeats, per-policy costs add up. */
import { describe, expect, it } from 'vitest';
import { estimateEvaluation } from './cost-estimate.ts';

const chars = (text: string): number => text.length;
const models = { roles: { actor: { model: 'm', maxTokens: 50 }, metaAgent: { model: 'm', maxTokens: 200 }, proposer: { model: 'm', maxTokens: 10 } }, prices: { m: { inputPerMTokUsd: 1, outputPerMTokUsd: 2 } } };

describe('evaluation estimate', () => {
  it('counts every session and adds the policies up; static makes no reflection calls', () => {
    const e = estimateEvaluation({
      shape: { episodes: 3, maxSteps: 4, initialGuidingPrompt: 'Explore.', contextWindow: 100_000 },
      policies: [{ kind: 'static' }, { kind: 'meta', name: 'naive', strategy: '' }], tasks: 2, repeats: 3,
    }, models, chars);
    expect(e.sessions).toBe(12);
    expect(e.low.byRole.actor.calls).toBe(12 * 3 * 4);
    expect(e.low.byRole.metaAgent.calls).toBe(6 * 2);
    expect(e.perPolicy[0]!.low.byRole.metaAgent.calls).toBe(0);
    expect(e.perPolicy[0]!.low.costUsd + e.perPolicy[1]!.low.costUsd).toBeCloseTo(e.low.costUsd, 12);
    expect(e.high.costUsd).toBeGreaterThan(e.low.costUsd);
    // high: every actor reply at its max of 50 tokens, 144 calls.
    expect(e.high.byRole.actor.completionTokens).toBe(144 * 50);
    expect(e.warnings).toEqual([]);
  });
});

/** Static baseline: the actor keeps its initial guiding prompt; no LLM call between episodes. */
import type { AdaptationPolicy, PolicyUpdate } from '../policy.ts';

export class StaticPolicy implements AdaptationPolicy {
  readonly kind = 'static' as const;

  async update(_episodeIndex: number, _trajectory: unknown, current: string): Promise<PolicyUpdate> {
    return { guidingPrompt: current, exchanges: [] };
  }

  restore(): void {}
}

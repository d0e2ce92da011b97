/**
 * Usage accounting for one run: tokens, latency and USD per call and per role, and the run's hard
 * caps. Calls whose provider sent no believable usage are counted with local estimates (and counted as
 * such), so the caps hold anyway. Cost = (promptTokens − cached)·input price + cached·cached-input
 * price + completionTokens·output price, prices in USD per million tokens from the editable price
 * table (cached input: the input price when a row has none). DOM-free.
 */
import { BudgetReachedError } from './errors.ts';
import type { CallUsage, LlmSettings, Role } from './interface.ts';

export interface RoleTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Prompt tokens the provider served from its cache (part of promptTokens); absent in totals
   * recorded before it was read (count 0). */
  cachedPromptTokens?: number;
  latencyMs: number;
  costUsd: number;
}

const zero = (): RoleTotals => ({ calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cachedPromptTokens: 0, latencyMs: 0, costUsd: 0 });

export class UsageMeter {
  readonly byRole: Record<Role, RoleTotals> = { actor: zero(), metaAgent: zero(), proposer: zero() };
  private readonly listeners = new Set<(meter: UsageMeter) => void>();

  constructor(
    private readonly caps: LlmSettings['caps'],
    private readonly prices: LlmSettings['prices'],
  ) {}

  /** Cost in USD of a call to `model`; 0 for a model missing from the price table.
   * `cachedPromptTokens` (part of `promptTokens`, capped at it) costs the cached-input price. */
  costUsd(model: string, promptTokens: number, completionTokens: number, cachedPromptTokens = 0): number {
    const price = this.prices[model];
    if (!price) return 0;
    const cached = Math.max(0, Math.min(cachedPromptTokens, promptTokens));
    const cachedPrice = price.cachedInputPerMTokUsd ?? price.inputPerMTokUsd;
    return ((promptTokens - cached) * price.inputPerMTokUsd + cached * cachedPrice + completionTokens * price.outputPerMTokUsd) / 1e6;
  }

  /** Prompt tokens served from the provider's cache, over all roles (part of the prompt tokens). */
  get cachedPromptTokens(): number {
    return Object.values(this.byRole).reduce((s, r) => s + (r.cachedPromptTokens ?? 0), 0);
  }

  get totalUsd(): number {
    return Object.values(this.byRole).reduce((s, r) => s + r.costUsd, 0);
  }

  /** Calls of this process whose provider sent no (believable) usage, so their tokens were counted locally
   * (cl100k_base) and their figures — and the totals — are estimates. */
  readonly estimatedByRole: Record<Role, number> = { actor: 0, metaAgent: 0, proposer: 0 };

  /** All calls with estimated usage (see `estimatedByRole`). */
  get estimatedCalls(): number {
    return Object.values(this.estimatedByRole).reduce((s, n) => s + n, 0);
  }

  get totalTokens(): number {
    return Object.values(this.byRole).reduce((s, r) => s + r.promptTokens + r.completionTokens, 0);
  }

  /** @throws BudgetReachedError when a cap is already reached (checked before every call). */
  assertWithinCaps(): void {
    const { maxUsd, maxTokens } = this.caps;
    if (maxUsd !== null && this.totalUsd >= maxUsd) {
      throw new BudgetReachedError(`Budget reached: $${this.totalUsd.toFixed(4)} spent of the $${maxUsd} cap.`);
    }
    if (maxTokens !== null && this.totalTokens >= maxTokens) {
      throw new BudgetReachedError(`Budget reached: ${this.totalTokens} tokens used of the ${maxTokens}-token cap.`, 'tokens');
    }
  }

  /** Add usage recorded earlier (a resumed run counts what it already spent against its caps). */
  addPrevious(previous: Record<Role, RoleTotals>): void {
    for (const role of Object.keys(this.byRole) as Role[]) {
      const t = this.byRole[role];
      const p = previous[role];
      t.calls += p.calls;
      t.promptTokens += p.promptTokens;
      t.completionTokens += p.completionTokens;
      t.reasoningTokens += p.reasoningTokens;
      t.cachedPromptTokens = (t.cachedPromptTokens ?? 0) + (p.cachedPromptTokens ?? 0);
      t.latencyMs += p.latencyMs;
      t.costUsd += p.costUsd;
    }
  }

  record(role: Role, usage: CallUsage): void {
    const t = this.byRole[role];
    t.calls += 1;
    t.promptTokens += usage.promptTokens;
    t.completionTokens += usage.completionTokens;
    t.reasoningTokens += usage.reasoningTokens;
    t.cachedPromptTokens = (t.cachedPromptTokens ?? 0) + (usage.cachedPromptTokens ?? 0);
    t.latencyMs += usage.latencyMs;
    t.costUsd += usage.costUsd;
    if (usage.estimated) this.estimatedByRole[role] += 1;
    for (const l of this.listeners) l(this);
  }

  /** Observe every recorded call (for running-cost displays). Returns an unsubscribe function. */
  subscribe(listener: (meter: UsageMeter) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Deterministic fault injection for the mock LLM: which rule (if any) hits a request is decided by
 * a hash of (canonical body, attempt, rule index), where the attempt is the client's
 * `x-stainless-retry-count` header (the product sends its own retry number there) or else a
 * per-body arrival counter — so a retry of the same
 * content can succeed, and identical runs see identical faults.
 */
import { unitFromText } from './hash.ts';
import type { FaultRule, MockRole } from './interface.ts';

/** What a fault decision needs to know about a request. */
export interface FaultContext {
  role: MockRole;
  /** SHA-256 of the canonical body. */
  bodyHash: string;
  attempt: number;
  body: Record<string, unknown>;
  stream: boolean;
}

/** Counts identical bodies so requests without a retry-count header still get an attempt number. */
export class AttemptCounter {
  private readonly seen = new Map<string, number>();

  /**
   * The 0-based attempt of this arrival: the header value when it is a non-negative integer, else
   * how many requests with the same body hash arrived before. Every arrival is counted.
   */
  next(bodyHash: string, retryCountHeader: string | undefined): number {
    const before = this.seen.get(bodyHash) ?? 0;
    this.seen.set(bodyHash, before + 1);
    const header = retryCountHeader === undefined ? NaN : Number(retryCountHeader);
    return Number.isInteger(header) && header >= 0 ? header : before;
  }
}

/** Whether `rule` applies to requests of this shape at all (before the rate is drawn). */
function inScope(rule: FaultRule, ctx: FaultContext): boolean {
  if (rule.role !== undefined && rule.role !== ctx.role) return false;
  if (rule.attempts !== undefined && ctx.attempt >= rule.attempts) return false;
  if (rule.kind === 'stream_error' && !ctx.stream) return false;
  if (rule.kind === 'bad_role') return refusedRoleIndex(rule.roles, ctx.body) >= 0;
  if (rule.kind === 'length_empty' && rule.exceptEffort !== undefined && ctx.body.reasoning_effort === rule.exceptEffort) return false;
  if (rule.kind === 'length_empty' && rule.belowBudget !== undefined) {
    const budget = ctx.body.max_completion_tokens ?? ctx.body.max_tokens;
    return typeof budget === 'number' && budget < rule.belowBudget;
  }
  if (rule.kind === 'bad_param' || (rule.kind === 'provider_error' && rule.param)) return Object.hasOwn(ctx.body, rule.param!) && ctx.body[rule.param!] !== undefined;
  return true;
}

/** The first rule that hits the request, or null. `bad_param` (and `provider_error` with a `param`) ignores the rate. */
export function pickFault(rules: readonly FaultRule[], ctx: FaultContext): FaultRule | null {
  for (const [i, rule] of rules.entries()) {
    if (!inScope(rule, ctx)) continue;
    if (rule.kind === 'bad_param' || rule.kind === 'bad_role' || (rule.kind === 'provider_error' && rule.param)) return rule;
    const rate = rule.rate ?? 1;
    if (unitFromText(`${ctx.bodyHash}|attempt ${ctx.attempt}|rule ${i}`) < rate) return rule;
  }
  return null;
}

/** True when an `auth` rule without a role and with rate 1 (the default) exists: it also refuses
 * GET /v1/models. No other fault applies to that endpoint. */
export function modelsAuthFault(rules: readonly FaultRule[]): boolean {
  return rules.some((r) => r.kind === 'auth' && r.role === undefined && (r.rate ?? 1) >= 1);
}

/** The index of the first message whose role is in `roles`, or -1. */
export function refusedRoleIndex(roles: readonly string[], body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown }[]) : [];
  return messages.findIndex((m) => typeof m.role === 'string' && roles.includes(m.role));
}

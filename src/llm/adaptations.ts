/**
 * Request parameters a (base URL, model) rejects, adapted and remembered. The product sends
 * optional parameters — `temperature`, `max_tokens`, `stream_options` — that some models refuse
 * (reasoning models reject `temperature` and want `max_completion_tokens` instead of
 * `max_tokens`, some want the `developer` role instead of `system`; some local servers reject
 * `stream_options`). A model that spends its whole completion budget on reasoning gets it raised
 * once (`raiseBudget`), then a low reasoning effort (`lowerEffort`). A 400/422 that names one of them as
 * unsupported is answered by adapting the request and sending it again at once (not a retry),
 * until no fixable parameter is left; what worked is remembered, so later calls to the same
 * (base URL, model) are right the first time. DOM-free.
 */
import type { ParameterAdaptation } from './interface.ts';

/** One change to a request body. `raised`: the completion budget (`max_tokens` or
 * `max_completion_tokens`, whichever is sent) is at least `to` tokens. A `role:<name>` parameter
 * renamed to `to` changes the role of those messages (e.g. `system` → `developer`). */
interface Rule {
  parameter: string;
  change: 'dropped' | 'renamed' | 'raised' | 'set';
  to: string | null;
}

/** The reasoning effort asked of a model that spent its whole raised budget on reasoning (OpenAI,
 * Gemini's and OpenRouter's compatible endpoints take `reasoning_effort`; a server that refuses it
 * has it dropped like any refused parameter). */
export const LOW_REASONING_EFFORT = 'low';

/** The parameters a completion budget is sent in. */
const BUDGET_PARAMETERS = ['max_tokens', 'max_completion_tokens'] as const;

/** The completion budget a body asks for (`max_completion_tokens` or `max_tokens`), or null. */
export function budgetOf(body: RequestBody): { parameter: string; tokens: number } | null {
  for (const parameter of [...BUDGET_PARAMETERS].reverse()) {
    const tokens = body[parameter];
    if (typeof tokens === 'number') return { parameter, tokens };
  }
  return null;
}

/** Message roles a model may refuse, in the order they are tried for a system prompt: OpenAI's
 * o-series want `developer` instead of `system`; a model that takes neither gets it as `user`. */
const ROLE_FALLBACK: Record<string, string> = { system: 'developer', developer: 'user' };

/** Request bodies as the wrapper builds them (the SDK's params plus room for renamed fields). */
export type RequestBody = Record<string, unknown> & { model: string };

/** Optional parameters we may adapt; `model`, `messages` and `stream` are never touched. */
const ADAPTABLE = ['temperature', 'max_tokens', 'max_completion_tokens', 'stream_options', 'top_p', 'reasoning_effort'] as const;

/** Words of a provider's error that say a parameter (or its value) is not accepted. */
const REJECTS = /unsupported|not supported|does not support|only the default|not permitted|not allowed|unrecognized|unrecognised|unknown (?:parameter|field|argument|name)|extra (?:inputs?|fields?)|invalid (?:parameter|field|argument)|is not valid|no longer supported|deprecated/i;

/** The rule that fixes `parameter`: max_tokens becomes max_completion_tokens, a refused message
 * role the next one of ROLE_FALLBACK, anything else is dropped. */
function ruleFor(parameter: string): Rule {
  if (parameter.startsWith('role:')) return { parameter, change: 'renamed', to: ROLE_FALLBACK[parameter.slice(5)] ?? 'user' };
  return parameter === 'max_tokens' ? { parameter, change: 'renamed', to: 'max_completion_tokens' } : { parameter, change: 'dropped', to: null };
}

/** Apply `rules` (in order) to a copy of `body`. */
function apply(body: RequestBody, rules: readonly Rule[]): RequestBody {
  const out: RequestBody = { ...body };
  for (const rule of rules) {
    if (rule.change === 'raised') {
      const budget = budgetOf(out);
      if (budget && budget.tokens < Number(rule.to)) out[budget.parameter] = Number(rule.to);
      continue;
    }
    if (rule.change === 'set') {
      out[rule.parameter] = rule.to;
      continue;
    }
    if (rule.parameter.startsWith('role:')) {
      const from = rule.parameter.slice(5);
      if (Array.isArray(out.messages)) out.messages = (out.messages as { role: string }[]).map((m) => (m.role === from ? { ...m, role: rule.to } : m));
      continue;
    }
    if (!(rule.parameter in out)) continue;
    const value = out[rule.parameter];
    delete out[rule.parameter];
    if (rule.change === 'renamed' && rule.to) out[rule.to] = value;
  }
  return out;
}

/**
 * The parameter of `body` that a rejection names, or null when the rejection is about something
 * else (then it is a real bad request). `param` is the error's `param` field when the provider
 * sent one; otherwise the message must name the parameter and say it is not accepted.
 */
export function rejectedParameter(body: RequestBody, status: number | null, message: string, param: string | null, code: string | null): string | null {
  if (status !== 400 && status !== 422) return null;
  const role = rejectedRole(body, message, param);
  if (role) return `role:${role}`;
  const present = ADAPTABLE.filter((p) => p in body);
  if (param && (present as readonly string[]).includes(param) && (REJECTS.test(message) || /unsupported/i.test(code ?? ''))) return param;
  if (!REJECTS.test(message) && !/unsupported/i.test(code ?? '')) return null;
  // Name match on word boundaries; the longest first so max_completion_tokens is not read as max_tokens.
  const named = [...present].sort((a, b) => b.length - a.length).find((p) => new RegExp(`(^|[^a-z_])${p}([^a-z_]|$)`, 'i').test(message));
  return named ?? null;
}

/**
 * The message role a rejection refuses (OpenAI: "Unsupported value: 'messages[0].role' does not
 * support 'system' with this model.", param `messages[0].role`), when the body sends messages in
 * that role and ROLE_FALLBACK has another for it; else null.
 */
function rejectedRole(body: RequestBody, message: string, param: string | null): string | null {
  if (!/messages\[\d+\]\.role/.test(`${param ?? ''} ${message}`) && !/\brole\b/i.test(message)) return null;
  const roles = Array.isArray(body.messages) ? new Set((body.messages as { role?: unknown }[]).map((m) => m.role)) : new Set();
  for (const role of Object.keys(ROLE_FALLBACK)) {
    if (!roles.has(role)) continue;
    if (new RegExp(`(?:does not support|not supported|unsupported|invalid|not allowed)[^.]*['"\u2018\u201C]${role}['"\u2019\u201D]|['"\u2018\u201C]${role}['"\u2019\u201D][^.]*(?:not supported|unsupported|is not allowed|invalid)`, 'i').test(message)) return role;
  }
  return null;
}

/** Adaptations learnt per (base URL, model), shared by the calls of a page or process. */
/** What one (base URL, model) was adapted by, and why (in the order learned). */
interface Entry { baseUrl: string; model: string; rules: Rule[]; reasons: string[] }

export class AdaptationMemory {
  private readonly rules = new Map<string, Entry>();
  private readonly listeners = new Set<(all: ParameterAdaptation[]) => void>();

  /** The body with every remembered adaptation of (baseUrl, model) applied. */
  adapt(baseUrl: string, body: RequestBody): RequestBody {
    const entry = this.rules.get(keyOf(baseUrl, body.model));
    return entry ? apply(body, entry.rules) : body;
  }

  /**
   * Learn that (baseUrl, model) rejects `parameter`, and return the adapted body; null when the
   * parameter was already adapted (nothing left to fix).
   */
  learn(baseUrl: string, body: RequestBody, parameter: string, reason: string): { body: RequestBody; adaptation: ParameterAdaptation } | null {
    const { key, entry } = this.entryOf(baseUrl, body.model);
    if (entry.rules.some((r) => r.parameter === parameter && r.change !== 'raised' && r.change !== 'set')) return null;
    const rule = ruleFor(parameter);
    return this.adopt(key, entry, rule, reason, body);
  }

  /**
   * Learn that (baseUrl, model) needs a completion budget of at least `tokens` (it spent the
   * whole budget on reasoning and wrote no answer), and return the adapted body; null when the
   * budget was raised for it before (raising once more is not tried: the caller stops).
   */
  raiseBudget(baseUrl: string, body: RequestBody, tokens: number, reason: string): { body: RequestBody; adaptation: ParameterAdaptation } | null {
    const { key, entry } = this.entryOf(baseUrl, body.model);
    const budget = budgetOf(body);
    if (!budget || entry.rules.some((r) => r.change === 'raised')) return null;
    const rule: Rule = { parameter: budget.parameter, change: 'raised', to: String(tokens) };
    return this.adopt(key, entry, rule, reason, body);
  }

  /**
   * Learn that (baseUrl, model) is to be asked for a low reasoning effort (it spent even a raised
   * budget on reasoning), and return the adapted body; null when that was tried before.
   */
  lowerEffort(baseUrl: string, body: RequestBody, reason: string): { body: RequestBody; adaptation: ParameterAdaptation } | null {
    const { key, entry } = this.entryOf(baseUrl, body.model);
    if (entry.rules.some((r) => r.parameter === 'reasoning_effort')) return null;
    const rule: Rule = { parameter: 'reasoning_effort', change: 'set', to: LOW_REASONING_EFFORT };
    return this.adopt(key, entry, rule, reason, body);
  }

  /** The rules known for (baseUrl, model), a new empty entry when none are. */
  private entryOf(baseUrl: string, model: string): { key: string; entry: Entry } {
    const key = keyOf(baseUrl, model);
    return { key, entry: this.rules.get(key) ?? { baseUrl, model, rules: [], reasons: [] } };
  }

  /** Record `rule` (with its reason, cut to 200 characters) for the entry, tell the listeners,
   * and return `body` with the rule applied and the adaptation to report. */
  private adopt(key: string, entry: Entry, rule: Rule, reason: string, body: RequestBody): { body: RequestBody; adaptation: ParameterAdaptation } {
    entry.rules.push(rule);
    entry.reasons.push(reason.slice(0, 200));
    this.rules.set(key, entry);
    const adaptation = toAdaptation(entry.baseUrl, entry.model, rule, entry.reasons.at(-1)!);
    const all = this.list();
    for (const listener of this.listeners) listener(all);
    return { body: apply(body, [rule]), adaptation };
  }

  /** Take over adaptations recorded earlier (a saved page state, a resumed run's record), so
   * their calls are right the first time. Already known ones are skipped. */
  restore(adaptations: readonly ParameterAdaptation[]): void {
    let changed = false;
    for (const a of adaptations) {
      const key = keyOf(a.baseUrl, a.model);
      const entry = this.rules.get(key) ?? { baseUrl: a.baseUrl, model: a.model, rules: [], reasons: [] };
      if (entry.rules.some((r) => r.parameter === a.parameter && r.change === a.change)) continue;
      entry.rules.push({ parameter: a.parameter, change: a.change, to: a.to });
      entry.reasons.push(a.reason);
      this.rules.set(key, entry);
      changed = true;
    }
    if (changed) {
      const all = this.list();
      for (const listener of this.listeners) listener(all);
    }
  }

  /** Every adaptation learnt so far, in the order learnt per (base URL, model). */
  list(): ParameterAdaptation[] {
    return [...this.rules.values()].flatMap((e) => e.rules.map((r, i) => toAdaptation(e.baseUrl, e.model, r, e.reasons[i] ?? '')));
  }

  /** The adaptations of one base URL and some models (a run's record). */
  listFor(baseUrl: string, models: readonly string[]): ParameterAdaptation[] {
    return this.list().filter((a) => a.baseUrl === baseUrl && models.includes(a.model));
  }

  /** Forget everything (Settings' "forget adaptations"). */
  clear(): void {
    this.rules.clear();
    for (const listener of this.listeners) listener([]);
  }

  /** Observe changes; returns an unsubscribe function. */
  subscribe(listener: (all: ParameterAdaptation[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const keyOf = (baseUrl: string, model: string) => `${baseUrl.replace(/\/+$/, '')}\u0000${model}`;

function toAdaptation(baseUrl: string, model: string, rule: Rule, reason: string): ParameterAdaptation {
  return { baseUrl, model, parameter: rule.parameter, change: rule.change, to: rule.to, reason };
}

/** The page's (or process's) memory, used when a caller passes none. */
export const sharedAdaptations = new AdaptationMemory();

/** A one-line description, e.g. "temperature dropped", "max_tokens sent as max_completion_tokens",
 * "system messages sent as developer messages" or "max_tokens raised to 4096". */
export function describeAdaptation(a: ParameterAdaptation): string {
  if (a.change === 'raised') return `${a.parameter} raised to ${a.to}`;
  if (a.change === 'set') return `${a.parameter} set to ${a.to}`;
  if (a.parameter.startsWith('role:')) return `${a.parameter.slice(5)} messages sent as ${a.to ?? 'user'} messages`;
  return a.change === 'renamed' ? `${a.parameter} sent as ${a.to}` : `${a.parameter} dropped`;
}

/** Why an adaptation was made, for a reader: the provider refused the parameter, or (`raised`)
 * the model spent its whole completion budget on reasoning and wrote no answer. */
export function adaptationCause(a: ParameterAdaptation): string {
  return a.change === 'raised' || a.change === 'set' ? 'the model spent the whole budget on reasoning and wrote no answer' : 'the provider rejected it';
}

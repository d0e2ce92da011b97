/**
 * LLM settings from CLI flags, layered over the defaults (defaults < flags < environment for the
 * key). Shared by every command that calls a model. Prices: the built-in table plus `--price`. The key comes from --api-key or
 * OPENAI_API_KEY and is never printed.
 */
import { adaptationCause, describeAdaptation, sharedAdaptations } from '../llm/adaptations.ts';
import { registerSecret } from '../common/secrets.ts';
import { defaultLlmSettings, pricesAtProvider } from '../llm/defaults.ts';
import { reportedContextWindow } from '../llm/openai-chat-model.ts';
import { resolveContextWindow } from '../llm/token-count.ts';
import type { LlmSettings, ParameterAdaptation, Role } from '../llm/interface.ts';
import type { UsageMeter } from '../llm/usage-meter.ts';
import { presetById } from '../llm/providers.ts';
import { SIMULATED_BASE_URL, SIMULATED_CONTEXT_WINDOW, SIMULATED_MODEL, SIMULATED_PROVIDER } from '../llm/simulated-model.ts';
import { intOption, LIMITS, numberOption } from './numbers.ts';
import { UsageError } from './usage-error.ts';
import { LLM_FLAGS } from './llm-flags.ts';
import { parseConfig } from './option-defs.ts';
import { plural } from '../agents/plural.ts';
import { basename } from 'node:path';
import { LOCAL_PROVIDER, localContextWindow, localFlags } from './models.ts';
import { FULL_REPLY_TOKENS, MIN_REPLY_TOKENS, type ReplyContract } from '../llm/reply-grammars.ts';

/** parseArgs option spec for the LLM flags (definitions and help text: llm-flags.ts). */
export const LLM_OPTIONS = parseConfig(LLM_FLAGS);

type Flags = Partial<Record<keyof typeof LLM_OPTIONS, string | boolean | string[] | undefined>>;

const text = (flags: Flags, name: keyof typeof LLM_OPTIONS): string | undefined => {
  const raw = flags[name];
  return typeof raw === 'string' ? raw : undefined;
};

/** The roles of settings built by `llmSettingsFromFlags` that use the actor's model because no model was given for them. */
const ACTOR_MODEL_ROLES = new WeakMap<LlmSettings, Role[]>();

const ROLE_NAMES: Record<Role, string> = { actor: 'actor', metaAgent: 'meta-agent', proposer: 'proposer' };

/**
 * The run's cost in USD, or null when a model that was called has no known price at this
 * provider (the `--price` table, or the built-in OpenAI prices with the OpenAI provider): then
 * no dollar figure is invented (JSON `costUsd: null`, text "—").
 */
export function knownCostUsd(settings: LlmSettings, meter: UsageMeter): number | null {
  const called = (Object.keys(meter.byRole) as Role[]).filter((role) => meter.byRole[role].calls > 0);
  return called.every((role) => settings.roles[role].model in settings.prices) ? meter.totalUsd : null;
}

/** "$0.0123", or "—" for an unknown cost. */
export const costText = (costUsd: number | null): string => (costUsd === null ? '—' : `$${costUsd.toFixed(4)}`);

/** Build LlmSettings from flags. @throws UsageError for bad values or a missing base URL */
export function llmSettingsFromFlags(flags: Flags, env: Record<string, string | undefined> = process.env): LlmSettings {
  const s = defaultLlmSettings();
  if (flags.provider === LOCAL_PROVIDER) return localSettings(s, flags);
  if (flags.provider === SIMULATED_PROVIDER) return simulatedSettings(s, flags);
  localFlags(flags);
  const preset = typeof flags.provider === 'string' ? presetById(flags.provider) : undefined;
  if (typeof flags.provider === 'string' && !preset) throw new UsageError(`unknown --provider "${flags.provider}"`);
  const baseUrl = (typeof flags['base-url'] === 'string' ? flags['base-url'] : preset?.baseUrl) ?? '';
  if (!baseUrl) throw new UsageError('--base-url (or --provider) is required');
  s.provider = { presetId: preset?.id ?? 'custom', baseUrl, apiKey: (typeof flags['api-key'] === 'string' ? flags['api-key'] : env.OPENAI_API_KEY) ?? '' };
  // Never persisted, exported or printed, even when a model echoes it (common/secrets.ts).
  registerSecret(s.provider.apiKey);
  const models: [Role, keyof typeof LLM_OPTIONS][] = [['actor', 'actor-model'], ['metaAgent', 'meta-model'], ['proposer', 'proposer-model']];
  for (const [role, flag] of models) {
    if (typeof flags[flag] === 'string') s.roles[role].model = flags[flag] as string;
  }
  // A role whose model is not given uses the actor's (never a model that was not asked for).
  const defaulted = models.filter(([role, flag]) => role !== 'actor' && typeof flags[flag] !== 'string').map(([role]) => role);
  for (const role of defaulted) s.roles[role].model = s.roles.actor.model;
  if (defaulted.length > 0) ACTOR_MODEL_ROLES.set(s, defaulted);
  // The built-in prices are OpenAI's: elsewhere only --price says what a model costs.
  s.prices = pricesAtProvider(s.provider, s.prices);
  s.roles.actor.temperature = numberOption(text(flags, 'actor-temperature'), 'actor-temperature') ?? s.roles.actor.temperature;
  s.roles.actor.maxTokens = intOption(text(flags, 'actor-max-tokens'), 'actor-max-tokens', s.roles.actor.maxTokens, 1, 1_000_000);
  s.roles.metaAgent.maxTokens = intOption(text(flags, 'meta-max-tokens'), 'meta-max-tokens', s.roles.metaAgent.maxTokens, 1, 1_000_000);
  s.roles.proposer.maxTokens = intOption(text(flags, 'proposer-max-tokens'), 'proposer-max-tokens', s.roles.proposer.maxTokens, 1, 1_000_000);
  s.requestTimeoutMs = intOption(text(flags, 'timeout-ms'), 'timeout-ms', s.requestTimeoutMs, 1, 3_600_000);
  const idle = text(flags, 'stream-idle-ms');
  if (idle !== undefined) s.streamIdleTimeoutMs = intOption(idle, 'stream-idle-ms', 30_000, 1, 3_600_000);
  s.maxRetries = intOption(text(flags, 'max-retries'), 'max-retries', s.maxRetries, 0, 20);
  s.maxConcurrent = intOption(text(flags, 'concurrency'), 'concurrency', s.maxConcurrent, 1, LIMITS.concurrency);
  const maxTokens = text(flags, 'max-total-tokens');
  s.caps = { maxUsd: numberOption(text(flags, 'max-usd'), 'max-usd') ?? null, maxTokens: maxTokens === undefined ? null : intOption(maxTokens, 'max-total-tokens', 0, 0) };
  s.dropStainlessHeaders = flags['drop-sdk-headers'] === true;
  for (const spec of Array.isArray(flags.price) ? flags.price : []) {
    const match = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?))?$/.exec(spec);
    if (!match) throw new UsageError(`--price must look like MODEL=IN/OUT or MODEL=IN/OUT/CACHED (USD per million input/output/cached-input tokens), got "${spec}"`);
    s.prices[match[1]!] = { inputPerMTokUsd: Number(match[2]), outputPerMTokUsd: Number(match[3]), ...(match[4] === undefined ? {} : { cachedInputPerMTokUsd: Number(match[4]) }) };
  }
  return s;
}

/**
 * Settings of a `--provider simulated` run (llm/simulated-model.ts): no base URL, key or price;
 * every role's model is `simulated` (another model name is refused: the name says what answered).
 * @throws UsageError for --base-url or a role model other than `simulated`
 */
function simulatedSettings(s: LlmSettings, flags: Flags): LlmSettings {
  localFlags(flags);
  if (typeof flags['base-url'] === 'string') throw new UsageError('--base-url cannot be combined with --provider simulated');
  for (const flag of ['actor-model', 'meta-model', 'proposer-model'] as const) {
    if (typeof flags[flag] === 'string' && flags[flag] !== SIMULATED_MODEL) throw new UsageError(`--${flag} cannot be "${String(flags[flag])}" with --provider simulated: its model is "${SIMULATED_MODEL}"`);
  }
  s.provider = { presetId: SIMULATED_PROVIDER, baseUrl: SIMULATED_BASE_URL, apiKey: '' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = SIMULATED_MODEL;
  s.maxRetries = 0;
  const maxTokens = text(flags, 'max-total-tokens');
  s.caps = { maxUsd: null, maxTokens: maxTokens === undefined ? null : intOption(maxTokens, 'max-total-tokens', 0, 0) };
  s.prices = {};
  return s;
}

/** `--meta-max-tokens` of a local run: the learn grammar's full-size reply (FULL_REPLY_TOKENS.learn, 3,032) rounded up. */
export const LOCAL_META_MAX_TOKENS = 3072;

/** Settings of a `--provider local` run: no base URL or key; the role models are named after the
 * file (`--actor-model` etc. rename them); nothing costs anything. */
function localSettings(s: LlmSettings, flags: Flags): LlmSettings {
  const local = localFlags(flags)!;
  if (typeof flags['base-url'] === 'string') throw new UsageError('--base-url cannot be combined with --provider local');
  const name = basename(local.modelFile).replace(/\.gguf$/i, '');
  s.provider = { presetId: LOCAL_PROVIDER, baseUrl: `local:${name}`, apiKey: '' };
  const models: [Role, keyof typeof LLM_OPTIONS][] = [['actor', 'actor-model'], ['metaAgent', 'meta-model'], ['proposer', 'proposer-model']];
  for (const [role, flag] of models) s.roles[role].model = typeof flags[flag] === 'string' ? (flags[flag] as string) : name;
  s.roles.actor.temperature = numberOption(text(flags, 'actor-temperature'), 'actor-temperature') ?? s.roles.actor.temperature;
  s.roles.actor.maxTokens = intOption(text(flags, 'actor-max-tokens'), 'actor-max-tokens', s.roles.actor.maxTokens, 1, 1_000_000);
  // The meta-agent's default holds the learn grammar's longest reply (3,032 tokens at worst), so a
  // grammar-bound guide keeps its full 2,400 characters and can never be cut off (reply-grammars.ts).
  s.roles.metaAgent.maxTokens = intOption(text(flags, 'meta-max-tokens'), 'meta-max-tokens', LOCAL_META_MAX_TOKENS, 1, 1_000_000);
  s.roles.proposer.maxTokens = intOption(text(flags, 'proposer-max-tokens'), 'proposer-max-tokens', 2048, 1, 1_000_000);
  if (local.grammar) {
    const checks: [ReplyContract, number, string][] = [['actor', s.roles.actor.maxTokens, 'actor-max-tokens'], ['learn', s.roles.metaAgent.maxTokens, 'meta-max-tokens']];
    for (const [contract, maxTokens, flag] of checks) {
      if (maxTokens < MIN_REPLY_TOKENS[contract]) throw new UsageError(`--${flag} ${maxTokens} cannot hold a reply in its grammar: it needs at least ${MIN_REPLY_TOKENS[contract]} (${FULL_REPLY_TOKENS[contract]} for a reply of full size), or use --reply-grammar off`);
    }
  }
  // A small CPU model is slow: each call may take minutes, not seconds.
  s.requestTimeoutMs = intOption(text(flags, 'timeout-ms'), 'timeout-ms', 600_000, 1, 3_600_000);
  s.maxRetries = intOption(text(flags, 'max-retries'), 'max-retries', 0, 0, 20);
  s.maxConcurrent = 1;
  const maxTokens = text(flags, 'max-total-tokens');
  s.caps = { maxUsd: null, maxTokens: maxTokens === undefined ? null : intOption(maxTokens, 'max-total-tokens', 0, 0) };
  s.prices = {};
  return s;
}

/** What a command's output records about the provider: the parameters adapted for this run's
 * models, and whether any call's usage was counted locally (then the token and USD figures are
 * estimates). */
export interface ProviderNotes {
  adaptations: ParameterAdaptation[];
  usageEstimated: boolean;
  /** Calls whose usage was estimated. */
  estimatedCalls: number;
  /** Roles called with the actor's model because none was given for them (absent: none). */
  rolesOnActorModel?: Role[];
  /** The actor's model, with `rolesOnActorModel`. */
  actorModel?: string;
}

/** The run's provider notes (JSON fields `adaptations`, `usageEstimated`, `estimatedCalls`). */
export function providerNotes(settings: LlmSettings, meter: UsageMeter): ProviderNotes {
  const models = Object.values(settings.roles).map((r) => r.model);
  const onActorModel = (ACTOR_MODEL_ROLES.get(settings) ?? []).filter((role) => meter.byRole[role].calls > 0);
  return {
    adaptations: sharedAdaptations.listFor(settings.provider.baseUrl, models),
    usageEstimated: meter.estimatedCalls > 0,
    estimatedCalls: meter.estimatedCalls,
    ...(onActorModel.length > 0 ? { rolesOnActorModel: onActorModel, actorModel: settings.roles.actor.model } : {}),
  };
}

/** The notes as lines for a human (stderr), '' when there is nothing to say. */
export function providerNotesText(notes: ProviderNotes): string {
  const lines = notes.adaptations.map((a) => `adapted for ${a.model}: ${describeAdaptation(a)} (${adaptationCause(a)})`);
  const own = notes.rolesOnActorModel ?? [];
  if (own.length > 0) lines.unshift(`no model given for the ${own.map((r) => ROLE_NAMES[r]).join(' and ')}: ${own.length === 1 ? 'it uses' : 'they use'} the actor's model (${notes.actorModel ?? ''})`);
  if (notes.usageEstimated) lines.push(`the provider sent no usage for ${plural(notes.estimatedCalls, 'call')}: ${notes.estimatedCalls === 1 ? 'its' : 'their'} tokens and cost are local estimates`);
  return lines.map((l) => `${l}\n`).join('');
}

/**
 * The meta-agent's context window, tokens: --context-window wins, then the window the provider
 * reports for the model (GET /models), then the built-in table, then a documented default — in
 * which case a note is printed to stderr (never sent to a model).
 * @throws UsageError for a bad --context-window
 */
export async function contextWindowFromFlags(flags: Flags, settings: LlmSettings, log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<number> {
  const raw = text(flags, 'context-window');
  const user = raw === undefined ? null : intOption(raw, 'context-window', 8000, 256, 10_000_000);
  const model = settings.roles.metaAgent.model;
  const reported = user ? null
    : settings.provider.presetId === SIMULATED_PROVIDER ? SIMULATED_CONTEXT_WINDOW
    : settings.provider.presetId === LOCAL_PROVIDER ? await localContextWindow(flags) : await reportedContextWindow(settings, model);
  const resolved = resolveContextWindow(model, { user, reported });
  if (resolved.note) log(`note: ${resolved.note.replace('Set the context window', 'Pass --context-window N')}`);
  return resolved.tokens;
}

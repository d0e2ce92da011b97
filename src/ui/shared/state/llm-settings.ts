/**
 * The LLM settings as the Settings view edits them, and their persisted form: store setting
 * `llmSettings`, schema version 1 = every field of `LlmSettings` except `provider.apiKey`, plus
 * `rememberKey`. Loading layers saved values over `defaultLlmSettings()` field by field and drops
 * anything malformed. The key is never part of these values (see api-key.svelte.ts). Pure.
 */
import { defaultLlmSettings, pricesAtProvider } from '../../../llm/defaults.ts';
import { ROLES, type LlmSettings, type ModelPrice, type Role, type RoleSettings } from '../../../llm/interface.ts';
import type { SettingValue } from '../../../store/interface.ts';
import { fits, type NumberRule } from '../format/number-rule.ts';

/** Store setting holding the saved form (never the key). */
export const SETTINGS_KEY = 'llmSettings';
/** Store setting holding the key, only while "remember on this device" is ticked. */
export const API_KEY_KEY = 'llmApiKey';
export const SETTINGS_VERSION = 1;

/** What each numeric field accepts. Times in ms, money in USD, prices in USD per million tokens. */
export const RULES = {
  temperature: { min: 0, max: 2, integer: false, nullable: true },
  maxTokens: { min: 1, integer: true, nullable: false },
  requestTimeoutMs: { min: 1, integer: true, nullable: false },
  streamIdleTimeoutMs: { min: 1, integer: true, nullable: false },
  maxRetries: { min: 0, max: 10, integer: true, nullable: false },
  maxRetryWaitMs: { min: 0, integer: true, nullable: false },
  maxConcurrent: { min: 1, max: 64, integer: true, nullable: false },
  maxUsd: { min: 0, integer: false, nullable: true },
  maxTokensCap: { min: 0, integer: true, nullable: true },
  pricePerMTokUsd: { min: 0, integer: false, nullable: false },
  /** The cached-input price: empty = the input price. */
  cachedPricePerMTokUsd: { min: 0, integer: false, nullable: true },
} as const satisfies Record<string, NumberRule>;

/** One row of the editable price table. `id` keys the row in the view only. */
export interface PriceRow {
  id: number;
  model: string;
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  /** Cached input (prompt tokens served from the provider's cache); absent = the input price.
   * Kept through save and load; not yet an editable column. */
  cachedInputPerMTokUsd?: number;
}

export interface SettingsForm {
  /** Preset id (src/llm/providers.ts) or 'custom'. */
  presetId: string;
  baseUrl: string;
  roles: Record<Role, RoleSettings>;
  requestTimeoutMs: number;
  /** Longest silence between two chunks of a streamed reply, ms. */
  streamIdleTimeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  maxConcurrent: number;
  dropStainlessHeaders: boolean;
  caps: { maxUsd: number | null; maxTokens: number | null };
  prices: PriceRow[];
  /** Keep the key in this browser's storage (off by default: memory only). */
  rememberKey: boolean;
}

let nextRowId = 1;
export const priceRow = (model: string, inputPerMTokUsd: number, outputPerMTokUsd: number, cachedInputPerMTokUsd?: number): PriceRow => ({
  id: nextRowId++, model, inputPerMTokUsd, outputPerMTokUsd, ...(cachedInputPerMTokUsd === undefined ? {} : { cachedInputPerMTokUsd }),
});

function rowsOf(prices: LlmSettings['prices']): PriceRow[] {
  return Object.entries(prices).map(([model, p]) => priceRow(model, p.inputPerMTokUsd, p.outputPerMTokUsd, p.cachedInputPerMTokUsd));
}

/** The form's defaults: defaultLlmSettings(), except that the meta-agent's and the proposer's
 * model are left empty — a role with no model given uses the actor's (`roleModelOf`), so a
 * changed actor model or provider never leaves them on a model nobody chose. */
export function defaultForm(): SettingsForm {
  const { provider, prices, streamIdleTimeoutMs, roles, ...rest } = defaultLlmSettings();
  const sameAsActor = { metaAgent: { ...roles.metaAgent, model: '' }, proposer: { ...roles.proposer, model: '' } };
  return { ...rest, roles: { ...roles, ...sameAsActor }, streamIdleTimeoutMs: streamIdleTimeoutMs ?? 30_000, presetId: provider.presetId, baseUrl: provider.baseUrl, prices: rowsOf(prices), rememberKey: false };
}

/** The model `role` is called with: its own (trimmed), or — for the meta-agent and the proposer
 * when none is given — the actor's. */
export function roleModelOf(roles: SettingsForm['roles'], role: Role): string {
  const own = roles[role].model.trim();
  return own !== '' || role === 'actor' ? own : roles.actor.model.trim();
}

/** The roles (meta-agent, proposer) that use the actor's model because none is given for them. */
export function rolesOnActorModel(roles: SettingsForm['roles']): Role[] {
  return ROLES.filter((role) => role !== 'actor' && roles[role].model.trim() === '');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pick = <T>(value: unknown, ok: (v: unknown) => v is T, fallback: T): T => (ok(value) ? value : fallback);
const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const rule = (r: NumberRule) => (v: unknown): v is number => fits(v, r);
const nullableRule = (r: NumberRule) => (v: unknown): v is number | null => fits(v, r);

function rolesFrom(saved: unknown, fallback: SettingsForm['roles']): SettingsForm['roles'] {
  const roles = { ...fallback };
  if (!isRecord(saved)) return roles;
  for (const role of ROLES) {
    const r = saved[role];
    if (!isRecord(r)) continue;
    roles[role] = {
      model: pick(r.model, isString, fallback[role].model),
      temperature: pick(r.temperature, nullableRule(RULES.temperature), fallback[role].temperature),
      maxTokens: pick(r.maxTokens, rule(RULES.maxTokens), fallback[role].maxTokens),
    };
  }
  return roles;
}

function pricesFrom(saved: unknown, fallback: PriceRow[]): PriceRow[] {
  if (!isRecord(saved)) return fallback;
  const price = rule(RULES.pricePerMTokUsd);
  return Object.entries(saved).flatMap(([model, p]) =>
    isRecord(p) && price(p.inputPerMTokUsd) && price(p.outputPerMTokUsd)
      ? [priceRow(model, p.inputPerMTokUsd, p.outputPerMTokUsd, price(p.cachedInputPerMTokUsd) ? p.cachedInputPerMTokUsd : undefined)]
      : [],
  );
}

/** The form from a saved value (any shape; unknown versions and bad fields fall back to defaults). */
export function formFromSaved(saved: unknown): SettingsForm {
  const d = defaultForm();
  if (!isRecord(saved) || saved.version !== SETTINGS_VERSION) return d;
  const caps = isRecord(saved.caps) ? saved.caps : {};
  return {
    presetId: pick(saved.presetId, isString, d.presetId),
    baseUrl: pick(saved.baseUrl, isString, d.baseUrl),
    roles: rolesFrom(saved.roles, d.roles),
    requestTimeoutMs: pick(saved.requestTimeoutMs, rule(RULES.requestTimeoutMs), d.requestTimeoutMs),
    streamIdleTimeoutMs: pick(saved.streamIdleTimeoutMs, rule(RULES.streamIdleTimeoutMs), d.streamIdleTimeoutMs),
    maxRetries: pick(saved.maxRetries, rule(RULES.maxRetries), d.maxRetries),
    maxRetryWaitMs: pick(saved.maxRetryWaitMs, rule(RULES.maxRetryWaitMs), d.maxRetryWaitMs),
    maxConcurrent: pick(saved.maxConcurrent, rule(RULES.maxConcurrent), d.maxConcurrent),
    dropStainlessHeaders: pick(saved.dropStainlessHeaders, isBoolean, d.dropStainlessHeaders),
    caps: { maxUsd: pick(caps.maxUsd, nullableRule(RULES.maxUsd), null), maxTokens: pick(caps.maxTokens, nullableRule(RULES.maxTokensCap), null) },
    prices: pricesFrom(saved.prices, d.prices),
    rememberKey: pick(saved.rememberKey, isBoolean, false),
  };
}

/** The price table as `LlmSettings['prices']`: rows without a model name are skipped, a later
 * row for the same model wins. */
export function pricesOf(rows: readonly PriceRow[]): LlmSettings['prices'] {
  const prices: LlmSettings['prices'] = {};
  for (const row of rows) {
    const model = row.model.trim();
    if (model === '') continue;
    prices[model] = { inputPerMTokUsd: row.inputPerMTokUsd, outputPerMTokUsd: row.outputPerMTokUsd };
    if (row.cachedInputPerMTokUsd !== undefined) prices[model].cachedInputPerMTokUsd = row.cachedInputPerMTokUsd;
  }
  return prices;
}

/** The value stored under SETTINGS_KEY: the form without row ids — and never a key. */
export function savedFromForm(form: SettingsForm): SettingValue {
  const roles: Record<string, SettingValue> = {};
  for (const role of ROLES) {
    const r = form.roles[role];
    roles[role] = { model: r.model, temperature: r.temperature, maxTokens: r.maxTokens };
  }
  return {
    version: SETTINGS_VERSION,
    presetId: form.presetId,
    baseUrl: form.baseUrl,
    roles,
    ...requestFieldsOf(form),
    caps: { maxUsd: form.caps.maxUsd, maxTokens: form.caps.maxTokens },
    prices: Object.fromEntries(Object.entries(pricesOf(form.prices)).map(([model, p]) => [model, {
      inputPerMTokUsd: p.inputPerMTokUsd, outputPerMTokUsd: p.outputPerMTokUsd,
      ...(p.cachedInputPerMTokUsd === undefined ? {} : { cachedInputPerMTokUsd: p.cachedInputPerMTokUsd }),
    }])),
    rememberKey: form.rememberKey,
  };
}

/** The request fields (timeouts and retry waits in ms, retries, sessions at once, the header
 * choice), the same when saved and when run. */
function requestFieldsOf(form: SettingsForm) {
  const { requestTimeoutMs, streamIdleTimeoutMs, maxRetries, maxRetryWaitMs, maxConcurrent, dropStainlessHeaders } = form;
  return { requestTimeoutMs, streamIdleTimeoutMs, maxRetries, maxRetryWaitMs, maxConcurrent, dropStainlessHeaders };
}

/** The settings of a run: the form plus the key (held only in memory by the caller). */
export function llmSettingsOf(form: SettingsForm, apiKey: string): LlmSettings {
  const roles = {} as LlmSettings['roles'];
  for (const role of ROLES) roles[role] = { ...form.roles[role], model: roleModelOf(form.roles, role) };
  return {
    provider: { presetId: form.presetId, baseUrl: form.baseUrl.trim(), apiKey },
    roles,
    ...requestFieldsOf(form),
    caps: { ...form.caps },
    // Only the prices that hold at this provider (never OpenAI's for a local server or the mock).
    prices: pricesAtProvider({ presetId: form.presetId, baseUrl: form.baseUrl, apiKey: '' }, pricesOf(form.prices), ROLES.map((role) => roles[role].model)),
  };
}

/** A workshop room as the page's LLM provider: the room's forwarder (`<origin>/v1`), the
 * participant token as the API key (never typed, never shown, never saved), and the one model it serves. */
export interface RoomProvider {
  /** The room's title (shown in Settings). */
  title: string;
  /** `<page origin>/v1`. */
  baseUrl: string;
  /** The participant token: the bearer of every call through the room. */
  token: string;
  /** The model `/v1/models` lists first. */
  model: string;
  /** Its price as the room gave it (USD per million tokens), or null: unknown (no cost shown). */
  price: ModelPrice | null;
}

/** The form a page in a room runs with: the user's own request fields and caps, the room's base
 * URL and model for every role, no prices (the room's teacher pays; the page does not guess). */
export function roomForm(own: SettingsForm, room: RoomProvider): SettingsForm {
  const roles = { ...own.roles };
  for (const role of ROLES) roles[role] = { ...roles[role], model: room.model };
  return { ...own, presetId: 'custom', baseUrl: room.baseUrl, roles, prices: room.price ? [priceRow(room.model, room.price.inputPerMTokUsd, room.price.outputPerMTokUsd)] : [] };
}

/**
 * LLM settings from CLI flags, layered over the defaults (defaults < flags < environment for the
 * key). Shared by every command that calls a model. Prices: the built-in table plus `--price`. The key comes from --api-key or
 * OPENAI_API_KEY and is never printed.
 */
import { defaultLlmSettings } from '../llm/defaults.ts';
import type { LlmSettings, Role } from '../llm/interface.ts';
import { presetById } from '../llm/providers.ts';
import { UsageError } from './usage-error.ts';

/** parseArgs option spec for the LLM flags. */
export const LLM_OPTIONS = {
  'base-url': { type: 'string' },
  provider: { type: 'string' },
  'api-key': { type: 'string' },
  'actor-model': { type: 'string' },
  'meta-model': { type: 'string' },
  'proposer-model': { type: 'string' },
  'actor-temperature': { type: 'string' },
  'actor-max-tokens': { type: 'string' },
  'timeout-ms': { type: 'string' },
  'max-retries': { type: 'string' },
  concurrency: { type: 'string' },
  'max-usd': { type: 'string' },
  'max-total-tokens': { type: 'string' },
  'drop-sdk-headers': { type: 'boolean', default: false },
  /** `MODEL=IN/OUT`: USD per million input / output tokens; repeatable. */
  price: { type: 'string', multiple: true },
} as const;

type Flags = Partial<Record<keyof typeof LLM_OPTIONS, string | boolean | string[] | undefined>>;

function number(flags: Flags, name: keyof typeof LLM_OPTIONS, min = 0): number | undefined {
  const raw = flags[name];
  if (raw === undefined || typeof raw === 'boolean' || Array.isArray(raw)) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new UsageError(`--${name} must be a number ≥ ${min}, got "${raw}"`);
  return value;
}

/** Build LlmSettings from flags. @throws UsageError for bad values or a missing base URL */
export function llmSettingsFromFlags(flags: Flags, env: Record<string, string | undefined> = process.env): LlmSettings {
  const s = defaultLlmSettings();
  const preset = typeof flags.provider === 'string' ? presetById(flags.provider) : undefined;
  if (typeof flags.provider === 'string' && !preset) throw new UsageError(`unknown --provider "${flags.provider}"`);
  const baseUrl = (typeof flags['base-url'] === 'string' ? flags['base-url'] : preset?.baseUrl) ?? '';
  if (!baseUrl) throw new UsageError('--base-url (or --provider) is required');
  s.provider = { presetId: preset?.id ?? 'custom', baseUrl, apiKey: (typeof flags['api-key'] === 'string' ? flags['api-key'] : env.OPENAI_API_KEY) ?? '' };
  const models: [Role, keyof typeof LLM_OPTIONS][] = [['actor', 'actor-model'], ['metaAgent', 'meta-model'], ['proposer', 'proposer-model']];
  for (const [role, flag] of models) {
    if (typeof flags[flag] === 'string') s.roles[role].model = flags[flag] as string;
  }
  s.roles.actor.temperature = number(flags, 'actor-temperature') ?? s.roles.actor.temperature;
  s.roles.actor.maxTokens = number(flags, 'actor-max-tokens', 1) ?? s.roles.actor.maxTokens;
  s.requestTimeoutMs = number(flags, 'timeout-ms', 1) ?? s.requestTimeoutMs;
  s.maxRetries = number(flags, 'max-retries') ?? s.maxRetries;
  s.maxConcurrent = number(flags, 'concurrency', 1) ?? s.maxConcurrent;
  s.caps = { maxUsd: number(flags, 'max-usd') ?? null, maxTokens: number(flags, 'max-total-tokens') ?? null };
  s.dropStainlessHeaders = flags['drop-sdk-headers'] === true;
  for (const spec of Array.isArray(flags.price) ? flags.price : []) {
    const match = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(spec);
    if (!match) throw new UsageError(`--price must look like MODEL=IN/OUT (USD per million input/output tokens), got "${spec}"`);
    s.prices[match[1]!] = { inputPerMTokUsd: Number(match[2]), outputPerMTokUsd: Number(match[3]) };
  }
  return s;
}

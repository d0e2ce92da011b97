/**
 * The provider and model options every command that calls a model takes (definitions only: the
 * settings are built from them in llm-options.ts). Shown on each such command's help page under
 * "Provider and model options".
 */
import { defaultLlmSettings } from '../llm/defaults.ts';
import type { OptionDef } from './option-defs.ts';

/** The defaults the settings start from (llm/defaults.ts), as the help states them. */
const D = defaultLlmSettings();

const p = <const D extends Omit<OptionDef, 'group'>>(def: D): D & { readonly group: 'provider' } => ({ ...def, group: 'provider' });

export const LLM_FLAGS = {
  'base-url': p({ type: 'string', value: 'URL', description: 'The OpenAI-compatible endpoint (or give --provider).' }),
  provider: p({ type: 'string', value: 'P', description: 'openai | openrouter | groq | together | ollama | lmstudio | llamacpp (their base URL), or local: a GGUF model run in this process by node-llama-cpp (with --model-file; installed apart: npm install --no-save node-llama-cpp@3.21.1), or simulated: the simulated model (no key; not a language model, it shows how the loop works).' }),
  'api-key': p({ type: 'string', value: 'K', defaultText: '$OPENAI_API_KEY', description: 'The provider\'s API key; never printed, stored or exported.' }),
  'actor-model': p({ type: 'string', value: 'M', defaultText: D.roles.actor.model, description: 'The actor\'s model (plays the game).' }),
  'meta-model': p({ type: 'string', value: 'M', defaultText: 'the actor\'s model', description: 'The meta-agent\'s model (rewrites the guiding prompt between episodes).' }),
  'proposer-model': p({ type: 'string', value: 'M', defaultText: 'the actor\'s model', description: 'The proposer\'s model (writes new strategies in evolve).' }),
  'actor-temperature': p({ type: 'string', value: 'T', defaultText: String(D.roles.actor.temperature), description: 'The actor\'s sampling temperature.' }),
  'actor-max-tokens': p({ type: 'string', value: 'N', defaultText: String(D.roles.actor.maxTokens), description: 'Longest actor reply, tokens.' }),
  'meta-max-tokens': p({ type: 'string', value: 'N', defaultText: String(D.roles.metaAgent.maxTokens), description: 'Longest meta-agent reply, tokens (local models: 3072, room for the learn grammar\'s longest reply).' }),
  'proposer-max-tokens': p({ type: 'string', value: 'N', defaultText: String(D.roles.proposer.maxTokens), description: 'Longest proposer reply, tokens.' }),
  'context-window': p({ type: 'string', value: 'TOKENS', defaultText: 'what the provider reports, else a built-in table, else 32,000 with a note', description: 'The meta-agent\'s (and reflection model\'s) context window.' }),
  'timeout-ms': p({ type: 'string', value: 'MS', defaultText: String(D.requestTimeoutMs), description: 'Bounds each attempt of a call, body and stream included (local models: 600000).' }),
  'stream-idle-ms': p({ type: 'string', value: 'MS', defaultText: String(D.streamIdleTimeoutMs), description: 'Longest silence between stream chunks.' }),
  'max-retries': p({ type: 'string', value: 'N', defaultText: String(D.maxRetries), description: 'Retries of a failed call (local models: 0).' }),
  concurrency: p({ type: 'string', value: 'N', defaultText: String(D.maxConcurrent), description: 'Calls in flight at once (local models: 1).' }),
  'max-usd': p({ type: 'string', value: 'X', description: 'Hard cap on the run\'s cost in USD, checked before each call (so the last call can pass it); the run stops, exit 0, and says so.' }),
  'max-total-tokens': p({ type: 'string', value: 'N', description: 'Hard cap on the run\'s tokens, checked before each call (so the last call can pass it).' }),
  'drop-sdk-headers': p({ type: 'boolean', default: false, description: 'Drop the OpenAI SDK\'s x-stainless-* headers from requests (for servers that refuse them).' }),
  'model-file': p({ type: 'string', value: 'FILE.gguf', description: 'With --provider local: the GGUF model file.' }),
  'reply-grammar': p({ type: 'string', value: 'on|off', defaultText: 'on', description: 'With --provider local: enforce the reply contracts with grammars.' }),
  'local-threads': p({ type: 'string', value: 'N', defaultText: '1', description: 'With --provider local: llama.cpp CPU threads.' }),
  price: p({ type: 'string', multiple: true, value: 'MODEL=IN/OUT[/CACHED]', description: 'USD per million tokens (CACHED: prompt tokens the provider served from its cache, default IN). The built-in prices are OpenAI\'s, used with the OpenAI provider only; a model called without a known price has no cost: costUsd is null in JSON and "—" in text, never 0.' }),
} as const satisfies Record<string, OptionDef>;

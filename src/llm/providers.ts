/**
 * Presets for OpenAI-compatible chat-completions endpoints. Only data: a base URL, whether a key
 * is needed, and whether `/models` is served. Users can also enter any custom base URL.
 */

export interface ProviderPreset {
  id: string;
  label: string;
  baseUrl: string;
  needsKey: boolean;
  /** Whether GET {baseUrl}/models lists models. */
  listsModels: boolean;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true, listsModels: true },
  { id: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, listsModels: true },
  { id: 'groq', label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', needsKey: true, listsModels: true },
  { id: 'together', label: 'Together', baseUrl: 'https://api.together.xyz/v1', needsKey: true, listsModels: true },
  { id: 'ollama', label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1', needsKey: false, listsModels: true },
  { id: 'lmstudio', label: 'LM Studio (local)', baseUrl: 'http://localhost:1234/v1', needsKey: false, listsModels: true },
  { id: 'llamacpp', label: 'llama.cpp server (local)', baseUrl: 'http://localhost:8080/v1', needsKey: false, listsModels: true },
  { id: 'custom', label: 'Custom base URL', baseUrl: '', needsKey: false, listsModels: true },
  // A GGUF model run in the page by wllama (no server, no key); the base URL only names it.
  { id: 'browser-local', label: 'Local model (in this browser)', baseUrl: 'in-page:wllama', needsKey: false, listsModels: true },
  // The simulated model (simulated-model.ts): answered in-process by fixed rules — not a language model.
  { id: 'simulated', label: 'Simulated model (no key)', baseUrl: 'in-page:simulated', needsKey: false, listsModels: true },
];

export function presetById(id: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}

/**
 * The one sentence that refuses a run before it starts when the chosen preset needs a key and
 * none is set ("OpenAI needs an API key: add yours in Settings."), else null. Custom base URLs
 * and local servers (needsKey false) never need one. Never includes the key.
 */
export function missingKeyText(provider: { presetId: string; apiKey: string }): string | null {
  const preset = presetById(provider.presetId);
  return preset?.needsKey === true && provider.apiKey.trim() === '' ? `${preset.label} needs an API key: add yours in Settings.` : null;
}

/**
 * Why `baseUrl` cannot be a provider's address (user-readable), or null: empty, or not an
 * absolute http(s) URL. A preset's own address (e.g. the in-page model's `in-page:wllama`) is
 * accepted as it is.
 */
export function baseUrlProblem(baseUrl: string): string | null {
  const text = baseUrl.trim();
  if (text === '') return 'Enter the provider’s base URL first.';
  // A preset's own address (e.g. the in-page model's `in-page:wllama`) is always one.
  if (PROVIDER_PRESETS.some((p) => p.baseUrl !== '' && p.baseUrl === text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `“${text}” is not a web address: enter one like http://localhost:11434/v1.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `“${text}” is not an http(s) address: enter one like http://localhost:11434/v1.`;
  return null;
}

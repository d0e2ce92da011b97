/**
 * What a provider's finish_reason says about a reply: complete, or cut off. Only the reasons that
 * the listed servers document for a natural end count as complete (OpenAI / vLLM / llama.cpp /
 * Ollama / LM Studio / LiteLLM / OpenRouter / DeepSeek / Groq / Gemini's and Anthropic's compatible
 * endpoints: "stop", "tool_calls", "function_call"; TGI: "eos_token", "stop_sequence"; Anthropic's
 * own names "end_turn" and "stop_sequence"); everything else — "length", "content_filter",
 * DeepSeek's "insufficient_system_resource", and reasons we do not know — is cut off, and a cut-off
 * reply is never acted on. null (a JSON reply that names no reason) counts as complete. DOM-free.
 */

const COMPLETE = new Set(['stop', 'tool_calls', 'function_call', 'eos', 'eos_token', 'stop_sequence', 'end_turn']);

/** True when `finishReason` means the reply was cut off (not a natural end). Case-insensitive. */
export function isCutOff(finishReason: string | null): boolean {
  return finishReason !== null && !COMPLETE.has(finishReason.toLowerCase());
}

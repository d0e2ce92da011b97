/**
 * The mock's prompt cache (MockOptions.promptCache): like OpenAI's, a request whose prompt is at
 * least 1,024 tokens reports as cached the longest prefix it shares with an earlier request, in
 * 128-token blocks (`usage.prompt_tokens_details.cached_tokens`). Tokens are the mock's chars ÷ 4;
 * prefixes compare the messages serialized in order (role and content).
 */
import { messageText, type ChatBody } from './roles.ts';

const MIN_TOKENS = 1024;
const BLOCK_TOKENS = 128;
/** Prompts remembered (the most recent ones), as a provider keeps recent prefixes warm. */
const REMEMBERED = 64;

export class PromptCache {
  private readonly recent: string[] = [];

  /** Cached tokens of this request's prompt of `promptTokens` tokens; remembers the prompt. */
  cachedTokens(body: ChatBody, promptTokens: number): number {
    const text = body.messages.map((m) => `${m.role}\n${messageText(m)}`).join('\n');
    let shared = 0;
    for (const earlier of this.recent) shared = Math.max(shared, commonPrefixLength(earlier, text));
    this.recent.push(text);
    if (this.recent.length > REMEMBERED) this.recent.shift();
    if (promptTokens < MIN_TOKENS) return 0;
    return Math.min(promptTokens, Math.floor(shared / 4 / BLOCK_TOKENS) * BLOCK_TOKENS);
  }
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

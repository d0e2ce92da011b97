/**
 * The meta-prompt: the meta-agent's system prompt = fixed header (what the logs are) + the
 * strategy section (the only part users edit and the outer loop evolves; empty = the naive
 * meta-agent) + fixed footer (the `<think>/<learn>` output contract). Keeping the contract fixed
 * stops an evolved strategy from breaking the parser (method.md, "Meta-prompt structure"). The
 * header and footer only describe the setup, the log format and the output contract: any advice
 * on how to adapt belongs to a strategy, or the naive baseline is not naive.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { isCutOff } from '../llm/finish-reason.ts';

export const META_PROMPT_HEADER = `You coach a player of a text adventure game. The player (the actor) is a language model that plays the same game from the same starting point several times; each attempt is an episode with a limited number of steps. Before every episode the actor receives a guiding prompt written by you, and it follows it.

After each episode you receive its log:
- a header with the episode number and the guiding prompt the actor used;
- one line per step: [STEP i] [OBS] what the game showed [ACTION] the command the actor typed [REWARD] points gained or lost by that command [CUM_REWARD] the score after it. "(same as previous step)" means the game showed the same text again;
- [FINAL OBS] the last text the game showed, and [EPISODE END] how the episode ended and its final score.`;

export const META_PROMPT_FOOTER = `Answer in this format and nothing else:
<think>your analysis of the episode(s)</think>
<learn>the complete guiding prompt for the next episode</learn>
The text inside <learn> replaces the actor's current guiding prompt entirely. Leave <learn></learn> empty to keep the current guiding prompt unchanged.`;

/** The full meta-prompt for a strategy section ('' = naive). */
export function buildMetaPrompt(strategy: string, header: string = META_PROMPT_HEADER): string {
  const body = strategy.trim();
  return body ? `${header}\n\nStrategy:\n${body}\n\n${META_PROMPT_FOOTER}` : `${header}\n\n${META_PROMPT_FOOTER}`;
}

/**
 * The meta-agent's system message for a meta policy: `buildMetaPrompt(strategy, header)`, or with
 * `raw` the text itself, byte for byte (no header, no footer, no trimming: a published prompt such as
 * the paper's naive or evolved prompts runs exactly as written; the `<learn>` contract is then the
 * text's own business, and a reply without `<learn>` keeps the guiding prompt, status "missing").
 */
export function metaPromptOf(policy: { strategy: string; raw?: boolean }, header: string = META_PROMPT_HEADER): string {
  return policy.raw === true ? policy.strategy : buildMetaPrompt(policy.strategy, header);
}

/** Hex sha256 of a text (meta-prompt identity in records). */
export function textHash(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** How a reply's `<learn>` was read; `whole_reply`: a baseline's reply had no tags and was used
 * whole (the reference's reflection baselines do so). */
export type LearnStatus = 'updated' | 'empty' | 'missing' | 'truncated' | 'whole_reply';

export interface ParsedLearn {
  /** The new guiding prompt, or null to keep the previous one. */
  guidingPrompt: string | null;
  status: LearnStatus;
}

/**
 * Read `<learn>…</learn>` from a meta-agent (or reflection) reply; `<think>` text is ignored.
 * Empty → keep (status "empty"); absent → keep ("missing"); opened but never closed, or a reply
 * cut off by its limit (`finishReason` "length" or another cut-off) before a closed `<learn>` → keep
 * ("truncated": the model may have been about to write it).
 */
export function parseLearn(content: string, finishReason: string | null): ParsedLearn {
  const text = content.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const matches = [...text.matchAll(/<learn>([\s\S]*?)<\/learn>/gi)];
  const last = matches.at(-1);
  if (last) {
    const body = (last[1] ?? '').trim();
    return body ? { guidingPrompt: body, status: 'updated' } : { guidingPrompt: null, status: 'empty' };
  }
  if (/<learn>/i.test(text) || /<think>/i.test(text) || isCutOff(finishReason)) {
    return { guidingPrompt: null, status: 'truncated' };
  }
  return { guidingPrompt: null, status: 'missing' };
}

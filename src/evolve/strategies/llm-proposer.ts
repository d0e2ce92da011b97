/**
 * The reflective proposer (method.md 2e; GEPA's reflective mutation): an LLM reads the parent's
 * strategy section and the reflective record and writes a new strategy section inside
 * `<strategy>…</strategy>` (the first fenced block is accepted as a fallback). Empty, truncated
 * and unchanged proposals are failures (charged by the loop).
 */
import { META_PROMPT_FOOTER, META_PROMPT_HEADER } from '../../agents/meta-prompt.ts';
import type { ChatMessage } from '../../llm/interface.ts';

export const PROPOSER_SYSTEM = `You improve the adaptation policy of a meta-agent. The meta-agent coaches a language model that plays a text adventure game several times (episodes): after each episode it reads the log and writes the guiding prompt for the next episode. Its system prompt has three parts: a fixed header, a STRATEGY SECTION, and a fixed footer. You rewrite only the strategy section, so that the player's scores rise faster over the episodes (later episodes count more).

The fixed header (for reference):
---
${META_PROMPT_HEADER}
---
The fixed footer (for reference):
---
${META_PROMPT_FOOTER}
---

Answer with your reasoning, then the complete new strategy section inside <strategy>…</strategy>. Write general rules about how to learn from episode logs, not a walkthrough of one game.`;

export function buildProposerMessages(parentStrategy: string, record: string): ChatMessage[] {
  return [
    { role: 'system', content: PROPOSER_SYSTEM },
    {
      role: 'user',
      content: `The current strategy section (empty means none):\n<current_strategy>\n${parentStrategy}\n</current_strategy>\n\nA session played with it — its worst run:\n${record}\n\nWrite an improved strategy section.`,
    },
  ];
}

export type ProposalStatus = 'ok' | 'empty' | 'truncated' | 'unchanged';

/** Extract the proposed strategy; `status` says why a proposal failed. */
export function parseProposal(content: string, finishReason: string | null, parentStrategy: string): { strategy: string | null; status: ProposalStatus } {
  const tagged = [...content.matchAll(/<strategy>([\s\S]*?)<\/strategy>/gi)][0];
  const fenced = /```[\w-]*\n([\s\S]*?)```/.exec(content);
  const text = (tagged?.[1] ?? fenced?.[1] ?? '').trim();
  if (!text) {
    const cut = finishReason === 'length' || /<strategy>(?![\s\S]*<\/strategy>)/i.test(content);
    return { strategy: null, status: cut ? 'truncated' : 'empty' };
  }
  if (text === parentStrategy.trim()) return { strategy: null, status: 'unchanged' };
  return { strategy: text, status: 'ok' };
}

/**
 * llama.cpp grammars (GBNF) that enforce the two reply contracts on a local model, so that even a
 * very small model answers in a form our parsers read: the actor's `REASONING: … / ACTION: …`
 * (agents/reply-parser.ts, method.md "Actor prompt") and the meta-agent's `<think>…</think>
 * <learn>…</learn>` (agents/meta-prompt.ts). Only data and a chooser; DOM-free, no llama.cpp
 * import, so the page's local provider can use the same grammars. Off for OpenAI-compatible
 * providers (they take no GBNF), on by default for local models.
 */
import type { ChatMessage, Role } from './interface.ts';

/**
 * The actor's contract: one `REASONING:` line (1–300 characters, no line break and no `<`, so the
 * prompt's placeholder `<one or two sentences>` cannot be copied), then one
 * `ACTION:` line holding a parser command of one to five lower-case words (1–12 letters each,
 * one space apart). Nothing may follow. Bounded so a reply always ends within the actor's token
 * limit; a small model otherwise writes questions or sentences as commands.
 */
export const ACTOR_REPLY_GBNF = String.raw`root ::= "REASONING: " reason "\nACTION: " command
reason ::= [^\n<] [^\n<]{0,299}
command ::= word (" " word){0,4}
word ::= [a-z]{1,12}`;

/**
 * The meta-agent's contract: `<think>` (at most 600 characters, no `<`) `</think>`, a line
 * break, then `<learn>` with a guide of 1–2,400 characters (no `<`) and `</learn>`. The guide is
 * never empty under the grammar, so a small model always writes one (an empty `<learn></learn>`,
 * "keep the guide", is what a free model may answer).
 *
 * Every bounded repetition stays below llama.cpp's MAX_REPETITION_THRESHOLD (2,000: the rules
 * repeated × the repetition's upper bound; src/llama-grammar.cpp). Past it llama.cpp refuses the
 * whole grammar and the reply is unconstrained — what `[^<]{0,2399}` did, so neither bound held.
 * The guide is therefore 0–59 blocks of exactly 40 characters and a last piece of 1–40 (at most
 * 2,400), which also keeps the parse nearly unambiguous (at most two live stacks per character).
 */
export const LEARN_REPLY_GBNF = String.raw`root ::= "<think>" think "</think>\n<learn>" guide "</learn>"
think ::= [^<]{0,600}
guide ::= block{0,59} [^<]{1,40}
block ::= [^<]{40}`;

/** llama.cpp's MAX_REPETITION_THRESHOLD: a grammar whose rules × repetition bound reaches it is refused. */
export const LLAMA_CPP_MAX_REPETITIONS = 2000;

/** Which contract a call answers under, or null for free text (the proposer, other prompts). */
export type ReplyContract = 'actor' | 'learn';

/**
 * The contract a call answers under, read from its role and what its prompt asks for: the actor
 * role when the prompt asks for an `ACTION:` line; the meta-agent role (meta-agents, the naive
 * policy's reflection) when it asks for `<learn>`. Null otherwise — the proposer and any prompt
 * with another contract are never constrained.
 */
export function replyContractFor(role: Role, messages: readonly ChatMessage[]): ReplyContract | null {
  const prompt = messages.map((m) => m.content).join('\n');
  if (role === 'actor' && /ACTION:/.test(prompt)) return 'actor';
  if (role === 'metaAgent' && /<learn>/i.test(prompt)) return 'learn';
  return null;
}

/** The GBNF text of a contract. */
export function grammarText(contract: ReplyContract): string {
  return contract === 'actor' ? ACTOR_REPLY_GBNF : LEARN_REPLY_GBNF;
}

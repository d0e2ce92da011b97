/**
 * llama.cpp grammars (GBNF) that enforce the two reply contracts on a local model, so that even a
 * very small model answers in a form our parsers read: the actor's `REASONING: … / ACTION: …`
 * (agents/reply-parser.ts, method.md "Actor prompt") and the meta-agent's `<think>…</think>
 * <learn>…</learn>` (agents/meta-prompt.ts). Only data and a chooser; DOM-free, no llama.cpp
 * import, so the page's local provider can use the same grammars. Off for OpenAI-compatible
 * providers (they take no GBNF), on by default for local models.
 *
 * **A constrained reply always fits its token budget.** Each grammar is built for the call's
 * `max_tokens`: its longest admitted reply, counted at the worst case of any vocabulary, plus the
 * end-of-generation token, is at most `max_tokens`, so a grammar-bound reply can always end
 * naturally (finish "stop") and is never cut off by the limit. The worst case: every character
 * the grammars admit is printable ASCII or a line break — one byte — and llama.cpp's grammar
 * sampler refuses any token that adds no byte (src/llama-grammar.cpp, `llama_grammar_apply_impl`:
 * an empty piece gets logit −∞), so whatever tokens the model picks (whole words, single bytes,
 * byte-fallback tokens) a reply of n characters costs at most n tokens. At the default budgets
 * (`FULL_REPLY_TOKENS`) the replies keep their full sizes; a smaller budget shrinks the free-text
 * parts in proportion (`replyBounds`).
 */
import { MetattlError } from '../common/errors.ts';
import type { ChatMessage, Role } from './interface.ts';

/** Which contract a call answers under, or null for free text (the proposer, other prompts). */
export type ReplyContract = 'actor' | 'learn';

/** llama.cpp's MAX_REPETITION_THRESHOLD: a grammar whose rules × repetition bound reaches it is refused whole. */
export const LLAMA_CPP_MAX_REPETITIONS = 2000;

/**
 * Tokens one admitted character can cost at most, in any vocabulary: the grammars admit only
 * one-byte characters (printable ASCII and `\n`), and llama.cpp never samples a token that adds no
 * byte under a grammar. (A character outside ASCII would cost up to its UTF-8 length — 4 — where
 * the vocabulary covers it only with byte-fallback tokens.)
 */
export const WORST_TOKENS_PER_CHAR = 1;

/** The end-of-generation token the model must still be able to emit within `max_tokens`. */
export const END_OF_GENERATION_TOKENS = 1;

/** Free text of the actor's REASONING line: printable ASCII except `<` (so the prompt's placeholder `<one or two sentences>` cannot be copied). */
export const LINE_CHAR = String.raw`[\x20-\x3B\x3D-\x7E]`;
/** Free text of `<think>` and the guide: printable ASCII except `<`, and line breaks. */
export const TEXT_CHAR = String.raw`[\n\x20-\x3B\x3D-\x7E]`;
/** The guide's first character: visible ASCII except `<`, so a guide is never blank (parseLearn would read it as empty and keep the old one). */
export const VISIBLE_CHAR = String.raw`[\x21-\x3B\x3D-\x7E]`;
/**
 * A character of a game command: lower-case letters (the Z-machine folds input to lower case,
 * Standard §15 `read`), digits and the punctuation parser commands use — `" $ ' ( ) , - . ; > _`
 * (`enter 417`, `withdraw $603`, `get tobacco,knife,pipe`, `drop yo-yo`, `put it on henry's tomb`,
 * `say "float"`, a punched card's `cat_robot->desist();`).
 */
export const COMMAND_CHAR = String.raw`[a-z0-9\x22\x24\x27-\x29\x2C-\x2E\x3B\x3E\x5F]`;
/** A command's first character: a letter or digit, so the parser never strips a command to nothing (agents/reply-parser.ts drops quotes and `_` at its ends). */
export const COMMAND_FIRST_CHAR = '[a-z0-9]';

/** The fixed text of each contract, in characters (= tokens at worst): "REASONING: " + "\nACTION: ", "<think>" + "</think>\n<learn>" + "</learn>". */
export const FIXED_REPLY_CHARS: Readonly<Record<ReplyContract, number>> = {
  actor: 'REASONING: '.length + '\nACTION: '.length,
  learn: '<think>'.length + '</think>\n<learn>'.length + '</learn>'.length,
};

/** The size of the free parts of a reply, characters. Actor: reasoning 1..`first`, command 1..`second`; learn: think 0..`first`, guide 1..`second`. */
export interface ReplyBounds {
  first: number;
  second: number;
}

/**
 * The replies' full sizes (what the method asks for): a REASONING line of ≤ 300 characters ("one or
 * two sentences") and a command of ≤ 72 (the longest Jericho walkthrough command has 70); a
 * `<think>` of ≤ 600 characters and a guide of ≤ 2,400.
 */
export const FULL_REPLY_BOUNDS: Readonly<Record<ReplyContract, ReplyBounds>> = {
  actor: { first: 300, second: 72 },
  learn: { first: 600, second: 2400 },
};

/** The smallest sizes a reply can have: reasoning and command of 1 character; an empty `<think>` and a guide of 1. */
const MIN_BOUNDS: Readonly<Record<ReplyContract, ReplyBounds>> = { actor: { first: 1, second: 1 }, learn: { first: 0, second: 1 } };

/** Tokens the longest reply of `bounds` costs at worst, end-of-generation token included. */
export function worstReplyTokens(contract: ReplyContract, bounds: ReplyBounds): number {
  return (FIXED_REPLY_CHARS[contract] + bounds.first + bounds.second) * WORST_TOKENS_PER_CHAR + END_OF_GENERATION_TOKENS;
}

/** `max_tokens` that holds a reply of full size (actor 393, meta-agent 3,032). */
export const FULL_REPLY_TOKENS: Readonly<Record<ReplyContract, number>> = {
  actor: worstReplyTokens('actor', FULL_REPLY_BOUNDS.actor),
  learn: worstReplyTokens('learn', FULL_REPLY_BOUNDS.learn),
};

/** The least `max_tokens` a grammar-bound reply fits in (actor 23, meta-agent 33). */
export const MIN_REPLY_TOKENS: Readonly<Record<ReplyContract, number>> = {
  actor: worstReplyTokens('actor', MIN_BOUNDS.actor),
  learn: worstReplyTokens('learn', MIN_BOUNDS.learn),
};

/** A role's `max_tokens` is too small for the shortest reply its grammar admits. */
export class ReplyBudgetError extends MetattlError {
  constructor(readonly contract: ReplyContract, readonly maxTokens: number) {
    super('reply_budget', `${contract === 'actor' ? "The actor's" : "The meta-agent's"} max tokens (${maxTokens}) cannot hold a reply in its grammar: it needs at least ${MIN_REPLY_TOKENS[contract]} tokens (${FULL_REPLY_TOKENS[contract]} for a reply of full size).`);
    this.name = 'ReplyBudgetError';
  }
}

/**
 * The free parts' sizes for a call of `maxTokens`: the full sizes when they fit; else the
 * characters left after the fixed text and the end-of-generation token are shared in the full
 * sizes' proportion (actor 300 : 72, learn 600 : 2,400), the command and the guide keeping at least 1.
 * Guarantee: `worstReplyTokens(contract, replyBounds(contract, n)) ≤ n` for every n ≥ MIN_REPLY_TOKENS.
 * @param maxTokens the call's completion limit, tokens (an integer)
 * @throws ReplyBudgetError when `maxTokens` < MIN_REPLY_TOKENS[contract]
 */
export function replyBounds(contract: ReplyContract, maxTokens: number): ReplyBounds {
  const full = FULL_REPLY_BOUNDS[contract];
  if (!(maxTokens >= MIN_REPLY_TOKENS[contract])) throw new ReplyBudgetError(contract, maxTokens);
  if (maxTokens >= FULL_REPLY_TOKENS[contract]) return { ...full };
  const free = Math.floor((maxTokens - END_OF_GENERATION_TOKENS) / WORST_TOKENS_PER_CHAR) - FIXED_REPLY_CHARS[contract];
  const min = MIN_BOUNDS[contract];
  const second = Math.max(min.second, Math.floor((free * full.second) / (full.first + full.second)));
  return { first: Math.min(full.first, free - second), second: Math.min(full.second, second) };
}

/** `n` characters of `cls` as GBNF, `{lo,hi}` split into blocks of 40 where hi would pass llama.cpp's repetition limit. */
function repeated(cls: string, lo: number, hi: number, blockRule: string): { expr: string; rules: string[] } {
  if (hi < 1000) return { expr: hi === 1 && lo === 1 ? cls : `${cls}{${lo},${hi}}`, rules: [] };
  // 0..q blocks of exactly 40, then a last piece of lo..(40 + hi mod 40): at most hi, and at most two live parse stacks per character.
  // (lo ≤ 40 here, so the lengths lo..hi are all admitted.)
  const q = Math.floor(hi / 40) - 1;
  return { expr: `${blockRule}{0,${q}} ${cls}{${lo},${40 + (hi % 40)}}`, rules: [`${blockRule} ::= ${cls}{40}`] };
}

/**
 * The GBNF of a contract for a call of `maxTokens`.
 * Actor: `REASONING: ` + 1..first characters of LINE_CHAR + `\nACTION: ` + a command of
 * 1..second characters, COMMAND_FIRST_CHAR first, then COMMAND_CHAR or space (the game's input
 * normalisation collapses repeated spaces and trims, engine/input.ts); nothing may follow.
 * Learn: `<think>` + 0..first of TEXT_CHAR + `</think>\n<learn>` + a guide of 1..second
 * characters, VISIBLE_CHAR first, then TEXT_CHAR (never blank, so a small model always writes
 * one and a complete reply always updates the guide) + `</learn>`.
 * Every bounded repetition stays below LLAMA_CPP_MAX_REPETITIONS (past it llama.cpp refuses the
 * whole grammar and the reply is unconstrained): a guide over 1,000 characters is blocks of 40.
 * @throws ReplyBudgetError when `maxTokens` is below MIN_REPLY_TOKENS[contract]
 */
export function replyGrammar(contract: ReplyContract, maxTokens: number): string {
  const { first, second } = replyBounds(contract, maxTokens);
  if (contract === 'actor') {
    const reason = repeated(LINE_CHAR, 1, first, 'reason-block');
    const rest = second > 1 ? ` command-rest{0,${second - 1}}` : '';
    return [
      String.raw`root ::= "REASONING: " reason "\nACTION: " command`,
      `reason ::= ${reason.expr}`,
      ...reason.rules,
      `command ::= ${COMMAND_FIRST_CHAR}${rest}`,
      ...(second > 1 ? [`command-rest ::= ${COMMAND_CHAR.slice(0, -1)} ]`] : []),
    ].join('\n');
  }
  const think = repeated(TEXT_CHAR, 0, first, 'think-block');
  const rest = repeated(TEXT_CHAR, 0, second - 1, 'block');
  const guide = { expr: second === 1 ? VISIBLE_CHAR : `${VISIBLE_CHAR} ${rest.expr}`, rules: second === 1 ? [] : rest.rules };
  return [
    first === 0 ? String.raw`root ::= "<think></think>\n<learn>" guide "</learn>"` : String.raw`root ::= "<think>" think "</think>\n<learn>" guide "</learn>"`,
    ...(first === 0 ? [] : [`think ::= ${think.expr}`, ...think.rules]),
    `guide ::= ${guide.expr}`,
    ...guide.rules,
  ].join('\n');
}

/** The actor's grammar at full size (a call of FULL_REPLY_TOKENS.actor tokens or more, e.g. the default 400). */
export const ACTOR_REPLY_GBNF = replyGrammar('actor', FULL_REPLY_TOKENS.actor);
/** The meta-agent's grammar at full size (a call of FULL_REPLY_TOKENS.learn tokens or more, e.g. the default 4,096). */
export const LEARN_REPLY_GBNF = replyGrammar('learn', FULL_REPLY_TOKENS.learn);

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

/**
 * The GBNF text of a contract for a call of `maxTokens` (default: the full-size grammar).
 * @throws ReplyBudgetError when `maxTokens` is below MIN_REPLY_TOKENS[contract]
 */
export function grammarText(contract: ReplyContract, maxTokens: number = FULL_REPLY_TOKENS[contract]): string {
  return replyGrammar(contract, maxTokens);
}

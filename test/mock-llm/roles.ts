/**
 * Reading a chat request the way the mock needs it: the request shape check, the text of each
 * message, which Meta-TTL role (method.md, "Roles") a request is for, and the actor prompt's
 * parts (src/agents/actor-prompt.ts: `Follow this guide:`, the `[OBSERVATION]` / `[YOUR REPLY]` turns;
 * an older `Step i of S` line is still read).
 * Detection is by content only; the product's modules are not imported (reply.ts runs the
 * product's simulated model for the model `simulated`, and nothing else of it).
 */
import type { MockRole } from './interface.ts';

/** One chat message as received; content may be a string or OpenAI content parts. */
export interface ChatMessageIn {
  role: string;
  content: unknown;
}

/** The chat-completions body fields the mock reads. */
export interface ChatBody {
  model?: unknown;
  messages: ChatMessageIn[];
  stream?: unknown;
  stream_options?: { include_usage?: unknown } | null;
  [param: string]: unknown;
}

/** Check the request shape. @returns the body, or a message saying what is wrong with it. */
export function checkChatBody(body: unknown): ChatBody | string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return 'the body has no "messages" array';
  if (messages.length === 0) return '"messages" is empty';
  for (const [i, m] of messages.entries()) {
    if (m === null || typeof m !== 'object' || typeof (m as { role?: unknown }).role !== 'string') {
      return `messages[${i}] is not an object with a string "role"`;
    }
  }
  return body as ChatBody;
}

/** The text of a message: a string content, or the concatenated `text` of its content parts. */
export function messageText(message: ChatMessageIn): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
}

/** Total characters of all message texts (the basis of prompt_tokens). */
export function totalMessageChars(body: ChatBody): number {
  return body.messages.reduce((n, m) => n + messageText(m).length, 0);
}

/** The text of all system (or developer) messages, joined by blank lines. */
export function systemText(body: ChatBody): string {
  return body.messages.filter((m) => m.role === 'system' || m.role === 'developer').map(messageText).join('\n\n');
}

/** The text of the last user message ('' when there is none). */
export function lastUserText(body: ChatBody): string {
  const users = body.messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  return last ? messageText(last) : '';
}

/** The text of every user message, oldest first. */
export function userTexts(body: ChatBody): string[] {
  return body.messages.filter((m) => m.role === 'user').map(messageText);
}

const ACTOR_PREAMBLE_MARK = /expert player of text adventure games/i;
const ACTION_CONTRACT = /^\s*ACTION:/im;

/**
 * The role a request is for, in this order: actor when the system message has the actor
 * preamble; proposer / meta-agent when the system message asks for `<strategy>` / `<learn>`
 * (proposer first: its prompt quotes strategies that talk about `<learn>`, while a meta-prompt
 * never needs the proposer's tag); actor when the last user message carries the `ACTION:` reply
 * contract; the same tags in the last user message; otherwise generic.
 */
export function detectRole(body: ChatBody): MockRole {
  const system = systemText(body);
  const user = lastUserText(body);
  if (ACTOR_PREAMBLE_MARK.test(system)) return 'actor';
  if (/<strategy>/i.test(system)) return 'proposer';
  if (/<learn>/i.test(system)) return 'metaAgent';
  if (ACTION_CONTRACT.test(user)) return 'actor';
  if (/<strategy>/i.test(user)) return 'proposer';
  if (/<learn>/i.test(user)) return 'metaAgent';
  return 'generic';
}

/** `Step i of S` in the actor's user message: i, or null when absent. */
export function actorStep(userText: string): number | null {
  const match = /\bStep\s+(\d+)\s+of\s+\d+/i.exec(userText);
  return match ? Number(match[1]) : null;
}

/** The mark the mock writes into each actor reply, `(step k)`, so that a later request, whose
 * history shows that reply, tells its own step: the product does not number steps in the prompt
 * (the reference's layout does not). */
export function stepMark(step: number): string {
  return `(step ${step})`;
}
const STEP_MARK = /\(step (\d+)\)/;
/** Turns from which an unmarked history is taken as possibly cut by the product's window. */
const FULL_WINDOW = 5;

/**
 * The step an actor request is for, from its content only: `Step i of S` in the last user message
 * when there; else from the turns in the system message (`[YOUR REPLY]` sections, oldest first):
 * the latest reply carrying the mock's mark `(step k)`, at turn j of h, gives k + (h − j) + 1;
 * with no mark, h + 1 — exact while the product's window (5 turns) has not dropped a turn, so a
 * request with h ≥ 5 unmarked turns is `uncertain`.
 */
export function inferActorStep(body: ChatBody): { step: number; uncertain: boolean } {
  const explicit = actorStep(lastUserText(body));
  if (explicit !== null) return { step: explicit, uncertain: false };
  const replies = systemText(body).split('[YOUR REPLY]').slice(1);
  for (let j = replies.length - 1; j >= 0; j--) {
    const mark = STEP_MARK.exec(replies[j]!.split('[OBSERVATION]')[0]!);
    if (mark) return { step: Number(mark[1]) + (replies.length - 1 - j) + 1, uncertain: false };
  }
  return { step: replies.length + 1, uncertain: replies.length >= FULL_WINDOW };
}

/** The current observation: the last user message up to the reply contract (after an
 * `[OBSERVATION]` tag when it has one). */
export function actorObservation(userText: string): string {
  const start = userText.indexOf('[OBSERVATION]');
  const rest = start >= 0 ? userText.slice(start + '[OBSERVATION]'.length) : userText;
  const end = rest.search(/\n\s*Reply in exactly|^\s*REASONING:/im);
  return (end >= 0 ? rest.slice(0, end) : rest).trim();
}

/** The guiding prompt: system text after `Follow this guide:` up to the `Your most recent turns`
 * section ('' when there is no guide). */
export function actorGuide(system: string): string {
  const start = system.indexOf('Follow this guide:');
  if (start < 0) return '';
  const rest = system.slice(start + 'Follow this guide:'.length);
  const end = rest.search(/\n\s*\n\s*Your most recent turns/i);
  return (end >= 0 ? rest.slice(0, end) : rest).trim();
}

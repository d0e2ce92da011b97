/**
 * Fitting the meta-agent's growing chat into its model's context window: before each call the
 * chat is counted; while it would not leave room for the reply, the oldest episode logs (with
 * the replies to them) are dropped; if the newest log alone is still too long, its first step
 * lines are cut. Every cut is reported for the user (`notice`); nothing about it is sent to the
 * model, whose messages hold only the meta-prompt, the logs and its own replies. Also used for the
 * baselines' single-log calls (an empty history), so their logs fit the same way.
 */
import { countChatTokens, type TokenCounter } from '../llm/token-count.ts';
import type { ChatMessage } from '../llm/interface.ts';

export interface ChatTurn {
  episode: number;
  userMessage: string;
  reply: string;
}

export interface FittedChat {
  messages: ChatMessage[];
  /** The new user message as sent (the log, possibly shortened). */
  userMessage: string;
  droppedEpisodes: number[];
  /** Steps cut from the start of the newest log. */
  cutSteps: number;
  notice: string | null;
}

export interface ChatBudget {
  count: TokenCounter;
  /** The model's context window, tokens. */
  contextWindow: number;
  /** Tokens kept free for the reply (the role's max tokens). */
  replyReserve: number;
  /** Whose chat, for the notice (default "meta-agent's"). */
  who?: string;
}

const range = (eps: number[]): string => (eps.length === 1 ? `episode ${eps[0]}` : `episodes ${eps[0]}–${eps[eps.length - 1]}`);

export function fitChat(system: string, history: readonly ChatTurn[], newLog: string, budget: ChatBudget): FittedChat {
  const limit = budget.contextWindow - budget.replyReserve;
  const build = (turns: readonly ChatTurn[], user: string): ChatMessage[] => [
    { role: 'system', content: system },
    ...turns.flatMap((t): ChatMessage[] => [{ role: 'user', content: t.userMessage }, { role: 'assistant', content: t.reply }]),
    { role: 'user', content: user },
  ];
  const kept = [...history];
  const dropped: number[] = [];
  let user = newLog;
  while (kept.length > 0 && countChatTokens(build(kept, user), budget.count) > limit) dropped.push(kept.shift()!.episode);
  let cutSteps = 0;
  if (countChatTokens(build(kept, user), budget.count) > limit) {
    const lines = newLog.split('\n');
    const stepLines = lines.map((l, i) => (l.startsWith('[STEP ') ? i : -1)).filter((i) => i >= 0);
    while (cutSteps < stepLines.length && countChatTokens(build(kept, user), budget.count) > limit) {
      cutSteps++;
      const cut = new Set(stepLines.slice(0, cutSteps));
      user = lines.filter((_, i) => !cut.has(i)).join('\n');
    }
  }
  const notices: string[] = [];
  if (dropped.length) notices.push(`The logs of ${range(dropped)} were dropped from the ${budget.who ?? "meta-agent's"} chat to fit its ${budget.contextWindow}-token context window.`);
  if (cutSteps) notices.push(`The first ${cutSteps} steps of the newest log were cut to fit the ${budget.contextWindow}-token context window.`);
  return { messages: build(kept, user), userMessage: user, droppedEpisodes: dropped, cutSteps, notice: notices.length ? notices.join(' ') : null };
}

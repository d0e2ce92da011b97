/**
 * Fitting the meta-agent's growing chat into its model's context window: before each call the
 * chat is counted; while it would not leave room for the reply, the oldest episode logs (with
 * the replies to them) are dropped; if the newest log alone is still too long, its first step
 * lines are cut. Every cut is announced in one line to the model and reported for the user.
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
  /** The new user message as sent (with the notice line, possibly shortened). */
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
  const withNotice = (log: string, cut: number): string => {
    const parts: string[] = [];
    if (dropped.length) parts.push(`(Note: the logs of ${range(dropped)} were removed from this conversation to fit your context window.)`);
    if (cut) parts.push(`(Note: the first ${cut} steps of this log were cut to fit your context window.)`);
    return parts.length ? `${parts.join(' ')}\n${log}` : log;
  };
  let user = withNotice(newLog, 0);
  while (kept.length > 0 && countChatTokens(build(kept, user), budget.count) > limit) {
    dropped.push(kept.shift()!.episode);
    user = withNotice(newLog, 0);
  }
  let cutSteps = 0;
  if (countChatTokens(build(kept, user), budget.count) > limit) {
    const lines = newLog.split('\n');
    const stepLines = lines.map((l, i) => (l.startsWith('[STEP ') ? i : -1)).filter((i) => i >= 0);
    while (cutSteps < stepLines.length && countChatTokens(build(kept, user), budget.count) > limit) {
      cutSteps++;
      const cut = new Set(stepLines.slice(0, cutSteps));
      user = withNotice(lines.filter((_, i) => !cut.has(i)).join('\n'), cutSteps);
    }
  }
  const notices: string[] = [];
  if (dropped.length) notices.push(`The logs of ${range(dropped)} were dropped from the meta-agent's chat to fit its ${budget.contextWindow}-token context window.`);
  if (cutSteps) notices.push(`The first ${cutSteps} steps of the newest log were cut to fit the context window.`);
  return { messages: build(kept, user), userMessage: user, droppedEpisodes: dropped, cutSteps, notice: notices.length ? notices.join(' ') : null };
}

/**
 * The actor's prompt (method.md, "Actor prompt"): system = fixed player preamble (with the parser
 * advice) + the current guiding prompt + the last N (observation, reply) pairs of this episode;
 * user = the current observation + the two-line reply contract. The reference's layout, except
 * that its parser advice follows the observation: ours is part of the preamble, so it stays in the
 * prefix a provider caches (docs/method.md). Like the reference, the prompt does not number the
 * steps or show the score, and it is never longer than the reference's for the same trajectory
 * (bench/token-bench.ts).
 */
import type { ChatMessage } from '../llm/interface.ts';

/** The fixed player preamble, with practical parser advice (the reference gives similar advice;
 * these are our own words). */
export const ACTOR_PREAMBLE =
  'You are an expert player of text adventure games (interactive fiction). You explore carefully, ' +
  'pick up and use objects, solve puzzles and try to maximise your score. Each turn you type one ' +
  'short command for the game parser, such as "north", "take lamp", "open mailbox" or "inventory".\n' +
  'The parser is simple: use a verb and a one-word noun ("take key", not "pick up the small brass key"); ' +
  'if the game did not understand or refused a command, do not type it again — rephrase it or try something else; ' +
  'never type commands about the game itself (save, restore, restart, quit, undo, score, help).';

export const REPLY_CONTRACT = 'Reply in exactly two lines:\nREASONING: <one or two sentences>\nACTION: <a short parser command>';

/** The default episode-1 guiding prompt (method.md: a one-line "explore systematically"). */
export const DEFAULT_GUIDING_PROMPT = 'Explore systematically: visit every room, examine what you find and try to increase your score.';

/** Default number of recent (observation, reply) pairs shown to the actor. */
export const DEFAULT_HISTORY_LENGTH = 5;

export interface ActorTurn {
  observation: string;
  reply: string;
}

export interface ActorContext {
  guidingPrompt: string;
  /** This episode's earlier turns, oldest first; only the last `historyLength` are shown. */
  history: ActorTurn[];
  observation: string;
  /** The environment's preamble and reply contract (default: the Z-machine's). */
  texts?: { actorPreamble: string; replyContract: string };
}

/**
 * The actor's two messages for one step: `[system, user]` as described above. `historyLength`
 * (default 5) is N; 0 shows no turns.
 */
export function buildActorMessages(ctx: ActorContext, historyLength = DEFAULT_HISTORY_LENGTH): ChatMessage[] {
  const recent = historyLength > 0 ? ctx.history.slice(-historyLength) : [];
  let system = `${ctx.texts?.actorPreamble ?? ACTOR_PREAMBLE}\n\nFollow this guide:\n${ctx.guidingPrompt.trim() || '(no guide yet)'}`;
  if (recent.length > 0) {
    system += '\n\nYour most recent turns in this episode (oldest first):';
    for (const turn of recent) system += `\n[OBSERVATION]\n${turn.observation.trim()}\n[YOUR REPLY]\n${turn.reply.trim()}`;
  }
  const user = `${ctx.observation.trim()}\n\n${ctx.texts?.replyContract ?? REPLY_CONTRACT}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

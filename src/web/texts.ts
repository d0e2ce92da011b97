/**
 * What the actor's prompt and the meta-agent's log header say about web tasks (the web
 * counterparts of ACTOR_PREAMBLE, REPLY_CONTRACT and META_PROMPT_HEADER in src/agents). No DOM.
 */
import { WEB_ACTION_SIGNATURES } from './actions.ts';
import type { EnvironmentTexts } from './interface.ts';

export const WEB_ACTOR_PREAMBLE =
  'You are an expert web agent. You complete a task on a website by acting on its page, one action per turn. ' +
  'Each turn you see the goal, the open tab and the page as an accessibility tree in which every element you can act on has an id in brackets, e.g. [12] button \'Add to Cart\'. ' +
  `Actions: ${WEB_ACTION_SIGNATURES.join(', ')}. ` +
  "When the goal asks for information, answer with send_msg_to_user('your answer'); when it asks you to change something or open a page, do it and then send_msg_to_user('done'). " +
  "If the task cannot be done on this site, answer send_msg_to_user('N/A'). Sending a message ends the episode.";

export const WEB_REPLY_CONTRACT = "Reply in exactly two lines:\nREASONING: <one or two sentences>\nACTION: <one action, e.g. click('12') or fill('7', 'desk lamp')>";

export const WEB_LOG_HEADER = `You coach a web agent. The agent (the actor) is a language model that does the same task on the same website from the same starting page several times; each attempt is an episode with a limited number of steps. Before every episode the actor receives a guiding prompt written by you, and it follows it.

After each episode you receive its log:
- a header with the episode number and the guiding prompt the actor used;
- one line per step: [STEP i] [OBS] the goal, the URL, the last action's error if any and the page's accessibility tree (elements as [id] role 'name') [ACTION] the action the actor took [REWARD] the reward of that action [CUM_REWARD] the episode's reward so far. "(same as previous step)" means the page did not change;
- [FINAL OBS] the last page, and [EPISODE END] how the episode ended and its reward: 1 when the task was done (the right answer sent, the right page open, or the right change made on the site), else 0.

The site starts identically every episode, so what worked will work again and what failed will fail again. Your goal is that the next episode succeeds.`;

/** The actor's fallback when no action can be parsed (a step that changes nothing). */
export const WEB_FALLBACK_ACTION = 'noop()';

export const WEB_TEXTS: EnvironmentTexts = {
  actorPreamble: WEB_ACTOR_PREAMBLE,
  replyContract: WEB_REPLY_CONTRACT,
  logHeader: WEB_LOG_HEADER,
  fallbackAction: WEB_FALLBACK_ACTION,
};

/** The default episode-1 guiding prompt for a web task (the Z-machine's is DEFAULT_GUIDING_PROMPT). */
export const WEB_DEFAULT_GUIDING_PROMPT = 'Read the goal, find the page that has what it asks for (use search, menus and links), do what it asks, then send your answer with send_msg_to_user.';

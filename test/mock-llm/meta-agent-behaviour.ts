/**
 * The mock meta-agent (method.md, "Meta-agent"): reads every episode log in its chat and answers
 * `<think>…</think><learn>…</learn>`, the learn text being a guide built from the logs — a
 * numbered `PLAN:` that replays the best-scoring actions, and an `Avoid:` line for actions that
 * lost points. Pure functions of the request content.
 */
import { DEFAULT_EXPLORE_COMMANDS } from './actor-behaviour.ts';
import { bestReplayPlan, hintPlan, losingActions, parseEpisodeLogs, type ParsedEpisode } from './episode-log.ts';
import { indexFromText } from './hash.ts';
import type { MetaAgentReply } from './interface.ts';
import { plural } from '../../src/agents/plural.ts';

/** The chosen reply, a label for the request log, and a problem when no log was found. */
export interface MetaAgentAnswer {
  text: string;
  behaviour: string;
  problem: string | null;
}

/** A numbered plan block: `PLAN:` then `1. <command>` lines. */
export function planBlock(commands: readonly string[]): string {
  return ['PLAN:', ...commands.map((c, i) => `${i + 1}. ${c}`)].join('\n');
}

/**
 * Three exploration commands replacing the log's first three actions: for each k, the first
 * command of the exploration list (from a content-derived offset) that differs from action k.
 */
export function changedOpening(episodes: readonly ParsedEpisode[], explore: readonly string[]): string[] {
  const list = explore.length > 0 ? explore : DEFAULT_EXPLORE_COMMANDS;
  const last = episodes[episodes.length - 1]?.steps ?? [];
  const offset = indexFromText(last.map((s) => s.action).join('\n'), list.length);
  const opening: string[] = [];
  for (let k = 0; k < 3; k++) {
    const old = last[k]?.action.toLowerCase();
    let pick = list[(offset + k) % list.length]!;
    for (let j = 1; j < list.length && pick.toLowerCase() === old; j++) pick = list[(offset + k + j) % list.length]!;
    opening.push(pick);
  }
  return opening;
}

/**
 * The guide built from all episode logs of the chat: the best replay plan (highest CUM_REWARD
 * over all logs) with an `Avoid:` line, or — when no step ever scored — advice to explore
 * differently with a three-command plan changed from the last log's opening.
 */
export function buildGuide(episodes: readonly ParsedEpisode[], explore: readonly string[], prefix: readonly string[] = []): string {
  const last = episodes[episodes.length - 1];
  const hinted = last ? hintPlan(last) : null;
  if (hinted) {
    return [planBlock(hinted), 'The game told us what to do at the point where the last episode failed; the plan ends with it. Then explore.'].join('\n');
  }
  const fromLogs = bestReplayPlan([...episodes]);
  // A route passed on by the strategy (PLAN PREFIX) wins when it is longer than what the logs show.
  const plan = prefix.length > (fromLogs?.commands.length ?? 0) ? { commands: [...prefix], cumReward: fromLogs?.cumReward ?? 0, lastStep: prefix.length } : fromLogs;
  const avoid = losingActions([...episodes]).filter((a) => !plan?.commands.includes(a));
  const avoidLine = avoid.length > 0 ? [`Avoid: ${avoid.join(', ')}`] : [];
  if (!plan) {
    return ['No points were scored yet: explore differently from the last episode.', planBlock(changedOpening(episodes, explore)), ...avoidLine].join('\n');
  }
  return [
    planBlock(plan.commands),
    ...avoidLine,
    `After the last command (it reached ${plural(plan.cumReward, 'point')} at step ${plan.lastStep}), explore places you have not visited yet; this is attempt ${episodes.length + 1}, so try what earlier attempts did not.`,
  ].join('\n');
}

/** The meta-agent reply for the chat's user messages (all are read; logs accumulate). */
/** Commands of a `PLAN PREFIX: a; b; c` line in the meta-prompt's strategy, if any. */
export function planPrefixIn(system: string): string[] {
  const line = /PLAN PREFIX:\s*(.+)$/m.exec(system);
  return line ? line[1]!.split(';').map((c) => c.trim()).filter(Boolean) : [];
}

export function metaAgentAnswer(userMessages: readonly string[], mode: MetaAgentReply, explore: readonly string[], system = ''): MetaAgentAnswer {
  const episodes = userMessages.flatMap((m) => parseEpisodeLogs(m));
  // The memory baseline's rewrite call (src/ttl/policies/memory-policy.ts) reads summaries, not logs.
  const memoryRewrite = /summaries of all its attempts/i.test(system);
  const problem = episodes.length === 0 && !memoryRewrite ? 'meta-agent request without an episode log ([STEP i] … [ACTION] … [REWARD] …)' : null;
  const best = bestReplayPlan(episodes);
  const think = `<think>Read ${plural(episodes.length, 'episode log')}; ${best ? `the best reached ${plural(best.cumReward, 'point')} at step ${best.lastStep}` : 'no step scored'}.</think>`;
  if (mode === 'empty') return { text: `${think}\n<learn></learn>`, behaviour: 'metaAgent:empty', problem };
  if (mode === 'missing') return { text: `${think}\nI have nothing to add this time.`, behaviour: 'metaAgent:missing', problem };
  return { text: `${think}\n<learn>\n${buildGuide(episodes, explore, planPrefixIn(system))}\n</learn>`, behaviour: 'metaAgent:build', problem };
}

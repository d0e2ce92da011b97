/**
 * The mock proposer (method.md, "Outer loop", step e): reads the reflective dataset and answers a
 * new strategy section inside `<strategy>…</strategy>`, built from the record (the game's max
 * score, the best score reached, the commands that gained and lost points), or one of the
 * failure shapes the product must reject; a request carrying a person's `<feedback>` instead of
 * a record is answered (in 'build' mode) with the parent strategy plus a line quoting it. Pure
 * functions of the request content.
 */
import { bestCumReward, bestReplayPlan, losingActions, parseEpisodeLogs, scoringActions } from './episode-log.ts';
import type { ProposerReply } from './interface.ts';
import { NO_TRACE_NOTE } from '../../src/evolve/rules/llm-proposer.ts';

/** The chosen reply, its finish_reason, a label for the log, and a problem when no log was found. */
export interface ProposerAnswer {
  text: string;
  finishReason: 'stop' | 'length';
  behaviour: string;
  problem: string | null;
}

/** The game's max score named in the record ("max score 350", "out of a possible 350"), or null. */
export function maxScoreIn(record: string): number | null {
  const match =
    /max(?:imum)?[\s_-]*(?:possible[\s_-]*)?score\D{0,20}?(-?\d+)/i.exec(record) ??
    /out of a possible\s+(-?\d+)/i.exec(record);
  return match ? Number(match[1]) : null;
}

/** The parent strategy: the text between `<current_strategy>` and `</current_strategy>`, or null. */
export function currentStrategyIn(text: string): string | null {
  const match = /<current_strategy>([\s\S]*?)<\/current_strategy>/i.exec(text);
  return match ? match[1]! : null;
}

/** A strategy section built from the record. */
export function buildStrategy(record: string): string {
  const episodes = parseEpisodeLogs(record);
  const max = maxScoreIn(record);
  const best = bestCumReward(episodes);
  const scoring = scoringActions(episodes);
  const losing = losingActions(episodes);
  return [
    `Rules for the guide you write (the game's max score is ${max ?? 'unknown'}; the best episode in the record reached ${best ?? 'no score'}):`,
    scoring.length > 0
      ? `1. Always end your <learn> with a PLAN: listing the scoring commands in order: ${scoring.join(', ')} — as numbered lines "1. <command>", with the moves needed between them, replaying the best episode up to its last scoring step.`
      : '1. Always end your <learn> with a PLAN: of numbered commands; no command has scored yet, so change the first three commands and explore rooms not yet visited.',
    losing.length > 0 ? `2. Add a line "Avoid: ${losing.join(', ')}" — these commands lost points.` : '2. Add a line "Avoid: <commands>" naming any command that lost points.',
    '3. Keep what scored before; change only what comes after the last scoring command.',
    ...planPrefixLine(episodes),
  ].join('\n');
}

/** A strategy line carrying the record's best replay plan, for the meta-agent to pass on from
 * episode 2 of every later session: `PLAN PREFIX: a; b; c`. */
function planPrefixLine(episodes: ReturnType<typeof parseEpisodeLogs>): string[] {
  const plan = bestReplayPlan(episodes);
  return plan ? [`4. Start every PLAN with this proven route (it reached ${plan.cumReward} points). PLAN PREFIX: ${plan.commands.join('; ')}`] : [];
}

/**
 * The proposer reply. The record is read from the user messages, or from all messages when the
 * user messages hold no episode log.
 * @param texts every message's text, in order; @param userMessages the user messages' texts
 */
export function proposerAnswer(texts: readonly string[], userMessages: readonly string[], mode: ProposerReply): ProposerAnswer {
  const fromUsers = userMessages.join('\n\n');
  const record = parseEpisodeLogs(fromUsers).length > 0 ? fromUsers : texts.join('\n\n');
  // A person's feedback takes the place of the record (the Evolve view's "Edit as new candidate").
  const feedback = /<feedback>\n?([\s\S]*?)\n?<\/feedback>/i.exec(fromUsers)?.[1]?.trim() ?? null;
  // The proposer without the trace (llm-proposer.ts NO_TRACE_NOTE) is asked, by design, with no record.
  const noTrace = texts.some((t) => t.includes(NO_TRACE_NOTE));
  const problem = parseEpisodeLogs(record).length === 0 && feedback === null && !noTrace ? 'proposer request without an episode log in the record' : null;
  const behaviour = `proposer:${mode}`;
  if (feedback !== null && mode === 'build') {
    const parent = (texts.map(currentStrategyIn).find((s) => s !== null) ?? '').trim();
    return { text: `<strategy>\n${[parent, `From a person's feedback: ${feedback}`].filter(Boolean).join('\n')}\n</strategy>`, finishReason: 'stop', behaviour: 'proposer:feedback', problem };
  }
  switch (mode) {
    case 'empty':
      return { text: '<strategy></strategy>', finishReason: 'stop', behaviour, problem };
    case 'truncated':
      return { text: '', finishReason: 'length', behaviour, problem };
    case 'unchanged': {
      const parent = texts.map(currentStrategyIn).find((s) => s !== null) ?? '';
      return { text: `<strategy>${parent}</strategy>`, finishReason: 'stop', behaviour, problem };
    }
    case 'fenced':
      return { text: `Here is the improved strategy section:\n\n\`\`\`\n${buildStrategy(record)}\n\`\`\``, finishReason: 'stop', behaviour, problem };
    case 'build':
      return { text: `<strategy>\n${buildStrategy(record)}\n</strategy>`, finishReason: 'stop', behaviour, problem };
  }
}

/**
 * The reflective proposer (method.md 2e; GEPA's reflective mutation): an LLM reads the parent's
 * strategy section and the reflective dataset and writes a new strategy section inside
 * `<strategy>…</strategy>` (the first fenced block is accepted as a fallback). Empty, truncated
 * and unchanged proposals are failures (charged by the loop).
 *
 * Two instructions, recorded in the run's config: `gepa` (the default) asks, like GEPA's default
 * reflection prompt (InstructionProposalSignature), to keep every niche, domain-specific fact the
 * logs revealed as well as any general strategy — this is what grows the method's fact banks;
 * `general-rules` (an ablation, and what runs made before the choice existed used) asks for
 * general rules about learning from logs and no walkthrough of one game.
 */
import { META_PROMPT_FOOTER, META_PROMPT_HEADER } from '../../agents/meta-prompt.ts';
import type { EnvironmentKind } from '../../web/interface.ts';
import { WEB_LOG_HEADER } from '../../web/texts.ts';
import type { ChatMessage } from '../../llm/interface.ts';
import { isCutOff } from '../../llm/finish-reason.ts';

/** What the proposer is shown besides the parent: 'full' (absent) = the reflective dataset of the
 * parent's worst run on the minibatch; 'no-trace' = nothing (an ablation: it rewrites the parent
 * from its text alone, so a gap between the two arms is what reading the trajectory adds). */
export type ProposerInput = 'full' | 'no-trace';

/** Which instruction the proposer follows (see the module comment). */
export type ProposerInstruction = 'gepa' | 'general-rules';

export const PROPOSER_INSTRUCTIONS: Record<ProposerInstruction, { label: string; text: string }> = {
  gepa: {
    label: 'Keep game facts (as GEPA)',
    text: 'Study the logs and the feedback closely. Put into the strategy section every niche, game-specific fact they reveal that helped or would help (routes, object uses, puzzle solutions, commands the parser accepts or rejects, dangers), because the meta-agent will not otherwise know them; and, if a general way of learning from the logs worked, keep that too.',
  },
  'general-rules': {
    label: 'General rules only (ablation)',
    text: 'Write general rules about how to learn from episode logs, not a walkthrough of one game.',
  },
};

/** What the meta-agent's player does, in a proposer's words (a game or a web task). */
export const playerSubject = (kind: EnvironmentKind): string => (kind === 'web' ? 'does a task on a website several times' : 'plays a text adventure game several times');

/** The meta-prompt's fixed header and footer, shown to a proposer for reference (GEPA's and OPRO's prompts). */
export function fixedPartsForReference(kind: EnvironmentKind): string {
  const header = kind === 'web' ? WEB_LOG_HEADER : META_PROMPT_HEADER;
  return `The fixed header (for reference):\n---\n${header}\n---\nThe fixed footer (for reference):\n---\n${META_PROMPT_FOOTER}\n---\n`;
}

/** The sentence a no-trace proposer's system prompt ends its instruction with. */
export const NO_TRACE_NOTE = 'In this run you are shown no logs of any session: improve the strategy section from its own text and the description above alone.';

function proposerSystem(instruction: ProposerInstruction, kind: EnvironmentKind = 'zmachine', input: ProposerInput = 'full'): string {
  return `You improve the adaptation policy of a meta-agent. The meta-agent coaches a language model that ${playerSubject(kind)} (episodes): after each episode it reads the log and writes the guiding prompt for the next episode. Its system prompt has three parts: a fixed header, a STRATEGY SECTION, and a fixed footer. You rewrite only the strategy section, so that the player's scores rise faster over the episodes (later episodes count more).

${fixedPartsForReference(kind)}
${PROPOSER_INSTRUCTIONS[instruction].text}${input === 'no-trace' ? ` ${NO_TRACE_NOTE}` : ''}

Answer with your reasoning, then the complete new strategy section inside <strategy>…</strategy>.`;
}

/** The proposer's system prompt with the default (GEPA-like) instruction. */
export const PROPOSER_SYSTEM = proposerSystem('gepa');

/**
 * @param kind the kind of the evolution's tasks: a web run shows the proposer the web log header
 * @param input 'no-trace': `dataset` is not shown (nor any part of it); the messages hold the
 *   parent's strategy and the fixed instructions only
 */
export function buildProposerMessages(parentStrategy: string, dataset: string, instruction: ProposerInstruction = 'gepa', kind: EnvironmentKind = 'zmachine', input: ProposerInput = 'full'): ChatMessage[] {
  if (input === 'no-trace') {
    return [
      { role: 'system', content: proposerSystem(instruction, kind, input) },
      { role: 'user', content: `The current strategy section (empty means none):\n<current_strategy>\n${parentStrategy}\n</current_strategy>\n\nWrite an improved strategy section.` },
    ];
  }
  return [
    { role: 'system', content: proposerSystem(instruction, kind) },
    {
      role: 'user',
      content: `The current strategy section (empty means none):\n<current_strategy>\n${parentStrategy}\n</current_strategy>\n\nA session played with it — its worst run:\n${dataset}\n\nWrite an improved strategy section.`,
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
    const cut = isCutOff(finishReason) || /<strategy>(?![\s\S]*<\/strategy>)/i.test(content);
    return { strategy: null, status: cut ? 'truncated' : 'empty' };
  }
  if (text === parentStrategy.trim()) return { strategy: null, status: 'unchanged' };
  return { strategy: text, status: 'ok' };
}

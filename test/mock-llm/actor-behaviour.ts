/**
 * The mock actor (method.md, "Actor prompt"): replies in the two-line contract `REASONING: …` /
 * `ACTION: …`, either from a fixed script indexed by the step, or by following the explicit plan
 * in the guiding prompt and otherwise exploring with a command chosen by a hash of the
 * observation and step. Pure functions of the request content.
 */
import { indexFromText } from './hash.ts';
import { stepMark } from './roles.ts';

/** Commands the followGuide actor explores with by default. */
export const DEFAULT_EXPLORE_COMMANDS: readonly string[] = [
  'look', 'north', 'south', 'east', 'west', 'up', 'down', 'take all', 'inventory', 'examine room',
];

/** What the actor needs from one request. */
export interface ActorInput {
  /** 1-based step (roles.ts inferActorStep). */
  step: number;
  observation: string;
  /** The guiding prompt ('' when none). */
  guide: string;
}

/** The chosen reply and a label for the request log. */
export interface ActorReply {
  text: string;
  /** 'actor:script', 'actor:followGuide:plan' or 'actor:followGuide:explore'. */
  behaviour: string;
}

/** The two-line reply contract of src/agents/actor-prompt.ts. */
export function actorReplyText(reasoning: string, action: string, step?: number): string {
  return `REASONING: ${reasoning}${step === undefined ? '' : ` ${stepMark(step)}`}\nACTION: ${action}`;
}

/** Script mode: script[step-1], past the end `look` (or `fallback`). */
export function scriptedReply(script: readonly string[], step: number, fallback = 'look'): ActorReply {
  const action = script[step - 1] ?? fallback;
  return { text: actorReplyText('Following the script.', action, step), behaviour: 'actor:script' };
}

const LIST_ITEM = /^\s*(?:\d+\s*[.)]|[-*•])\s+(.+?)\s*$/;
const DO_LINE = /^\s*DO:\s*(.+?)\s*$/i;

/** A command from a plan line: backticks and quotes removed, a trailing "(…)" note and full stop
 * dropped. */
function cleanPlanCommand(raw: string): string {
  return raw
    .replace(/\s+\([^)]*\)\s*$/, '')
    .replace(/^[`"']+|[`"']+$/g, '')
    .replace(/\.$/, '')
    .trim();
}

/**
 * The explicit commands of a guide, in order: `DO: <command>` lines anywhere, and list items
 * (`1. <command>`, `2) …`, `- …`, `* …`) directly under a line containing "PLAN" (any case). A
 * plan's list ends at the first other non-blank line after its first item.
 */
export function guidePlan(guide: string): string[] {
  const commands: string[] = [];
  let inPlan = false;
  let planItems = 0;
  for (const line of guide.split('\n')) {
    const doMatch = DO_LINE.exec(line);
    const item = LIST_ITEM.exec(line);
    if (doMatch) {
      commands.push(cleanPlanCommand(doMatch[1]!));
    } else if (inPlan && item) {
      commands.push(cleanPlanCommand(item[1]!));
      planItems++;
    } else if (/plan/i.test(line)) {
      inPlan = true;
      planItems = 0;
    } else if (line.trim() !== '' && planItems > 0) {
      inPlan = false;
    }
  }
  return commands.filter((c) => c !== '');
}

/** An exploration command for this observation, step and guide: a different guide explores
 * differently, so guidance changes behaviour even past the end of its plan. */
export function exploreCommand(explore: readonly string[], observation: string, step: number, guide = ''): string {
  const list = explore.length > 0 ? explore : DEFAULT_EXPLORE_COMMANDS;
  return list[indexFromText(`${guide}\n${observation}\n#${step}`, list.length)]!;
}

/** followGuide mode: the guide's plan at index step-1, else an exploration command. */
export function followGuideReply(input: ActorInput, explore: readonly string[]): ActorReply {
  const plan = guidePlan(input.guide);
  const planned = plan[input.step - 1];
  if (planned !== undefined) {
    return { text: actorReplyText(`Following the guide's plan, command ${input.step} of ${plan.length}.`, planned, input.step), behaviour: 'actor:followGuide:plan' };
  }
  const action = exploreCommand(explore, input.observation, input.step, input.guide);
  return { text: actorReplyText('No plan for this step, so I explore.', action, input.step), behaviour: 'actor:followGuide:explore' };
}

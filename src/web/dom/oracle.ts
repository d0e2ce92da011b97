/**
 * Runs an oracle (or wrong) script on a web environment: each step's target (role + accessible
 * name) is looked up in the accessibility tree the agent would see, and the step becomes the
 * BrowserGym action with that element's id. Used by `metattl oracle` and the tests that prove
 * every task solvable and every check discriminating. Uses no DOM globals.
 */
import { formatWebAction, type WebAction } from '../actions.ts';
import type { OracleStep, OracleTarget } from '../interface.ts';
import type { WebEnvironment, WebObservation } from './web-environment.ts';
import { MetattlError } from '../../common/errors.ts';

/** The result of a script: the final reward and each action with the observation after it. */
export interface ScriptRun {
  task: string;
  reward: number;
  steps: { action: string; observation: string }[];
  /** The observation after the last step (structured). */
  final: WebObservation;
}

/** A target the page does not show: the script (or the site) is wrong. */
export class OracleTargetError extends MetattlError {
  override readonly name = 'OracleTargetError';
  constructor(message: string) {
    super('oracle_target', message);
  }
}

function resolve(env: WebEnvironment, target: OracleTarget): string {
  const matches = env.axNodes.filter((n) => n.bid !== null && n.role === target.role && n.name === target.name);
  const node = matches[target.nth ?? 0];
  if (!node) throw new OracleTargetError(`no ${target.role} '${target.name}' on ${env.current.intent ? 'the page' : ''} (${matches.length} found)`);
  return node.bid!;
}

function toAction(env: WebEnvironment, step: OracleStep): WebAction {
  switch (step.action) {
    case 'click':
    case 'hover':
      return { type: step.action, bid: resolve(env, step.target) };
    case 'fill':
      return { type: 'fill', bid: resolve(env, step.target), text: step.text };
    case 'select_option':
      return { type: 'select_option', bid: resolve(env, step.target), option: step.option };
    case 'press':
      return { type: 'press', bid: resolve(env, step.target), key: step.key };
    case 'goto':
      return { type: 'goto', url: step.url };
    case 'go_back':
      return { type: 'go_back' };
    case 'send_msg_to_user':
      return { type: 'send_msg_to_user', text: step.text };
  }
}

/**
 * Reset `env` to its task's seed and play `script`; an episode not ended by the script is stopped
 * (the step-limit judgement). @throws OracleTargetError when a target is not on the page, Error when
 * an action fails (the error observation is quoted)
 */
export async function runScript(env: WebEnvironment, script: readonly OracleStep[]): Promise<ScriptRun> {
  let observation = await env.reset(env.task.seed);
  const steps: ScriptRun['steps'] = [];
  let reward = 0;
  let done = false;
  for (const step of script) {
    const action = formatWebAction(toAction(env, step));
    const result = await env.step(action);
    observation = result.observation;
    steps.push({ action, observation: observation.text });
    if (observation.lastActionError) throw new Error(`${env.task.id}: ${action} failed: ${observation.lastActionError}`);
    reward = result.score;
    done = result.done;
    if (done) break;
  }
  if (!done) {
    const result = await env.stop();
    reward = result.score;
    observation = result.observation;
  }
  return { task: env.task.id, reward, steps, final: observation };
}

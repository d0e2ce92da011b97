/**
 * Scripts for the mock LLM to play web tasks by: a task's goal and the bid actions of its oracle
 * (or wrong) script as played on the site in Node, and a guide that makes the mock's actor follow
 * a list of actions (`PLAN:` numbered lines).
 */
import { nodeWebEnvironment } from '../../src/cli/web-tasks.ts';
import { runScript } from '../../src/web/dom/oracle.ts';

/** The task's goal and its oracle's (or wrong script's) actions with their element ids. */
export async function webScript(taskId: string, wrong = false): Promise<{ goal: string; actions: string[] }> {
  const env = nodeWebEnvironment(taskId);
  await env.reset(env.task.seed);
  const goal = env.current.intent;
  const played = await runScript(env, wrong ? env.current.wrong : env.current.oracle);
  return { goal, actions: played.steps.map((s) => s.action) };
}

/** A guide the mock's actor follows step by step. */
export const planOf = (actions: readonly string[]): string => ['PLAN:', ...actions.map((a, i) => `${i + 1}. ${a}`)].join('\n');

/** The site's message after checking out without this week's coupon (web:shop/t47). */
export const T47_HINT = "No coupon was used: this week's code is on the My Account page.";

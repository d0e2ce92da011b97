/**
 * Choosing the mock's reply to a chat request: detect the role, then apply that role's scripted
 * behaviour (actor / meta-agent / proposer / generic). A request for the model `simulated` is
 * answered by the product's simulated model (src/llm/simulated-model.ts `simulatedReply`, seed 0,
 * as `--provider simulated` runs it in-process): the one place the mock runs product code, so the
 * server and the page give the same replies. The result depends only on the request body and the
 * options — never on arrival order, clocks or earlier requests.
 */
import { followGuideReply, scriptedReply } from './actor-behaviour.ts';
import { sha256Hex, canonicalJson } from './hash.ts';
import type { MockOptions, MockRole } from './interface.ts';
import { metaAgentAnswer } from './meta-agent-behaviour.ts';
import { currentStrategyIn, proposerAnswer } from './proposer-behaviour.ts';
import { SIMULATED_MODEL } from '../../src/llm/model-label.ts';
import { simulatedReply } from '../../src/llm/simulated-model.ts';
import type { ChatMessage } from '../../src/llm/interface.ts';
import { actorGuide, actorObservation, detectRole, inferActorStep, lastUserText, messageText, systemText, userTexts, type ChatBody } from './roles.ts';

/** The reply to a chat request, before any fault is applied. */
export interface ChosenReply {
  role: MockRole;
  /** Label for the request log, e.g. 'actor:script'. */
  behaviour: string;
  text: string;
  finishReason: 'stop' | 'length';
  /** Set when the request did not look like what the product should send for this role. */
  problem: string | null;
}

const FULL_WINDOW_TURNS = 5;

/** The actor's reply: the script when one is set, else follow the guide. */
function actorChoice(body: ChatBody, options: MockOptions): ChosenReply {
  const user = lastUserText(body);
  const { step, uncertain } = inferActorStep(body);
  const problem = uncertain ? `actor request whose step cannot be told (no "Step i of S", no (step k) mark in its ${FULL_WINDOW_TURNS}+ turns; step ${step} assumed)` : null;
  const observation = actorObservation(user);
  const byGoal = options.goalScripts?.find((g) => observation.includes(g.goal));
  const reply = byGoal
    ? { ...scriptedReply(byGoal.script, step, 'noop()'), behaviour: 'actor:goalScript' }
    : options.script
    ? scriptedReply(options.script, step)
    : followGuideReply({ step, observation: actorObservation(user), guide: actorGuide(systemText(body)) }, options.exploreCommands ?? []);
  return { role: 'actor', behaviour: reply.behaviour, text: reply.text, finishReason: 'stop', problem };
}

/** A fixed text derived from the messages, for requests of no known role. */
function genericChoice(body: ChatBody): ChosenReply {
  const digest = sha256Hex(canonicalJson(body.messages)).slice(0, 12);
  return { role: 'generic', behaviour: 'generic', text: `Mock reply ${digest} to ${body.messages.length} message(s).`, finishReason: 'stop', problem: null };
}

/**
 * The simulated model's reply (src/llm/simulated-model.ts): the role told from the request's
 * content (roles.ts; a request of no known role goes to the proposer's branch, which answers only
 * a strategy prompt, as in-process), developer messages read as system ones.
 */
function simulatedChoice(body: ChatBody): ChosenReply {
  const role = detectRole(body);
  const messages: ChatMessage[] = body.messages.map((m) => ({ role: m.role === 'user' || m.role === 'assistant' ? m.role : 'system', content: messageText(m) }));
  const text = simulatedReply(role === 'generic' ? 'proposer' : role, messages);
  return { role, behaviour: `${role}:simulated`, text, finishReason: 'stop', problem: null };
}

/** The reply a chat request gets when no fault hits it. */
export function chooseReply(body: ChatBody, options: MockOptions): ChosenReply {
  if (body.model === SIMULATED_MODEL) return simulatedChoice(body);
  const role = detectRole(body);
  if (role === 'actor') return actorChoice(body, options);
  if (role === 'metaAgent') {
    const latest = userTexts(body).at(-1) ?? '';
    const system = systemText(body);
    const rule = (options.metaAgentReply ?? 'build') === 'build'
      ? options.metaAgentRules?.find((r) => latest.includes(r.whenLogIncludes) && (r.whenSystemIncludes === undefined || system.includes(r.whenSystemIncludes)))
      : undefined;
    if (rule) return { role, behaviour: 'metaAgent:rule', text: `<think>The log says: ${rule.whenLogIncludes}</think>\n<learn>\n${rule.guide}\n</learn>`, finishReason: 'stop', problem: null };
    const answer = metaAgentAnswer(userTexts(body), options.metaAgentReply ?? 'build', options.exploreCommands ?? [], system);
    return { role, behaviour: answer.behaviour, text: answer.text, finishReason: 'stop', problem: answer.problem };
  }
  if (role === 'proposer') {
    const texts = body.messages.map(messageText);
    const parent = texts.map(currentStrategyIn).find((x) => x !== null) ?? '';
    const scripted = (options.proposerReply ?? 'build') === 'build' ? options.proposerRules?.find((r) => parent.includes(r.whenParentIncludes)) : undefined;
    if (scripted) return { role, behaviour: 'proposer:rule', text: `<strategy>\n${scripted.strategy}\n</strategy>`, finishReason: 'stop', problem: null };
    const answer = proposerAnswer(body.messages.map(messageText), userTexts(body), options.proposerReply ?? 'build');
    return { role, behaviour: answer.behaviour, text: answer.text, finishReason: answer.finishReason, problem: answer.problem };
  }
  return genericChoice(body);
}

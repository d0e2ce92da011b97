/**
 * The mock LLM's scripted role behaviours over HTTP: the actor (script, guide plan, exploration)
 * on the product's real actor prompt, the meta-agent's guide built from episode logs, and the
 * proposer's strategy built from a record, plus the tolerant episode-log parser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildActorMessages } from '../../src/agents/actor-prompt.ts';
import { parseActorReply } from '../../src/agents/reply-parser.ts';
import { actorReplyText, DEFAULT_EXPLORE_COMMANDS, guidePlan } from './actor-behaviour.ts';
import { parseEpisodeLogs } from './episode-log.ts';
import { detectRole, type ChatBody } from './roles.ts';
import type { MockLlm } from './interface.ts';
import { startMockLlm } from './server.ts';
import { chatBody, contentOf, META_PROMPT, postChat, proposerPrompt, sampleLog, type SampleStep } from './test-helpers.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ log: () => {} });
});
afterAll(() => mock.close());

/** Turns 1 … step − 1 as the mock answered them (its `(step k)` mark in each reply). */
function markedTurns(step: number): { observation: string; reply: string }[] {
  return Array.from({ length: step - 1 }, (_, i) => ({ observation: `Room ${i + 1}.`, reply: actorReplyText('Earlier.', 'look', i + 1) }));
}

/** The actor's command for step `step` with this guide, history (default: `markedTurns(step)`) and observation. */
async function actorAction(step: number, guidingPrompt: string, observation = 'West of House.', history = markedTurns(step)): Promise<string> {
  const messages = buildActorMessages({ guidingPrompt, history, observation });
  const reply = await postChat(mock, { model: 'actor-model', messages, temperature: 0.5 });
  const parsed = parseActorReply(contentOf(reply), 'stop');
  expect(parsed.status).toBe('ok');
  return parsed.action!;
}

/** The text inside <learn>…</learn> of a meta-agent reply. */
function learnOf(content: string): string {
  return /<learn>([\s\S]*)<\/learn>/.exec(content)![1]!.trim();
}

const SCORING: SampleStep[] = [
  ['West of House. There is a small mailbox here.', 'open mailbox', 0],
  ['Opening the mailbox reveals a leaflet.', 'take leaflet', 0],
  ['Taken.', 'north', 0],
  ['North of House.', 'east', 0],
  ['Behind House. A window is slightly ajar.', 'open window', 0],
  ['With great effort, you open the window.', 'enter window', 10],
  ['Kitchen. A bottle of water is here.', 'drink water', -5],
  ['Kitchen.', 'take sack', 3],
  ['Taken.', 'west', 0],
];

describe('actor', () => {
  it('plays the script by step index and `look` past its end', async () => {
    mock.setOptions({ script: ['open mailbox', 'take leaflet'] });
    try {
      expect(await actorAction(1, 'anything')).toBe('open mailbox');
      expect(await actorAction(2, 'anything')).toBe('take leaflet');
      expect(await actorAction(3, 'anything')).toBe('look');
      const last = mock.requests[mock.requests.length - 1]!;
      expect(last).toMatchObject({ role: 'actor', behaviour: 'actor:script', unexpected: false });
    } finally {
      mock.setOptions({ script: undefined });
    }
  });

  it("follows the guide's PLAN by step, then explores", async () => {
    const guide = 'Replay what scored.\nPLAN:\n1. open mailbox\n2. `take leaflet`\n3) north (to the house)\nThen look around.';
    // The turns' replies are not the mock's (no step mark): the step is 1 + the turns shown.
    const history = [{ observation: 'West of House.', reply: 'REASONING: x\nACTION: open mailbox' }];
    expect(await actorAction(1, guide)).toBe('open mailbox');
    expect(await actorAction(2, guide, 'Opened.', history)).toBe('take leaflet');
    expect(await actorAction(3, guide, 'Taken.', [...history, { observation: 'Opened.', reply: 'REASONING: y\nACTION: take leaflet' }])).toBe('north');
    expect(mock.requests[mock.requests.length - 1]!.behaviour).toBe('actor:followGuide:plan');
    const explored = await actorAction(4, guide, 'North of House.');
    expect(DEFAULT_EXPLORE_COMMANDS).toContain(explored);
    expect(mock.requests[mock.requests.length - 1]!.behaviour).toBe('actor:followGuide:explore');
  });

  it('reads DO: lines, ignores lists outside a plan, and stops the plan at prose', () => {
    expect(guidePlan('Tips:\n- be careful\nDO: open door\nPLAN\n- take key\n* unlock gate\nAfter that:\n- dance')).toEqual(['open door', 'take key', 'unlock gate']);
    expect(guidePlan('Explore systematically.')).toEqual([]);
  });

  it('explores deterministically: same observation and step, same command; the option list is used', async () => {
    const guide = 'Explore systematically.';
    const first = await actorAction(5, guide, 'A maze of twisty passages.');
    expect(await actorAction(5, guide, 'A maze of twisty passages.')).toBe(first);
    mock.setOptions({ exploreCommands: ['xyzzy', 'plugh'] });
    try {
      const commands = new Set<string>();
      for (let step = 1; step <= 12; step++) commands.add(await actorAction(step, guide, `Room ${step}.`));
      expect([...commands].sort()).toEqual(['plugh', 'xyzzy']);
    } finally {
      mock.setOptions({ exploreCommands: undefined });
    }
  });
});

describe('meta-agent', () => {
  it('builds a PLAN replaying the actions up to the best-scoring step, and an Avoid line', async () => {
    const reply = contentOf(await postChat(mock, chatBody(META_PROMPT, sampleLog(1, SCORING))));
    expect(reply).toMatch(/^<think>[\s\S]+<\/think>/);
    const learn = learnOf(reply);
    expect(guidePlan(learn)).toEqual(['open mailbox', 'take leaflet', 'north', 'east', 'open window', 'enter window']);
    expect(learn).toContain('Avoid: drink water');
    expect(mock.requests[mock.requests.length - 1]).toMatchObject({ role: 'metaAgent', behaviour: 'metaAgent:build', unexpected: false });
  });

  it('keeps the best plan over the growing chat (highest CUM_REWARD)', async () => {
    const good: SampleStep[] = [['Field.', 'north', 0], ['Forest.', 'climb tree', 25], ['Tree.', 'down', 0]];
    const worse: SampleStep[] = [['Field.', 'south', 0], ['Garden.', 'take egg', 5]];
    const messages = [
      { role: 'system', content: META_PROMPT },
      { role: 'user', content: sampleLog(1, good, true) },
      { role: 'assistant', content: '<think>…</think><learn>PLAN:\n1. north\n2. climb tree</learn>' },
      { role: 'user', content: sampleLog(2, worse) },
    ];
    const learn = learnOf(contentOf(await postChat(mock, { model: 'meta', messages })));
    expect(guidePlan(learn)).toEqual(['north', 'climb tree']);
  });

  it('without any positive reward, asks to explore differently with a changed opening', async () => {
    const none: SampleStep[] = [['Field.', 'look', 0], ['Field.', 'north', 0], ['Forest.', 'south', 0], ['Field.', 'east', 0]];
    const learn = learnOf(contentOf(await postChat(mock, chatBody(META_PROMPT, sampleLog(1, none)))));
    expect(learn).toMatch(/explore differently/i);
    const plan = guidePlan(learn);
    expect(plan).toHaveLength(3);
    plan.forEach((command, k) => {
      expect(DEFAULT_EXPLORE_COMMANDS).toContain(command);
      expect(command).not.toBe(none[k]![1]);
    });
  });

  it('answers an empty or a missing <learn> on request, and flags a request without a log', async () => {
    mock.setOptions({ metaAgentReply: 'empty' });
    expect(contentOf(await postChat(mock, chatBody(META_PROMPT, sampleLog(1, SCORING))))).toMatch(/<learn><\/learn>$/);
    mock.setOptions({ metaAgentReply: 'missing' });
    expect(contentOf(await postChat(mock, chatBody(META_PROMPT, sampleLog(1, SCORING))))).not.toContain('<learn>');
    mock.setOptions({ metaAgentReply: 'build' });
    await postChat(mock, chatBody(META_PROMPT, 'no log here'));
    expect(mock.requests[mock.requests.length - 1]).toMatchObject({ role: 'metaAgent', unexpected: true });
  });

  it('parses the log tokens on one line or several, with the same result', () => {
    const oneLine = parseEpisodeLogs(sampleLog(1, SCORING));
    expect(parseEpisodeLogs(sampleLog(1, SCORING, true))).toEqual(oneLine);
    expect(oneLine).toHaveLength(1);
    expect(oneLine[0]!.steps.map((s) => s.cumReward)).toEqual([0, 0, 0, 0, 0, 10, 5, 8, 8]);
    expect(oneLine[0]!.steps[1]!.observation).toBe('Opening the mailbox reveals a leaflet.');
    expect(parseEpisodeLogs(`${sampleLog(1, SCORING)}\n\n${sampleLog(2, SCORING)}`)).toHaveLength(2);
  });
});

describe('role detection and the closed loop', () => {
  const body = (system: string, user: string) => chatBody(system, user) as unknown as ChatBody;

  it('tells the roles apart by content, also in the mixed cases', () => {
    const actorMessages = buildActorMessages({ guidingPrompt: 'End with <learn>PLAN</learn>.', history: [], observation: 'Hall.' });
    expect(detectRole({ model: 'm', messages: actorMessages })).toBe('actor');
    expect(detectRole(body(proposerPrompt('Always end your <learn> with a PLAN.'), 'record'))).toBe('proposer');
    expect(detectRole(body(META_PROMPT, 'a log quoting a reply:\nACTION: north'))).toBe('metaAgent');
    expect(detectRole(body('Be brief.', 'Step 1 of 5.\nREASONING: …\nACTION: …'))).toBe('actor');
    expect(detectRole(body('Be brief.', 'Hello.'))).toBe('generic');
  });

  it("the guide-following actor replays the meta-agent's plan", async () => {
    const guide = learnOf(contentOf(await postChat(mock, chatBody(META_PROMPT, sampleLog(1, SCORING)))));
    const played: string[] = [];
    for (let step = 1; step <= 6; step++) played.push(await actorAction(step, guide, SCORING[step - 1]![0]));
    expect(played).toEqual(SCORING.slice(0, 6).map((s) => s[1]));
  });
});

describe('proposer', () => {
  const record = `Game max score: 350\n\n${sampleLog(1, SCORING)}\n\nScore trend: 8`;

  it('builds a <strategy> from the record: max score, scoring and losing commands', async () => {
    const reply = contentOf(await postChat(mock, chatBody(proposerPrompt(''), record)));
    const strategy = /^<strategy>([\s\S]+)<\/strategy>$/.exec(reply)![1]!;
    expect(strategy).toContain("max score is 350");
    expect(strategy).toContain('reached 10');
    expect(strategy).toContain('PLAN: listing the scoring commands in order: enter window, take sack');
    expect(strategy).toContain('Avoid: drink water');
    expect(mock.requests[mock.requests.length - 1]).toMatchObject({ role: 'proposer', behaviour: 'proposer:build', unexpected: false });
  });

  it('answers the failure shapes on request', async () => {
    const ask = async () => JSON.parse((await postChat(mock, chatBody(proposerPrompt('Old rule.\nKeep it.'), record))).text) as { choices: { message: { content: string }; finish_reason: string }[] };
    mock.setOptions({ proposerReply: 'unchanged' });
    expect((await ask()).choices[0]!.message.content).toBe('<strategy>Old rule.\nKeep it.</strategy>');
    mock.setOptions({ proposerReply: 'empty' });
    expect((await ask()).choices[0]!.message.content).toBe('<strategy></strategy>');
    mock.setOptions({ proposerReply: 'fenced' });
    const fenced = (await ask()).choices[0]!.message.content;
    expect(fenced).not.toContain('<strategy>');
    expect(fenced).toMatch(/```\nRules for the guide[\s\S]+\n```$/);
    mock.setOptions({ proposerReply: 'truncated' });
    expect((await ask()).choices[0]).toMatchObject({ message: { content: '' }, finish_reason: 'length' });
    mock.setOptions({ proposerReply: 'build' });
  });
});

describe('game hints after a failure', () => {
  it('the meta-agent replaces the failing last action with the command the game suggested', async () => {
    const { metaAgentAnswer } = await import('./meta-agent-behaviour.ts');
    const log = [
      '=== EPISODE 1 ===', 'Guiding prompt used:', 'Explore.', '',
      '[STEP 1] [OBS] A room with levers. [ACTION] pull red lever [REWARD] 1 [CUM_REWARD] 1',
      '[STEP 2] [OBS] Click. [ACTION] pull green lever [REWARD] 0 [CUM_REWARD] 1',
      '', '[FINAL OBS] You fall. Next time, try: PULL BLUE LEVER. *** You have died ***',
      '[EPISODE END] the game ended (death) after 2 steps. Final score: 1 out of 5.',
    ].join('\n');
    const answer = metaAgentAnswer([log], 'build', []);
    expect(answer.text).toContain('PLAN:\n1. pull red lever\n2. PULL BLUE LEVER');
  });
});

describe('the memory baseline\'s rewrite call', () => {
  it('is answered as a meta-agent call without flagging the missing episode log (it reads summaries)', async () => {
    const { metaAgentAnswer } = await import('./meta-agent-behaviour.ts');
    const system = 'You write the guide … You receive the summaries of all its attempts so far, oldest first. Answer as <think>…</think><learn>…</learn>.';
    expect(metaAgentAnswer(['Attempt 1: went north, scored nothing.'], 'build', [], system).problem).toBeNull();
    expect(metaAgentAnswer(['Attempt 1: went north, scored nothing.'], 'build', []).problem).toMatch(/without an episode log/);
  });
});

describe('the proposer without the trace', () => {
  it('is answered without flagging the missing episode log; any other proposer call without one is flagged', async () => {
    const { proposerAnswer } = await import('./proposer-behaviour.ts');
    const { buildProposerMessages } = await import('../../src/evolve/rules/llm-proposer.ts');
    const blind = buildProposerMessages('Explore.', 'ignored', 'gepa', 'zmachine', 'no-trace').map((m) => m.content);
    expect(proposerAnswer(blind, [blind[1]!], 'build').problem).toBeNull();
    const full = buildProposerMessages('Explore.', 'no log here', 'gepa', 'zmachine').map((m) => m.content);
    expect(proposerAnswer(full, [full[1]!], 'build').problem).toMatch(/without an episode log/);
  });
});

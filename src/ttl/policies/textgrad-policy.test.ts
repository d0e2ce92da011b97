/** The TextGrad baseline: the backward (critique) and update calls, the guide each leaves, faults. */
import { describe, expect, it } from 'vitest';
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import type { Trajectory, TrajectoryStep } from '../../agents/trajectory.ts';
import { LlmError } from '../../llm/errors.ts';
import type { ChatMessage, ChatModel, Completion } from '../../llm/interface.ts';
import { createPolicy } from './index.ts';
import { critiqueText, GRADIENT_PROMPT, TextGradPolicy, UPDATE_PROMPT } from './textgrad-policy.ts';

const step = (index: number, observation: string, action: string, reward: number, score: number): TrajectoryStep => ({
  index, observation, reply: `REASONING: r\nACTION: ${action}`, finishReason: 'stop', action, parseStatus: 'ok', extraActions: [],
  reward, score, moves: index, promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 1, costUsd: 0, error: null,
});
const trajectory: Trajectory = {
  format: 'metattl-trajectory-1', story: { title: 'Test', md5: '0'.repeat(32), maxScore: 10 }, seed: 0, maxSteps: 2,
  guidingPrompt: 'Explore.', actorModel: 'm', startObservation: 'Start room.', startScore: 0,
  steps: [step(1, 'Start room.', 'north', 0, 0), step(2, 'Hall. A key.', 'take key', 5, 5)],
  finalObservation: 'Taken.', termination: 'step_limit', stopReason: null, finalScore: 5, endReason: null,
  startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z',
};
const USAGE: Completion['usage'] = { promptTokens: 30, completionTokens: 7, reasoningTokens: 0, latencyMs: 0, costUsd: 0.002 };

/** Answers the scripted replies in order (an Error entry is thrown) and keeps every request. */
function scripted(replies: (string | Error)[]): ChatModel & { requests: ChatMessage[][] } {
  const requests: ChatMessage[][] = [];
  return {
    role: 'metaAgent', requests,
    settings: { model: 'scripted', maxTokens: 100 } as ChatModel['settings'],
    async complete(messages: ChatMessage[]): Promise<Completion> {
      requests.push(messages);
      const next = replies.shift();
      if (next === undefined) throw new Error('unexpected call');
      if (next instanceof Error) throw next;
      return { content: next, finishReason: 'stop', model: 'scripted', usage: USAGE } as Completion;
    },
  };
}
const window = { countTokens: (t: string) => Math.ceil(t.length / 4), contextWindow: 100_000 };
const LOG = formatEpisodeLog(1, trajectory);

describe('TextGradPolicy', () => {
  it('asks for a critique of the guide given the log, then applies it in an update step whose <learn> is the next guide', async () => {
    const model = scripted(['<think>hm</think>The guide never says to go north first; it should.', '<think>ok</think><learn>Go north, take the key.</learn>']);
    const update = await new TextGradPolicy(model, window).update(1, trajectory, 'Explore.');
    expect(update.guidingPrompt).toBe('Go north, take the key.');
    expect(model.requests).toEqual([
      [{ role: 'system', content: GRADIENT_PROMPT }, { role: 'user', content: `<guiding_prompt>\nExplore.\n</guiding_prompt>\n\nThe attempt played with it:\n${LOG}` }],
      [{ role: 'system', content: UPDATE_PROMPT }, {
        role: 'user',
        content: `<guiding_prompt>\nExplore.\n</guiding_prompt>\n\n<critique>\nThe guide never says to go north first; it should.\n</critique>\n\nThe attempt the critique is about:\n${LOG}`,
      }],
    ]);
    expect(update.exchanges.map((e) => [e.kind, e.learnStatus, e.guidingPromptAfter, e.usage?.costUsd])).toEqual([
      ['textual_gradient', null, 'Explore.', 0.002],
      ['textgrad_update', 'updated', 'Go north, take the key.', 0.002],
    ]);
    expect(update.exchanges.every((e) => e.afterEpisode === 1 && e.error === null)).toBe(true);
  });

  it('keeps the guide when the update reply has no <learn> (as the naive meta-agent), and skips the update when the critique is empty', async () => {
    const missing = await new TextGradPolicy(scripted(['Too vague.', 'Here is a better guide: go north.']), window).update(2, trajectory, 'Explore.');
    expect(missing.guidingPrompt).toBe('Explore.');
    expect(missing.exchanges.map((e) => e.learnStatus)).toEqual([null, 'missing']);
    const model = scripted(['<think>nothing to say</think>  ']);
    const empty = await new TextGradPolicy(model, window).update(2, trajectory, 'Explore.');
    expect(model.requests).toHaveLength(1);
    expect(empty.guidingPrompt).toBe('Explore.');
    expect(empty.exchanges).toHaveLength(1);
    expect(empty.exchanges[0]!.notice).toBe('The critique was empty: no update step; the guiding prompt is kept.');
  });

  it('records a failed critique call and keeps the guide; Stop is rethrown', async () => {
    const failed = await new TextGradPolicy(scripted([new LlmError('server', 'HTTP 500')]), window).update(1, trajectory, 'Explore.');
    expect(failed.guidingPrompt).toBe('Explore.');
    expect(failed.exchanges.map((e) => [e.kind, e.error?.kind])).toEqual([['textual_gradient', 'server']]);
    await expect(new TextGradPolicy(scripted([new LlmError('aborted', 'stopped')]), window).update(1, trajectory, 'Explore.')).rejects.toThrow('stopped');
  });

  it('is built from the "textgrad" spec with the meta-agent model', () => {
    const model = scripted([]);
    expect(createPolicy({ kind: 'textgrad' }, { reflectionModel: model, countTokens: window.countTokens, contextWindow: 1000 }).kind).toBe('textgrad');
    expect(critiqueText('<think>a</think>\n b \n')).toBe('b');
  });
});

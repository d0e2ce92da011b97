import { describe, expect, it } from 'vitest';
import { formatEpisodeLog, SAME_AS_PREVIOUS } from './episode-log.ts';
import type { Trajectory, TrajectoryStep } from './trajectory.ts';

const step = (index: number, observation: string, action: string, reward: number, score: number): TrajectoryStep => ({
  index, observation, reply: `REASONING: secret thoughts\nACTION: ${action}`, finishReason: 'stop', action, parseStatus: 'ok', extraActions: [],
  reward, score, moves: index, promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 1, costUsd: 0, error: null,
});

const trajectory: Trajectory = {
  format: 'metattl-trajectory-1', story: { title: 'Test', md5: '0'.repeat(32), maxScore: 10 }, seed: 0, maxSteps: 3,
  guidingPrompt: 'Explore.', actorModel: 'm', startObservation: 'Start room.', startScore: 0,
  steps: [step(1, 'Start room.\nA door.', 'open door', 0, 0), step(2, 'Start room.  A door.', 'north', 5, 5), step(3, 'Hall.', 'take key', -1, 4)],
  finalObservation: 'Taken.', termination: 'step_limit', stopReason: null, finalScore: 4, endReason: null,
  startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z',
};

describe('formatEpisodeLog', () => {
  it("follows method.md's format and leaves out the actor's reasoning", () => {
    expect(formatEpisodeLog(2, trajectory)).toBe(
      [
        '=== EPISODE 2 ===', 'Guiding prompt used:', 'Explore.', '',
        '[STEP 1] [OBS] Start room. A door. [ACTION] open door [REWARD] 0 [CUM_REWARD] 0',
        `[STEP 2] [OBS] ${SAME_AS_PREVIOUS} [ACTION] north [REWARD] 5 [CUM_REWARD] 5`,
        '[STEP 3] [OBS] Hall. [ACTION] take key [REWARD] -1 [CUM_REWARD] 4',
        '', '[FINAL OBS] Taken.',
        '[EPISODE END] the step limit was reached after 3 steps. Final score: 4 out of 10.',
      ].join('\n'),
    );
  });
});

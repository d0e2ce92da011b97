/**
 * The booth's captions: the guide's commands and how they changed, commands worded as what the
 * agent does, and one caption per replay frame — checked word for word on a small session, and on
 * every session shipped under public/replays/ (each episode introduced, every rewrite of the plan
 * named by its first changed command, every scoring step and every ending told with its score).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrajectoryStep } from '../agents/trajectory.ts';
import { replayFrames } from './replay.ts';
import { commandAsAction, episodeWon, guideChange, guideChangeText, guideCommands, sessionCaptions } from './session-captions.ts';
import type { SessionRecord } from './session-record.ts';

const REPLAYS = join(import.meta.dirname, '../../public/replays');

/** Every session record in the shipped files: a session export, or an evaluation's or evolution's sessions. */
function shippedSessions(): { name: string; record: SessionRecord }[] {
  const out: { name: string; record: SessionRecord }[] = [];
  for (const file of readdirSync(REPLAYS).filter((f) => f.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(join(REPLAYS, file), 'utf8')) as Record<string, unknown>;
    if (data.format === 'metattl-session-1') out.push({ name: file, record: data as unknown as SessionRecord });
    const nested = [...((data.sessions as { session?: SessionRecord }[] | undefined) ?? []), ...((data.metricCalls as { session?: SessionRecord }[] | undefined) ?? [])];
    nested.forEach((s, i) => s.session && out.push({ name: `${file} #${i + 1}`, record: s.session }));
  }
  return out;
}

const step = (index: number, action: string, score: number, reward: number): TrajectoryStep =>
  ({ index, action, score, reward, observation: '', reply: '', finishReason: 'stop', parseStatus: 'ok', extraActions: [], moves: index, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0, error: null }) as TrajectoryStep;

function episode(index: number, guidingPrompt: string, steps: TrajectoryStep[], termination: 'game_over' | 'step_limit', endReason: 'death' | 'victory' | null): SessionRecord['episodes'][number] {
  const finalScore = steps.at(-1)?.score ?? 0;
  return { index, guidingPrompt, steps, finalScore, termination, trajectory: { steps, finalScore, termination, endReason, startObservation: 'You wake.', finalObservation: '' } as never };
}

/** Three episodes of The Lever Room under a meta-agent: dies, scores 2 with a plan, wins with a rewritten one. */
const SMALL: SessionRecord = {
  format: 'metattl-session-1', id: 's', status: 'complete', stopReason: null, stopMessage: null, faultedEpisodes: 0, faults: [], scores: [0, 2, 5], wAuc: 0.5, averageScore: 7 / 3, bestScore: 5,
  startedAt: '', finishedAt: '', wallTimeMs: 0,
  config: { story: { id: 'lever-room', title: 'The Lever Room', md5: '', maxScore: 5 }, seed: 1, policy: { kind: 'meta', name: 'naive', strategy: '' }, episodes: 3, maxSteps: 4, initialGuidingPrompt: 'Explore.' } as never,
  episodes: [
    episode(1, 'Explore.', [step(1, 'pull blue lever', 0, 0)], 'game_over', 'death'),
    episode(2, 'PLAN:\n1. PULL YELLOW LEVER\n2. pull blue lever', [step(1, 'pull yellow lever', 1, 1), step(2, 'pull blue lever', 2, 1), step(3, 'n', 2, 0)], 'step_limit', null),
    episode(3, 'PLAN:\n1. pull red lever\n2. pull yellow lever', [step(1, 'pull red lever', 5, 5)], 'game_over', 'victory'),
  ],
  exchanges: [1, 2].map((afterEpisode) => ({ afterEpisode, kind: 'meta_agent', userMessage: '', reply: '', finishReason: 'stop', learnStatus: 'updated', guidingPromptAfter: '', droppedEpisodes: [], notice: null }) as never),
};

describe('the guide’s commands and their change', () => {
  it('reads the numbered and bulleted lines of a plan, lower-cased; prose lines are not commands', () => {
    expect(guideCommands('PLAN:\n1. PULL YELLOW LEVER\n2) north.\n- take  card\nThen explore the rest of the house and every room you have not seen yet.')).toEqual(['pull yellow lever', 'north', 'take card']);
    expect(guideCommands('1. Explore every room, examine everything you find, try each exit and note the score.')).toEqual([]);
    expect(guideCommands('Explore.')).toEqual([]);
  });

  it('classifies a change by the first command that differs', () => {
    expect(guideChange('Explore.', 'PLAN:\n1. pull yellow lever')).toMatchObject({ kind: 'first-plan', at: 0 });
    expect(guideChange('1. a lever', '1. a lever\n2. north')).toMatchObject({ kind: 'extended', at: 1 });
    expect(guideChange('1. a\n2. b', '1. a\n2. c\n3. d')).toMatchObject({ kind: 'rewritten', at: 1 });
    expect(guideChange('1. a\n2. b', '1. a')).toMatchObject({ kind: 'shortened', at: 1 });
    expect(guideChange('1. a\nGo.', '1. a\nHurry.')).toMatchObject({ kind: 'reworded', at: null });
    expect(guideChange('1. a', 'Explore.')).toMatchObject({ kind: 'dropped' });
    expect(guideChange('Explore.', 'Look around.')).toMatchObject({ kind: 'prose' });
    expect(guideChange(' Explore.', 'Explore.\n')).toMatchObject({ kind: 'same' });
  });

  it('words a change for an audience', () => {
    expect(guideChangeText(guideChange('1. pull yellow lever', '1. pull red lever\n2. pull yellow lever'))).toBe('the meta-agent has rewritten the guide — the agent now pulls the red lever first, then 1 more step');
    expect(guideChangeText(guideChange('1. take card', '1. take card\n2. e'), 'a person')).toBe('a person has added to the plan — the agent now goes east second');
    expect(guideChangeText(guideChange('1. a\n2. b', '1. a'))).toBe('the meta-agent has cut the plan to 1 step');
  });

  it('words a command as what the agent does; an unknown verb is quoted', () => {
    expect(commandAsAction('PULL YELLOW LEVER')).toBe('pulls the yellow lever');
    expect(commandAsAction('n')).toBe('goes north');
    expect(commandAsAction('go up')).toBe('goes up');
    expect(commandAsAction('x lamp')).toBe('examines the lamp');
    expect(commandAsAction('enter 290')).toBe('enters 290');
    expect(commandAsAction('push it')).toBe('pushes it');
    expect(commandAsAction('look')).toBe('looks around');
    expect(commandAsAction('carry the key')).toBe('types “carry the key”');
    expect(commandAsAction('iphone iphone')).toBe('types “iphone iphone”');
  });

  it('counts a game won at the max score or on a victory, never a step limit', () => {
    expect(episodeWon('game_over', 5, 5)).toBe(true);
    expect(episodeWon('game_over', 1, 5, 'victory')).toBe(true);
    expect(episodeWon('game_over', 0, 5, 'death')).toBe(false);
    expect(episodeWon('step_limit', 5, 5)).toBe(false);
  });
});

describe('the captions of a session', () => {
  it('tell a small session frame by frame', () => {
    const captions = sessionCaptions(SMALL);
    expect(captions).toHaveLength(replayFrames(SMALL).length);
    const changes = captions.filter((c, i) => i === 0 || c.headline !== captions[i - 1]!.headline).map((c) => `${c.event}: ${c.headline}`);
    expect(changes).toEqual([
      'start: Episode 1 of 3: The Lever Room — the agent starts with the guide “Explore.”',
      'end: Episode 1 of 3 is over: the agent died, with 0 of 5 points',
      'guide: After episode 1, the meta-agent reads what happened and rewrites the guide',
      'start: Episode 2 of 3: the meta-agent has written a plan — the agent now pulls the yellow lever first, then 1 more step',
      'score: Episode 2, step 1: +1 point — the agent pulls the yellow lever (1 of 5 points)',
      'score: Episode 2, step 2: +1 point — the agent pulls the blue lever (2 of 5 points)',
      'end: Episode 2 of 3 is over: out of steps, with 2 of 5 points — up from 0',
      'guide: After episode 2, the meta-agent reads what happened and rewrites the guide',
      'start: Episode 3 of 3: the meta-agent has rewritten the guide — the agent now pulls the red lever first, then 1 more step',
      'score: Episode 3, step 1: +5 points — the agent pulls the red lever (5 of 5 points)',
      'win: Episode 3 of 3: the agent won — 5 of 5 points!',
    ]);
    expect(captions.map((c) => c.detail)).toContain('Step 3 of 4 · the agent goes north · 2 of 5 points');
    expect(captions.at(-1)!.detail).toBe('Scores so far: 0, 2, 5 · W-AUC 0.633');
  });

  it('say the guide is fixed under the static policy', () => {
    const fixed = { ...SMALL, config: { ...SMALL.config, policy: { kind: 'static' } }, episodes: SMALL.episodes.map((e) => ({ ...e, guidingPrompt: 'Explore.' })), exchanges: [] } as SessionRecord;
    expect(sessionCaptions(fixed).filter((c) => c.event === 'start').map((c) => c.headline)).toContain('Episode 2 of 3: the same fixed guide again — nothing is rewritten between episodes');
  });

  const shipped = shippedSessions();
  it('cover the shipped recordings: sessions, and sessions inside an evaluation', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(3);
    const all = shipped.flatMap(({ record }) => sessionCaptions(record));
    expect(all.some((c) => c.event === 'guide')).toBe(true);
    expect(all.some((c) => c.event === 'score')).toBe(true);
  });

  for (const { name, record } of shipped) {
    it(`tell every episode, rewrite, score and ending of ${name}`, () => {
      const frames = replayFrames(record);
      const captions = sessionCaptions(record, frames);
      expect(captions).toHaveLength(frames.length);
      const max = record.config.story.maxScore;
      let guide: string | null = null;
      frames.forEach((frame, i) => {
        const { headline, event } = captions[i]!;
        if (frame.kind === 'episode_start') {
          expect(headline.startsWith(`Episode ${frame.episode} of ${record.config.episodes}: `)).toBe(true);
          const change = guide === null ? null : guideChange(guide, frame.guidingPrompt);
          if (record.config.policy.kind !== 'static' && change && change.at !== null && change.after[change.at] !== undefined) expect(headline).toContain(commandAsAction(change.after[change.at]!));
          guide = frame.guidingPrompt;
        } else if (frame.kind === 'step' && frame.step.reward > 0 && frame.step.action !== null) {
          expect(event).toBe('score');
          expect(headline).toContain(commandAsAction(frame.step.action));
        } else if (frame.kind === 'episode_end') {
          expect(headline).toContain(max === null ? `${frame.finalScore}` : `${frame.finalScore} of ${max} points`);
          const endReason = record.episodes.find((e) => e.index === frame.episode)?.trajectory?.endReason ?? null;
          expect(event === 'win').toBe(episodeWon(frame.termination, frame.finalScore, max, endReason));
        }
      });
    });
  }
});

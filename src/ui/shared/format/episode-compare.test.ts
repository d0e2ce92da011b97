/**
 * Episodes side by side, on a recorded Lever Room session (test/fixtures/recordings: K = 5, S = 10, scores
 * 0, 1, 3, 4, 4; episode 1 is one step long, episode 5 ten): the default pair is 1 and K, steps
 * are aligned by number with scores and changes, the shorter episode's side is empty past its end,
 * a faulted attempt never shows, and the live episode's steps are used while it runs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importSession } from '../../../ttl/session-io.ts';
import type { SessionRecord } from '../../../ttl/session-record.ts';
import { alignEpisodes, changeText, comparableEpisodes, defaultPair, scoreByStep, type ComparedEpisode } from './episode-compare.ts';

const RECORD = importSession(readFileSync(new URL('../../../../test/fixtures/recordings/lever-room-scripted.json', import.meta.url), 'utf8'));
const byIndex = (episodes: ComparedEpisode[], index: number): ComparedEpisode => episodes.find((e) => e.index === index)!;

describe('comparableEpisodes and defaultPair', () => {
  it('lists the ended episodes with their guides, start and final scores; the default pair is 1 and K', () => {
    const episodes = comparableEpisodes(RECORD);
    expect(episodes.map((e) => [e.index, e.steps.length, e.startScore, e.finalScore, e.termination])).toEqual([
      [1, 1, 0, 0, 'game_over'], [2, 2, 0, 1, 'game_over'], [3, 10, 0, 3, 'step_limit'], [4, 10, 0, 4, 'step_limit'], [5, 10, 0, 4, 'step_limit'],
    ]);
    expect(byIndex(episodes, 1).guidingPrompt).toBe('Explore.');
    expect(byIndex(episodes, 2).guidingPrompt).toMatch(/^PLAN:\n1\. PULL YELLOW LEVER\n/);
    expect(defaultPair(episodes)).toEqual([1, 5]);
  });

  it('needs two episodes for a default pair', () => {
    expect(defaultPair(comparableEpisodes({ ...RECORD, episodes: RECORD.episodes.slice(0, 1) }))).toBeNull();
    expect(defaultPair([])).toBeNull();
  });

  it('sets a faulted attempt aside: its steps never show, and an episode not played again is left out', () => {
    const record: SessionRecord = structuredClone(RECORD);
    const attempt = structuredClone(RECORD.episodes[3]!.steps.slice(0, 2)).map((s) => ({ ...s, action: 'FAULTED ATTEMPT' }));
    // Episode 4 faulted once and was played again (its record holds the clean attempt); episode 5 faulted and the session stopped.
    record.faults = [
      { phase: 'episode', episodeIndex: 4, kind: 'server', message: '500', steps: attempt, exchanges: [], at: '2026-01-01T00:00:00.000Z' },
      { phase: 'episode', episodeIndex: 5, kind: 'server', message: '500', steps: attempt, exchanges: [], at: '2026-01-01T00:00:01.000Z' },
    ];
    record.faultedEpisodes = 2;
    record.episodes[4] = { ...record.episodes[4]!, trajectory: null, steps: [], finalScore: null, termination: null };
    const episodes = comparableEpisodes(record);
    expect(episodes.map((e) => e.index)).toEqual([1, 2, 3, 4]);
    expect(episodes.flatMap((e) => e.steps.map((s) => s.action))).not.toContain('FAULTED ATTEMPT');
    expect(byIndex(episodes, 4).steps.map((s) => s.action)).toEqual(RECORD.episodes[3]!.steps.map((s) => s.action));
    expect(defaultPair(episodes)).toEqual([1, 4]);
  });

  it('uses the live steps of the episode being played, its start score from the first step', () => {
    const record: SessionRecord = structuredClone(RECORD);
    record.episodes[2] = { ...record.episodes[2]!, trajectory: null, steps: [], finalScore: null, termination: null };
    record.episodes.length = 3;
    const live = RECORD.episodes[2]!.steps.slice(0, 3);
    const episodes = comparableEpisodes(record, { index: 3, steps: live });
    const third = byIndex(episodes, 3);
    expect(third.steps.map((s) => s.action)).toEqual(['PULL YELLOW LEVER', 'PULL BLUE LEVER', 'pull blue lever']);
    expect([third.startScore, third.finalScore, third.termination]).toEqual([0, null, null]);
    expect(defaultPair(episodes)).toEqual([1, 3]);
  });
});

describe('alignEpisodes', () => {
  const episodes = comparableEpisodes(RECORD);

  it('puts step n of episode 1 beside step n of episode 5, the shorter side empty past its end', () => {
    const rows = alignEpisodes(byIndex(episodes, 1), byIndex(episodes, 5));
    expect(rows).toHaveLength(10);
    expect(rows[0]!.a).toMatchObject({ action: 'pull blue lever', score: 0, change: 0 });
    expect(rows[0]!.b).toMatchObject({ action: 'PULL YELLOW LEVER', score: 1, change: 1 });
    expect(rows[0]!.sameAction).toBe(false);
    expect(rows.slice(1).every((r) => r.a === null)).toBe(true);
    expect(rows.map((r) => r.b?.action)).toEqual(['PULL YELLOW LEVER', 'PULL BLUE LEVER', 'pull blue lever', 'pull blue lever', 'pull blue lever', 'north', 'pull green lever', 'pull yellow lever', 'pull red lever', 'look']);
    expect(rows.map((r) => r.b?.change)).toEqual([1, 1, 0, 0, 0, 0, 1, 0, 1, 0]);
    // Episode 1 ended at 0 points: the gap is B's score.
    expect(rows.map((r) => r.scoreGap)).toEqual([1, 2, 2, 2, 2, 2, 3, 3, 4, 4]);
  });

  it('marks the same command in both (case ignored) and where the episodes part', () => {
    const rows = alignEpisodes(byIndex(episodes, 3), byIndex(episodes, 4));
    expect(rows.map((r) => r.sameAction)).toEqual([true, true, true, true, true, true, true, false, false, false]);
    expect(rows.map((r) => r.scoreGap)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
    const swapped = alignEpisodes(byIndex(episodes, 5), byIndex(episodes, 2));
    expect(swapped).toHaveLength(10);
    expect(swapped[0]!.sameAction).toBe(true);
    expect(swapped[1]).toMatchObject({ sameAction: false, a: { action: 'PULL BLUE LEVER', score: 2 }, b: { action: 'pull red lever', score: 1, change: 0 }, scoreGap: -1 });
    expect(swapped[9]).toMatchObject({ b: null, scoreGap: -3 });
  });

  it('gives one row per step of an episode compared with itself, every action the same', () => {
    const rows = alignEpisodes(byIndex(episodes, 2), byIndex(episodes, 2));
    expect(rows.map((r) => [r.step, r.sameAction, r.scoreGap])).toEqual([[1, true, 0], [2, true, 0]]);
  });

  it('has no score gap while a side has no score, and no same action when nothing was sent', () => {
    const base = byIndex(episodes, 2);
    const unscored: ComparedEpisode = { ...base, startScore: null, steps: base.steps.map((s) => ({ ...s, score: null, action: null, parseStatus: 'llm_error' })) };
    const rows = alignEpisodes(unscored, unscored);
    expect(rows.map((r) => [r.scoreGap, r.sameAction, r.a?.action])).toEqual([[null, false, null], [null, false, null]]);
  });
});

describe('scoreByStep and changeText', () => {
  it('gives the score after each step from step 0', () => {
    const episodes = comparableEpisodes(RECORD);
    expect(scoreByStep(byIndex(episodes, 1))).toEqual([{ x: 0, y: 0 }, { x: 1, y: 0 }]);
    expect(scoreByStep(byIndex(episodes, 3)).map((p) => p.y)).toEqual([0, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3]);
  });

  it('writes changes with a sign', () => {
    expect([changeText(1), changeText(-2), changeText(0)]).toEqual(['+1', '−2', '±0']);
  });
});

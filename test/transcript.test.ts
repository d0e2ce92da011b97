/**
 * The transcript under each command draws the game's answer to it: on the
 * recorded Lever Room session (test/fixtures/recordings), every step's answer (`transcriptEntries`, `stepAnswers`) equals
 * the text the engine gives for that command when the episode's commands are replayed at its
 * seed, as the Replay view and `replay --json` show it; the last step's answer is the episode's
 * final text (the death with its "Next time, try: …", or the step limit's), and the ending line
 * says how it ended. The live runner keeps `finalObservation` at the newest step's answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stepAnswers } from '../src/agents/step-answers.ts';
import type { TrajectoryStep } from '../src/agents/trajectory.ts';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { importSession } from '../src/ttl/session-io.ts';
import { runEpisode, syncEngine } from '../src/ttl/episode-runner.ts';
import { endingText, transcriptEntries } from '../src/ui/shared/format/transcript.ts';
import { alignEpisodes, comparableEpisodes } from '../src/ui/shared/format/episode-compare.ts';
import { REPO_ROOT } from './support/shared.ts';

const RECORD = importSession(readFileSync(join(REPO_ROOT, 'test/fixtures/recordings/lever-room-scripted.json'), 'utf8'));
const entry = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8'))).stories.find((e) => e.id === 'lever-room')!;
const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));

describe('the game’s answer under each command', () => {
  it('equals the engine’s text for that command, replayed at the episode’s seed, for every episode', () => {
    for (const episode of RECORD.episodes) {
      const t = episode.trajectory!;
      const engine = loadStory(bytes, { seed: t.seed, rules: rulesFor(entry) });
      const texts = t.steps.map((s) => engine.step(s.action!).text);
      expect(transcriptEntries(t.steps, t.finalObservation).map((e) => e.answer)).toEqual(texts);
      expect(stepAnswers(t.steps, t.finalObservation)).toEqual(texts);
      // The first command is not answered with the opening text again.
      expect(transcriptEntries(t.steps, t.finalObservation)[0]!.answer).not.toBe(t.startObservation);
    }
  });

  it('ends with how the episode ended: the death text with its hint, then the ending line', () => {
    const first = RECORD.episodes[0]!.trajectory!;
    const entries = transcriptEntries(first.steps, first.finalObservation);
    expect(entries.at(-1)!.answer).toContain('Next time, try: PULL YELLOW LEVER.');
    expect(entries.at(-1)!.answer).toContain('You have died');
    expect(endingText(first, first.story.maxScore)).toBe('Episode ended: game over (death), final score 0 of 5.');
    const last = RECORD.episodes.at(-1)!.trajectory!;
    expect(endingText(last, 5)).toBe(`Episode ended: step limit reached, final score ${last.finalScore} of 5.`);
    expect(endingText({ termination: 'error', finalScore: null, endReason: null })).toBe('Episode ended: the actor’s model failed, no score kept.');
  });

  it('a step that sent no command has no answer; the newest step of a running episode waits for its own', () => {
    const steps = RECORD.episodes[2]!.trajectory!.steps.slice(0, 3);
    // Step 4's call failed: it read step 3's answer and sent nothing; the episode ended on that same text.
    const failed: TrajectoryStep = { ...steps[2]!, index: 4, action: null, parseStatus: 'llm_error', observation: 'AFTER 3' };
    expect(transcriptEntries([...steps, failed], 'AFTER 3').map((e) => e.answer)).toEqual([steps[1]!.observation, steps[2]!.observation, 'AFTER 3', null]);
    expect(transcriptEntries(steps, null).map((e) => e.answer)).toEqual([steps[1]!.observation, steps[2]!.observation, null]);
    expect(transcriptEntries([], 'x')).toEqual([]);
  });

  it('episodes side by side carry the same answers for both sides', () => {
    const episodes = comparableEpisodes(RECORD);
    const [a, b] = [episodes[0]!, episodes.at(-1)!];
    const rows = alignEpisodes(a, b);
    const want = (e: typeof a) => transcriptEntries(e.steps, RECORD.episodes.find((r) => r.index === e.index)!.trajectory!.finalObservation).map((x) => x.answer);
    expect(rows.filter((r) => r.a).map((r) => r.a!.answer)).toEqual(want(a));
    expect(rows.map((r) => r.b!.answer)).toEqual(want(b));
  });

  it('while an episode runs, its trajectory’s finalObservation is the newest step’s answer', async () => {
    const commands = RECORD.episodes[2]!.trajectory!.steps.map((s) => s.action!);
    let i = 0;
    const seen: [string | null, string][] = [];
    const actor = {
      model: { settings: { model: 'scripted' } },
      act: async () => ({ completion: { content: `ACTION: ${commands[i++]}`, finishReason: 'stop', usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } }, parsed: { action: commands[i - 1]!, status: 'ok' as const, extraActions: [] } }),
    };
    const engine = syncEngine(loadStory(bytes, { seed: RECORD.config.seed, rules: rulesFor(entry) }));
    const replay = loadStory(bytes, { seed: RECORD.config.seed, rules: rulesFor(entry) });
    const t = await runEpisode({
      engine, actor: actor as never, story: { title: 'Lever Room', maxScore: 5 }, guidingPrompt: '', maxSteps: 4,
      onStep: (step, live) => void seen.push([live.finalObservation, replay.step(step.action!).text]),
    });
    expect(seen.length).toBe(4);
    for (const [live, text] of seen) expect(live).toBe(text);
    expect(t.finalObservation).toBe(seen.at(-1)![1]);
  });
});

/**
 * How the page shows a person's edits of the guide, on the shipped Lever Room recording with two
 * edits added: the curve's flags (one per edited episode, drawn as a down-pointing triangle at the
 * top of the score axis, no line, a tooltip naming the steps), "with a human edit" in compared
 * legends, the sessions CSV and the exported curve's caption, none of it for a session nobody
 * edited; Replay's scene shows an edit once the replay reaches it; a provider stop reads as one
 * plain sentence with the advice kept for details.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replayFrames } from '../src/ttl/replay.ts';
import { importSession } from '../src/ttl/session-io.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { captionOfRecord, curveOfItems, curveOfRecord, sessionsTable } from '../src/ui/learn/curves.ts';
import type { SessionListItem } from '../src/ui/learn/session-runs.svelte.ts';
import { sceneAt } from '../src/ui/shared/replay/replay-scene.ts';
import { curveConfig, HUMAN_EDIT_SERIES, markText } from '../src/ui/shared/charts/learning-chart.ts';
import { curveMarksOf, humanEditCaption, humanEditSuffix } from '../src/ui/shared/format/human-edit.ts';
import { providerStopText } from '../src/ui/shared/format/provider-stop.ts';
import { ROOM_REFUSAL_PREFIX, roomRefusalMessage } from '../src/llm/errors.ts';
import { ROOM_REFUSAL_CODES } from '../src/room/protocol.ts';

const PLAIN = importSession(readFileSync(new URL('./fixtures/recordings/lever-room-scripted.json', import.meta.url), 'utf8'));
const guideOf = (r: SessionRecord, e: number) => r.episodes[e - 1]!.guidingPrompt;
const EDITED: SessionRecord = importSession(JSON.stringify({
  ...PLAIN,
  interventions: [
    { episode: 3, step: 6, oldGuide: guideOf(PLAIN, 3), newGuide: 'Pull the red lever first.', at: '2026-01-01T00:00:00.000Z' },
    { episode: 3, step: 3, oldGuide: guideOf(PLAIN, 3), newGuide: 'Look around.', at: '2026-01-01T00:00:01.000Z' },
    { episode: 5, step: 1, oldGuide: guideOf(PLAIN, 5), newGuide: 'North.', at: '2026-01-01T00:00:02.000Z' },
  ],
}));

describe('a session a person edited mid-episode', () => {
  it('flags each edited episode on its curve, with the steps, at the top of the score axis and without a line', () => {
    expect(curveMarksOf(EDITED)).toEqual([{ episode: 3, steps: [3, 6] }, { episode: 5, steps: [1] }]);
    const data = curveOfRecord(EDITED);
    expect(data.marks).toEqual(curveMarksOf(EDITED));
    expect(curveOfRecord(PLAIN).marks).toBeUndefined();
    const config = curveConfig(data, { text: '#111', grid: '#ccc' });
    const flags = config.data.datasets.find((d) => d.label === HUMAN_EDIT_SERIES)!;
    const max = PLAIN.config.story.maxScore!;
    expect(flags.data).toEqual([null, null, max, null, max]);
    expect(flags).toMatchObject({ showLine: false, pointStyle: 'triangle', pointRotation: 180 });
    expect(curveConfig(curveOfRecord(PLAIN), { text: '#111', grid: '#ccc' }).data.datasets.some((d) => d.label === HUMAN_EDIT_SERIES)).toBe(false);
    const label = (config.options!.plugins!.tooltip!.callbacks as { label: (item: unknown) => string }).label;
    expect(label({ dataset: { label: HUMAN_EDIT_SERIES }, dataIndex: 2, formattedValue: String(max) })).toBe(`${HUMAN_EDIT_SERIES}: edited at steps 3, 6`);
    expect(label({ dataset: { label: 'Score per episode' }, dataIndex: 1, formattedValue: '4' })).toBe('Score per episode: 4');
    expect(markText({ episode: 4, steps: [1] })).toBe('edited at step 1');
  });

  it('is labelled "with a human edit" in compared legends, the sessions CSV and the exported caption; a plain session is not', () => {
    const item = (id: string, interventions?: number): SessionListItem => ({
      id, title: 'The Lever Room', seed: 1, policy: 'naive', episodes: 5, maxSteps: 15, status: 'complete', scores: [1, 4], wAuc: 0.5, maxScore: 5,
      faultedEpisodes: 0, model: 'gpt-4o-mini', simulated: false, caveat: null, startedAt: '', updatedAt: 0, ...(interventions === undefined ? {} : { interventions }),
    });
    const legends = curveOfItems([item('s-aaaaaa', 2), item('s-bbbbbb', 0), item('s-cccccc')]).series.map((s) => s.label);
    expect(legends).toEqual(['The Lever Room · naive · gpt-4o-mini · aaaaaa · with a human edit', 'The Lever Room · naive · gpt-4o-mini · bbbbbb', 'The Lever Room · naive · gpt-4o-mini · cccccc']);
    const table = sessionsTable([item('s-aaaaaa', 2), item('s-cccccc')]);
    const column = table.header.indexOf('human edits');
    expect(table.rows.map((r) => r[column])).toEqual([2, 0]);
    expect(captionOfRecord(EDITED).subtitle).toContain('with a human edit (episode 3, steps 3, 6; episode 5, step 1)');
    expect(captionOfRecord(PLAIN).subtitle).not.toContain('human');
    expect(humanEditCaption(PLAIN)).toEqual([]);
    expect([humanEditSuffix(0), humanEditSuffix(1)]).toEqual(['', ' · with a human edit']);
  });

  it("Replay's scene shows an edit once the replay reaches its step, and forgets it in the next episode", () => {
    const frames = replayFrames(EDITED);
    const first = frames.findIndex((f) => f.kind === 'intervention');
    expect(sceneAt(EDITED, frames, first - 1)!.edits).toEqual([]);
    const at = sceneAt(EDITED, frames, first)!;
    expect(at.kind).toBe('intervention');
    expect(at.edits.map((e) => [e.episode, e.step])).toEqual([[3, 3]]);
    expect(at.steps.map((s) => s.index)).toEqual([1, 2]);
    const episode4 = frames.findIndex((f) => f.kind === 'episode_start' && f.episode === 4);
    expect(sceneAt(EDITED, frames, episode4 - 1)!.edits.map((e) => e.step)).toEqual([3, 6]);
    expect(sceneAt(EDITED, frames, episode4)!.edits).toEqual([]);
  });
});

describe('a provider stop, said plainly', () => {
  it('is one sentence by the fault kind; the advice is kept whole for details', () => {
    const advice = 'Could not reach http://127.0.0.1:9/v1 from http://localhost:5173: the server is down. Ollama: start it with OLLAMA_ORIGINS=… ollama serve.';
    expect(providerStopText('network_or_cors', advice)).toEqual({ headline: 'Stopped: the provider could not be reached.', details: advice, resumable: true, instead: '' });
    expect(providerStopText('auth', null)).toEqual({ headline: 'Stopped: the provider refused the API key.', details: '', resumable: true, instead: '' });
    expect(providerStopText(null, '  x  ').headline).toBe('Stopped: the provider failed.');
  });

  it('a room refusal is told by its code: the pause and the window not yet open keep Resume whatever the words; a cap, a removal or a closed window say what to do', () => {
    const room = (code: string, words = 'Words the room chose.') => providerStopText('quota', roomRefusalMessage(code, words));
    for (const code of ['model_calls_paused', 'room_not_open']) expect(room(code), code).toEqual({ headline: 'Stopped: the workshop room refused the call: Words the room chose.', details: '', resumable: true, instead: '' });
    for (const code of ['call_cap_reached', 'token_cap_reached', 'usd_cap_reached']) {
      expect(room(code), code).toMatchObject({ resumable: false, instead: 'Resuming would be refused the same way: ask the teacher for more, or start a shorter session (fewer episodes or steps).' });
    }
    for (const code of ['room_closed', 'participant_removed', 'unknown_participant']) {
      expect(room(code, 'The teacher paused model calls.'), code).toMatchObject({ resumable: false, instead: 'Resuming would be refused the same way: this session cannot go on through the room; talk to the teacher.' });
    }
    expect(ROOM_REFUSAL_CODES.filter((code) => !['model_calls_paused', 'room_not_open', 'call_cap_reached', 'token_cap_reached', 'usd_cap_reached', 'room_closed', 'participant_removed', 'unknown_participant'].includes(code))).toEqual([]);
  });

  it('a room refusal stored before refusals carried their code is told by the room’s words', () => {
    const room = (words: string) => providerStopText('quota', ROOM_REFUSAL_PREFIX + words);
    expect(room('The teacher paused model calls. Wait until the teacher resumes them, then try again.')).toMatchObject({ resumable: true, instead: '' });
    expect(room('The room’s model opens at 10:00. Try again then.')).toMatchObject({ resumable: true, instead: '' });
    expect(room('This request (about 717 tokens) does not fit in the 663 tokens you have left (2,337 tokens used).')).toMatchObject({
      resumable: false, instead: 'Resuming would be refused the same way: ask the teacher for more, or start a shorter session (fewer episodes or steps).',
    });
    expect(room('The teacher removed you from this room, so it no longer calls the model for you.')).toMatchObject({
      resumable: false, instead: 'Resuming would be refused the same way: this session cannot go on through the room; talk to the teacher.',
    });
  });
});

/**
 * Recorded sessions replay with the same scores, actions and W-AUC as the original, with no
 * provider at all: a Lever Room session of the scripted test model (test/fixtures/recordings)
 * and the shipped Learn recordings (public/replays) of the simulated model and of SmolLM2-135M.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import { checkReplay, replayFrames } from '../src/ttl/replay.ts';
import { importSession } from '../src/ttl/session-io.ts';
import { REPO_ROOT } from './support/shared.ts';

const record = importSession(readFileSync(join(REPO_ROOT, 'test/fixtures/recordings/lever-room-scripted.json'), 'utf8'));
const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8'))).stories;
const entry = catalog.find((s) => s.id === 'lever-room')!;
const SHIPPED = ['lever-room-naive', 'vault-credit-assignment', 'lever-room-smollm2'].map((id) => importSession(readFileSync(join(REPO_ROOT, `public/replays/${id}.json`), 'utf8')));

describe('replay of an exported session', () => {
  it('was recorded with the scripted test model on The Lever Room, and is complete', () => {
    expect(record.config.models.actor.model).toBe('scripted-test-model');
    expect(record.config.story.md5).toBe(entry.md5);
    expect(record.status).toBe('complete');
    expect(record.episodes).toHaveLength(record.config.episodes);
  });

  it.each([record, ...SHIPPED].map((r) => [`${r.config.story.id} (${r.config.models.actor.model})`, r] as const))('%s replays to the same scores, actions and W-AUC on the engine', async (_, played) => {
    const story = catalog.find((s) => s.id === played.config.story.id)!;
    expect(played.config.story.md5).toBe(story.md5);
    const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', story.file!)));
    const check = await checkReplay(played, syncEngine(loadStory(bytes, { seed: played.config.seed, rules: rulesFor(story) })));
    expect(check.mismatches).toEqual([]);
    expect(check.scores).toEqual(played.scores);
    expect(check.wAuc).toBe(played.wAuc);
  });

  it('frames follow the session: starts, steps, ends with the growing curve, feedback between episodes', () => {
    const frames = replayFrames(record);
    const steps = frames.filter((f) => f.kind === 'step');
    expect(steps).toHaveLength(record.episodes.reduce((n, e) => n + e.steps.length, 0));
    const ends = frames.filter((f) => f.kind === 'episode_end');
    expect(ends.map((f) => f.kind === 'episode_end' && f.curve.length)).toEqual([1, 2, 3, 4, 5]);
    const last = ends.at(-1)!;
    expect(last.kind === 'episode_end' && last.curve).toEqual(record.scores);
    expect(last.kind === 'episode_end' && last.wAuc).toBe(record.wAuc);
    expect(frames.filter((f) => f.kind === 'feedback')).toHaveLength(record.exchanges.length);
    expect(frames[0]).toMatchObject({ kind: 'episode_start', episode: 1, guidingPrompt: 'Explore.' });
  });
});

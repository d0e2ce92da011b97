/**
 * The Replay view's pure parts and state in Node, on a recorded session (test/fixtures/recordings): files of
 * every kind parse (session, evaluation results.json, evolution export with and without sessions)
 * and bad ones say why; the scene at the last frame shows the file's final score, actions and
 * W-AUC; the player steps, plays with an injected clock, jumps and stops at the end.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../agents/trajectory-io.ts';
import { EVOLUTION_EXPORT_FORMAT } from '../../evolve/evolution-io.ts';
import { importSession } from '../../ttl/session-io.ts';
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { creditsLine, creditsOf, modelLabel } from '../shared/replay/model-label.ts';
import { ReplayPlayer } from '../shared/replay/replay-player.svelte.ts';
import { episodeStart, frameDelayMs, sceneAt } from '../shared/replay/replay-scene.ts';
import { parseReplayFile } from './replay-source.ts';
import { ReplayState, type ReplayFiles } from './replay.svelte.ts';

const TEXT = readFileSync(new URL('../../../test/fixtures/recordings/lever-room-scripted.json', import.meta.url), 'utf8');
const RECORD = importSession(TEXT);
/** The shipped Lever Room recording (simulated model), as the page downloads it. */
const SHIPPED_TEXT = readFileSync(new URL('../../../public/replays/lever-room-naive.json', import.meta.url), 'utf8');
const SHIPPED_ID = importSession(SHIPPED_TEXT).id;

/** A schedule run by hand: `tick()` fires the pending callback. */
function manualSchedule(): Schedule & { tick: () => boolean; delays: number[] } {
  let pending: (() => void) | null = null;
  const delays: number[] = [];
  const schedule = ((callback: () => void, delayMs: number) => {
    pending = callback;
    delays.push(delayMs);
    return () => void (pending = null);
  }) as Schedule & { tick: () => boolean; delays: number[] };
  schedule.delays = delays;
  schedule.tick = () => {
    const run = pending;
    pending = null;
    run?.();
    return run !== null;
  };
  return schedule;
}

describe('model labels', () => {
  it('names the mock "scripted test model" and keeps real ids', () => {
    expect(modelLabel('scripted-test-model')).toBe('scripted test model');
    expect(modelLabel(' gpt-4o-mini ')).toBe('gpt-4o-mini');
    expect(modelLabel('')).toBe('(unknown model)');
    expect(creditsOf(RECORD.config)).toEqual({ actor: 'scripted test model', adapter: 'meta-agent: scripted test model' });
    expect(creditsLine({ ...RECORD.config, policy: { kind: 'human' }, models: { ...RECORD.config.models, reflection: null } })).toBe('actor scripted test model · a person (human meta-agent)');
    expect(creditsOf({ ...RECORD.config, policy: { kind: 'static' } }).adapter).toBe('nothing (static guide)');
  });
});

describe('replay files', () => {
  it('opens a session export', () => {
    const source = parseReplayFile(TEXT);
    expect(source.kind).toBe('session');
    expect(source.items).toHaveLength(1);
    expect(source.items[0]!.label).toBe('The Lever Room · naive meta-agent · seed 1');
    expect(source.items[0]!.detail).toContain('scripted test model');
    expect(source.items[0]!.detail).toContain('W-AUC 0.627');
  });

  it('lists the sessions of an evaluation results.json (rows without a record are counted)', () => {
    const session = JSON.parse(TEXT) as unknown;
    const results = { id: 'eval-1', status: 'complete', config: {}, report: {}, sessions: [
      { policyId: 'naive', taskId: 'lever-room:1', repeat: 0, wAuc: RECORD.wAuc, session },
      { policyId: 'naive', taskId: 'lever-room:1', repeat: 1, wAuc: RECORD.wAuc, session: { ...(session as object), id: 'second' } },
      { policyId: 'static', taskId: 'lever-room:1', repeat: 0, wAuc: 0, session: null },
    ] };
    const source = parseReplayFile(JSON.stringify(results));
    expect(source.kind).toBe('evaluation');
    if (source.kind !== 'evaluation') return;
    expect(source.id).toBe('eval-1');
    expect(source.items.map((i) => i.record.id)).toEqual([RECORD.id, 'second']);
    expect(source.items[1]!.label).toBe('naive · The Lever Room · naive meta-agent · seed 1 · repeat 2');
    expect(source.withoutRecord).toBe(1);
    const broken = { sessions: [{ policyId: 'x', session: { ...(session as object), episodes: 'nope' } }] };
    expect(() => parseReplayFile(JSON.stringify(broken))).toThrow(/sessions\.0\.session\.episodes/);
  });

  // The recorded session's W-AUC (0.6267): a metric call's W-AUC is its scores', as an import checks.
  const W_AUC = RECORD.wAuc!;
  // The seed's validation call: the state's valScores are the mean of its validation calls.
  const call = { key: '0:seed-val:c0:lever-room:1:0', candidateId: 'c0', taskId: 'lever-room:1', repeat: 0, purpose: 'seed-val', iteration: 0, sessionId: RECORD.id, wAuc: W_AUC, scores: RECORD.scores };
  const state = {
    format: 'metattl-evolution-1', id: 'evo-1',
    config: {
      train: [{ id: 'lever-room:1', storyId: 'lever-room', title: 'The Lever Room', md5: RECORD.config.story.md5, seed: 1, maxScore: 5 }],
      val: [{ id: 'lever-room:1', storyId: 'lever-room', title: 'The Lever Room', md5: RECORD.config.story.md5, seed: 1, maxScore: 5 }],
      repeats: 1, episodes: 5, maxSteps: 10, initialGuidingPrompt: 'Explore.', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 4,
      maxConsecutiveFailures: 3, proposer: 'random', rngSeed: 0, concurrency: 1, models: { actor: 'scripted-test-model', metaAgent: 'scripted-test-model', proposer: 'scripted-test-model' }, contextWindow: 8000,
    },
    status: 'complete', stopReason: 'budget', stopMessage: null,
    candidates: [{ id: 'c0', parentId: null, iteration: 0, strategy: '', status: 'seed', reason: 'seed', proposerReply: null, valScores: { 'lever-room:1': W_AUC }, minibatch: null, triggeredBy: null }],
    metricCalls: [call], metricCallsUsed: 1, failedProposals: 0, fronts: {}, iteration: 0, rngState: 1, best: { byMean: 'c0', byZScore: 'c0' },
    progress: [{ metricCallsUsed: 1, bestMeanVal: W_AUC }], startedAt: '2026-01-01T00:00:00Z', finishedAt: null,
  };

  it('lists the sessions of an evolution export, else its candidates and progress', () => {
    const withCalls = parseReplayFile(JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state, events: [{ seq: 1, data: { type: 'call', call, session: JSON.parse(TEXT) } }, { seq: 2, data: { type: 'proposal', iteration: 1, reply: 'x', finishReason: 'stop' } }] }));
    expect(withCalls.kind).toBe('evolution');
    expect(withCalls.items.map((i) => i.label)).toEqual(['c0 (seed validation, repeat 1) · The Lever Room · naive meta-agent · seed 1']);
    const bare = parseReplayFile(JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state, events: [] }));
    expect(bare.items).toEqual([]);
    if (bare.kind !== 'evolution') throw new Error('not an evolution');
    expect(bare.candidates).toEqual([{ id: 'c0', parentId: null, status: 'seed', meanVal: W_AUC, reason: 'seed' }]);
    expect(bare.progress).toEqual([{ metricCallsUsed: 1, bestMeanVal: W_AUC }]);
    expect(parseReplayFile(JSON.stringify(state)).kind).toBe('evolution');
  });

  it('refuses an evolution whose W-AUCs or scores are out of any possible range (1e308)', () => {
    const huge = structuredClone(state);
    huge.candidates[0]!.valScores['lever-room:1'] = 1e308;
    expect(() => parseReplayFile(JSON.stringify(huge))).toThrow(/candidates\.0\.valScores\.lever-room:1: Too big/);
    const events = [{ seq: 1, data: { type: 'call', call: { ...call, wAuc: 1e308 }, session: JSON.parse(TEXT) } }];
    expect(() => parseReplayFile(JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state, events }))).toThrow(/events\.0\.data\.call\.wAuc: Too big/);
    const scores = [{ seq: 1, data: { type: 'call', call: { ...call, scores: [1e308] }, session: JSON.parse(TEXT) } }];
    expect(() => parseReplayFile(JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state, events: scores }))).toThrow(/call\.scores\.0/);
  });

  it('says why a file cannot be replayed', () => {
    const reason = (text: string): string => {
      try {
        parseReplayFile(text);
      } catch (error) {
        expect(error).toBeInstanceOf(ImportError);
        return (error as Error).message;
      }
      throw new Error('parsed');
    };
    expect(reason('not json')).toMatch(/^This file is not JSON/);
    expect(reason('{"format":"metattl-session-1","id":""}')).toMatch(/^This is not a valid session file/);
    expect(reason('{"hello":1}')).toMatch(/not a Meta-TTL session, evolution or evaluation file/);
    expect(reason('[1,2]')).toMatch(/not a Meta-TTL session/);
    expect(reason('{"format":"metattl-trajectory-1"}')).toMatch(/^This is not a valid trajectory file: story: /);
    expect(reason('{"format":"metattl-evaluation-1"}')).toMatch(/holds no sessions/);
    expect(reason(JSON.stringify({ format: 'metattl-evolution-1', id: 'x' }))).toMatch(/^This is not a valid evolution run: config/);
  });
});

describe('replay scenes', () => {
  it('ends with the file’s final score, curve, W-AUC and every action of the last episode', async () => {
    const player = new ReplayPlayer(manualSchedule());
    player.load(RECORD);
    player.toEnd();
    const scene = player.scene!;
    expect(scene.episode).toBe(5);
    expect(scene.score).toBe(RECORD.episodes.at(-1)!.finalScore);
    expect(scene.curve).toEqual(RECORD.scores);
    expect(scene.wAuc).toBeCloseTo(RECORD.wAuc!, 10);
    expect(scene.steps.map((s) => s.action)).toEqual(RECORD.episodes.at(-1)!.steps.map((s) => s.action));
    expect(scene.exchanges).toHaveLength(RECORD.exchanges.length);
    expect(scene.ended?.finalObservation).toBe(RECORD.episodes.at(-1)!.trajectory!.finalObservation);
  });

  it('shows an episode from its start: its guide, no steps, the curve so far', () => {
    const player = new ReplayPlayer(manualSchedule());
    player.load(RECORD);
    player.jumpToEpisode(3);
    const scene = player.scene!;
    expect(scene.kind).toBe('episode_start');
    expect(scene.episode).toBe(3);
    expect(scene.guidingPrompt).toBe(RECORD.episodes[2]!.guidingPrompt);
    expect(scene.steps).toEqual([]);
    expect(scene.curve).toEqual(RECORD.scores.slice(0, 2));
    expect(scene.exchanges.map((e) => e.afterEpisode)).toEqual([1, 2]);
    player.forward();
    expect(player.scene!.steps).toHaveLength(1);
    player.back();
    player.back();
    expect(player.scene!.episode).toBe(2);
    expect(episodeStart(player.frames, 9)).toBeNull();
    expect(sceneAt(RECORD, [], 0)).toBeNull();
  });

  it('draws a web task\'s site as it was: the start page before step 1, then each step\'s page; records without pages replay as text', () => {
    const page = (n: number) => ({ url: `http://shop.test/p/${n}`, title: `page ${n}`, html: `<p bid="${n}">${n}</p>`, targetBid: n === 0 ? null : String(n) });
    const episodes = RECORD.episodes.map((e) => ({
      ...e, steps: e.steps.map((st, i) => (i === 1 ? st : { ...st, page: page(e.index * 100 + i + 1) })),
      trajectory: e.trajectory && { ...e.trajectory, startPage: page(e.index * 100) },
    }));
    const web = { ...RECORD, config: { ...RECORD.config, task: { kind: 'web' as const, id: 'web:shop/t1:1' } }, episodes };
    const player = new ReplayPlayer(manualSchedule());
    player.load(web);
    player.jumpToEpisode(2);
    expect([player.scene!.web, player.scene!.page?.url]).toEqual([true, 'http://shop.test/p/200']);
    player.forward();
    expect(player.scene!.page).toEqual(page(201));
    player.forward();
    expect(player.scene!.page).toEqual(page(201)); // step 2 recorded no page: the last one stays
    player.back();
    player.back();
    expect(player.scene!.page?.url).toBe('http://shop.test/p/200');
    player.load({ ...RECORD, config: web.config });
    player.forward();
    expect([player.scene!.web, player.scene!.page]).toEqual([true, null]);
    player.load(RECORD);
    expect([player.scene!.web, player.scene!.page]).toEqual([false, null]);
  });

  it('plays with the injected clock at the chosen speed, and stops at the last frame', () => {
    const schedule = manualSchedule();
    const player = new ReplayPlayer(schedule);
    player.load(RECORD);
    player.setSpeed(2);
    player.play();
    expect(player.playing).toBe(true);
    expect(schedule.delays[0]).toBe(frameDelayMs(player.frames[0]!, 2));
    schedule.tick();
    expect(player.position).toBe(1);
    player.setSpeed(16);
    expect(schedule.delays.at(-1)).toBe(frameDelayMs(player.frames[1]!, 16));
    player.pause();
    expect(schedule.tick()).toBe(false);
    player.play();
    while (schedule.tick());
    expect(player.atEnd).toBe(true);
    expect(player.playing).toBe(false);
    player.play();
    expect(player.position).toBe(0);
    player.seek(10);
    expect(player.position).toBe(10);
    player.clear();
    expect(player.scene).toBeNull();
  });
});

describe('ReplayState', () => {
  const files = (query = ''): ReplayFiles => ({
    resolve: (path) => new URL(path, 'http://test.invalid/sub/'),
    fetchBytes: async (url) => {
      if (url.href === 'http://test.invalid/sub/replays/lever-room-naive.json') return new TextEncoder().encode(SHIPPED_TEXT);
      throw new Error(`Could not download ${url.href}: HTTP 404`);
    },
    readFile: async (file) => new Uint8Array(await file.arrayBuffer()),
    query: () => new URLSearchParams(query),
  });

  it('opens ?replay=<id> on entering, once', async () => {
    const replay = new ReplayState(files('view=replay&replay=lever-room-naive'), manualSchedule());
    await replay.enter();
    expect(replay.error).toBeNull();
    expect(replay.sourceName).toContain('(simulated model — not a language model)');
    expect(replay.player.record?.id).toBe(SHIPPED_ID);
    replay.player.toEnd();
    await replay.enter();
    expect(replay.player.atEnd).toBe(true);
  });

  it('shows a bad file’s reason and keeps what was shown', async () => {
    const replay = new ReplayState(files(), manualSchedule());
    await replay.openShipped('lever-room-naive');
    await replay.openFile(new File(['{"format":"metattl-session-1"'], 'broken.json'));
    expect(replay.error).toMatch(/^broken\.json: This file is not JSON/);
    expect(replay.player.record?.id).toBe(SHIPPED_ID);
    replay.dismissError();
    expect(replay.error).toBeNull();
  });

  it('opens an evaluation without choosing for the user when it has several sessions', async () => {
    const replay = new ReplayState(files(), manualSchedule());
    const session = JSON.parse(TEXT) as object;
    await replay.openFile(new File([JSON.stringify({ id: 'e', sessions: [{ session }, { session: { ...session, id: 'b' } }] })], 'results.json'));
    expect(replay.source?.kind).toBe('evaluation');
    expect(replay.player.record).toBeNull();
    replay.select(1);
    expect(replay.selected).toBe(1);
    expect(replay.player.record?.id).toBe('b');
    const unknown = new ReplayState(files('replay=nope'), manualSchedule());
    await unknown.enter();
    expect(unknown.error).toMatch(/no shipped replay/);
  });
});

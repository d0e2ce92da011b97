/**
 * Every import passes the consistency checks resume makes (one checker, src/agents/consistency.ts):
 * a session, trajectory, evolution or evaluation file whose numbers contradict each other is refused
 * with a message naming the first inconsistent field, and nothing is stored. The base records are
 * real: a recorded session (test/fixtures/recordings, recorded with the mock) and the evolution state around it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTrajectory } from '../src/agents/trajectory-io.ts';
import { EVOLUTION_EXPORT_FORMAT, importEvolution, storeImportedEvolution } from '../src/evolve/evolution-io.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { importSession } from '../src/ttl/session-io.ts';
import { saveSession } from '../src/ttl/session-store.ts';
import { parseReplayFile } from '../src/ui/replay/replay-source.ts';

const TEXT = readFileSync(new URL('./fixtures/recordings/lever-room-scripted.json', import.meta.url), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form edits of parsed JSON
type Json = any;
const session = (): Json => JSON.parse(TEXT);

/** Import a session file and store it, as the Learn view does; the store is returned either way. */
async function importAndStoreSession(text: string): Promise<{ store: MemoryStore; error: string | null }> {
  const store = new MemoryStore();
  try {
    await saveSession(store, importSession(text));
    return { store, error: null };
  } catch (e) {
    return { store, error: (e as Error).message };
  }
}

const SESSION_CASES: [string, (r: Json) => void, RegExp][] = [
  ['scores contradicting the episodes', (r) => (r.scores = [4, 4, 4, 4, 4]), /: scores: scores \[4, 4, 4, 4, 4\] contradict the episodes' final scores \[0, 1, 3, 4, 4\]/],
  ['step indices 1, 1, 3', (r) => (r.episodes[2].steps = r.episodes[2].steps.slice(0, 3).map((s: Json, i: number) => ({ ...s, index: [1, 1, 3][i] }))), /: episodes\.2\.steps\.1\.index: episode 3: it is step 1 where step 2 should be \(step indices 1, 1, 3/],
  ['9 episodes for K = 4', (r) => {
    r.config.episodes = 4;
    r.episodes = [...r.episodes, ...r.episodes.slice(0, 4).map((e: Json, i: number) => ({ ...e, index: 6 + i }))];
  }, /: episodes: 9 episodes for K = 4 \(config\.episodes\)/],
  ['"complete" with 1 of 4 episodes', (r) => {
    r.config.episodes = 4;
    r.episodes = r.episodes.slice(0, 1);
    r.scores = [0];
    r.wAuc = 0;
    r.averageScore = 0;
    r.bestScore = 0;
    r.exchanges = [];
  }, /: status: "complete" with 1 of 4 episodes ended/],
  ['episode indices repeated', (r) => (r.episodes[1].index = 1), /: episodes\.1\.index: episode 1 where episode 2 should be/],
  ['a final score its last step does not give', (r) => (r.episodes[1].finalScore = 3), /: episodes\.1\.finalScore: episode 2: the last stored score 1 is not the episode's final score 3/],
  ['a reward the scores do not give', (r) => (r.episodes[1].steps[0].reward = 7), /: episodes\.1\.steps\.0\.reward: episode 2: its reward 7 does not match/],
  ['more steps than S', (r) => (r.config.maxSteps = 1), /: episodes\.1\.steps: episode 2: it has 2 steps, more than the session's limit of 1/],
  ['average score not the mean', (r) => (r.averageScore = 9), /: averageScore: average score 9 is not the scores' mean \(2\.4\)/],
  ['best score not the best', (r) => (r.bestScore = 3), /: bestScore: best score 3 is not the scores' best \(4\)/],
  ['W-AUC not from the scores', (r) => (r.wAuc = 0.5), /: wAuc: W-AUC 0\.5 does not match the scores/],
];

describe('session imports are checked like resume', () => {
  it('the real record imports and is stored', async () => {
    const { store, error } = await importAndStoreSession(TEXT);
    expect(error).toBeNull();
    expect((await store.listRuns('session')).map((r) => r.id)).toEqual([session().id]);
  });

  for (const [what, change, message] of SESSION_CASES) {
    it(`refuses ${what}, naming the field, and stores nothing`, async () => {
      const bad = session();
      change(bad);
      const { store, error } = await importAndStoreSession(JSON.stringify(bad));
      expect(error).toMatch(/^This is not a valid session file/);
      expect(error).toMatch(message);
      expect(await store.listRuns('session')).toEqual([]);
      // The same file in Replay (as a session, and inside an evaluation's results.json) says the same.
      expect(() => parseReplayFile(JSON.stringify(bad))).toThrow(message);
      expect(() => parseReplayFile(JSON.stringify({ format: 'metattl-evaluation-results-1', id: 'e', config: { episodes: bad.config.episodes }, sessions: [{ session: bad }] }))).toThrow(/sessions\.0\.session\./);
    });
  }
});

describe('trajectory imports', () => {
  const trajectory = (): Json => ({ ...session().episodes[2].trajectory, format: 'metattl-trajectory-1' });
  it('the real trajectory imports', () => {
    expect(importTrajectory(JSON.stringify(trajectory())).steps.map((s) => s.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
  it('refuses step indices 1, 1, 3 and a final score the steps do not give', () => {
    const repeated = trajectory();
    repeated.steps[1].index = 1;
    expect(() => importTrajectory(JSON.stringify(repeated))).toThrow(/steps\.1\.index: it is step 1 where step 2 should be \(step indices 1, 1, 3, 4,/);
    const wrong = trajectory();
    wrong.finalScore = 5;
    expect(() => importTrajectory(JSON.stringify(wrong))).toThrow(/finalScore: the last stored score 3 is not the episode's final score 5/);
  });
});

describe('evolution imports', () => {
  const record = session();
  const state = (): Json => ({
    format: 'metattl-evolution-1', id: 'evo-1',
    config: {
      train: [{ id: 'lever-room:1', storyId: 'lever-room', title: 'The Lever Room', md5: record.config.story.md5, seed: 1, maxScore: 5 }],
      val: [{ id: 'lever-room:1', storyId: 'lever-room', title: 'The Lever Room', md5: record.config.story.md5, seed: 1, maxScore: 5 }],
      repeats: 1, episodes: 5, maxSteps: 10, initialGuidingPrompt: 'Explore.', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 4,
      maxConsecutiveFailures: 3, proposer: 'random', rngSeed: 0, concurrency: 1, models: { actor: 'm', metaAgent: 'm', proposer: 'm' }, contextWindow: 8000,
    },
    status: 'complete', stopReason: 'budget', stopMessage: null,
    candidates: [
      { id: 'c0', parentId: null, iteration: 0, strategy: '', status: 'seed', reason: 'seed', proposerReply: null, valScores: { 'lever-room:1': record.wAuc }, minibatch: null, triggeredBy: null },
      { id: 'c1', parentId: 'c0', iteration: 1, strategy: 'x', status: 'rejected', reason: 'no gain', proposerReply: 'x', valScores: {}, minibatch: null, triggeredBy: null },
    ],
    metricCalls: [{ key: 'k0', candidateId: 'c0', taskId: 'lever-room:1', repeat: 0, purpose: 'seed-val', iteration: 0, sessionId: record.id, wAuc: record.wAuc, scores: record.scores }],
    metricCallsUsed: 1, failedProposals: 0, fronts: { 'lever-room:1': ['c0'] }, iteration: 1, rngState: 1, best: { byMean: 'c0', byZScore: 'c0' },
    progress: [{ metricCallsUsed: 1, bestMeanVal: record.wAuc }], startedAt: '2026-01-01T00:00:00Z', finishedAt: null,
  });
  const file = (s: Json, sessionRecord: Json = record) => JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state: s, events: [{ seq: 1, data: { type: 'call', call: s.metricCalls[0], session: sessionRecord } }] });
  async function importAndStore(text: string): Promise<{ store: MemoryStore; error: string | null }> {
    const store = new MemoryStore();
    try {
      await storeImportedEvolution(store, importEvolution(text), 0);
      return { store, error: null };
    } catch (e) {
      return { store, error: (e as Error).message };
    }
  }

  it('the consistent run imports and is stored', async () => {
    const { store, error } = await importAndStore(file(state()));
    expect(error).toBeNull();
    expect((await store.listRuns('evolution')).map((r) => r.id)).toEqual(['evo-1']);
  });

  it('keeps the outer loop\'s options and newer stop reasons through export and import', () => {
    const s = state();
    const options = { candidateSelection: 'top_k_pareto', topK: 3, acceptance: 'improvement_or_equal', stopConditions: { noImprovementIterations: 4, scoreThreshold: 0.9, timeLimitMinutes: 30, maxProposerUsd: 1.5 } };
    Object.assign(s.config, options);
    s.stopReason = 'no_improvement';
    const back = importEvolution(file(s)).state;
    expect(back.config).toMatchObject(options);
    expect(back.stopReason).toBe('no_improvement');
    const bad = state();
    bad.config.candidateSelection = 'best';
    expect(() => importEvolution(file(bad))).toThrow(/candidateSelection/);
  });

  const cases: [string, (s: Json) => void, RegExp][] = [
    ['best naming a missing candidate', (s) => (s.best.byMean = 'c7'), /state\.best\.byMean: best names candidate "c7", which does not exist \(candidates: c0, c1\)/],
    ['best by z-score naming a missing candidate', (s) => (s.best.byZScore = 'c9'), /state\.best\.byZScore: best names candidate "c9"/],
    ['a candidate id repeated', (s) => (s.candidates[1].id = 'c0'), /state\.candidates\.1\.id: candidate "c0" appears twice/],
    ['a parent that does not exist', (s) => (s.candidates[1].parentId = 'c5'), /state\.candidates\.1\.parentId: candidate "c1" names parent "c5"/],
    ['a front naming a missing candidate', (s) => (s.fronts['lever-room:1'] = ['c3']), /state\.fronts\.lever-room:1\.0: the front of lever-room:1 names candidate "c3"/],
    ['a metric call with 9 scores for K = 5', (s) => (s.metricCalls[0].scores = [...record.scores, 4, 4, 4, 4]), /state\.metricCalls\.0\.scores: metric call k0 has 9 scores for K = 5/],
    ['1e9 metric calls used over a budget of 4', (s) => (s.metricCallsUsed = 1e9), /state\.metricCallsUsed: 1000000000 metric calls used, over the budget of 4 \(config\.budgetMetricCalls\)/],
    ['metric calls used that the run does not record', (s) => (s.metricCallsUsed = 3), /state\.metricCallsUsed: 3 metric calls used, but the run records 1 \(1 metric-call sessions and 0 failed proposals\)/],
    ['a progress point past the calls used', (s) => (s.progress[0].metricCallsUsed = 4), /state\.progress\.0\.metricCallsUsed: progress point at 4 metric calls is out of order/],
    ['a validation W-AUC of 32768', (s) => (s.candidates[0].valScores['lever-room:1'] = 32768), /state\.candidates\.0\.valScores\.lever-room:1: candidate "c0": validation W-AUC 32768 on lever-room:1 is not the mean of its metric calls \(0\.6266/],
    ['a validation W-AUC with no metric call', (s) => (s.candidates[1].valScores = { 'lever-room:1': 0.5 }), /state\.candidates\.1\.valScores\.lever-room:1: candidate "c1" has a validation W-AUC 0\.5 on lever-room:1 but no validation metric call/],
  ];
  for (const [what, change, message] of cases) {
    it(`refuses ${what}, naming the field, and stores nothing`, async () => {
      const bad = state();
      change(bad);
      const { store, error } = await importAndStore(file(bad));
      expect(error).toMatch(/^This is not a valid evolution run: /);
      expect(error).toMatch(message);
      expect(await store.listRuns('evolution')).toEqual([]);
    });
  }

  it('refuses event seqs 5, 5, 1 (a repeated seq would overwrite an event when stored)', async () => {
    const text = JSON.parse(file(state()));
    const event = text.events[0];
    text.events = [{ ...event, seq: 5 }, { ...event, seq: 5 }, { ...event, seq: 1 }];
    const { store, error } = await importAndStore(JSON.stringify(text));
    expect(error).toMatch(/^This is not a valid evolution run: /);
    expect(error).toMatch(/events\.1\.seq: event seq 5 follows seq 5: seqs must be ascending and unique \(5, 5, 1\)/);
    expect(await store.listRuns('evolution')).toEqual([]);
  });

  it('refuses a metric call whose W-AUC is not its session\'s, in the event (as resume does) and in the state', async () => {
    const event = state();
    const inEvent = JSON.parse(file(event));
    inEvent.events[0].data.call.wAuc = 0.1;
    inEvent.events[0].data.call.scores = [0, 0, 0, 0, 1];
    const a = await importAndStore(JSON.stringify(inEvent));
    expect(a.error).toMatch(/events\.0\.data\.call\.wAuc: metric call k0: its W-AUC 0\.1 and scores \[0, 0, 0, 0, 1\] are not those of its recorded session/);
    expect(await a.store.listRuns('evolution')).toEqual([]);
    // The state's copy of the call differs from the stored event's (both self-consistent).
    const s = state();
    s.metricCalls[0].scores = [0, 0, 0, 0, 5];
    s.metricCalls[0].wAuc = 5 * 5 / (5 * 15);
    s.candidates[0].valScores['lever-room:1'] = s.metricCalls[0].wAuc;
    s.progress[0].bestMeanVal = s.metricCalls[0].wAuc;
    const b = await importAndStore(JSON.stringify({ ...JSON.parse(file(state())), state: s }));
    expect(b.error).toMatch(/state\.metricCalls\.0\.wAuc: metric call k0: W-AUC 0\.333\d* is not its stored session's \(0\.6266/);
    expect(await b.store.listRuns('evolution')).toEqual([]);
  });

  it('refuses a metric call whose session contradicts its scores (the session checker inside)', async () => {
    const bad = session();
    bad.scores = [4, 4, 4, 4, 4];
    const { store, error } = await importAndStore(file(state(), bad));
    expect(error).toMatch(/events\.0\.data\.session\.scores: scores \[4, 4, 4, 4, 4\] contradict/);
    expect(await store.listRuns('evolution')).toEqual([]);
  });
});

describe('evaluation results imports (Replay)', () => {
  const results = (): Json => ({ format: 'metattl-evaluation-results-1', id: 'e', config: { episodes: 5 }, sessions: [{ policyId: 'naive', repeat: 0, wAuc: session().wAuc, session: session() }] });
  it('the consistent file opens', () => {
    expect(parseReplayFile(JSON.stringify(results())).items).toHaveLength(1);
  });
  it('refuses a row whose W-AUC is not its session’s, and a session with another K', () => {
    const row = results();
    row.sessions[0].wAuc = 0.9;
    expect(() => parseReplayFile(JSON.stringify(row))).toThrow(/sessions\.0\.wAuc: W-AUC 0\.9 is not its session's/);
    const k = results();
    k.config.episodes = 4;
    expect(() => parseReplayFile(JSON.stringify(k))).toThrow(/sessions\.0\.session\.config\.episodes: K = 5, the evaluation's is K = 4/);
  });
});

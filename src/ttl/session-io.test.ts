import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../agents/trajectory-io.ts';
import { exportSession, importSession } from './session-io.ts';
import { usageOf, type SessionRecord } from './session-record.ts';

const record: SessionRecord = {
  format: 'metattl-session-1', id: 's1', faultedEpisodes: 0, faults: [],
  config: {
    story: { id: 'advent', title: 'Adventure', md5: 'ee2242e155fd8910921b0f8e04019a3a', maxScore: 350 }, seed: 5,
    policy: { kind: 'meta', name: 'naive', strategy: '' }, metaPrompt: { text: 'sys', hash: 'h' }, episodes: 2, maxSteps: 3,
    initialGuidingPrompt: 'Explore.', models: { actor: { model: 'm', temperature: 0.5, maxTokens: 10 }, reflection: { model: 'm', temperature: 0.7, maxTokens: 10 } },
    provider: { presetId: 'custom', baseUrl: 'http://127.0.0.1:1/v1' }, contextWindow: 8000,
  },
  status: 'stopped', stopReason: 'user', stopMessage: null,
  episodes: [{ index: 1, guidingPrompt: 'Explore.', trajectory: null, steps: [], finalScore: null, termination: null }],
  exchanges: [], scores: [], wAuc: null, averageScore: null, bestScore: null, startedAt: '2026-01-01T00:00:00Z', finishedAt: null, wallTimeMs: 5,
};

describe('session export / import', () => {
  it('round-trips and never writes key-like fields', () => {
    const leaky = { ...record, config: { ...record.config, provider: { ...record.config.provider, apiKey: 'secret-value-123' } } };
    const text = exportSession(leaky as SessionRecord);
    expect(text).not.toContain('secret-value-123');
    expect(importSession(text)).toEqual(record);
  });

  it('writes who played it (a simulated flag) and import reads it back, refusing a block that contradicts the config', () => {
    expect(JSON.parse(exportSession(record)).model).toEqual({ name: 'm', simulated: false, kind: 'model', caveat: null });
    const simulated: SessionRecord = { ...record, config: { ...record.config, provider: { presetId: 'simulated', baseUrl: 'in-page:simulated' }, models: { actor: { ...record.config.models.actor, model: 'simulated' }, reflection: { ...record.config.models.reflection!, model: 'simulated' } } } };
    const text = exportSession(simulated);
    expect(JSON.parse(text).model).toEqual({ name: 'simulated model', simulated: true, kind: 'simulated', caveat: 'simulated model — not a language model; it shows how the loop works, not how real models behave' });
    expect(importSession(text)).toEqual(simulated);
    const relabelled = JSON.stringify({ ...JSON.parse(text), model: { ...JSON.parse(text).model, simulated: false } });
    expect(() => importSession(relabelled)).toThrow(new ImportError("This is not a valid session file: model.simulated: false, but the config's models (simulated) say simulated"));
  });

  it('keeps the cached prompt tokens of steps and exchanges, and usageOf totals them by role', () => {
    const step = {
      index: 1, observation: 'o', reply: 'ACTION: look', finishReason: 'stop', action: 'look', parseStatus: 'ok' as const, extraActions: [], reward: 0, score: 0, moves: 1,
      promptTokens: 1500, completionTokens: 12, reasoningTokens: 0, latencyMs: 40, costUsd: 0.0001, error: null,
    };
    const exchange = {
      afterEpisode: 1, kind: 'meta_agent' as const, userMessage: 'log', reply: '<learn>x</learn>', finishReason: 'stop', learnStatus: 'updated' as const, guidingPromptAfter: 'x',
      usage: { promptTokens: 3000, completionTokens: 50, reasoningTokens: 0, cachedPromptTokens: 2048, latencyMs: 90, costUsd: 0.0002 }, droppedEpisodes: [], notice: null, error: null,
    };
    const withCache = { ...record, episodes: [{ ...record.episodes[0]!, steps: [{ ...step, cachedPromptTokens: 1280 }, { ...step, index: 2 }] }], exchanges: [exchange] } as SessionRecord;
    const back = importSession(exportSession(withCache));
    expect(back.episodes[0]!.steps.map((s) => s.cachedPromptTokens)).toEqual([1280, undefined]);
    expect(back.exchanges[0]!.usage?.cachedPromptTokens).toBe(2048);
    const usage = usageOf(back);
    expect([usage.actor.calls, usage.actor.promptTokens, usage.actor.cachedPromptTokens, usage.metaAgent.cachedPromptTokens]).toEqual([2, 3000, 1280, 2048]);
  });

  it('rejects bad files with a clear reason', () => {
    expect(() => importSession('{not json')).toThrow(ImportError);
    expect(() => importSession('{"format":"other"}')).toThrow(/not a Meta-TTL session file/);
    const broken = JSON.parse(exportSession(record));
    broken.config.seed = -1;
    expect(() => importSession(JSON.stringify(broken))).toThrow(/config\.seed/);
  });

  it('refuses numbers no run can produce: scores, W-AUC, tokens out of range, or a W-AUC its scores do not give', () => {
    // A real recorded session (the shipped replay): its numbers agree with its episodes.
    const done = JSON.parse(readFileSync(new URL('../../test/fixtures/recordings/lever-room-scripted.json', import.meta.url), 'utf8'));
    expect(importSession(JSON.stringify(done)).wAuc).toBe(done.wAuc);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form edits of parsed JSON
    const cases: [string, (r: any) => void, RegExp][] = [
      ['W-AUC 1e308', (r) => (r.wAuc = 1e308), /wAuc: Too big/],
      ['score 1e308', (r) => (r.scores = [1e308, ...r.scores.slice(1)]), /scores\.0: Too big/],
      ['average 1e308', (r) => (r.averageScore = 1e308), /averageScore/],
      ['best -1e308', (r) => (r.bestScore = -1e308), /bestScore/],
      ['max score 1e308', (r) => (r.config.story.maxScore = 1e308), /config\.story\.maxScore/],
      ['seed 2^32', (r) => (r.config.seed = 2 ** 32), /config\.seed/],
      ['W-AUC not from the scores', (r) => (r.wAuc = 0.9), /wAuc: W-AUC 0\.9 does not match the scores/],
      ['wall time 1e308', (r) => (r.wallTimeMs = 1e308), /wallTimeMs/],
    ];
    for (const [, change, message] of cases) {
      const bad = structuredClone(done);
      change(bad);
      expect(() => importSession(JSON.stringify(bad))).toThrow(message);
    }
  });
});

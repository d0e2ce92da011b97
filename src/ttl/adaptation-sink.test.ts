/** recordingAdaptations: a record keeps the adaptations it had (from before a resume) and gains new
 * ones, each once; they survive export and import. */
import { describe, expect, it } from 'vitest';
import type { ParameterAdaptation } from '../llm/interface.ts';
import { recordingAdaptations } from './adaptation-sink.ts';
import { exportSession, importSession } from './session-io.ts';
import type { SessionRecord } from './session-record.ts';

const record: SessionRecord = {
  format: 'metattl-session-1', id: 's1', faultedEpisodes: 0, faults: [],
  config: {
    story: { id: 'advent', title: 'Adventure', md5: 'ee2242e155fd8910921b0f8e04019a3a', maxScore: 350 }, seed: 5,
    policy: { kind: 'static' }, metaPrompt: null, episodes: 2, maxSteps: 3, initialGuidingPrompt: 'Explore.',
    models: { actor: { model: 'o3-mini', temperature: 0.5, maxTokens: 10 }, reflection: null },
    provider: { presetId: 'custom', baseUrl: 'https://api.example.test/v1' }, contextWindow: null,
  },
  status: 'running', stopReason: null, stopMessage: null, episodes: [], exchanges: [], scores: [], wAuc: null, averageScore: null,
  bestScore: null, startedAt: '2026-01-01T00:00:00Z', finishedAt: null, wallTimeMs: 0,
};
const adaptation = (parameter: string): ParameterAdaptation => ({
  baseUrl: 'https://api.example.test/v1', model: 'o3-mini', parameter, change: parameter === 'max_tokens' ? 'renamed' : 'dropped',
  to: parameter === 'max_tokens' ? 'max_completion_tokens' : null, reason: `Unsupported parameter: '${parameter}'`,
});

describe('recordingAdaptations', () => {
  it('merges the current adaptations into the record before passing it on, and they round-trip', async () => {
    const seen: (ParameterAdaptation[] | undefined)[] = [];
    let current: ParameterAdaptation[] = [];
    const sink = recordingAdaptations({ onRecord: (r) => void seen.push(r.adaptations && [...r.adaptations]) }, () => current);
    const live = structuredClone(record);
    await sink.onRecord!(live);
    current = [adaptation('temperature')];
    await sink.onRecord!(live);
    current = [adaptation('max_tokens')];
    await sink.onRecord!(live);
    expect(seen).toEqual([undefined, [adaptation('temperature')], [adaptation('temperature'), adaptation('max_tokens')]]);
    expect(importSession(exportSession(live)).adaptations).toEqual([adaptation('temperature'), adaptation('max_tokens')]);
    expect(importSession(exportSession(record)).adaptations).toBeUndefined();
  });
});

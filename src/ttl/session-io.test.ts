import { describe, expect, it } from 'vitest';
import { ImportError } from '../agents/trajectory-io.ts';
import { exportSession, importSession } from './session-io.ts';
import type { SessionRecord } from './session-record.ts';

const record: SessionRecord = {
  format: 'metattl-session-1', id: 's1',
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

  it('rejects bad files with a clear reason', () => {
    expect(() => importSession('{not json')).toThrow(ImportError);
    expect(() => importSession('{"format":"other"}')).toThrow(/not a Meta-TTL session file/);
    const broken = JSON.parse(exportSession(record));
    broken.config.seed = -1;
    expect(() => importSession(JSON.stringify(broken))).toThrow(/config\.seed/);
  });
});

/**
 * The proposer without the trace (`proposerInput: 'no-trace'`, `--proposer-input no-trace`): it
 * sees the parent strategy and the fixed instructions but no trajectory, so a gap between it and
 * the full proposer is what reading the trajectory adds. Its messages carry no text of the
 * reflective dataset; the full proposer's carry the record; the CLI refuses it off the GEPA loop.
 */
import { describe, expect, it } from 'vitest';
import { buildProposerMessages, NO_TRACE_NOTE } from '../src/evolve/rules/llm-proposer.ts';
import { formatReflectiveDataset } from '../src/evolve/reflective-dataset.ts';
import type { ChatMessage, ChatModel } from '../src/llm/interface.ts';
import { fakeSession, runScripted, scriptedConfig, scriptedTask } from './support/scripted-evolution.ts';

const RECORD = 'Episode 1 (score 0/10)\n> open mailbox\nOpening the small mailbox reveals a leaflet.\n> read leaflet\nWELCOME TO THE GAME';

describe('the no-trace proposer', () => {
  it('its messages hold the parent and no line of the record; the full proposer\'s hold the record', () => {
    const parent = 'Explore every room before acting.';
    const blind = buildProposerMessages(parent, RECORD, 'gepa', 'zmachine', 'no-trace');
    const text = blind.map((m) => m.content).join('\n');
    expect(text).toContain(parent);
    expect(text).toContain(NO_TRACE_NOTE);
    for (const line of RECORD.split('\n')) expect(text).not.toContain(line);
    expect(text).not.toContain('worst run');
    const full = buildProposerMessages(parent, RECORD, 'gepa', 'zmachine').map((m) => m.content).join('\n');
    expect(full).toContain(RECORD);
    expect(full).not.toContain(NO_TRACE_NOTE);
    // The web kind too.
    const web = buildProposerMessages(parent, RECORD, 'general-rules', 'web', 'no-trace').map((m) => m.content).join('\n');
    for (const line of RECORD.split('\n')) expect(web).not.toContain(line);
  });

  it('in a run, every proposer call of a no-trace evolution has no record text; a full one has its worst run\'s', async () => {
    const scores = new Proxy({} as Record<string, Record<string, number>>, { get: (_t, k: string) => { const v = (k.length % 5) / 10; return { t1: v, t2: v, v1: v }; } });
    const seen: ChatMessage[][] = [];
    const proposer: ChatModel = {
      role: 'proposer', settings: { model: 'p', temperature: 1, maxTokens: 100 },
      complete: async (messages) => {
        seen.push(messages);
        return { content: `<strategy>Rule ${seen.length}: look around.</strategy>`, finishReason: 'stop', model: 'p', usage: { promptTokens: 10, completionTokens: 5, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } };
      },
    };
    const record = formatReflectiveDataset(fakeSession('x', scriptedTask('t1'), 0.3));
    expect(record.length).toBeGreaterThan(0);
    const blind = await runScripted({ scores, proposals: [] }, scriptedConfig(['t1', 't2'], ['v1'], { budgetMetricCalls: 12, proposerInput: 'no-trace' }), { proposer });
    expect(blind.state.config.proposerInput).toBe('no-trace');
    expect(seen.length).toBeGreaterThan(1);
    for (const messages of seen) {
      const user = messages.map((m) => m.content).join('\n');
      expect(user).not.toContain('worst run');
      expect(user).not.toContain(record.trim());
    }
    seen.length = 0;
    await runScripted({ scores, proposals: [] }, scriptedConfig(['t1', 't2'], ['v1'], { budgetMetricCalls: 12 }), { proposer });
    expect(seen.length).toBeGreaterThan(1);
    for (const messages of seen) expect(messages[1]!.content).toContain('its worst run');
  });
});

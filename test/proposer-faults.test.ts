/**
 * A proposer call that fails at the provider is not a proposal (faults in evolutions):
 * a transient fault is asked again within the invocation, so the run equals the fault-free one; a
 * systemic or persisting fault stops the run resumable with nothing cached for that iteration,
 * and the resume equals the fault-free run too.
 */
import { describe, expect, it } from 'vitest';
import type { EvolutionCache } from '../src/evolve/evolution-runner.ts';
import { LlmError } from '../src/llm/errors.ts';
import type { ChatModel, LlmErrorKind } from '../src/llm/interface.ts';
import { runScripted, scriptedConfig, type ScriptedRun } from './support/scripted-evolution.ts';

const world = { scores: { '': { A: 0.3, T: 0.2 }, S1: { A: 0.5, T: 0.4 }, S2: { A: 0.1, T: 0.1 }, S3: { A: 0.2, T: 0.1 } }, proposals: ['S1', 'S2', 'S3'] };
const config = () => scriptedConfig(['T'], ['A'], { budgetMetricCalls: 10, rngSeed: 3 });

/** The proposer of the scripted world, failing with `faults[i]` on its i-th call (null: answers). */
function flakyProposer(faults: (LlmErrorKind | null)[]): ChatModel & { calls: number } {
  let answered = 0;
  const model = {
    calls: 0, role: 'proposer' as const, settings: { model: 'p', temperature: 1, maxTokens: 100 },
    complete: async () => {
      const fault = faults[model.calls++] ?? null;
      if (fault) throw new LlmError(fault, `scripted ${fault}`);
      return { content: `<strategy>${world.proposals[answered++] ?? 'exhausted'}</strategy>`, finishReason: 'stop', model: 'p', usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } };
    },
  };
  return model;
}

function memoryCache(): EvolutionCache {
  const calls = new Map();
  const proposals = new Map();
  return {
    getCall: async (key) => calls.get(key), putCall: async (call, session) => void calls.set(call.key, { call, session }),
    getProposal: async (iteration) => proposals.get(iteration), putProposal: async (iteration, reply, finishReason) => void proposals.set(iteration, { reply, finishReason }),
  };
}

const comparable = (run: ScriptedRun) => ({ ...run.state, startedAt: '', finishedAt: '' });

describe('proposer faults', () => {
  it('a transient fault is asked again: the run equals the fault-free one', async () => {
    const clean = await runScripted(world, config());
    const proposer = flakyProposer(['rate_limit', 'server', null, 'timeout', null]);
    const faulted = await runScripted(world, config(), { proposer });
    expect(comparable(faulted)).toEqual(comparable(clean));
    expect(faulted.state.failedProposals).toBe(0);
    expect(proposer.calls).toBe(clean.state.candidates.length - 1 + 3);
  });

  it('a systemic fault, or one that persists, stops the run resumable; the resume equals the fault-free run', async () => {
    const clean = await runScripted(world, config());
    for (const faults of [['auth'], ['bad_response', 'bad_response', 'bad_response', 'bad_response', 'bad_response']] as LlmErrorKind[][]) {
      const cache = memoryCache();
      const stopped = await runScripted(world, config(), { proposer: flakyProposer(faults), cache });
      expect(stopped.state).toMatchObject({ status: 'stopped', stopReason: 'provider_error', failedProposals: 0 });
      expect(stopped.state.stopMessage).toMatch(/^The proposer failed: scripted /);
      expect(await cache.getProposal(1)).toBeUndefined();
      const resumed = await runScripted(world, config(), { proposer: flakyProposer([]), cache });
      expect(comparable(resumed)).toEqual(comparable(clean));
    }
  });
});

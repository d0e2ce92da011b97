/**
 * Test support for pause, human candidates and branches: a scripted world whose scores and
 * proposals are functions of the strategy text alone, so a resumed or branched run (which calls
 * the proposer only for iterations not cached) sees the same world as an uninterrupted one.
 * A strategy's "level" p is its number of '+' signs; its W-AUC on training task T is
 * ((3p) mod 7) / 10 and on validation task A ((3p + 1) mod 7) / 10; the proposer appends " +".
 */
import { runEvolution, type EvolutionCache, type EvolutionDeps } from '../../src/evolve/evolution-runner.ts';
import type { EvolutionConfig, EvolutionState, MetricCall } from '../../src/evolve/interface.ts';
import type { CallUsage, ChatModel } from '../../src/llm/interface.ts';
import type { SessionRecord } from '../../src/ttl/session-record.ts';
import { fakeSession } from './scripted-evolution.ts';

/** The level p of a strategy: its count of '+'. */
export const levelOf = (strategy: string) => [...strategy].filter((ch) => ch === '+').length;
/** W-AUC of `strategy` on task `taskId` (T: training, A: validation). */
export const scoreOf = (strategy: string, taskId: string) => ((3 * levelOf(strategy) + (taskId === 'A' ? 1 : 0)) % 7) / 10;

/** A proposer that appends " +" to the current strategy it is shown. */
export function plusProposer(): ChatModel & { calls: number } {
  const model = {
    calls: 0, role: 'proposer' as const, settings: { model: 'p', temperature: 1, maxTokens: 100 },
    complete: async (messages: { content: string }[]) => {
      model.calls++;
      const current = /<current_strategy>\n([\s\S]*?)\n<\/current_strategy>/.exec(messages[1]!.content)?.[1] ?? '';
      return { content: `<strategy>${`${current} +`.trim()}</strategy>`, finishReason: 'stop', model: 'p', usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } };
    },
  };
  return model;
}

/** An in-memory cache that can be copied (as a branch copies a run's events). */
export class MemoryCache implements EvolutionCache {
  calls = new Map<string, { call: MetricCall; session: SessionRecord }>();
  proposals = new Map<number, { reply: string; finishReason: string | null; usage?: CallUsage | null }>();
  async getCall(key: string) { return this.calls.get(key); }
  async putCall(call: MetricCall, session: SessionRecord) { this.calls.set(call.key, { call, session }); }
  async getProposal(iteration: number) { return this.proposals.get(iteration); }
  async putProposal(iteration: number, reply: string, finishReason: string | null, usage: CallUsage | null) { this.proposals.set(iteration, { reply, finishReason, usage }); }
}

/** Run `config` in the world; `evaluated` collects every session actually played. */
export async function runWorld(config: EvolutionConfig, cache: EvolutionCache, deps: Partial<EvolutionDeps> = {}, evaluated: string[] = [], id = 'world'): Promise<EvolutionState> {
  return runEvolution(id, config, {
    proposer: plusProposer(), cache,
    evaluate: async (strategy, task, _repeat, sessionId) => {
      evaluated.push(`${strategy}|${task.id}`);
      const wAuc = scoreOf(strategy, task.id);
      const session = fakeSession(sessionId, task, wAuc);
      return { session, wAuc, scores: session.scores, faultedNow: 0 };
    },
    ...deps,
  });
}

/** A state without wall-clock fields, to compare runs. */
export const timeless = (s: EvolutionState) => ({ ...s, startedAt: '', finishedAt: '' });

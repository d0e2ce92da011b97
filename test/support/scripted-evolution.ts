/**
 * Test support: the outer loop with a scripted world instead of LLM sessions. Each strategy has
 * fixed scores per task (a session's W-AUC), the proposer returns the strategies of a list in
 * order, and the cache is in memory. Used to compare the loop's decisions with GEPA's code on
 * identical inputs.
 */
import { runEvolution, type EvolutionCache, type EvolutionDeps } from '../../src/evolve/evolution-runner.ts';
import type { EvolutionConfig, EvolutionEvent, EvolutionState, EvolutionTask } from '../../src/evolve/interface.ts';
import type { ChatModel } from '../../src/llm/interface.ts';
import type { SessionRecord } from '../../src/ttl/session-record.ts';

export const scriptedTask = (id: string): EvolutionTask => ({ id, storyId: id, title: id, md5: '0'.repeat(32), seed: 0, maxScore: 10 });

export function scriptedConfig(train: string[], val: string[], o: Partial<EvolutionConfig> = {}): EvolutionConfig {
  return {
    train: train.map(scriptedTask), val: val.map(scriptedTask), repeats: 1, episodes: 1, maxSteps: 1, initialGuidingPrompt: 'Explore.',
    seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 100, maxConsecutiveFailures: 5, proposer: 'llm', rngSeed: 0, concurrency: 1,
    models: { actor: 'a', metaAgent: 'm', proposer: 'p' }, contextWindow: 8000, ...o,
  };
}

/** A finished session with one episode whose W-AUC is `wAuc` (enough for the loop and the record). */
export function fakeSession(id: string, task: EvolutionTask, wAuc: number): SessionRecord {
  return {
    format: 'metattl-session-1', id, status: 'complete', stopReason: null, stopMessage: null,
    config: {
      story: { id: task.storyId, title: task.title, md5: task.md5, maxScore: task.maxScore }, seed: task.seed, policy: { kind: 'meta', name: 'c', strategy: '' },
      metaPrompt: null, episodes: 1, maxSteps: 1, initialGuidingPrompt: '', models: { actor: { model: 'a', temperature: null, maxTokens: 1 }, reflection: null },
      provider: { presetId: 'custom', baseUrl: '' }, contextWindow: null,
    },
    episodes: [], exchanges: [], faultedEpisodes: 0, faults: [], scores: [wAuc * task.maxScore], wAuc, averageScore: wAuc * task.maxScore, bestScore: wAuc * task.maxScore,
    startedAt: '', finishedAt: '', wallTimeMs: 0,
  };
}

export interface ScriptedWorld {
  /** strategy → task id → W-AUC of every session of it. */
  scores: Record<string, Record<string, number>>;
  /** What the proposer writes, call after call. */
  proposals: string[];
  /** `strategy|task id|repeat` → how many attempts of that session stop with a provider fault
   * (a transient `server` fault, after finishing an episode) before one completes. */
  faults?: Record<string, number>;
}

export interface ScriptedRun {
  state: EvolutionState;
  events: EvolutionEvent[];
  /** (strategy, task id, repeat) of every session, in the order the loop asked for them. */
  evaluations: [string, string, number][];
  /** The system message of every proposer call. */
  proposerSystems: string[];
}

export class MemoryCache implements EvolutionCache {
  calls = new Map<string, { call: import('../../src/evolve/interface.ts').MetricCall; session: SessionRecord }>();
  proposals = new Map<string, { reply: string; finishReason: string | null; usage?: import('../../src/llm/interface.ts').CallUsage | null }>();
  async getCall(key: string) { return this.calls.get(key); }
  async putCall(call: import('../../src/evolve/interface.ts').MetricCall, session: SessionRecord) { this.calls.set(call.key, { call, session }); }
  async getProposal(iteration: number, index = 0) { return this.proposals.get(`${iteration}:${index}`); }
  // Usage is kept with the reply, as the run's store keeps it (a resumed run counts it again).
  async putProposal(iteration: number, reply: string, finishReason: string | null, usage: import('../../src/llm/interface.ts').CallUsage | null, index = 0) { this.proposals.set(`${iteration}:${index}`, { reply, finishReason, usage }); }
}

/** Run the loop in the scripted world. */
export async function runScripted(world: ScriptedWorld, config: EvolutionConfig, deps: Partial<EvolutionDeps> = {}): Promise<ScriptedRun> {
  const events: EvolutionEvent[] = [];
  const evaluations: [string, string, number][] = [];
  let next = 0;
  const proposerSystems: string[] = [];
  const faultsLeft = { ...world.faults };
  const proposer: ChatModel = {
    role: 'proposer', settings: { model: 'p', temperature: 1, maxTokens: 100 },
    complete: async (messages) => {
      proposerSystems.push(messages[0]!.content);
      return {
        content: `<strategy>${world.proposals[next++] ?? 'exhausted'}</strategy>`, finishReason: 'stop', model: 'p',
        usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 0, costUsd: 0 },
      };
    },
  };
  const state = await runEvolution('scripted', config, {
    proposer, cache: new MemoryCache(),
    evaluate: async (strategy, task, repeat, sessionId) => {
      evaluations.push([strategy, task.id, repeat]);
      const wAuc = world.scores[strategy]?.[task.id];
      if (wAuc === undefined) throw new Error(`no scripted score for ${JSON.stringify(strategy)} on ${task.id}`);
      const session = fakeSession(sessionId, task, wAuc);
      const faultKey = `${strategy}|${task.id}|${repeat}`;
      if ((faultsLeft[faultKey] ?? 0) > 0) {
        faultsLeft[faultKey]!--;
        const faulted: SessionRecord = {
          ...session, status: 'stopped', stopReason: 'provider', stopMessage: '500 scripted fault', scores: [], wAuc: null, averageScore: null, bestScore: null, faultedEpisodes: 1,
          faults: [{ phase: 'episode', episodeIndex: 1, kind: 'server', message: '500 scripted fault', steps: [], exchanges: [], at: '' }],
        };
        return { session: faulted, wAuc: 0, scores: [], faultedNow: 1, finishedNow: 1 };
      }
      return { session, wAuc, scores: session.scores, faultedNow: 0 };
    },
    onEvent: (e) => void events.push(structuredClone(e)),
    ...deps,
  });
  return { state, events, evaluations, proposerSystems };
}

/**
 * Persisting evaluations through the store's run API: the header is the state (config and every
 * result so far); each finished session is an appended event with its full record — the cache a
 * resumed evaluation reads. A session's own run (kept while it plays) is removed only once its
 * record is in the evaluation's events, so no stop between the two loses it. Loads upgrade what
 * they read to the current payload shape (evaluation-payload.ts).
 */
import type { SettingValue, Store } from '../store/interface.ts';
import { sessionSchema } from '../ttl/session-io.ts';
import { versionedData } from '../store/payload.ts';
import type { SessionPayload } from '../ttl/session-payload.ts';
import type { EvaluationCache } from './evaluation-runner.ts';
import { EVALUATION_PAYLOAD, evaluationEventOf, evaluationResultOf, upgradeEvaluationPayload, type EvaluationPayload } from './evaluation-payload.ts';
import type { EvaluationResult, EvaluationState } from './interface.ts';

/**
 * What is wrong with one stored event of an evaluation (for the resume check, store/run-check.ts),
 * or null: it must hold a result and a readable session whose W-AUC and scores the result repeats.
 */
export function evaluationEventProblem(data: unknown): string | null {
  const { result, session } = (data ?? {}) as { result?: Partial<EvaluationResult>; session?: unknown };
  if (typeof result?.key !== 'string' || typeof result.wAuc !== 'number' || !Array.isArray(result.scores)) return 'it is not a readable evaluation result';
  const parsed = sessionSchema.safeParse(session);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `its session is not readable (${issue.path.join('.') || 'record'}: ${issue.message})`;
  }
  if (Math.abs(result.wAuc - (parsed.data.wAuc ?? 0)) > 1e-9 || result.scores.join() !== parsed.data.scores.join()) {
    return `its W-AUC ${result.wAuc} and scores [${result.scores.join(', ')}] are not those of its recorded session`;
  }
  return null;
}

/** What evaluation lists show (of a state in the current payload shape). */
export function evaluationSummary(state: EvaluationPayload): SettingValue {
  return {
    status: state.status, done: state.results.length, total: state.totalSessions, faultedEpisodes: state.faultedEpisodes, policies: state.config.policies.map((p) => p.id),
    taskSets: state.config.taskSets.map((s) => s.name), startedAt: state.startedAt, models: { ...state.config.models },
  };
}

/** Write the evaluation's state as its run header (with its payload version). */
export async function saveEvaluationState(store: Store, state: EvaluationState, now: () => number = Date.now): Promise<void> {
  const versioned = versionedData(EVALUATION_PAYLOAD, state);
  await store.putRun({ id: state.id, kind: 'evaluation', updatedAt: now(), summary: evaluationSummary(versioned.data), ...versioned });
}

/** The stored state of evaluation `id` in the current payload shape, if any.
 * @throws PayloadVersionError when it was written by a newer version (nothing is changed) */
export async function loadEvaluationState(store: Store, id: string): Promise<EvaluationPayload | undefined> {
  const run = await store.getRun(id);
  return run?.header.kind === 'evaluation' ? upgradeEvaluationPayload(run.header.data, run.header.payloadVersion) : undefined;
}

/** Every stored session of an evaluation, by result key (in the current payload shape). */
export async function loadEvaluationSessions(store: Store, id: string): Promise<Map<string, SessionPayload>> {
  const run = await store.getRun(id);
  const sessions = new Map<string, SessionPayload>();
  for (const e of run?.events ?? []) {
    const data = evaluationEventOf(e.data);
    sessions.set(data.result.key, data.session);
  }
  return sessions;
}

export async function openEvaluationCache(store: Store, id: string, initial: () => EvaluationState): Promise<EvaluationCache> {
  const run = await store.getRun(id);
  if (!run) await saveEvaluationState(store, initial());
  const results = new Map<string, EvaluationResult>();
  let seq = 0;
  for (const e of run?.events ?? []) {
    seq = Math.max(seq, e.seq);
    const result = evaluationResultOf(e.data);
    results.set(result.key, result);
  }
  return {
    get: async (key) => results.get(key),
    put: async (result, session) => {
      results.set(result.key, result);
      await store.appendRunEvents(id, [{ seq: ++seq, data: { result, session } }]);
      // The session's own run (ttl/session-evaluator.ts) is needed no more once its record is here.
      await store.deleteRun(result.sessionId);
    },
  };
}

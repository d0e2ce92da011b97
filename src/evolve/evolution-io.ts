/**
 * Export and import of a whole evolution run as one JSON file (format
 * "metattl-evolution-export-1"): the run's state (candidates, metric calls, fronts, config, RNG
 * state) and its stored events — every metric call with its full session, every proposer reply —
 * so an imported run can be inspected and resumed like the original. Import is schema-validated
 * (zod) with a message naming the first bad field; export never contains a key (the records hold
 * none, and key-like fields are dropped defensively). Also the usage recorded by a run's sessions,
 * so a resumed run counts it against its caps.
 */
import { z } from 'zod';
import { exportedModel, exportedModelProblem } from '../llm/model-label.ts';
import { addInconsistency, type Inconsistency } from '../agents/consistency.ts';
import { wAuc } from '../ttl/metrics.ts';
import { parseExportJson, validateExport } from '../agents/export-file.ts';
import { maxScoreNumber, scoreNumber, wAucNumber } from '../agents/export-numbers.ts';
import { ImportError, stringifyWithoutSecrets, taskDescriptorSchema } from '../agents/trajectory-io.ts';
import { MAX_SEED } from '../engine/frotz-rng.ts';
import type { Role } from '../llm/interface.ts';
import type { RoleTotals } from '../llm/usage-meter.ts';
import type { RunEvent, Store } from '../store/interface.ts';
import { recordedLlmSettingsSchema, sessionSchema, settingsChangeSchema } from '../ttl/session-io.ts';
import { usageOf } from '../ttl/session-record.ts';
import { fileVersionOf } from '../store/payload.ts';
import { evolutionHeader } from './evolution-store.ts';
import { EVOLUTION_PAYLOAD, evolutionEventOf, upgradeEvolutionPayload, type EvolutionPayload } from './evolution-payload.ts';
import { CALL_PURPOSES, isMinibatchPurpose, STOP_REASONS, type EvolutionConfig, type EvolutionState } from './interface.ts';
import { repeatsFor } from './rules/budget.ts';
import { MAX_PROPOSALS_PER_ITERATION } from './rules/proposals.ts';
import { ACCEPTANCES } from './rules/acceptance.ts';
import { CANDIDATE_SELECTIONS } from './rules/candidate-selection.ts';
import { OPTIMIZERS } from './rules/opro-proposer.ts';

export const EVOLUTION_EXPORT_FORMAT = 'metattl-evolution-export-1';

const wAucSum = () => z.number().min(-32768e4).max(32768e4);
const task = z.object({ id: z.string().min(1), storyId: z.string(), title: z.string(), md5: z.string(), seed: z.number().int().min(0).max(MAX_SEED), maxScore: maxScoreNumber(), task: taskDescriptorSchema.optional() });
const positive = z.number().int().positive();
const candidate = z.object({
  id: z.string().min(1), parentId: z.string().nullable(), iteration: z.number().int().nonnegative(), strategy: z.string(),
  status: z.enum(['seed', 'accepted', 'rejected', 'failed']), reason: z.string(), proposerReply: z.string().nullable(),
  valScores: z.record(z.string(), wAucNumber()),
  // Sums of at most a minibatch of W-AUCs; bounded like a W-AUC times 10^4 tasks.
  minibatch: z.object({ taskIds: z.array(z.string()), parentSum: wAucSum(), childSum: wAucSum().nullable() }).nullable(),
  triggeredBy: z.object({ taskId: z.string(), repeat: z.number().int(), callKey: z.string() }).nullable(),
  merge: z.object({ parentIds: z.tuple([z.string(), z.string()]), ancestorId: z.string(), textFrom: z.string(), parentSums: z.tuple([wAucSum(), wAucSum()]) }).optional(),
  origin: z.literal('human').optional(), humanFeedback: z.string().optional(),
  proposerUsage: z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative(), costUsd: z.number().nonnegative() }).optional(),
  editSize: z.number().int().nonnegative().optional(),
  providerModel: z.string().max(200).optional(), systemFingerprint: z.string().max(200).optional(),
});
const metricCall = z.object({
  key: z.string().min(1), candidateId: z.string(), taskId: z.string(), repeat: z.number().int().nonnegative(),
  purpose: z.enum(CALL_PURPOSES), iteration: z.number().int().nonnegative(), sessionId: z.string(),
  wAuc: wAucNumber(), scores: z.array(scoreNumber()),
});

export const evolutionStateSchema = z.object({
  format: z.literal('metattl-evolution-1'),
  id: z.string().min(1),
  codeVersion: z.string().max(200).optional(),
  config: z.lazy(() => configSchema),
  status: z.enum(['running', 'complete', 'stopped', 'paused']),
  stopReason: z.enum(STOP_REASONS).nullable(),
  stopMessage: z.string().nullable(),
  candidates: z.array(candidate),
  metricCalls: z.array(metricCall),
  metricCallsUsed: z.number().int().nonnegative(),
  sessionsPlayed: z.number().int().nonnegative().optional(),
  faultedEpisodes: z.number().int().nonnegative().optional(),
  failedProposals: z.number().int().nonnegative(),
  fronts: z.record(z.string(), z.array(z.string())),
  iteration: z.number().int().nonnegative(),
  iterationsDone: z.number().int().nonnegative().optional(),
  rngState: z.number(),
  best: z.object({ byMean: z.string().nullable(), byZScore: z.string().nullable() }),
  progress: z.array(z.object({ metricCallsUsed: z.number().int().nonnegative(), bestMeanVal: wAucNumber() })),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
}).superRefine((state, ctx) => addInconsistency(ctx, evolutionInconsistency(state as EvolutionState)));

/** A run's config; a branch's `branchedFrom.config` is its source's (so the schema is recursive). */
const configSchema: z.ZodType<EvolutionConfig> = z.object({
    train: z.array(task).min(1), val: z.array(task).min(1), repeats: positive, trainRepeats: positive.optional(), valRepeats: positive.optional(), episodes: positive, maxSteps: positive,
    initialGuidingPrompt: z.string(), seedStrategy: z.string(), minibatchSize: positive, budgetMetricCalls: positive,
    maxConsecutiveFailures: positive, proposer: z.enum(['llm', 'random', 'random-neutral']), editSizes: z.object({ sizes: z.array(z.number().int().min(1).max(100_000)).min(1), source: z.string() }).optional(), proposerInstruction: z.enum(['gepa', 'general-rules']).optional(), proposerInput: z.enum(['full', 'no-trace']).optional(), optimizer: z.enum(OPTIMIZERS).optional(), rngSeed: z.number().int().nonnegative(), concurrency: positive,
    models: z.object({ actor: z.string(), metaAgent: z.string(), proposer: z.string() }), contextWindow: positive, replyGrammar: z.boolean().optional(),
    llm: recordedLlmSettingsSchema.optional(), settingsChanges: z.array(settingsChangeSchema).optional(),
    candidateSelection: z.enum(CANDIDATE_SELECTIONS).optional(), epsilon: z.number().min(0).max(1).optional(), topK: positive.optional(),
    acceptance: z.enum(ACCEPTANCES).optional(),
    stopConditions: z.object({
      noImprovementIterations: positive.optional(), scoreThreshold: z.number().min(0).max(1).optional(),
      timeLimitMinutes: z.number().positive().optional(), maxProposerUsd: z.number().positive().optional(),
    }).optional(),
    merge: z.object({ maxMerges: positive }).optional(),
    proposals: z.object({ parents: positive, mutations: positive }).refine((p) => p.parents * p.mutations <= MAX_PROPOSALS_PER_ITERATION, { message: `at most ${MAX_PROPOSALS_PER_ITERATION} proposals per iteration` }).optional(),
    humanCandidates: z.array(z.object({
      afterIteration: z.number().int().nonnegative(), parentId: z.string().min(1), strategy: z.string(), minibatch: z.array(z.string()),
      feedback: z.string().optional(), proposerReply: z.string().optional(), providerModel: z.string().max(200).optional(),
    })).optional(),
    branchedFrom: z.object({ runId: z.string().min(1), iteration: z.number().int().nonnegative(), config: z.lazy(() => configSchema) }).optional(),
  }) as z.ZodType<EvolutionConfig>;

/**
 * The first inconsistency of an evolution state (every evolution import checks it), or null:
 * candidate ids unique, each parent an earlier candidate, `best.byMean` / `best.byZScore`, the
 * fronts and the metric calls naming candidates that exist, and each metric call's W-AUC the one
 * its scores give at its task's max score.
 */
export function evolutionInconsistency(state: EvolutionState): Inconsistency | null {
  const seen = new Set<string>();
  for (const [i, c] of state.candidates.entries()) {
    if (seen.has(c.id)) return { path: ['candidates', i, 'id'], message: `candidate "${c.id}" appears twice` };
    if (c.parentId !== null && !seen.has(c.parentId)) return { path: ['candidates', i, 'parentId'], message: `candidate "${c.id}" names parent "${c.parentId}", which is not an earlier candidate` };
    for (const [j, other] of [...(c.merge?.parentIds ?? []), ...(c.merge ? [c.merge.ancestorId] : [])].entries()) {
      if (!seen.has(other)) return { path: ['candidates', i, 'merge', j < 2 ? 'parentIds' : 'ancestorId'], message: `merge "${c.id}" names "${other}", which is not an earlier candidate` };
    }
    seen.add(c.id);
  }
  for (const key of ['byMean', 'byZScore'] as const) {
    const id = state.best[key];
    if (id !== null && !seen.has(id)) return { path: ['best', key], message: `best names candidate "${id}", which does not exist (candidates: ${[...seen].join(', ') || 'none'})` };
  }
  for (const [task, ids] of Object.entries(state.fronts)) {
    const j = ids.findIndex((id) => !seen.has(id));
    if (j >= 0) return { path: ['fronts', task, j], message: `the front of ${task} names candidate "${ids[j]}", which does not exist` };
  }
  const maxScores = new Map([...state.config.train, ...state.config.val].map((t) => [t.id, t.maxScore]));
  for (const [i, call] of state.metricCalls.entries()) {
    if (!seen.has(call.candidateId)) return { path: ['metricCalls', i, 'candidateId'], message: `metric call ${call.key} names candidate "${call.candidateId}", which does not exist` };
    if (call.scores.length !== state.config.episodes) return { path: ['metricCalls', i, 'scores'], message: `metric call ${call.key} has ${call.scores.length} scores for K = ${state.config.episodes} (config.episodes)` };
    const maxScore = maxScores.get(call.taskId);
    const expected = maxScore === undefined ? null : wAuc(call.scores, maxScore);
    if (expected !== null && Math.abs(expected - call.wAuc) > 1e-9) return { path: ['metricCalls', i, 'wAuc'], message: `metric call ${call.key}: W-AUC ${call.wAuc} does not match its scores (${expected})` };
  }
  const valProblem = valScoresInconsistency(state);
  if (valProblem) return valProblem;
  return budgetInconsistency(state);
}

/** Purposes whose sweep is a candidate's full validation (its `valScores` are their means). */
const FULL_VALIDATION: readonly string[] = ['seed-val', 'child-val', 'human-val'];

/**
 * Each `valScores[task]` is the mean W-AUC of the candidate's full-validation metric calls on that
 * task (as the runner computes it, evolution-runner.ts `meanByTask`): a value no call gave is refused.
 */
function valScoresInconsistency(state: EvolutionState): Inconsistency | null {
  for (const [i, c] of state.candidates.entries()) {
    for (const [taskId, value] of Object.entries(c.valScores)) {
      const calls = state.metricCalls.filter((m) => m.candidateId === c.id && m.taskId === taskId && FULL_VALIDATION.includes(m.purpose));
      if (calls.length === 0) return { path: ['candidates', i, 'valScores', taskId], message: `candidate "${c.id}" has a validation W-AUC ${value} on ${taskId} but no validation metric call on it` };
      const mean = calls.reduce((a, m) => a + m.wAuc, 0) / calls.length;
      if (Math.abs(mean - value) > 1e-9) return { path: ['candidates', i, 'valScores', taskId], message: `candidate "${c.id}": validation W-AUC ${value} on ${taskId} is not the mean of its metric calls (${mean})` };
    }
  }
  return null;
}

/**
 * The budget spent is what the runner charges (evolution-runner.ts): one metric call per
 * (candidate, task) — its last repeat — plus one per failed proposal; it never exceeds the budget
 * (the largest of a branch's and its sources' budgets), and the progress curve never runs ahead of it.
 */
function budgetInconsistency(state: EvolutionState): Inconsistency | null {
  const { config } = state;
  const charged = state.metricCalls.filter((m) => m.repeat === repeatsFor(config, isMinibatchPurpose(m.purpose) ? 'train' : 'val') - 1).length + state.failedProposals;
  let budget = config.budgetMetricCalls;
  for (let c = config.branchedFrom?.config; c; c = c.branchedFrom?.config) budget = Math.max(budget, c.budgetMetricCalls);
  if (state.metricCallsUsed > budget) return { path: ['metricCallsUsed'], message: `${state.metricCallsUsed} metric calls used, over the budget of ${budget} (config.budgetMetricCalls)` };
  if (state.metricCallsUsed !== charged) {
    return { path: ['metricCallsUsed'], message: `${state.metricCallsUsed} metric calls used, but the run records ${charged} (${state.metricCalls.length} metric-call sessions and ${state.failedProposals} failed proposals)` };
  }
  let previous = 0;
  for (const [i, p] of state.progress.entries()) {
    if (p.metricCallsUsed < previous || p.metricCallsUsed > state.metricCallsUsed) {
      return { path: ['progress', i, 'metricCallsUsed'], message: `progress point at ${p.metricCallsUsed} metric calls is out of order (previous ${previous}, used ${state.metricCallsUsed})` };
    }
    previous = p.metricCallsUsed;
  }
  return null;
}

const cacheEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call'), call: metricCall, session: sessionSchema }),
  z.object({ type: z.literal('proposal'), iteration: z.number().int().nonnegative(), index: z.number().int().nonnegative().optional(), reply: z.string(), finishReason: z.string().nullable(),
    providerModel: z.string().max(200).optional(), systemFingerprint: z.string().max(200).optional() }),
]);

/**
 * What is wrong with one stored cache event of an evolution run (for the resume check,
 * store/run-check.ts), or null: it must be a readable metric call or proposal, and a metric call's
 * W-AUC and scores must be those of its recorded session.
 */
export function cacheEventProblem(data: unknown): string | null {
  const parsed = cacheEvent.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `it is not a readable metric call or proposal (${issue.path.join('.') || 'record'}: ${issue.message})`;
  }
  if (parsed.data.type !== 'call') return null;
  const { call, session } = parsed.data;
  if (Math.abs(call.wAuc - (session.wAuc ?? 0)) > 1e-9 || call.scores.join() !== session.scores.join()) {
    return `its W-AUC ${call.wAuc} and scores [${call.scores.join(', ')}] are not those of its recorded session (${session.wAuc ?? 0}, [${session.scores.join(', ')}])`;
  }
  return null;
}

const exportSchema = z.object({
  format: z.literal(EVOLUTION_EXPORT_FORMAT),
  state: evolutionStateSchema,
  events: z.array(z.object({ seq: z.number().int().positive(), data: cacheEvent })),
  /** Who played it (exportEvolution writes it; checked against the config's models on import). */
  model: z.unknown().optional(),
}).superRefine((file, ctx) => {
  addInconsistency(ctx, exportEventsInconsistency(file.state as EvolutionState, file.events));
  const problem = exportedModelProblem(file.model, file.state.config.models);
  if (problem !== null) ctx.addIssue({ code: 'custom', path: ['model'], message: problem.replace(/^model(\.\w+)?: /, '') });
});

/**
 * The first inconsistency between an export's events and its state, or null: seqs strictly
 * ascending (a repeated seq would overwrite an event when stored), each stored metric call's W-AUC
 * and scores those of its recorded session (as resume checks, `cacheEventProblem`), and each state
 * metric call with a stored event the same as that event.
 */
function exportEventsInconsistency(state: EvolutionState, events: readonly { seq: number; data: z.infer<typeof cacheEvent> }[]): Inconsistency | null {
  const byKey = new Map<string, z.infer<typeof metricCall>>();
  for (const [i, e] of events.entries()) {
    const previous = events[i - 1];
    if (previous && e.seq <= previous.seq) {
      return { path: ['events', i, 'seq'], message: `event seq ${e.seq} follows seq ${previous.seq}: seqs must be ascending and unique (${events.slice(0, 8).map((x) => x.seq).join(', ')}${events.length > 8 ? ', …' : ''})` };
    }
    const problem = cacheEventProblem(e.data);
    if (problem) return { path: ['events', i, 'data', 'call', 'wAuc'], message: `metric call ${e.data.type === 'call' ? e.data.call.key : ''}: ${problem}` };
    if (e.data.type === 'call') byKey.set(e.data.call.key, e.data.call);
  }
  for (const [i, call] of state.metricCalls.entries()) {
    const stored = byKey.get(call.key);
    if (stored && (Math.abs(stored.wAuc - call.wAuc) > 1e-9 || stored.scores.join() !== call.scores.join())) {
      return { path: ['state', 'metricCalls', i, 'wAuc'], message: `metric call ${call.key}: W-AUC ${call.wAuc} is not its stored session's (${stored.wAuc})` };
    }
  }
  return null;
}

/** A whole evolution run: its state (read back: in the current payload shape) and its stored events. */
export interface EvolutionRunData<S extends EvolutionState = EvolutionPayload> {
  state: S;
  events: RunEvent[];
}

/** The stored state (in the current payload shape) and events of run `id` (undefined when it is
 * not an evolution run). @throws PayloadVersionError when it was written by a newer version */
export async function readEvolutionRun(store: Store, id: string): Promise<EvolutionRunData | undefined> {
  const run = await store.getRun(id);
  if (!run || run.header.kind !== 'evolution') return undefined;
  return { state: upgradeEvolutionPayload(run.header.data, run.header.payloadVersion), events: run.events };
}

/** JSON text of a whole run, with no key-like fields, and a `model` block saying who played it
 * (`{ name, simulated, kind, caveat }`, llm/model-label.ts). */
export function exportEvolution(run: EvolutionRunData<EvolutionState>): string {
  return stringifyWithoutSecrets({ format: EVOLUTION_EXPORT_FORMAT, model: exportedModel(run.state.config.models), state: run.state, events: run.events });
}

/**
 * Parse and validate an exported run.
 * @throws ImportError with a readable reason (not JSON, another format, the first invalid field)
 */
export function importEvolution(text: string): EvolutionRunData {
  const raw = parseExportJson(text);
  // A file written by a newer version is refused before the schema drops what it does not know.
  const version = fileVersionOf(EVOLUTION_PAYLOAD, raw);
  const data = validateExport(raw, exportSchema, { kind: 'an exported evolution run', valid: 'evolution run', format: EVOLUTION_EXPORT_FORMAT });
  return { state: upgradeEvolutionPayload(data.state, version), events: data.events };
}

/** Store an imported run (header and events in one write). @throws ImportError when the id exists */
export async function storeImportedEvolution(store: Store, run: EvolutionRunData<EvolutionState>, now: number): Promise<void> {
  if (await store.getRun(run.state.id)) throw new ImportError(`A run with the id “${run.state.id}” is already in your list.`);
  await store.appendRunEvents(run.state.id, run.events, evolutionHeader(run.state, now));
}

/** Tokens and USD recorded by the sessions of a run's events, by role (proposer calls are not
 * stored, so they count 0). */
export function recordedUsage(events: readonly RunEvent[]): Record<Role, RoleTotals> {
  const zero = (): RoleTotals => ({ calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cachedPromptTokens: 0, latencyMs: 0, costUsd: 0 });
  const total: Record<Role, RoleTotals> = { actor: zero(), metaAgent: zero(), proposer: zero() };
  for (const e of events) {
    const data = evolutionEventOf(e.data);
    if (data.type === 'proposal' && data.usage) {
      const p = total.proposer;
      p.calls += 1;
      p.promptTokens += data.usage.promptTokens;
      p.completionTokens += data.usage.completionTokens;
      p.reasoningTokens += data.usage.reasoningTokens;
      p.cachedPromptTokens = (p.cachedPromptTokens ?? 0) + (data.usage.cachedPromptTokens ?? 0);
      p.latencyMs += data.usage.latencyMs;
      p.costUsd += data.usage.costUsd;
      continue;
    }
    if (data.type !== 'call') continue;
    const u = usageOf(data.session);
    for (const role of Object.keys(total) as Role[]) {
      for (const k of Object.keys(total[role]) as (keyof RoleTotals)[]) total[role][k] = (total[role][k] ?? 0) + (u[role][k] ?? 0);
    }
  }
  return total;
}

/**
 * Export and import of session records as JSON (format "metattl-session-1"). Import is
 * schema-validated (zod) with a message naming the first bad field; export never contains a key
 * (the record holds none, and key-like fields are dropped defensively).
 */
import { z } from 'zod';
import { ImportError, parseExportJson, validateExport } from '../agents/export-file.ts';
import { maxScoreNumber, meanScoreNumber, msNumber, scoreNumber, tokenNumber, usdNumber, wAucNumber } from '../agents/export-numbers.ts';
import { MAX_SEED } from '../engine/frotz-rng.ts';
import { stepSchema, stringifyWithoutSecrets, taskDescriptorSchema, trajectorySchema } from '../agents/trajectory-io.ts';
import { averageScore, bestScore, wAuc } from './metrics.ts';
import { addInconsistency, episodeStepsProblem, fieldPath, type Inconsistency } from '../agents/consistency.ts';
import type { SessionRecord } from './session-record.ts';
import { SESSION_PAYLOAD } from './session-payload.ts';
import { fileVersionOf } from '../store/payload.ts';
import { exportedModelProblem } from '../llm/model-label.ts';
import { sessionExportedModel, sessionRunModels } from './session-model.ts';

const roleSettings = z.object({ model: z.string(), temperature: z.number().nullable(), maxTokens: z.number().int().positive() });
const recordedRole = z.object({ temperature: z.number().nullable(), maxTokens: z.number().int().positive() });
/** llm/interface.ts `RecordedLlmSettings`. */
export const recordedLlmSettingsSchema = z.object({ baseUrl: z.string(), roles: z.object({ actor: recordedRole, metaAgent: recordedRole, proposer: recordedRole }) });
/** llm/interface.ts `SettingsChangeRecord`. */
export const settingsChangeSchema = z.object({ at: z.string(), codeVersion: z.string(), changes: z.array(z.string()) });
const usage = z.object({
  promptTokens: tokenNumber(), completionTokens: tokenNumber(), reasoningTokens: tokenNumber(), cachedPromptTokens: tokenNumber().optional(), latencyMs: msNumber(), costUsd: usdNumber(),
  estimated: z.boolean().optional(),
});
const adaptation = z.object({
  baseUrl: z.string(), model: z.string(), parameter: z.string(), change: z.enum(['dropped', 'renamed', 'raised', 'set']), to: z.string().nullable(), reason: z.string(),
});
const policySpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('static') }),
  z.object({ kind: z.literal('reflexion') }),
  z.object({ kind: z.literal('memory') }),
  z.object({ kind: z.literal('textgrad') }),
  z.object({ kind: z.literal('meta'), name: z.string(), strategy: z.string(), raw: z.literal(true).optional() }),
  z.object({ kind: z.literal('human') }),
]);

const exchangeSchema = z.object({
  afterEpisode: z.number().int().positive(),
  kind: z.enum(['meta_agent', 'reflection', 'summary', 'memory_rewrite', 'textual_gradient', 'textgrad_update', 'human']),
  userMessage: z.string(),
  reply: z.string(),
  finishReason: z.string().nullable(),
  learnStatus: z.enum(['updated', 'empty', 'missing', 'truncated', 'whole_reply']).nullable(),
  guidingPromptAfter: z.string(),
  usage: usage.nullable(),
  droppedEpisodes: z.array(z.number().int()),
  notice: z.string().nullable(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  providerModel: z.string().max(200).optional(),
  systemFingerprint: z.string().max(200).optional(),
});

export const sessionSchema = z.object({
  format: z.literal('metattl-session-1'),
  id: z.string().min(1),
  config: z.object({
    story: z.object({ id: z.string().nullable(), title: z.string(), md5: z.string().regex(/^[0-9a-f]{32}$/), maxScore: maxScoreNumber().nullable() }),
    task: taskDescriptorSchema.optional(),
    seed: z.number().int().min(0).max(MAX_SEED),
    policy: policySpec,
    metaPrompt: z.object({ text: z.string(), hash: z.string() }).nullable(),
    episodes: z.number().int().positive(),
    maxSteps: z.number().int().positive(),
    initialGuidingPrompt: z.string(),
    models: z.object({ actor: roleSettings, reflection: roleSettings.nullable() }),
    provider: z.object({ presetId: z.string(), baseUrl: z.string() }),
    contextWindow: z.number().int().positive().nullable(),
    replyGrammar: z.boolean().optional(),
  }),
  status: z.enum(['running', 'complete', 'stopped']),
  stopReason: z.enum(['user', 'budget', 'provider']).nullable(),
  stopMessage: z.string().nullable(),
  episodes: z.array(z.object({
    index: z.number().int().positive(),
    guidingPrompt: z.string(),
    trajectory: trajectorySchema.nullable(),
    steps: z.array(stepSchema),
    finalScore: scoreNumber().nullable(),
    termination: trajectorySchema.shape.termination.nullable(),
  })),
  exchanges: z.array(exchangeSchema),
  faultedEpisodes: z.number().int().nonnegative().optional(),
  faults: z.array(z.object({
    phase: z.enum(['episode', 'policy']), episodeIndex: z.number().int().positive(), kind: z.string(), message: z.string(),
    steps: z.array(stepSchema), exchanges: z.array(exchangeSchema), at: z.string(),
  })).optional(),
  scores: z.array(scoreNumber()),
  wAuc: wAucNumber().nullable(),
  averageScore: meanScoreNumber().nullable(),
  bestScore: scoreNumber().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  wallTimeMs: msNumber(),
  adaptations: z.array(adaptation).optional(),
  settingsChanges: z.array(settingsChangeSchema).optional(),
  codeVersion: z.string().max(200).optional(),
  /** Who played it (exportSession writes it; checked against the config by importSession). */
  model: z.unknown().optional(),
  interventions: z.array(z.object({
    episode: z.number().int().positive(), step: z.number().int().positive(), oldGuide: z.string(), newGuide: z.string(), at: z.string(),
  })).optional(),
}).superRefine((record, ctx) => addInconsistency(ctx, sessionInconsistency(record as SessionRecord)));

/**
 * The first inconsistency of a session record (every import checks it: session files, the
 * sessions of evolution and evaluation files), or null: episodes numbered 1, 2, 3 … and no more
 * than K, each ended episode's steps consistent (agents/consistency.ts, the check resume makes),
 * `scores` the ended episodes' final scores, `complete` only with all K episodes ended, and W-AUC,
 * average and best score the ones the scores give (method.md, "Metrics"); every edit of the guide
 * (`interventions`) in an episode the session has, at a step within S.
 */
export function sessionInconsistency(record: SessionRecord): Inconsistency | null {
  const k = record.config.episodes;
  for (const [i, e] of record.episodes.entries()) {
    if (e.index !== i + 1) return { path: ['episodes', i, 'index'], message: `episode ${e.index} where episode ${i + 1} should be (episode indices ${record.episodes.map((x) => x.index).join(', ')})` };
  }
  if (record.episodes.length > k) return { path: ['episodes'], message: `${record.episodes.length} episodes for K = ${k} (config.episodes)` };
  for (const [i, e] of record.episodes.entries()) {
    const found = e.trajectory
      ? episodeStepsProblem({ steps: e.steps, startScore: e.trajectory.startScore, finalScore: e.finalScore, termination: e.termination ?? e.trajectory.termination, maxSteps: record.config.maxSteps, web: e.trajectory.task?.kind === 'web' })
      : e.steps.findIndex((s, j) => s.index !== j + 1) >= 0 ? { field: `steps.${e.steps.findIndex((s, j) => s.index !== j + 1)}.index`, problem: `step indices ${e.steps.map((s) => s.index).join(', ')} are not 1, 2, 3 …` } : null;
    if (found) return { path: ['episodes', i, ...fieldPath(found.field)], message: `episode ${e.index}: ${found.problem}` };
  }
  for (const [i, edit] of (record.interventions ?? []).entries()) {
    if (!record.episodes.some((e) => e.index === edit.episode)) return { path: ['interventions', i, 'episode'], message: `an edit of the guide in episode ${edit.episode}, which the session does not have` };
    if (edit.step > record.config.maxSteps) return { path: ['interventions', i, 'step'], message: `an edit of the guide at step ${edit.step} of at most ${record.config.maxSteps} (config.maxSteps)` };
  }
  const ended = record.episodes.filter((e) => e.trajectory !== null);
  const scores = ended.map((e) => e.finalScore ?? 0);
  if (scores.join() !== record.scores.join()) return { path: ['scores'], message: `scores [${record.scores.join(', ')}] contradict the episodes' final scores [${scores.join(', ')}]` };
  if (record.status === 'complete' && ended.length !== k) return { path: ['status'], message: `"complete" with ${ended.length} of ${k} episodes ended` };
  // The recorded W-AUC must be the one its scores give (method.md, "Metrics"), not any number.
  const expected = wAuc(record.scores, record.config.story.maxScore);
  const matches = expected === null ? record.wAuc === null : record.wAuc !== null && Math.abs(record.wAuc - expected) <= 1e-9;
  if (!matches) return { path: ['wAuc'], message: `W-AUC ${record.wAuc} does not match the scores (${expected === null ? 'n/a' : expected})` };
  const avg = scores.length ? averageScore(scores) : null;
  if (avg === null ? record.averageScore !== null : record.averageScore === null || Math.abs(record.averageScore - avg) > 1e-9) return { path: ['averageScore'], message: `average score ${record.averageScore} is not the scores' mean (${avg ?? 'none'})` };
  const best = scores.length ? bestScore(scores) : null;
  if (record.bestScore !== best) return { path: ['bestScore'], message: `best score ${record.bestScore} is not the scores' best (${best ?? 'none'})` };
  return null;
}

/**
 * JSON text of a session record, with no key-like fields and without its presenter pace, and a
 * `model` block saying who played it (`{ name, simulated, kind, caveat }`, llm/model-label.ts), so
 * a file of the simulated model's run says so to whoever opens it.
 */
export function exportSession(record: SessionRecord): string {
  // The pace is a setting of how the run was shown, not a result: a paced run exports as an unpaced one.
  const { pace: _pace, ...results } = record;
  return stringifyWithoutSecrets({ ...results, model: sessionExportedModel(record.config) });
}

/**
 * Parse and validate an exported session. Its `model` block (absent in older files) is read and
 * must agree with the config's models; the record returned holds no `model` field (it is derived)
 * and is as the file holds it (readers bring it to the current shape, session-payload.ts).
 * @throws ImportError with a readable reason (not JSON, wrong format, first invalid field, a
 *   `model` block that contradicts the config)
 * @throws PayloadVersionError when a newer version wrote the file (its `payloadVersion`)
 */
export function importSession(text: string): SessionRecord {
  const data = parseExportJson(text);
  // A file written by a newer version is refused before the schema drops what it does not know.
  fileVersionOf(SESSION_PAYLOAD, data);
  const { model, ...record } = validateExport(data, sessionSchema, { kind: 'a Meta-TTL session file', valid: 'session file', format: 'metattl-session-1' }) as SessionRecord & { model?: unknown };
  const problem = exportedModelProblem(model, sessionRunModels(record.config));
  if (problem !== null) throw new ImportError(`This is not a valid session file: ${problem}`);
  return record;
}

/**
 * Export and import of trajectories as JSON. Import is schema-validated (zod) and fails with a
 * message naming the first bad field; export never contains a key (keys are not part of the
 * data, and any field named like one is dropped defensively).
 */
import { z } from 'zod';
import { MAX_SEED } from '../engine/frotz-rng.ts';
import { addInconsistency, episodeStepsProblem, fieldPath } from './consistency.ts';
import { scrubText } from '../common/secrets.ts';
import { parseExportJson, validateExport } from './export-file.ts';
import { maxScoreNumber, msNumber, rewardNumber, scoreNumber, tokenNumber, usdNumber } from './export-numbers.ts';
import { TERMINATIONS, type Trajectory } from './trajectory.ts';

/** A web page as a step showed it (`PageSnapshot`): drawn in a sandboxed frame, never run. */
export const pageSnapshotSchema = z.object({ url: z.string(), title: z.string(), html: z.string(), targetBid: z.string().nullable() });

/** Where the player is (`PlayerLocation`): an object number and the name the game gives it. */
export const locationSchema = z.object({ id: z.number().int().positive(), name: z.string() });

export const stepSchema = z.object({
  index: z.number().int().positive(),
  observation: z.string(),
  reply: z.string(),
  finishReason: z.string().nullable(),
  action: z.string().nullable(),
  parseStatus: z.enum(['ok', 'parse_failure', 'truncated', 'llm_error']),
  extraActions: z.array(z.string()),
  reward: rewardNumber(),
  score: scoreNumber().nullable(),
  moves: scoreNumber().nullable(),
  promptTokens: tokenNumber(),
  completionTokens: tokenNumber(),
  reasoningTokens: tokenNumber(),
  cachedPromptTokens: tokenNumber().optional(),
  latencyMs: msNumber(),
  costUsd: usdNumber(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  page: pageSnapshotSchema.optional(),
  location: locationSchema.nullable().optional(),
  providerModel: z.string().max(200).optional(),
  systemFingerprint: z.string().max(200).optional(),
});

/** The optional task descriptor of a trajectory or session (`{ kind, id }`). */
export const taskDescriptorSchema = z.object({ kind: z.enum(['zmachine', 'web']), id: z.string().min(1) });

export const trajectorySchema = z.object({
  format: z.literal('metattl-trajectory-1'),
  story: z.object({ title: z.string(), md5: z.string().regex(/^[0-9a-f]{32}$/), maxScore: maxScoreNumber().nullable() }),
  task: taskDescriptorSchema.optional(),
  seed: z.number().int().min(0).max(MAX_SEED),
  maxSteps: z.number().int().positive(),
  guidingPrompt: z.string(),
  actorModel: z.string(),
  startObservation: z.string(),
  startScore: scoreNumber().nullable(),
  startPage: pageSnapshotSchema.optional(),
  startLocation: locationSchema.nullable().optional(),
  steps: z.array(stepSchema),
  finalObservation: z.string(),
  termination: z.enum(TERMINATIONS as [string, ...string[]]),
  stopReason: z.enum(['user', 'budget']).nullable(),
  finalScore: scoreNumber().nullable(),
  endReason: z.enum(['quit', 'death', 'victory', 'unknown']).nullable(),
  startedAt: z.string(),
  finishedAt: z.string(),
  interventions: z.array(z.object({ step: z.number().int().positive(), oldGuide: z.string(), newGuide: z.string(), at: z.string() })).optional(),
}).superRefine((t, ctx) => {
  // The checker every import and resume uses (agents/consistency.ts).
  const found = episodeStepsProblem({ steps: t.steps, startScore: t.startScore, finalScore: t.finalScore, termination: t.termination, maxSteps: t.maxSteps, web: t.task?.kind === 'web' });
  addInconsistency(ctx, found && { path: fieldPath(found.field), message: found.problem });
});

export { ImportError } from './export-file.ts';

const SECRET_FIELD = /^(api[-_]?key|authorization|secret|token)$/i;

/** Pretty-printed JSON of any export, with every key-like field (apiKey, authorization, …) dropped
 * and every registered API key scrubbed from its strings (common/secrets.ts: a model may echo it). */
export function stringifyWithoutSecrets(value: unknown): string {
  return JSON.stringify(value, (name, v: unknown) => (SECRET_FIELD.test(name) ? undefined : typeof v === 'string' ? scrubText(v) : v), 2);
}

/** JSON text of a trajectory (pretty-printed), with no key-like fields. */
export function exportTrajectory(trajectory: Trajectory): string {
  return stringifyWithoutSecrets(trajectory);
}

/**
 * Parse and validate exported trajectory JSON.
 * @throws ImportError with a readable reason (not JSON, wrong format, first invalid field)
 */
export function importTrajectory(text: string): Trajectory {
  return validateExport(parseExportJson(text), trajectorySchema, { kind: 'a trajectory file', valid: 'trajectory file' }) as Trajectory;
}

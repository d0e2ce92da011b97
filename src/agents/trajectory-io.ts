/**
 * Export and import of trajectories as JSON. Import is schema-validated (zod) and fails with a
 * message naming the first bad field; export never contains a key (keys are not part of the
 * data, and any field named like one is dropped defensively).
 */
import { z } from 'zod';
import { parseExportJson, validateExport } from './export-file.ts';
import { TERMINATIONS, type Trajectory } from './trajectory.ts';

const nullableInt = z.number().int().nullable();
export const stepSchema = z.object({
  index: z.number().int().positive(),
  observation: z.string(),
  reply: z.string(),
  finishReason: z.string().nullable(),
  action: z.string().nullable(),
  parseStatus: z.enum(['ok', 'parse_failure', 'truncated', 'llm_error']),
  extraActions: z.array(z.string()),
  reward: z.number(),
  score: z.number().nullable(),
  moves: nullableInt,
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
  costUsd: z.number().nonnegative(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
});

export const trajectorySchema = z.object({
  format: z.literal('metattl-trajectory-1'),
  story: z.object({ title: z.string(), md5: z.string().regex(/^[0-9a-f]{32}$/), maxScore: z.number().nullable() }),
  seed: z.number().int().nonnegative(),
  maxSteps: z.number().int().positive(),
  guidingPrompt: z.string(),
  actorModel: z.string(),
  startObservation: z.string(),
  startScore: z.number().nullable(),
  steps: z.array(stepSchema),
  finalObservation: z.string(),
  termination: z.enum(TERMINATIONS as [string, ...string[]]),
  stopReason: z.enum(['user', 'budget']).nullable(),
  finalScore: z.number().nullable(),
  endReason: z.enum(['quit', 'death', 'victory', 'unknown']).nullable(),
  startedAt: z.string(),
  finishedAt: z.string(),
});

export { ImportError } from './export-file.ts';

const SECRET_FIELD = /^(api[-_]?key|authorization|secret|token)$/i;

/** Pretty-printed JSON of any export, with every key-like field (apiKey, authorization, …) dropped. */
export function stringifyWithoutSecrets(value: unknown): string {
  return JSON.stringify(value, (name, v: unknown) => (SECRET_FIELD.test(name) ? undefined : v), 2);
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

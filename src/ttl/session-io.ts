/**
 * Export and import of session records as JSON (format "metattl-session-1"). Import is
 * schema-validated (zod) with a message naming the first bad field; export never contains a key
 * (the record holds none, and key-like fields are dropped defensively).
 */
import { z } from 'zod';
import { parseExportJson, validateExport } from '../agents/export-file.ts';
import { maxScoreNumber, meanScoreNumber, msNumber, scoreNumber, tokenNumber, usdNumber, wAucNumber } from '../agents/export-numbers.ts';
import { MAX_SEED } from '../engine/frotz-rng.ts';
import { stepSchema, stringifyWithoutSecrets, taskDescriptorSchema, trajectorySchema } from '../agents/trajectory-io.ts';
import { wAuc } from './metrics.ts';
import type { SessionRecord } from './session-record.ts';

const roleSettings = z.object({ model: z.string(), temperature: z.number().nullable(), maxTokens: z.number().int().positive() });
const usage = z.object({
  promptTokens: tokenNumber(), completionTokens: tokenNumber(), reasoningTokens: tokenNumber(), cachedPromptTokens: tokenNumber().optional(), latencyMs: msNumber(), costUsd: usdNumber(),
  estimated: z.boolean().optional(),
});
const adaptation = z.object({
  baseUrl: z.string(), model: z.string(), parameter: z.string(), change: z.enum(['dropped', 'renamed']), to: z.string().nullable(), reason: z.string(),
});
const policySpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('static') }),
  z.object({ kind: z.literal('reflexion') }),
  z.object({ kind: z.literal('memory') }),
  z.object({ kind: z.literal('meta'), name: z.string(), strategy: z.string() }),
  z.object({ kind: z.literal('human') }),
]);

const exchangeSchema = z.object({
  afterEpisode: z.number().int().positive(),
  kind: z.enum(['meta_agent', 'reflection', 'summary', 'memory_rewrite', 'human']),
  userMessage: z.string(),
  reply: z.string(),
  finishReason: z.string().nullable(),
  learnStatus: z.enum(['updated', 'empty', 'missing', 'truncated', 'whole_reply']).nullable(),
  guidingPromptAfter: z.string(),
  usage: usage.nullable(),
  droppedEpisodes: z.array(z.number().int()),
  notice: z.string().nullable(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
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
}).superRefine((record, ctx) => {
  // The recorded W-AUC must be the one its scores give (method.md, "Metrics"), not any number.
  const expected = wAuc(record.scores, record.config.story.maxScore);
  const matches = expected === null ? record.wAuc === null : record.wAuc !== null && Math.abs(record.wAuc - expected) <= 1e-9;
  if (!matches) ctx.addIssue({ code: 'custom', path: ['wAuc'], message: `W-AUC ${record.wAuc} does not match the scores (${expected === null ? 'n/a' : expected})` });
});

/** JSON text of a session record, with no key-like fields. */
export function exportSession(record: SessionRecord): string {
  return stringifyWithoutSecrets(record);
}

/**
 * Parse and validate an exported session.
 * @throws ImportError with a readable reason (not JSON, wrong format, first invalid field)
 */
export function importSession(text: string): SessionRecord {
  const data = parseExportJson(text);
  return validateExport(data, sessionSchema, { kind: 'a Meta-TTL session file', valid: 'session file', format: 'metattl-session-1' }) as SessionRecord;
}

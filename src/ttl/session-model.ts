/**
 * The model of a session in words (llm/model-label.ts `describeModel`) from its record's config:
 * the provider preset, the actor's model and the meta-agent's (or reflection model's). Pure.
 */
import { describeModel, exportedModel, type ExportedModel, type ModelIdentity, type RunModels } from '../llm/model-label.ts';
import type { SessionConfig } from './session-record.ts';

/** The run models of a session config. */
export const sessionRunModels = (config: Pick<SessionConfig, 'provider' | 'models'>): RunModels => ({
  presetId: config.provider.presetId, actor: config.models.actor.model, metaAgent: config.models.reflection?.model ?? null,
});

/** Who played a session: name, caveat, the simulated flag. */
export const sessionModel = (config: Pick<SessionConfig, 'provider' | 'models'>): ModelIdentity => describeModel(sessionRunModels(config));

/** The `model` block of a session's export. */
export const sessionExportedModel = (config: Pick<SessionConfig, 'provider' | 'models'>): ExportedModel => exportedModel(sessionRunModels(config));

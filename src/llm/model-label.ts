/**
 * The one place that says which model played a run, in words for every picture of its results
 * (chart titles and PNGs, session cards, compared-curve legends, report headers, exports, share
 * links, recordings): its display name and, for the models that are not language models, the
 * caveat that must stand beside it — the simulated model (simulated-model.ts) and the test mock's
 * scripted model (test/mock-llm, the old shipped recordings). Pure and tiny (no rules, no client),
 * so every view and report may import it without loading a provider. DOM-free.
 */

/** The provider preset id of the simulated model (providers.ts) and the CLI's `--provider` value. */
export const SIMULATED_PROVIDER = 'simulated';
/** The simulated model's name, for every role. */
export const SIMULATED_MODEL = 'simulated';
/** The label shown wherever the simulated model's results appear. */
export const SIMULATION_NOTICE = 'simulated model — not a language model; it shows how the loop works, not how real models behave';

/** The model id of the test mock's scripted replies (scripts/record-replays.sh, the README's mock). */
export const SCRIPTED_TEST_MODEL = 'scripted-test-model';
/** The label shown wherever the scripted mock's results appear. */
export const SCRIPTED_NOTICE = 'scripted test model — not a real model';

/** What kind of model played: the simulated model, the scripted mock, a model, or nothing recorded. */
export type ModelKind = 'simulated' | 'scripted' | 'model' | 'unknown';

/** The models of one run, as its config records them ('' or absent: none for that role). */
export interface RunModels {
  /** The provider preset id (a session's `config.provider.presetId`), when recorded. */
  presetId?: string | null;
  actor?: string | null;
  /** The meta-agent's (or reflection model's) model. */
  metaAgent?: string | null;
  proposer?: string | null;
}

/** A run's model in words. */
export interface ModelIdentity {
  kind: ModelKind;
  /** True for the simulated model (exports carry it as `model.simulated`). */
  simulated: boolean;
  /** Short name for titles and legends: "simulated model", "scripted test model", "gpt-4o-mini",
   * "gpt-4o-mini / gpt-4o" (actor / meta-agent when they differ), "unknown model". */
  name: string;
  /** What must stand beside the name: SIMULATION_NOTICE, SCRIPTED_NOTICE, or null for a model. */
  caveat: string | null;
  /** One line for a picture: the caveat when there is one (it starts with the name), else "model: <name>". */
  line: string;
  /** A sentence for a card or beside a chart: "Played by the simulated model — not a language
   * model; …", "Played by the scripted test model — not a real model.", "Played by gpt-4o-mini." */
  sentence: string;
}

/** The model ids of a run that were set, actor first, each once. */
function idsOf(models: RunModels): string[] {
  const ids = [models.actor, models.metaAgent, models.proposer].map((m) => (typeof m === 'string' ? m.trim() : '')).filter((m) => m !== '');
  return [...new Set(ids)];
}

/**
 * A run's model in words: simulated when its provider is the simulated one or any role's model is
 * `simulated` (one simulated role makes the run a simulation); scripted when any role is the mock's
 * `scripted-test-model`; otherwise its model ids ("actor / meta-agent / proposer" when they differ).
 */
export function describeModel(models: RunModels): ModelIdentity {
  const ids = idsOf(models);
  if (models.presetId === SIMULATED_PROVIDER || ids.includes(SIMULATED_MODEL)) {
    return { kind: 'simulated', simulated: true, name: 'simulated model', caveat: SIMULATION_NOTICE, line: SIMULATION_NOTICE, sentence: `Played by the ${SIMULATION_NOTICE}.` };
  }
  if (ids.includes(SCRIPTED_TEST_MODEL)) {
    return { kind: 'scripted', simulated: false, name: 'scripted test model', caveat: SCRIPTED_NOTICE, line: SCRIPTED_NOTICE, sentence: `Played by the ${SCRIPTED_NOTICE}.` };
  }
  if (ids.length === 0) return { kind: 'unknown', simulated: false, name: 'unknown model', caveat: null, line: 'model: unknown', sentence: 'Played by a model not recorded.' };
  const name = ids.join(' / ');
  return { kind: 'model', simulated: false, name, caveat: null, line: `model: ${name}`, sentence: `Played by ${name}.` };
}

/** A model id as shown alone: "simulated model", "scripted test model", "(unknown model)" for '', else the id. */
export function modelName(id: string | null | undefined): string {
  const trimmed = (id ?? '').trim();
  if (trimmed === '') return '(unknown model)';
  return describeModel({ actor: trimmed }).name;
}

/** Whether settings (or a run's recorded provider/model) are the simulated model's. */
export function isSimulated(provider: { presetId: string } | null | undefined, model?: string | null): boolean {
  return describeModel({ presetId: provider?.presetId ?? null, actor: model ?? null }).simulated;
}

/** Whether any of `models` (role model names of a run) is the simulated model. */
export function usesSimulatedModel(models: readonly (string | null | undefined)[]): boolean {
  return models.some((m) => typeof m === 'string' && m.trim() === SIMULATED_MODEL);
}

/**
 * The `model` block every JSON export carries (sessions, evaluations, evolutions): the display
 * name, the simulated flag and the caveat, derived from the run's config. Import reads it back and
 * refuses a file whose block contradicts its config (exportedModelProblem).
 */
export interface ExportedModel {
  name: string;
  simulated: boolean;
  kind: ModelKind;
  caveat: string | null;
}

/** The export block of `models`. */
export function exportedModel(models: RunModels): ExportedModel {
  const m = describeModel(models);
  return { name: m.name, simulated: m.simulated, kind: m.kind, caveat: m.caveat };
}

/**
 * What is wrong with a file's `model` block beside its config's models, or null when it agrees
 * (or is absent: files written before exports carried it). Compares `simulated` and `kind` only:
 * the name and caveat are words, which later versions may reword.
 */
export function exportedModelProblem(block: unknown, models: RunModels): string | null {
  if (block === undefined) return null;
  if (block === null || typeof block !== 'object' || Array.isArray(block)) return 'model: not an object';
  const given = block as { simulated?: unknown; kind?: unknown };
  const expected = describeModel(models);
  if (typeof given.simulated !== 'boolean') return 'model.simulated: not true or false';
  if (given.simulated !== expected.simulated) {
    return `model.simulated: ${String(given.simulated)}, but the config's models (${idsOf(models).join(', ') || 'none'}) say ${expected.simulated ? 'simulated' : 'not simulated'}`;
  }
  if (given.kind !== undefined && given.kind !== expected.kind) return `model.kind: "${String(given.kind)}", but the config's models say "${expected.kind}"`;
  return null;
}

/** The two columns every CSV export of results ends with (appended after its older columns, so
 * columns read by position or name stay where they were): the model's name and its caveat. */
export const MODEL_CSV_COLUMNS = ['model', 'model_caveat'] as const;

/** A model's cells under MODEL_CSV_COLUMNS: its display name ("simulated model", "gpt-4o-mini") and
 * its caveat (SIMULATION_NOTICE, SCRIPTED_NOTICE; '' for a language model). */
export function modelCsvCells(model: Pick<ModelIdentity, 'name' | 'caveat'>): [string, string] {
  return [model.name, model.caveat ?? ''];
}

/**
 * Who played a report, read back from the words every report carries: `simulated` (the notice,
 * present when the simulated model played) or `model` (describeModel's `line`: "model: <ids>", or
 * the scripted mock's caveat). Neither: an unknown model (a report made before either existed).
 */
export function modelOfReport(report: { simulated?: string; model?: string }): ModelIdentity {
  if (report.simulated) return describeModel({ presetId: SIMULATED_PROVIDER });
  const line = report.model?.trim() ?? '';
  if (line === SCRIPTED_NOTICE) return describeModel({ actor: SCRIPTED_TEST_MODEL });
  if (line.startsWith('model: ') && line !== 'model: unknown') return describeModel({ actor: line.slice('model: '.length) });
  return describeModel({});
}

/**
 * Meta-prompt library entries as the page keeps them: `LibraryMetaPrompt` = the agents' entry
 * (`MetaPromptEntry`) plus its evaluations; how a stored entry is read back (lenient: a bad one
 * is skipped, not fatal), and the export / import file (format "metattl-meta-prompt-1",
 * validated with zod; errors name the first bad field). Entries hold no key. Pure.
 */
import { z } from 'zod';
import { parseExportJson, validateExport } from '../../../agents/export-file.ts';
import { wAucNumber } from '../../../agents/export-numbers.ts';
import type { CsvTable } from '../../../eval/csv.ts';
import { describeModel, MODEL_CSV_COLUMNS, type ModelIdentity } from '../../../llm/model-label.ts';
import { scrubText } from '../../../common/secrets.ts';
import type { MetaPromptEntry } from '../../../agents/meta-prompt-library.ts';
import type { SettingValue } from '../../../store/interface.ts';
import { META_PROMPT_LIMITS } from '../../../share/share-link.ts';
import { MetattlError } from '../../../common/errors.ts';

/** One evaluation of an entry on a task set (W-AUC mean and its 95% bootstrap interval). */
export interface MetaPromptEvaluation {
  taskSet: string;
  meanWAuc: number;
  low: number;
  high: number;
  /** The evaluation run it comes from, and the sessions behind the figure (absent in old files). */
  evaluationId?: string;
  sessions?: number;
  /** Who played that evaluation (llm/model-label.ts name and caveat; absent in old files). */
  model?: string;
  modelCaveat?: string | null;
}

/** A library entry with its evaluations (empty when none). */
export type LibraryMetaPrompt = MetaPromptEntry & { evaluations: MetaPromptEvaluation[] };

export const ENTRY_FILE_FORMAT = 'metattl-meta-prompt-1';

/** Limits: the share link's (share-link.ts), so every entry kept here can be shared. */
const { name: MAX_NAME, description: MAX_DESCRIPTION, strategy: MAX_STRATEGY } = META_PROMPT_LIMITS;

const provenanceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('built-in') }),
  z.object({ kind: z.literal('hand-written') }),
  z.object({ kind: z.literal('imported'), from: z.string().max(500) }),
  z.object({ kind: z.literal('evolved'), runId: z.string().max(200), parentId: z.string().max(200).nullable(), iteration: z.number().int().nonnegative() }),
]);

const evaluationSchema = z.object({
  taskSet: z.string().max(200), meanWAuc: wAucNumber(), low: wAucNumber(), high: wAucNumber(),
  evaluationId: z.string().max(200).optional(), sessions: z.number().int().nonnegative().optional(),
  model: z.string().max(400).optional(), modelCaveat: z.string().max(400).nullable().optional(),
});

/**
 * `entry` with the results of one evaluation (one row per task set the entry was evaluated on),
 * replacing earlier rows of the same evaluation; `model` (who played it) is kept on each row. Pure.
 */
export function withEvaluation(
  entry: LibraryMetaPrompt, evaluationId: string, rows: readonly { policyId: string; taskSet: string; sessions: number; wAuc: { estimate: number; low: number; high: number } }[],
  model?: Pick<ModelIdentity, 'name' | 'caveat'>,
): LibraryMetaPrompt {
  const mine = rows.filter((r) => r.policyId === entry.id).map((r): MetaPromptEvaluation => ({
    taskSet: r.taskSet, meanWAuc: r.wAuc.estimate, low: r.wAuc.low, high: r.wAuc.high, evaluationId, sessions: r.sessions,
    ...(model ? { model: model.name, modelCaveat: model.caveat } : {}),
  }));
  if (mine.length === 0) return entry;
  return { ...entry, evaluations: [...entry.evaluations.filter((e) => e.evaluationId !== evaluationId), ...mine] };
}

export const entrySchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().trim().min(1, 'a name is required').max(MAX_NAME),
  description: z.string().max(MAX_DESCRIPTION).default(''),
  strategy: z.string().max(MAX_STRATEGY),
  provenance: provenanceSchema.default({ kind: 'hand-written' }),
  selectedOn: z.array(z.string().max(META_PROMPT_LIMITS.selectedOnItem)).max(META_PROMPT_LIMITS.selectedOn).default([]),
  evaluations: z.array(evaluationSchema).max(200).default([]),
});

const fileSchema = z.object({ format: z.literal(ENTRY_FILE_FORMAT), entry: entrySchema });

/** An error in an imported entry file; `message` is user-readable. */
export class EntryImportError extends MetattlError {
  override readonly name = 'EntryImportError';
  constructor(message: string) {
    super('entry_import', message);
  }
}

/** A stored entry (`StoredMetaPrompt.entry`) as a library entry; null when it is not one. */
export function readStoredEntry(value: SettingValue): LibraryMetaPrompt | null {
  const result = entrySchema.safeParse(value);
  return result.success ? result.data : null;
}

/** A library entry as store data. */
export const storedEntryOf = (entry: LibraryMetaPrompt): SettingValue => structuredClone(entry) as unknown as SettingValue;

/** The export file's JSON text of an entry. */
export function exportEntry(entry: LibraryMetaPrompt): string {
  const { id, name, description, strategy, provenance, selectedOn, evaluations } = entry;
  return scrubText(JSON.stringify({ format: ENTRY_FILE_FORMAT, entry: { id, name, description, strategy, provenance, selectedOn, evaluations } }, null, 2));
}

/**
 * Read an exported entry file. The entry gets `newId` and the provenance "imported from
 * <fileName>" (an evolved entry keeps its run in the text: "evolved in run X").
 * @throws EntryImportError (not JSON, wrong format, first invalid field)
 */
export function importEntry(text: string, newId: string, fileName: string): LibraryMetaPrompt {
  const fail = (message: string) => new EntryImportError(message);
  const file = validateExport(parseExportJson(text, fail), fileSchema, { kind: 'a Meta-TTL meta-prompt file', valid: 'meta-prompt file', format: ENTRY_FILE_FORMAT }, fail);
  const entry = file.entry;
  const origin = entry.provenance.kind === 'evolved' ? `${fileName} (evolved in run ${entry.provenance.runId})` : fileName;
  return { ...entry, id: newId, provenance: { kind: 'imported', from: origin } };
}

/** Where an entry comes from, for people. */
export function provenanceText(provenance: MetaPromptEntry['provenance']): string {
  switch (provenance.kind) {
    case 'built-in':
      return 'Built in (hand-written by the Playground’s authors)';
    case 'hand-written':
      return 'Hand-written';
    case 'imported':
      return `Imported from ${provenance.from}`;
    case 'evolved':
      return `Evolved in run ${provenance.runId}${provenance.parentId ? ` from parent ${provenance.parentId}` : ''} (iteration ${provenance.iteration})`;
  }
}

/** An entry's evaluations as CSV (the Library's evaluations table): task set, mean W-AUC, its 95%
 * interval, the evaluation run and the sessions behind it (empty when an old file lacks them), then
 * who played it (model, model_caveat; "unknown model" when an old file lacks it). */
export function evaluationsTable(evaluations: readonly MetaPromptEvaluation[]): CsvTable {
  return {
    header: ['task set', 'mean W-AUC', '95% CI low', '95% CI high', 'evaluation', 'sessions', ...MODEL_CSV_COLUMNS],
    rows: evaluations.map((e) => [e.taskSet, e.meanWAuc, e.low, e.high, e.evaluationId ?? null, e.sessions ?? null, e.model ?? describeModel({}).name, e.modelCaveat ?? '']),
  };
}

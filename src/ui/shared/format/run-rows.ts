/**
 * Rows of the runs lists (Evolve and Evaluate views) from the store's run summaries
 * (evolutionSummary / evaluationSummary): read leniently, since a summary is plain stored data
 * that an older version may have written differently. Pure.
 */
import type { CsvTable } from '../../../eval/csv.ts';
import type { RunSummary, SettingValue } from '../../../store/interface.ts';
import { plural } from '../../../agents/plural.ts';
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells, type ModelIdentity } from '../../../llm/model-label.ts';

export interface RunRow {
  id: string;
  status: string;
  /** e.g. "12 / 50 metric calls, 4 candidates" or "6 / 8 sessions". */
  progress: string;
  /** e.g. "best c3: 0.214" or "static, naive on ID". */
  detail: string;
  /** Last write, ms since the Unix epoch. */
  updatedAt: number;
  /** Who played (the summary's `models`; "unknown model" for a run stored before it was recorded). */
  model?: Pick<ModelIdentity, 'name' | 'caveat'>;
}

/** Who played a stored run, from its summary's `models` (actor, metaAgent, proposer ids). */
function modelOfSummary(s: SettingValue): ModelIdentity {
  const m = field(s, 'models');
  return describeModel({ actor: str(field(m ?? null, 'actor')), metaAgent: str(field(m ?? null, 'metaAgent')), proposer: str(field(m ?? null, 'proposer')) });
}

const field = (s: SettingValue, name: string): SettingValue | undefined => (s !== null && typeof s === 'object' && !Array.isArray(s) ? s[name] : undefined);
const num = (v: SettingValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: SettingValue | undefined, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const list = (v: SettingValue | undefined): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function evolutionRunRow(run: RunSummary): RunRow {
  const s = run.summary;
  const best = str(field(s, 'bestCandidateId'));
  const mean = num(field(s, 'bestMeanVal'));
  return {
    id: run.id, status: str(field(s, 'status'), 'unknown'), updatedAt: run.updatedAt, model: modelOfSummary(s),
    progress: `${num(field(s, 'metricCallsUsed')) ?? '?'} / ${num(field(s, 'budget')) ?? '?'} metric calls, ${plural(num(field(s, 'candidates')) ?? 0, 'candidate')}`,
    detail: `${best ? `best ${best}${mean === null ? '' : `: ${mean.toFixed(3)}`}` : 'no result yet'} · train ${list(field(s, 'train')).join(', ')} · val ${list(field(s, 'val')).join(', ')}`,
  };
}

export function evaluationRunRow(run: RunSummary): RunRow {
  const s = run.summary;
  return {
    id: run.id, status: str(field(s, 'status'), 'unknown'), updatedAt: run.updatedAt, model: modelOfSummary(s),
    progress: `${num(field(s, 'done')) ?? '?'} / ${num(field(s, 'total')) ?? '?'} sessions`,
    detail: `${list(field(s, 'policies')).join(', ')} on ${list(field(s, 'taskSets')).join(', ')}`,
  };
}

/** A runs list as CSV: id, status, progress, detail, the last write (ISO 8601, UTC), then who
 * played (model, model_caveat; "unknown model" for a run stored before it was recorded). */
export function runsTable(rows: readonly RunRow[]): CsvTable {
  return {
    header: ['id', 'status', 'progress', 'detail', 'updated', ...MODEL_CSV_COLUMNS],
    rows: rows.map((r) => [r.id, r.status, r.progress, r.detail, new Date(r.updatedAt).toISOString(), ...modelCsvCells(r.model ?? describeModel({}))]),
  };
}

/**
 * The results table of an evaluation file opened in Replay: its `report` (as `metattl eval` and
 * the Evaluate view write it) when every row the table draws has the shape it needs, and the
 * policies' names for people (`config.policies[].name`, else the id). The file is untrusted: a
 * report of another shape is not drawn (null), never half-drawn. Pure.
 */
import type { EvaluationReport } from '../../eval/interface.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInterval = (v: unknown): boolean => isObject(v) && ['estimate', 'low', 'high'].every((k) => typeof v[k] === 'number' && Number.isFinite(v[k]));

/** Whether a policy row of a report has what the results table draws. */
function isPolicyRow(row: unknown): boolean {
  if (!isObject(row)) return false;
  return typeof row.policyId === 'string' && typeof row.taskSet === 'string' && typeof row.sessions === 'number' && typeof row.games === 'number'
    && (row.policyName === undefined || typeof row.policyName === 'string')
    && isInterval(row.wAuc) && isInterval(row.averageScore) && isInterval(row.bestScore)
    && (row.diffVsBaseline === null || isInterval(row.diffVsBaseline)) && typeof row.beatsBaseline === 'boolean'
    && (row.leakWarning === null || typeof row.leakWarning === 'string');
}

/** A number, or null (JSON's NaN: a one-game t-interval). */
const isNum = (v: unknown): boolean => v === null || typeof v === 'number';
const hasNums = (v: unknown, keys: readonly string[]): boolean => isObject(v) && keys.every((k) => isNum(v[k]));

/** Whether a comparison has what the comparisons panel draws. */
function isComparison(c: unknown): boolean {
  return isObject(c) && typeof c.a === 'string' && typeof c.b === 'string' && typeof c.taskSet === 'string' && typeof c.declared === 'boolean'
    && (c.step === undefined || typeof c.step === 'string') && hasNums(c.delta, ['mean', 'low', 'high'])
    && Array.isArray(c.perGame) && c.perGame.every((g) => hasNums(g, ['mean', 'low', 'high']) && typeof (g as Record<string, unknown>).game === 'string')
    && hasNums(c.gameLevel, ['tLow', 'tHigh', 'signFlipP', 'minP', 'games']) && isNum(c.holmP) && typeof c.positive === 'boolean'
    && isObject(c.power) && isNum(c.power.delta) && isNum(c.power.repeatsNeeded) && (c.power.reason === null || typeof c.power.reason === 'string');
}

const isWarning = (w: unknown): boolean => isObject(w) && typeof w.code === 'string' && typeof w.message === 'string';

/** The report of an evaluation file, or null when it has none or one the table cannot draw. Its
 * comparisons and warnings are kept only when each has the shape the panel draws (else left out). */
export function reportOf(data: Record<string, unknown>): EvaluationReport | null {
  const report = data.report;
  if (!isObject(report) || !Array.isArray(report.policies) || !report.policies.every(isPolicyRow)) return null;
  if (typeof report.baselinePolicyId !== 'string' || !isObject(report.bootstrap) || typeof report.bootstrap.resamples !== 'number' || typeof report.bootstrap.seed !== 'number') return null;
  const list = (v: unknown, ok: (x: unknown) => boolean) => (Array.isArray(v) && v.every(ok) ? v : undefined);
  const { comparisons, exploratoryComparisons, warnings, ...rest } = report;
  const kept = { comparisons: list(comparisons, isComparison), exploratoryComparisons: list(exploratoryComparisons, isComparison), warnings: list(warnings, isWarning) };
  return { ...rest, ...Object.fromEntries(Object.entries(kept).filter(([, v]) => v !== undefined)) } as unknown as EvaluationReport;
}

/** Policy id → name for people, from the file's `config.policies` (`name`, else a meta-prompt's
 * `spec.name` when it differs from the id) and its report's `policyName`s. */
export function policyNamesOf(data: Record<string, unknown>, report: EvaluationReport | null): Map<string, string> {
  const names = new Map<string, string>();
  const config = data.config;
  if (isObject(config) && Array.isArray(config.policies)) {
    for (const p of config.policies) {
      if (!isObject(p) || typeof p.id !== 'string') continue;
      const spec = isObject(p.spec) ? p.spec : {};
      const name = typeof p.name === 'string' ? p.name : typeof spec.name === 'string' && spec.name !== '' ? spec.name : null;
      if (name !== null) names.set(p.id, name);
    }
  }
  for (const row of report?.policies ?? []) if (row.policyName && row.policyName !== row.policyId) names.set(row.policyId, row.policyName);
  return names;
}

/**
 * The experiment report's downloads: JSON (the experiment as run, its state and the report, key
 * fields stripped), CSV (src/eval/csv.ts through experimentReportToCsv), Markdown and the
 * standalone HTML (no scripts), and the CLI's other CSV files: comparisons (each contrast's Δ,
 * per-game Δ, game-level test, Holm, repeats needed), evolutions (proposals, accepted, validated,
 * proposer tokens / USD, edit sizes, replicate), folds (selection optimism, transfer gap) and the
 * walkthrough-recall probe (recall.csv). Pure.
 */
import { stringifyWithoutSecrets } from '../../agents/trajectory-io.ts';
import type { ExperimentReport } from '../../experiment/interface.ts';
import { experimentComparisonsToCsv, experimentEvolutionsToCsv, experimentFoldsToCsv, experimentRecallToCsv, experimentReportToCsv, experimentReportToHtml, experimentReportToMarkdown } from '../../experiment/report-formats.ts';
import type { ExperimentState } from '../../experiment/interface.ts';
import type { Registration } from '../../experiment/registration.ts';

/** An experiment as the page keeps it: its id (the prefix of its runs' ids), its state and what
 * its finished steps spent (tokens, USD; null once a step's price was unknown). */
export interface PageExperiment {
  id: string;
  state: ExperimentState;
  spent: { tokens: number; costUsd: number | null };
  /** The run card registered before it started (absent: not registered). */
  registration?: Registration;
}

export type ExperimentFormat = 'json' | 'csv' | 'md' | 'html' | 'comparisons-csv' | 'evolutions-csv' | 'folds-csv' | 'recall-csv';

/** The downloads `report` has, with their button labels: the four report formats, then the CSV
 * files the CLI writes beside report.csv (evolutions, folds and recall only when the report has them). */
export function experimentFormatsOf(report: Pick<ExperimentReport, 'evolutions' | 'foldResults' | 'recall'>): { id: ExperimentFormat; label: string }[] {
  return [
    { id: 'json', label: 'JSON' }, { id: 'csv', label: 'CSV' }, { id: 'md', label: 'Markdown' }, { id: 'html', label: 'HTML' },
    { id: 'comparisons-csv', label: 'Comparisons CSV' },
    ...(report.evolutions.length ? [{ id: 'evolutions-csv' as const, label: 'Evolutions CSV' }] : []),
    ...(report.foldResults.length ? [{ id: 'folds-csv' as const, label: 'Folds CSV' }] : []),
    ...(report.recall?.length ? [{ id: 'recall-csv' as const, label: 'Recall CSV' }] : []),
  ];
}

/** The file of `format` for experiment `record` and its `report`: `experiment-<name>-<id>.<ext>`;
 * the extra CSV files `experiment-<name>-<id>-<comparisons|evolutions|folds>.csv`, the same text
 * as the CLI's comparisons.csv, evolutions.csv and folds.csv. */
export function experimentExport(format: ExperimentFormat, record: PageExperiment, report: ExperimentReport): { name: string; text: string; mime: string } {
  const name = `experiment-${report.name}-${record.id}`;
  if (format === 'comparisons-csv') return { name: `${name}-comparisons.csv`, text: experimentComparisonsToCsv(report), mime: 'text/csv' };
  if (format === 'evolutions-csv') return { name: `${name}-evolutions.csv`, text: experimentEvolutionsToCsv(report), mime: 'text/csv' };
  if (format === 'recall-csv') return { name: `${name}-recall.csv`, text: experimentRecallToCsv(report), mime: 'text/csv' };
  if (format === 'folds-csv') return { name: `${name}-folds.csv`, text: experimentFoldsToCsv(report), mime: 'text/csv' };
  if (format === 'csv') return { name: `${name}.csv`, text: experimentReportToCsv(report), mime: 'text/csv' };
  if (format === 'md') return { name: `${name}.md`, text: experimentReportToMarkdown(report), mime: 'text/markdown' };
  if (format === 'html') return { name: `${name}.html`, text: experimentReportToHtml(report), mime: 'text/html' };
  return { name: `${name}.json`, text: stringifyWithoutSecrets({ id: record.id, experiment: record.state.spec, state: record.state, ...(record.registration ? { registration: record.registration } : {}), report }), mime: 'application/json' };
}

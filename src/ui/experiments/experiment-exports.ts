/**
 * The experiment report's downloads: JSON (the experiment as run, its state and the report, key
 * fields stripped), CSV (src/eval/csv.ts through experimentReportToCsv), Markdown and the
 * standalone HTML (no scripts). Pure.
 */
import { stringifyWithoutSecrets } from '../../agents/trajectory-io.ts';
import type { ExperimentReport } from '../../experiment/interface.ts';
import { experimentReportToCsv, experimentReportToHtml, experimentReportToMarkdown } from '../../experiment/report-formats.ts';
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

export type ExperimentFormat = 'json' | 'csv' | 'md' | 'html';

/** The file of `format` for experiment `record` and its `report`: `experiment-<name>-<id>.<ext>`. */
export function experimentExport(format: ExperimentFormat, record: PageExperiment, report: ExperimentReport): { name: string; text: string; mime: string } {
  const name = `experiment-${report.name}-${record.id}`;
  if (format === 'csv') return { name: `${name}.csv`, text: experimentReportToCsv(report), mime: 'text/csv' };
  if (format === 'md') return { name: `${name}.md`, text: experimentReportToMarkdown(report), mime: 'text/markdown' };
  if (format === 'html') return { name: `${name}.html`, text: experimentReportToHtml(report), mime: 'text/html' };
  return { name: `${name}.json`, text: stringifyWithoutSecrets({ id: record.id, experiment: record.state.spec, state: record.state, ...(record.registration ? { registration: record.registration } : {}), report }), mime: 'application/json' };
}

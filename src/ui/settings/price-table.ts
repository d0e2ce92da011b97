/** The price table as CSV: model and USD per million input / output tokens, as entered. Pure. */
import type { CsvTable } from '../../eval/csv.ts';
import type { PriceRow } from '../shared/stores/llm-settings.ts';

export function priceTable(rows: readonly PriceRow[]): CsvTable {
  return { header: ['model', 'input USD per million tokens', 'output USD per million tokens'], rows: rows.map((r) => [r.model, r.inputPerMTokUsd, r.outputPerMTokUsd]) };
}

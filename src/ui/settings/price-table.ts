/** The price table as CSV: model and USD per million input / output / cached input tokens, as
 * entered (cached input empty when the row has none: the input price applies). Pure. */
import type { CsvTable } from '../../eval/csv.ts';
import type { PriceRow } from '../shared/state/llm-settings.ts';

export function priceTable(rows: readonly PriceRow[]): CsvTable {
  return {
    header: ['model', 'input USD per million tokens', 'output USD per million tokens', 'cached input USD per million tokens'],
    rows: rows.map((r) => [r.model, r.inputPerMTokUsd, r.outputPerMTokUsd, r.cachedInputPerMTokUsd ?? '']),
  };
}

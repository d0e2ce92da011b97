/**
 * Reading our export files (trajectories, sessions, evolution runs, meta-prompt entries, replays):
 * JSON first, then the `format` tag, then the zod schema; the first problem becomes one readable
 * error naming the bad field. One place, so every import fails the same way.
 */
import type { z } from 'zod';
import { MetattlError } from '../common/errors.ts';

export class ImportError extends MetattlError {
  override readonly name = 'ImportError';
  constructor(message: string) {
    super('import_file', message);
  }
}

/** Build the caller's error type (e.g. a view-specific ImportError subclass). */
export type ImportErrorFactory = (message: string) => Error;
const importError: ImportErrorFactory = (message) => new ImportError(message);

/** Parse the text of an export. @throws the factory's error: "This file is not JSON: …" */
export function parseExportJson(text: string, fail: ImportErrorFactory = importError): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(`This file is not JSON: ${(error as Error).message}`);
  }
}

export interface ExportExpectation {
  /** What the file should be, as a noun phrase ("a Meta-TTL session file"). */
  kind: string;
  /** What the schema checks, for the invalid-field message ("session file"). */
  valid: string;
  /** The `format` tag the data must carry; omitted when the schema checks it. */
  format?: string;
}

/**
 * Check parsed export data against its format tag and schema.
 * @throws the factory's error: wrong format, or "This is not a valid <valid>: <path>: <reason>"
 */
export function validateExport<S extends z.ZodType>(data: unknown, schema: S, expect: ExportExpectation, fail: ImportErrorFactory = importError): z.output<S> {
  if (expect.format !== undefined && (data as { format?: unknown } | null)?.format !== expect.format) {
    throw fail(`This is not ${expect.kind} (its "format" is not "${expect.format}").`);
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw fail(`This is not a valid ${expect.valid}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}

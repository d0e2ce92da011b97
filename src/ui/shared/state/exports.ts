/**
 * Exports of what the page shows: a chart or the session map as a PNG (the map also as SVG), a chart's data or a table as CSV (the text
 * written by src/eval/csv.ts, the one CSV writer, which ExportMenu loads on first use — so the
 * page's first load does not carry the CSV library). Files are named after what they hold and when:
 * `<what>-<YYYY-MM-DD-HHMM>Z.<ext>` (UTC), e.g. `learn-curve-s1a2b-2026-11-30-1905Z.png`, and go
 * through the services' `download` (so tests capture them). The page provides one `Exports` to
 * every component through Svelte context (`EXPORTS_CONTEXT`, set in main.ts).
 */
import type { PlayerServices } from './services.ts';

/** The kinds of file an export writes. */
export type ExportExtension = 'csv' | 'png' | 'svg';

const MIME: Record<ExportExtension, string> = { csv: 'text/csv', png: 'image/png', svg: 'image/svg+xml' };

export interface Exports {
  /** Download `data` as `<what>-<stamp>.<extension>`: CSV text (text/csv), a PNG image (image/png)
   * or an SVG document (image/svg+xml). */
  save(what: string, extension: ExportExtension, data: string | Blob): void;
}

/** The context key under which the page's `Exports` is found (`getContext(EXPORTS_CONTEXT)`). */
export const EXPORTS_CONTEXT = Symbol('exports');

/** `what` made safe as a file name: runs of anything but letters, digits, `.`, `_` and `-` become `-`. */
export const fileSafe = (what: string): string => what.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';

/** The file name of an export of `what` made at `ms` (ms since the Unix epoch), UTC. */
export function exportFileName(what: string, ms: number, extension: ExportExtension): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}-${two(d.getUTCHours())}${two(d.getUTCMinutes())}Z`;
  return `${fileSafe(what)}-${stamp}.${extension}`;
}

/** The page's exports over `files`' download and clock. */
export function createExports(files: Pick<PlayerServices, 'download' | 'now'>): Exports {
  return {
    save: (what, extension, data) => files.download(exportFileName(what, files.now(), extension), data, MIME[extension]),
  };
}

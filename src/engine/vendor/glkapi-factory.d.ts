/** Types for the vendored glkapi factory (see scripts/vendor-glkapi.mjs). Only what we call. */
export interface GlkApi {
  init(options: Record<string, unknown>): void;
  update(): void;
  glk_window_clear(win: unknown): void;
  glk_window_set_arrangement(...args: unknown[]): void;
  glk_cancel_line_event(win: unknown, eventref: unknown): void;
  glk_cancel_char_event(win: unknown): void;
  glk_request_char_event_uni(win: unknown): void;
  glk_request_line_event_uni(win: unknown, buf: number[], initlen: number): void;
  [name: string]: unknown;
}
/** A new, independent Glk instance (glkapi.js keeps module-level state; this does not). */
export function createGlk(): GlkApi;

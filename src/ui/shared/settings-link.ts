/**
 * How a message points at the Settings view: the link's href and the in-page switch to it (no
 * reload, so an in-memory key stays), given to components through Svelte context
 * (`SETTINGS_LINK_CONTEXT`, set in compose.ts). `settingsParts` splits a message so that each
 * "Settings" becomes that link. Pure apart from the context value.
 */

/** The context key under which the page's `SettingsLink` is found. */
export const SETTINGS_LINK_CONTEXT = Symbol('settings-link');

export interface SettingsLink {
  /** The Settings view's URL (path and query). */
  href(): string;
  /** Show the Settings view. */
  go(): void;
}

/** `text` cut around each whole word "Settings": odd parts are the word itself. */
export function settingsParts(text: string): string[] {
  return text.split(/\b(Settings)\b/);
}

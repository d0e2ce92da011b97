/**
 * What this page may use, read once from the browser: the one place that knows which APIs a
 * page served over plain http from another machine (not a "secure context": a workshop room's
 * `http://<LAN address>`) lacks — `crypto.randomUUID`, `crypto.subtle`, `navigator.clipboard`, Web
 * Locks (`navigator.locks`), the Origin Private File System and cross-origin isolation (so
 * multi-threading) exist only on https or localhost. Everything else the page does works there:
 * ids come from `crypto.getRandomValues`, copying falls back to the old copy command (else the text
 * is shown to copy by hand), the cross-tab run guard uses localStorage leases (lease-locks.ts),
 * and the in-page model says plainly that it needs https or localhost. The core gets these as
 * injected functions, never by reading the browser itself.
 */
import { randomUuid } from '../../common/random-id.ts';
import { leaseLocks, type RunLocks } from './lease-locks.ts';

/** What the page may use (each true when the browser offers it here). */
export interface PageAbilities {
  /** The page is a secure context (https, or http on localhost / 127.0.0.1 / a file). */
  secure: boolean;
  /** The page is cross-origin isolated (needs a secure context and COOP + COEP headers). */
  isolated: boolean;
  /** `navigator.clipboard.writeText` exists. */
  clipboard: boolean;
  /** Web Locks (`navigator.locks`) exist (else the run guard uses localStorage leases). */
  locks: boolean;
  /** The Origin Private File System and `crypto.subtle` exist: the in-page model can keep model files. */
  modelStorage: boolean;
  /** The page's host name (shown in the notice). */
  host: string;
}

/** The globals read (a window, or a stand-in in tests). */
export interface AbilityScope {
  isSecureContext?: boolean;
  crossOriginIsolated?: boolean;
  navigator?: { clipboard?: { writeText?: unknown }; locks?: unknown; storage?: { getDirectory?: unknown } };
  crypto?: { subtle?: unknown };
  location?: { hostname?: string };
}

/** Read what the page may use from `scope` (default: the page's globals). */
export function readPageAbilities(scope: AbilityScope = globalThis as AbilityScope): PageAbilities {
  const nav = scope.navigator;
  return {
    secure: scope.isSecureContext === true,
    isolated: scope.crossOriginIsolated === true,
    clipboard: typeof nav?.clipboard?.writeText === 'function',
    locks: nav?.locks !== undefined && nav.locks !== null,
    modelStorage: typeof nav?.storage?.getDirectory === 'function' && scope.crypto?.subtle !== undefined && scope.crypto.subtle !== null,
    host: scope.location?.hostname ?? '',
  };
}

/** The page's abilities, read once. */
let current: PageAbilities | null = null;
export const pageAbilities = (): PageAbilities => (current ??= readPageAbilities());

/** Why the in-page model cannot run here, in plain words; null when it can. */
export function localModelProblem(abilities: PageAbilities): string | null {
  if (abilities.modelStorage) return null;
  return abilities.secure
    ? 'This browser cannot keep model files for this page (it lacks the Origin Private File System): use another provider, or a current Chrome, Edge or Firefox.'
    : 'The in-page model needs https or localhost: this page is plain http from another machine, where the browser gives no storage for model files. Use the provider the page offers (or the simulated model), or open the page at https:// or on localhost.';
}

/** What the page says about cross-origin isolation (whether the in-page model can use threads). */
export function isolationText(abilities: PageAbilities): string {
  if (abilities.isolated) return 'The page is cross-origin isolated.';
  return abilities.secure
    ? 'The page is not cross-origin isolated (its server does not send both COOP and COEP headers that allow it): the model runs single-threaded in its own worker.'
    : 'The page is not cross-origin isolated: that needs https or localhost, whatever headers its server sends (this page is plain http from another machine).';
}

/**
 * The plain-words notice of a page on plain http from another machine: what needs https or
 * localhost. Copying and the one-tab run guard have fallbacks there (the copy command, localStorage
 * leases), so only the in-page model is named. Null on a secure page, or when nothing is missing.
 */
export function insecureNotice(abilities: PageAbilities): string | null {
  if (abilities.secure || abilities.modelStorage) return null;
  return `This page is served over plain http from another machine${abilities.host ? ` (${abilities.host})` : ''}: the in-page local model (Settings) needs https or localhost; everything else works.`;
}

/** A random UUID (made from `crypto.getRandomValues`, which every page has). */
export const newId = (): string => randomUuid((bytes) => globalThis.crypto.getRandomValues(bytes));

/** The document surface the copy fallback uses. */
export type CopyDocument = Pick<Document, 'createElement' | 'body' | 'execCommand' | 'activeElement'>;

/**
 * Copy `text` to the clipboard: with `navigator.clipboard` where the page has it, else with the old
 * copy command on a hidden text field (works on plain http during a click).
 * @throws Error (a rejected promise, never a synchronous throw) when neither copied: the caller shows
 *   the text to copy by hand
 */
export async function copyText(text: string, doc: CopyDocument = document, clipboard: { writeText(text: string): Promise<void> } | undefined = globalThis.navigator?.clipboard): Promise<void> {
  if (clipboard && typeof clipboard.writeText === 'function') {
    try {
      return await clipboard.writeText(text);
    } catch {
      // refused (no permission, no focus): try the copy command
    }
  }
  const field = doc.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  const before = doc.activeElement as HTMLElement | null;
  doc.body.append(field);
  field.focus();
  field.select();
  let copied = false;
  try {
    copied = doc.execCommand('copy');
  } finally {
    field.remove();
    before?.focus?.();
  }
  if (!copied) throw new Error('The browser did not copy: select the text and copy it (Ctrl+C).');
}

/**
 * The run guard of this page: Web Locks where the page has them, else localStorage leases
 * (lease-locks.ts; released when the page goes away), else null (no guard: storage refused).
 */
export function pageRunLocks(scope: Window & typeof globalThis = window): RunLocks | null {
  if (scope.navigator.locks) return scope.navigator.locks;
  try {
    const locks = leaseLocks({ storage: scope.localStorage, owner: newId() });
    scope.addEventListener('pagehide', () => locks.release());
    return locks;
  } catch {
    return null;
  }
}

/**
 * A run form's last settings, per view, kept in the store's settings (`form:<view>`, e.g.
 * `form:learn`) so a reload shows the form as it was left. Only plain form fields are kept (numbers,
 * strings, booleans, null, string lists and string maps) — never a key: forms have none, and the
 * value saved is the snapshot the view hands over. A saved value is merged field by field over the
 * defaults: a field of another type, or unknown, is dropped (old or damaged settings lose nothing else).
 */
import type { SettingValue, Store } from '../../../store/interface.ts';

/** The store setting of a view's form. */
export const formSettingKey = (view: 'learn' | 'agent' | 'evolve' | 'evaluate'): string => `form:${view}`;

const kindOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? 'strings' : 'array';
  if (typeof value === 'object') return Object.values(value).every((v) => typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v))) ? 'record' : 'object';
  return typeof value;
};

/** `saved`'s fields over `defaults`: a field is taken when `defaults` has it and both are the same
 * kind (number, string, boolean, string list, record), or one is null and the other a number
 * (an optional number such as the context window). Anything else keeps the default. Pure. */
export function mergeSavedForm<T extends object>(defaults: T, saved: unknown): T {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return { ...defaults };
  const out: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [name, fallback] of Object.entries(defaults)) {
    if (!(name in saved)) continue;
    const value = (saved as Record<string, unknown>)[name];
    const [want, have] = [kindOf(fallback), kindOf(value)];
    const nullableNumber = (want === 'null' && have === 'number') || (want === 'number' && have === 'null');
    if ((want === have && want !== 'array' && want !== 'object') || nullableNumber) {
      if (typeof value !== 'number' || Number.isFinite(value)) out[name] = value;
    }
  }
  return out as T;
}

/** Reads a view's saved form once and saves it as changed. The view calls `save` from an
 * `$effect` (it re-runs when a field read by the snapshot changes); saves before `load` finished
 * are ignored, so the defaults never overwrite what was saved. Store errors are ignored: the form
 * still works, it is only not remembered. */
export class FormMemory<T extends object> {
  /** True once `load` finished (read by `save`, so an effect calling it re-runs then). */
  loaded = $state(false);
  /** True when `load` found a saved form (the view was used before). */
  found = false;

  constructor(
    private readonly store: () => Store,
    private readonly key: string,
  ) {}

  /** The saved form merged over `defaults` (`defaults` when none or unreadable). */
  async load(defaults: T): Promise<T> {
    const saved = await this.store().getSetting(this.key).catch(() => undefined);
    this.loaded = true;
    this.found = saved !== undefined;
    return mergeSavedForm(defaults, saved);
  }

  /** Save `value` (a snapshot of the form; nothing happens before `load`). */
  save(value: T): void {
    if (!this.loaded) return;
    void this.store().setSetting(this.key, $state.snapshot(value) as SettingValue).catch(() => undefined);
  }
}

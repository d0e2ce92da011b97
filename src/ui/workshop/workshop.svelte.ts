/**
 * Workshop mode, for live demos on a projector: big type, high contrast, larger charts, fewer
 * panels (app.css `.workshop` and the views' `workshop` props), and cheap, fast presets in the
 * Learn view (learn-presets.ts). Layers: off by default < the store's saved setting < the URL's
 * `?workshop=1` / `?workshop=0` (the URL is not saved; the nav's toggle is).
 */
import type { Store } from '../../store/interface.ts';
import type { ViewId } from '../shell/views.ts';

/** The views the nav offers in workshop mode (the others stay reachable by URL). */
export const WORKSHOP_VIEWS: readonly ViewId[] = ['play', 'learn', 'replay', 'settings'];

/** Store setting: true while workshop mode is on. */
export const WORKSHOP_KEY = 'workshopMode';

/** The URL's say: true / false for `?workshop=1|true|on` / `0|false|off`, null when absent or other. */
export function workshopFromQuery(query: URLSearchParams): boolean | null {
  const value = query.get('workshop')?.trim().toLowerCase();
  if (value === '1' || value === 'true' || value === 'on') return true;
  if (value === '0' || value === 'false' || value === 'off') return false;
  return null;
}

export class WorkshopState {
  on = $state(false);
  /** True once the saved setting has been read (or the URL decided). */
  ready = $state(false);
  private store: Store | null = null;
  private readonly fromUrl: boolean | null;
  private readonly listeners: ((on: boolean) => void)[] = [];

  constructor(query: URLSearchParams) {
    this.fromUrl = workshopFromQuery(query);
    if (this.fromUrl !== null) this.on = this.fromUrl;
  }

  /** Read the saved setting (unless the URL decided) and save later toggles to `store`. */
  async init(store: Store): Promise<void> {
    this.store = store;
    if (this.fromUrl === null) {
      const saved = await store.getSetting(WORKSHOP_KEY).catch(() => undefined);
      if (saved === true) this.on = true;
    }
    this.ready = true;
    if (this.on) this.notify();
  }

  /** The nav's toggle: flip and remember. */
  toggle(): void {
    this.set(!this.on);
    if (this.store) void this.store.setSetting(WORKSHOP_KEY, this.on).catch(() => undefined);
  }

  /** Call `listener` whenever the mode changes (and once at `init` when it starts on). */
  onChange(listener: (on: boolean) => void): void {
    this.listeners.push(listener);
  }

  private set(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.on);
  }
}

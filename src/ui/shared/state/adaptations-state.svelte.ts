/**
 * The Settings view's list of request parameters adapted automatically (src/llm/adaptations.ts):
 * what the page's memory holds, kept in the store (setting `llmAdaptations`) so a reload still
 * sends the adapted requests the first time, and "Forget" to clear them (e.g. after a server
 * upgrade). The memory is shared with the page's chat models through `LlmServices`.
 */
import type { AdaptationMemory } from '../../../llm/adaptations.ts';
import type { ParameterAdaptation } from '../../../llm/interface.ts';
import type { SettingValue, Store } from '../../../store/interface.ts';

/** Store setting holding the adaptations (no key, no secrets: base URLs, models, parameter names). */
export const ADAPTATIONS_KEY = 'llmAdaptations';

/** Saved entries that look like adaptations (anything else is ignored). */
function parseSaved(value: SettingValue | undefined): ParameterAdaptation[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return [];
    const { baseUrl, model, parameter, change, to, reason } = v;
    if (typeof baseUrl !== 'string' || typeof model !== 'string' || typeof parameter !== 'string') return [];
    if (change !== 'dropped' && change !== 'renamed' && change !== 'raised' && change !== 'set') return [];
    return [{ baseUrl, model, parameter, change, to: typeof to === 'string' ? to : null, reason: typeof reason === 'string' ? reason : '' }];
  });
}

export class AdaptationsState {
  /** Every adaptation the page knows, in the order learnt. */
  list = $state.raw<ParameterAdaptation[]>([]);
  private store: Store | null = null;
  private off: (() => void) | null = null;

  constructor(private readonly memory: AdaptationMemory | undefined) {}

  /** Restore the saved adaptations into the memory and follow (and save) its changes. */
  async init(store: Store): Promise<void> {
    this.store = store;
    if (!this.memory) return;
    this.memory.restore(parseSaved(await store.getSetting(ADAPTATIONS_KEY)));
    this.list = this.memory.list();
    this.off?.();
    this.off = this.memory.subscribe((all) => {
      this.list = all;
      void this.save(all);
    });
  }

  /** Forget every adaptation: the next calls send the full request again. */
  async forget(): Promise<void> {
    this.memory?.clear();
    this.list = [];
    await this.store?.deleteSetting(ADAPTATIONS_KEY);
  }

  private async save(all: ParameterAdaptation[]): Promise<void> {
    if (!this.store) return;
    if (all.length === 0) await this.store.deleteSetting(ADAPTATIONS_KEY);
    else await this.store.setSetting(ADAPTATIONS_KEY, all.map((a) => ({ ...a })));
  }
}

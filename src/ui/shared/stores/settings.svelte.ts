/**
 * The Settings view's state: the LLM settings form (llm-settings.ts), saved to the store on every
 * change without the key; the key itself in the in-memory `ApiKeyHolder`, and in the store (its
 * own setting) only while "remember on this device" is ticked — un-ticking deletes it. Also the
 * "Test connection" result. Error messages never contain the key.
 */
import { explainInterpreterError } from '../../../engine/errors.ts';
import { LlmError, scrub } from '../../../llm/errors.ts';
import type { LlmSettings, Role, RoleSettings } from '../../../llm/interface.ts';
import { presetById } from '../../../llm/providers.ts';
import { defaultLlmSettings } from '../../../llm/defaults.ts';
import type { EstimateModels } from '../../../evolve/cost-estimate.ts';
import type { Store } from '../../../store/interface.ts';
import { AdaptationsState } from './adaptations-state.svelte.ts';
import { apiKeyHolder, type ApiKeyHolder } from './api-key.svelte.ts';
import type { LlmServices } from './llm-services.ts';
import { API_KEY_KEY, defaultForm, formFromSaved, llmSettingsOf, priceRow, savedFromForm, SETTINGS_KEY, type PriceRow, type SettingsForm } from './llm-settings.ts';

/** The OpenAI preset's default model for every role (llm/defaults.ts). */
const OPENAI_DEFAULT_MODEL = defaultLlmSettings().roles.actor.model;

/** The last "Test connection": listed model ids, or the mapped error's message. */
export type ConnectionTest =
  | { status: 'idle' }
  | { status: 'testing' }
  | { status: 'ok'; models: string[] }
  | { status: 'error'; message: string };

/** Form fields edited directly (roles, caps and prices have their own methods). */
export type FormPatch = Partial<Omit<SettingsForm, 'roles' | 'caps' | 'prices' | 'rememberKey'>>;

export class SettingsState {
  form = $state.raw<SettingsForm>(defaultForm());
  connection = $state.raw<ConnectionTest>({ status: 'idle' });
  /** Store writes not finished yet (0 = everything shown is saved). */
  pendingWrites = $state(0);
  /** Why the settings could not be loaded or saved; null when fine. */
  error = $state<string | null>(null);
  loaded = $state(false);
  private store: Store | null = null;
  private writes: Promise<void> = Promise.resolve();
  private testing: AbortController | null = null;

  /** Request parameters adapted automatically (shown, and forgettable, in Settings). */
  readonly adaptations: AdaptationsState;

  constructor(
    private readonly llm: LlmServices,
    private readonly key: ApiKeyHolder = apiKeyHolder,
  ) {
    this.adaptations = new AdaptationsState(llm.adaptations);
  }

  /** The key for the password field ('' when none). */
  get apiKey(): string {
    return this.key.reveal();
  }

  /** Load the saved form (and the remembered key) from `store`; later changes are saved there. */
  async init(store: Store): Promise<void> {
    this.store = store;
    try {
      const [saved, key] = await Promise.all([store.getSetting(SETTINGS_KEY), store.getSetting(API_KEY_KEY)]);
      this.form = formFromSaved(saved);
      if (this.form.rememberKey && typeof key === 'string' && !this.key.isSet) this.key.set(key);
      if (!this.form.rememberKey && key !== undefined) await store.deleteSetting(API_KEY_KEY);
      await this.adaptations.init(store);
    } catch (error) {
      this.error = `The LLM settings could not be loaded: ${this.messageOf(error)}`;
    }
    this.loaded = true;
  }

  /** The settings of a run or request, with the key. */
  llmSettings(): LlmSettings {
    return llmSettingsOf(this.form, this.key.reveal());
  }

  /** Choose a provider preset: its base URL replaces the current one ('custom' keeps it). Away
   * from OpenAI, a meta-agent or proposer still on OpenAI's default model (settings saved before
   * empty meant "the actor's") is set to use the actor's model, never a model nobody chose there. */
  selectPreset(presetId: string): void {
    const preset = presetById(presetId);
    let roles = this.form.roles;
    if (presetId !== 'openai') {
      for (const role of ['metaAgent', 'proposer'] as const) {
        if (roles[role].model === OPENAI_DEFAULT_MODEL) roles = { ...roles, [role]: { ...roles[role], model: '' } };
      }
    }
    this.form = { ...this.form, roles };
    this.change({ presetId, ...(preset && preset.id !== 'custom' ? { baseUrl: preset.baseUrl } : {}) });
  }

  /** Edit the base URL; one that no longer matches the chosen preset makes it 'custom'. */
  setBaseUrl(baseUrl: string): void {
    const preset = presetById(this.form.presetId);
    this.change({ baseUrl, ...(preset && preset.id !== 'custom' && preset.baseUrl !== baseUrl ? { presetId: 'custom' } : {}) });
  }

  setApiKey(key: string): void {
    this.key.set(key);
    if (this.form.rememberKey) this.save();
  }

  /** Remember the key on this device (stored under its own setting), or forget it (deleted). */
  setRememberKey(rememberKey: boolean): void {
    this.form = { ...this.form, rememberKey };
    this.save();
  }

  change(patch: FormPatch): void {
    this.form = { ...this.form, ...patch };
    this.save();
  }

  changeRole(role: Role, patch: Partial<RoleSettings>): void {
    this.form = { ...this.form, roles: { ...this.form.roles, [role]: { ...this.form.roles[role], ...patch } } };
    this.save();
  }

  changeCaps(patch: Partial<SettingsForm['caps']>): void {
    this.form = { ...this.form, caps: { ...this.form.caps, ...patch } };
    this.save();
  }

  changePrice(id: number, patch: Partial<Omit<PriceRow, 'id'>>): void {
    this.form = { ...this.form, prices: this.form.prices.map((row) => (row.id === id ? { ...row, ...patch } : row)) };
    this.save();
  }

  addPrice(): void {
    this.form = { ...this.form, prices: [...this.form.prices, priceRow('', 0, 0)] };
    this.save();
  }

  removePrice(id: number): void {
    this.form = { ...this.form, prices: this.form.prices.filter((row) => row.id !== id) };
    this.save();
  }

  /** List the provider's models with the current settings (a newer test cancels an older one). */
  async testConnection(): Promise<void> {
    this.testing?.abort();
    const controller = new AbortController();
    this.testing = controller;
    const settings = this.llmSettings();
    if (settings.provider.baseUrl === '') {
      this.connection = { status: 'error', message: 'Enter the provider’s base URL first.' };
      return;
    }
    this.connection = { status: 'testing' };
    try {
      const models = await this.llm.listModels(settings, controller.signal);
      if (this.testing === controller) this.connection = { status: 'ok', models };
    } catch (error) {
      if (this.testing === controller) this.connection = { status: 'error', message: this.messageOf(error) };
    } finally {
      if (this.testing === controller) this.testing = null;
    }
  }

  /** An error's message, with the key scrubbed (LlmError messages are already clean) and
   * interpreter internals in the user's terms (engine/errors.ts). */
  messageOf(error: unknown): string {
    const message = error instanceof LlmError ? error.message : explainInterpreterError(error);
    return scrub(message, this.key.reveal());
  }

  /** Queue a write of the form (without the key) and of the key only when it is remembered. */
  private save(): void {
    const store = this.store;
    if (!store) return;
    const value = savedFromForm(this.form);
    const key = this.form.rememberKey ? this.key.reveal() : '';
    this.pendingWrites++;
    this.writes = this.writes.then(async () => {
      try {
        await store.setSetting(SETTINGS_KEY, value);
        if (key !== '') await store.setSetting(API_KEY_KEY, key);
        else await store.deleteSetting(API_KEY_KEY);
        this.error = null;
      } catch (error) {
        this.error = `The settings could not be saved: ${this.messageOf(error)}`;
      } finally {
        this.pendingWrites--;
      }
    });
  }

  /** Resolves when every queued write has finished (tests). */
  flush(): Promise<void> {
    return this.writes;
  }
}

/** The roles and prices a cost estimate needs (models by role; prices in USD per million tokens), from the current settings. */
export const estimateModelsOf = (settings: SettingsState): EstimateModels => {
  const s = settings.llmSettings();
  return { roles: s.roles, prices: s.prices };
};

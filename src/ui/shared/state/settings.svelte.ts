/**
 * The Settings view's state: the LLM settings form (llm-settings.ts), saved to the store on every
 * change without the key; the key itself in the in-memory `ApiKeyHolder`, and in the store (its
 * own setting) only while "remember on this device" is ticked — un-ticking deletes it. Also the
 * "Test connection" result. Error messages never contain the key. In a workshop room (`useRoom`)
 * every role runs through the room's forwarder with the participant token: the user's own form is
 * kept aside (not saved over, not shown as the room's), and leaving the room restores it.
 */
import { registerSecret } from '../../../common/secrets.ts';
import { scrub } from '../../../llm/errors.ts';
import { DEFAULT_PRICES, isOpenAiProvider } from '../../../llm/defaults.ts';
import { ROLES, type LlmSettings, type Role, type RoleSettings } from '../../../llm/interface.ts';
import { baseUrlProblem, presetById } from '../../../llm/providers.ts';
import { SIMULATED_MODEL, SIMULATED_PROVIDER } from '../../../llm/model-label.ts';
import { ShareError, shareUrl, type SharedProviderSetup } from '../../../share/share-link.ts';
import { defaultLlmSettings } from '../../../llm/defaults.ts';
import type { EstimateModels } from '../../../ttl/cost-estimate.ts';
import type { Store } from '../../../store/interface.ts';
import { AdaptationsState } from './adaptations-state.svelte.ts';
import { errorText } from './error-text.ts';
import { apiKeyHolder, type ApiKeyHolder } from './api-key.svelte.ts';
import type { LlmServices } from './llm-services.ts';
import { API_KEY_KEY, defaultForm, formFromSaved, llmSettingsOf, priceRow, roomForm, savedFromForm, SETTINGS_KEY, type PriceRow, type RoomProvider, type SettingsForm } from './llm-settings.ts';

/** The OpenAI preset's default model for every role (llm/defaults.ts). */
const OPENAI_DEFAULT_MODEL = defaultLlmSettings().roles.actor.model;

/** The last "Test connection": listed model ids (and `filled: ['actor']` when the actor's model
 * was empty and was set to the first of them), or the mapped error's message. */
export type ConnectionTest =
  | { status: 'idle' }
  | { status: 'testing' }
  | { status: 'ok'; models: string[]; filled?: Role[] }
  | { status: 'error'; message: string };

/** Form fields edited directly (roles, caps and prices have their own methods). */
export type FormPatch = Partial<Omit<SettingsForm, 'roles' | 'caps' | 'prices' | 'rememberKey'>>;

/** What making a setup link needs of the page (injected): its URL and the clipboard. */
export interface SetupLinkIo {
  /** The page's absolute URL. */
  pageUrl(): string;
  /** Put `text` on the clipboard (may reject: then the link is only shown). */
  copyText(text: string): Promise<void>;
  /** Whether workshop mode is on (then the link opens in workshop mode too). */
  workshop?: () => boolean;
}

/** A setup link made from the current settings: the URL (never with the key) and whether it was copied. */
export interface MadeSetupLink {
  link: string;
  copied: boolean;
}

export class SettingsState {
  form = $state.raw<SettingsForm>(defaultForm());
  connection = $state.raw<ConnectionTest>({ status: 'idle' });
  /** A change made in this page was written to the store (the view says "All changes saved" only
   * then: a first visit that changed nothing says nothing). */
  savedOnce = $state(false);
  /** Store writes not finished yet (0 = everything shown is saved). */
  pendingWrites = $state(0);
  /** Why the settings could not be loaded or saved; null when fine. */
  error = $state<string | null>(null);
  loaded = $state(false);
  private store: Store | null = null;
  private writes: Promise<void> = Promise.resolve();
  private testing: AbortController | null = null;
  private markLoaded: () => void = () => undefined;
  /** Resolves once `init` has read the saved form (so a change made after it is not overwritten). */
  readonly whenLoaded: Promise<void> = new Promise((resolve) => (this.markLoaded = resolve));

  /** The workshop room the page runs through; null outside a room. */
  room = $state.raw<RoomProvider | null>(null);
  /** The user's own form while in a room (restored on leaving it). */
  private ownForm: SettingsForm | null = null;

  /** Request parameters adapted automatically (shown, and forgettable, in Settings). */
  readonly adaptations: AdaptationsState;

  /** The last setup link made (`makeSetupLink`); null until one is asked for or after a change. */
  setupLink = $state.raw<MadeSetupLink | null>(null);

  constructor(
    private readonly llm: LlmServices,
    private readonly key: ApiKeyHolder = apiKeyHolder,
    private readonly links: SetupLinkIo | null = null,
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
      const own = formFromSaved(saved);
      if (this.room) this.ownForm = own;
      this.form = this.room ? roomForm(own, this.room) : own;
      if (this.form.rememberKey && typeof key === 'string' && !this.key.isSet) this.key.set(key);
      if (!this.form.rememberKey && key !== undefined) await store.deleteSetting(API_KEY_KEY);
      await this.adaptations.init(store);
    } catch (error) {
      this.error = `The LLM settings could not be loaded: ${this.messageOf(error)}`;
    }
    this.loaded = true;
    this.markLoaded();
  }

  /** The settings of a run or request, with the key. */
  llmSettings(): LlmSettings {
    return llmSettingsOf(this.form, this.room ? this.room.token : this.key.reveal());
  }

  /**
   * Run every role through a workshop room (`room`), or leave it (null): the user's own form comes
   * back as it was. While in a room nothing is saved (the room's URL and token never reach the
   * store); the token is registered as a secret, so errors and exports scrub it.
   */
  useRoom(room: RoomProvider | null): void {
    if (room !== null) {
      registerSecret(room.token);
      if (this.room === null) this.ownForm = this.form;
      this.room = room;
      this.form = roomForm(this.ownForm ?? this.form, room);
    } else if (this.room !== null) {
      this.room = null;
      this.form = this.ownForm ?? this.form;
      this.ownForm = null;
    }
    this.connection = { status: 'idle' };
    this.setupLink = null;
  }

  /** Choose a provider preset: its base URL replaces the current one ('custom' from another preset
   * empties it; a URL typed by hand stays). Away
   * from OpenAI, a meta-agent or proposer still on OpenAI's default model (settings saved before
   * empty meant "the actor's") is set to use the actor's model; and a named preset other than
   * OpenAI (Ollama, LM Studio, llama.cpp, OpenRouter, …) never keeps an OpenAI model name
   * (`gpt-4o-mini` and the other built-in ones) for the actor either: it is emptied, to be chosen
   * from the server's list after Test connection (which fills an empty actor model). */
  selectPreset(presetId: string): void {
    const preset = presetById(presetId);
    const roles = { ...this.form.roles };
    if (presetId !== 'openai') {
      for (const role of ['metaAgent', 'proposer'] as const) if (roles[role].model === OPENAI_DEFAULT_MODEL) roles[role] = { ...roles[role], model: '' };
    }
    const named = preset !== undefined && preset.id !== 'custom' && preset.id !== 'openai';
    if (named) for (const role of ROLES) if (Object.hasOwn(DEFAULT_PRICES, roles[role].model)) roles[role] = { ...roles[role], model: '' };
    // The simulated model has one model name, for every role; leaving it, the name goes too.
    for (const role of ROLES) {
      if (presetId === SIMULATED_PROVIDER) roles[role] = { ...roles[role], model: SIMULATED_MODEL };
      else if (roles[role].model === SIMULATED_MODEL) roles[role] = { ...roles[role], model: '' };
    }
    this.form = { ...this.form, roles };
    // "Custom base URL" chosen from another preset empties the field (the user's own URL goes
    // there; a placeholder shows one); a URL already typed by hand (already custom) stays.
    const custom = !preset || preset.id === 'custom';
    this.change({ presetId, baseUrl: custom ? (this.form.presetId === 'custom' ? this.form.baseUrl : '') : preset.baseUrl });
  }

  /** Use `model` (one the provider listed) for every role. */
  useModelForAllRoles(model: string): void {
    const roles = { ...this.form.roles };
    for (const role of ROLES) roles[role] = { ...roles[role], model };
    this.form = { ...this.form, roles };
    this.save();
  }

  /**
   * Apply a teacher's setup link (share-link.ts, kind 'provider'): its preset (an unknown id
   * becomes 'custom'), base URL, and each role's model it names (an empty one leaves the user's).
   * The key is left as it is: a setup link never carries one.
   */
  applyProviderSetup(setup: SharedProviderSetup): void {
    const presetId = presetById(setup.presetId) ? setup.presetId : 'custom';
    const roles = { ...this.form.roles };
    for (const role of ROLES) if (setup.models[role].trim() !== '') roles[role] = { ...roles[role], model: setup.models[role].trim() };
    this.form = { ...this.form, roles };
    this.change({ presetId, baseUrl: setup.baseUrl });
    this.connection = { status: 'idle' };
  }

  /**
   * Make a teacher's setup link from the current provider settings — it opens Settings with a
   * preview, and fills preset, base URL and models when applied (share-link.ts, kind 'provider') —
   * and copy it. Never carries the key. Sets `error` when the base URL cannot go in a link.
   */
  async makeSetupLink(): Promise<void> {
    if (!this.links) return;
    let link: string;
    try {
      link = shareUrl(this.links.pageUrl(), { kind: 'provider', provider: this.providerSetup() }, 'settings', this.links.workshop?.() ?? false);
    } catch (error) {
      this.setupLink = null;
      // encodeShare validates the payload: a refused base URL gets its reason in words; any other
      // refusal (a link too long) is ShareError's own message.
      const baseUrlRefused = !(error instanceof ShareError) || error.field === 'provider.baseUrl';
      this.error = baseUrlRefused ? 'No setup link: the base URL must be an http(s) address without a user name or password.' : this.messageOf(error);
      return;
    }
    this.error = null;
    this.setupLink = { link, copied: false };
    try {
      await this.links.copyText(link);
      if (this.setupLink?.link === link) this.setupLink = { link, copied: true };
    } catch {
      // the clipboard was refused: the link is shown to copy by hand
    }
  }

  /** The current provider settings as a setup link's payload (never the key). */
  providerSetup(): SharedProviderSetup {
    const { roles } = this.form;
    return { presetId: this.form.presetId, baseUrl: this.form.baseUrl.trim(), models: { actor: roles.actor.model.trim(), metaAgent: roles.metaAgent.model.trim(), proposer: roles.proposer.model.trim() } };
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
    this.setupLink = null;
    this.save();
  }

  changeRole(role: Role, patch: Partial<RoleSettings>): void {
    this.form = { ...this.form, roles: { ...this.form.roles, [role]: { ...this.form.roles[role], ...patch } } };
    this.setupLink = null;
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
    const badUrl = baseUrlProblem(settings.provider.baseUrl);
    if (badUrl !== null) {
      this.connection = { status: 'error', message: badUrl };
      return;
    }
    this.connection = { status: 'testing' };
    try {
      const models = await this.llm.listModels(settings, controller.signal);
      if (this.testing !== controller) return;
      const first = models[0];
      // Only the actor: an empty meta-agent or proposer model means "the actor's". Away from OpenAI an
      // actor still on one of OpenAI's built-in names that this server does not list is a model
      // nobody chose here: it is replaced too.
      const actor = this.form.roles.actor.model.trim();
      const stale = !isOpenAiProvider(settings.provider) && Object.hasOwn(DEFAULT_PRICES, actor) && !models.includes(actor);
      const empty: Role[] = first !== undefined && (actor === '' || stale) ? ['actor'] : [];
      if (first !== undefined && empty.length > 0) {
        const roles = { ...this.form.roles };
        for (const role of empty) roles[role] = { ...roles[role], model: first };
        this.form = { ...this.form, roles };
        this.save();
      }
      this.connection = { status: 'ok', models, ...(empty.length > 0 ? { filled: empty } : {}) };
    } catch (error) {
      if (this.testing === controller) this.connection = { status: 'error', message: this.messageOf(error) };
    } finally {
      if (this.testing === controller) this.testing = null;
    }
  }

  /** An error's message, with the key scrubbed (LlmError messages are already clean) and
   * interpreter internals in the user's terms (engine/errors.ts). */
  messageOf(error: unknown): string {
    return scrub(errorText(error), this.key.reveal());
  }

  /** Queue a write of the form (without the key) and of the key only when it is remembered. */
  private save(): void {
    const store = this.store;
    if (!store || this.room !== null) return;
    const value = savedFromForm(this.form);
    const key = this.form.rememberKey ? this.key.reveal() : '';
    this.pendingWrites++;
    this.writes = this.writes.then(async () => {
      try {
        await store.setSetting(SETTINGS_KEY, value);
        if (key !== '') await store.setSetting(API_KEY_KEY, key);
        else await store.deleteSetting(API_KEY_KEY);
        this.error = null;
        this.savedOnce = true;
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

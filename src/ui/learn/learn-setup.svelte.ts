/**
 * The Learn view's setup form (learn-form.ts) as state: the story (the shared StoryShelf, with
 * adding and removing stories), seed, policy (baselines + the meta-prompt library), K, S, the
 * episode-1 guiding prompt and the context window; the models shown from Settings. `?metaPrompt=<id>`
 * preselects a library meta-prompt (Library's and Evolve's "Try this meta-prompt"); a shared
 * setup link fills the form; "copy share link" encodes the setup (never a key). The seed may be
 * "random" (seed.ts: drawn when a session starts); the session's cost is estimated up front.
 * Instead of a story the form can take a web task (`kind` 'web'; K, S and the guide then default to
 * 3 × 10 and the web guide, as the CLI); setup links carry it and are checked against the catalog.
 */
import { contextWindowFor, estimateTokenCounter, type TokenCounter } from '../../llm/token-count.ts';
import { presetById } from '../../llm/providers.ts';
import { SIMULATED_PROVIDER } from '../../llm/model-label.ts';
import { shareUrl, type SharedSetup } from '../../share/share-link.ts';
import type { PolicySpec } from '../../ttl/policy.ts';
import type { SessionConfig } from '../../ttl/session-record.ts';
import type { MetaPromptCatalog } from '../shared/state/meta-prompt-catalog.svelte.ts';
import type { RunServices } from '../shared/state/run-services.ts';
import type { PlayerServices } from '../shared/state/services.ts';
import { drawSeed, type SeedChoice } from '../shared/format/seed.ts';
import { llmSettingsOf, roleModelOf } from '../shared/state/llm-settings.ts';
import type { SettingsState } from '../shared/state/settings.svelte.ts';
import { LAST_STORY_KEY } from '../shared/state/story-shelf.svelte.ts';
import { StoryPicker } from '../shared/state/story-picker.ts';
import type { ShelfEntry } from '../shared/state/shelf.ts';
import { FormMemory, formSettingKey } from '../shared/state/form-memory.svelte.ts';
import { estimateSession, roomFitText, type SessionEstimate } from './session-estimate.ts';
import type { RoomAllowance } from '../shared/room/room-allowance.ts';
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { WEB_DEFAULTS } from '../shared/format/web-task-list.ts';
import { parseTaskId } from '../shared/state/run-services.ts';
import { DEFAULT_EPISODES, DEFAULT_MAX_STEPS, defaultLearnForm, formPolicy, formProblem, HUMAN_OPTION, KEYLESS_META_PROMPT, metaOptionId, optionForSpec, policyLabel, policyOptions, setupOf, sharablePolicy, withoutRaw, type LearnForm, type PolicyOption } from '../shared/format/learn-form.ts';
import { copyText } from '../shared/page-abilities.ts';
import { ErrorSlot } from '../shared/state/error-slot.svelte.ts';

/** The policy's meta-prompt is run raw (its text the whole system message). */
const isRaw = (policy: PolicySpec): boolean => policy.kind === 'meta' && policy.raw === true;

/** Writes text to the clipboard (page-abilities.ts: with a fallback on plain http). @throws when the browser refuses */
export type CopyText = (text: string) => Promise<void>;

const browserCopy: CopyText = (text) => copyText(text);

export class LearnSetup {
  form = $state.raw<LearnForm>(defaultLearnForm());
  /** Policies from shared setup links or shown stored sessions that match no library entry. */
  sharedPolicies = $state.raw<PolicyOption[]>([]);
  readonly options = $derived.by(() => [...policyOptions(this.catalog.entries, this.sharedPolicies), HUMAN_OPTION]);
  readonly selectedPolicy = $derived(this.options.find((o) => o.id === this.form.policyId) ?? null);
  /** The policy the next session runs: the selected option's, raw when the form says so (`formPolicy`). */
  readonly policy = $derived(formPolicy(this.selectedPolicy, this.form));
  /** The models of the next session, from Settings. */
  readonly models = $derived.by(() => ({ actor: roleModelOf(this.settings.form.roles, 'actor'), metaAgent: roleModelOf(this.settings.form.roles, 'metaAgent') }));
  /**
   * No provider to run with yet: not the simulated model, and no actor model, a provider that needs
   * a key (llm/providers.ts `needsKey`) without one, or a custom preset without a base URL. The form
   * then offers the simulated model in one line (`trySimulated`).
   */
  get providerMissing(): boolean {
    const form = this.settings.form;
    if (form.presetId === SIMULATED_PROVIDER) return false;
    const preset = presetById(form.presetId);
    return !this.models.actor || form.baseUrl.trim() === '' || (preset?.needsKey === true && this.settings.apiKey === '');
  }

  /** The first screen's "Try it without a key" from the form: the simulated model for every role
   * (Settings saves it), and the fact bank meta-prompt (`KEYLESS_META_PROMPT`, which learns with
   * it) in place of the default naive one — a policy the user chose is kept. */
  trySimulated(): void {
    this.settings.selectPreset(SIMULATED_PROVIDER);
    if (this.form.policyId === defaultLearnForm().policyId) this.change({ policyId: metaOptionId(KEYLESS_META_PROMPT) });
  }

  /** The context window used when the form leaves it empty (from the meta-agent's model name). */
  readonly defaultContextWindow = $derived.by(() => contextWindowFor(roleModelOf(this.settings.form.roles, 'metaAgent')));
  /** What loading a shared setup changed or could not do; null when nothing to say. */
  notice = $state<string | null>(null);
  /** The last setup share link made (also shown, to copy by hand); null before. */
  shareLink = $state<string | null>(null);
  /** Whether the last link reached the clipboard. */
  copied = $state(false);
  /** The view's error slot. */
  readonly errors = new ErrorSlot((error) => this.runs.messageOf(error));
  /** The error slot's text (a thrown error's, key scrubbed, or a problem found here); null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }
  ready = $state(false);
  private changedSinceReady = false;
  /** The seed drawn for the last session started with "random" (null: none yet). */
  drawnSeed = $state<number | null>(null);
  /** Token counter for the estimate: approximate unless cl100k_base is already loaded (token-count.ts). */
  countTokens = $state.raw<TokenCounter | null>(estimateTokenCounter());
  /** The next session's cost (null until the counter is loaded or without a policy). */
  readonly estimate: SessionEstimate | null = $derived.by(() => {
    const count = this.countTokens;
    const policy = this.policy;
    if (!count || !policy) return null;
    // The models a run would call (an empty meta-agent model is the actor's) at the prices that hold at this provider.
    const { roles, prices } = llmSettingsOf(this.settings.form, '');
    const f = this.form;
    return estimateSession(policy, { episodes: f.episodes, maxSteps: f.maxSteps, guidingPrompt: f.guidingPrompt, contextWindow: f.contextWindow ?? this.defaultContextWindow }, { roles, prices }, count);
  });
  /** In a workshop room: what the room still allows this participant (read when Learn is shown and after each run); null outside a room. */
  roomAllowance = $state.raw<RoomAllowance | null>(null);
  /** Asks the room what it still allows (compose.ts sets it; null: never in a room). */
  allowanceSource: (() => Promise<RoomAllowance | null>) | null = null;
  /** The session will not fit in the room's allowance: said before Start (a warning; Start stays). */
  readonly roomFit: string | null = $derived.by(() => (this.settings.room ? roomFitText(this.estimate, this.roomAllowance) : null));
  /** Adds and removes stories (the story shelf panel), choosing what was added. */
  readonly stories: StoryPicker;
  private starting: Promise<void> | null = null;
  private appliedQuery: string | null = null;
  /** The form as last left (store setting `form:learn`), restored by `init`. */
  private readonly memory = new FormMemory<LearnForm>(() => this.shelf.store, formSettingKey('learn'));

  constructor(
    private readonly runs: RunServices,
    private readonly catalog: MetaPromptCatalog,
    private readonly settings: SettingsState,
    private readonly services: PlayerServices,
    private readonly copyText: CopyText = browserCopy,
    /** The form of a first visit (no form saved by an earlier one), from the story shelf's entries:
     * compose.ts gives the workshop preset (The Lever Room, K = 3, S = 15 — a demo that finishes,
     * as the tour tells it); by default none (the method's 6 × 50 and the last story played). */
    private readonly firstVisit: (entries: readonly ShelfEntry[]) => Partial<LearnForm> = () => ({}),
  ) {
    this.stories = new StoryPicker(() => this.shelf, {
      choose: (id) => this.selectStory(id),
      removed: (id) => {
        if (this.form.storyId === id) this.change({ storyId: '' });
      },
      errors: this.errors,
    });
  }

  get shelf() {
    return this.runs.shelf;
  }

  /** Open the story shelf and the meta-prompt catalog, and preselect `?story=` or the last story. Runs once. */
  init(): Promise<void> {
    this.starting ??= this.start();
    return this.starting;
  }

  /** On every visit: apply `?metaPrompt=<id>` when it changed. */
  async enter(): Promise<void> {
    await this.init();
    const wanted = this.services.query().get('metaPrompt');
    if (wanted === null || wanted === this.appliedQuery) return;
    this.appliedQuery = wanted;
    if (this.catalog.find(wanted)) this.change({ policyId: metaOptionId(wanted) });
    else this.notice = `The meta-prompt “${wanted}” is not in the library.`;
  }

  /** Read again what the room still allows (after a run used some of it); null outside a room. Never throws. */
  async refreshRoomAllowance(): Promise<void> {
    this.roomAllowance = this.allowanceSource ? await this.allowanceSource().catch(() => null) : null;
  }

  /** Change form fields (the view's inputs, a share link, a preset). */
  change(patch: Partial<LearnForm>): void {
    this.form = { ...this.form, ...patch };
    this.shareLink = null;
    if (this.ready) this.changedSinceReady = true;
  }

  /** True once a field changed after the form was ready (workshop presets then leave it at load). */
  get changedAfterLoad(): boolean {
    return this.changedSinceReady;
  }

  /** The seed field: a number, or "random". */
  setSeed(choice: SeedChoice): void {
    this.change(choice.kind === 'random' ? { seedRandom: true } : { seedRandom: false, seed: choice.seed });
  }

  /** The seed of a session starting now: the form's, or a freshly drawn one (shown as drawn). */
  seedForRun(draw: () => number = drawSeed): number {
    if (!this.form.seedRandom) return this.form.seed;
    this.drawnSeed = draw();
    return this.drawnSeed;
  }

  /** A story's default K and S in this form: 6 × 50, or what a first visit set (3 × 15). */
  private storyShape = { episodes: DEFAULT_EPISODES, maxSteps: DEFAULT_MAX_STEPS };

  /** Play a story or a web task; K, S and the episode-1 guide follow the kind's defaults unless
   * they were changed (story: `storyShape`, the default guide; web: 3 × 10, the web guide). */
  setKind(kind: 'story' | 'web'): void {
    const f = this.form;
    if (kind === f.kind) return;
    const story = { ...this.storyShape, guidingPrompt: DEFAULT_GUIDING_PROMPT };
    const web = { episodes: WEB_DEFAULTS.episodes, maxSteps: WEB_DEFAULTS.maxSteps, guidingPrompt: WEB_DEFAULT_GUIDING_PROMPT };
    const [from, to] = kind === 'web' ? [story, web] : [web, story];
    this.change({
      kind,
      episodes: f.episodes === from.episodes ? to.episodes : f.episodes,
      maxSteps: f.maxSteps === from.maxSteps ? to.maxSteps : f.maxSteps,
      guidingPrompt: f.guidingPrompt === from.guidingPrompt ? to.guidingPrompt : f.guidingPrompt,
    });
  }

  /** Choose the web task (its id names the seed). */
  selectWebTask(id: string): void {
    this.change({ webTaskId: id });
  }

  /** What a session starting now plays: story id and seed (a web task's "story" is
   * `web:<site>/<template>`, its seed the id's); a random seed is drawn for a story. */
  taskForRun(draw: () => number = drawSeed): { storyId: string; seed: number } {
    if (this.form.kind === 'web') return parseTaskId(this.form.webTaskId);
    return { storyId: this.form.storyId, seed: this.seedForRun(draw) };
  }

  selectStory(id: string): void {
    const entry = this.shelf.find(id);
    if (entry) this.change({ storyId: id, seed: this.shelf.defaultSeed(entry) });
  }


  /** The chosen policy, or why the form cannot start a session. */
  validate(): { problem: string | null; policy: PolicySpec | null } {
    const policy = this.policy;
    return { problem: formProblem(this.form, this.form.kind === 'web' || this.shelf.find(this.form.storyId) !== undefined, policy !== null), policy };
  }

  /** Fill the form with a shared setup; says what differs (models) or is missing (story).
   * @throws Error naming the task when a shared web task is not in this version's catalog */
  async applySetup(setup: SharedSetup): Promise<void> {
    await this.init();
    if (setup.task) return this.applyWebSetup(setup, setup.task.id);
    const notes: string[] = [];
    const story = this.shelf.entries.find((e) => e.id === setup.storyId) ?? this.shelf.entries.find((e) => e.id === `user:${setup.storyMd5}` || e.catalog?.md5 === setup.storyMd5);
    if (!story) notes.push(`The story “${setup.storyTitle}” is not on your story shelf: add its file (md5 ${setup.storyMd5}), then choose it.`);
    const option = this.sharedOption(setup.policy);
    notes.push(...this.modelNotes(setup));
    this.change({ kind: 'story', storyId: story?.id ?? this.form.storyId, seed: setup.seed, seedRandom: false, policyId: option.id, rawMetaPrompt: isRaw(setup.policy), episodes: setup.episodes, maxSteps: setup.maxSteps });
    this.notice = `Loaded a shared setup. ${notes.join(' ')}`.trim();
  }

  private async applyWebSetup(setup: SharedSetup, taskId: string): Promise<void> {
    const { parseWebTaskId } = await import('../../web/tasks/catalog.ts');
    let id: string;
    try {
      id = parseWebTaskId(taskId).id;
    } catch (error) {
      throw new Error(`This setup link names the web task “${taskId}”, which this version of the playground does not have (${(error as Error).message}). Nothing was loaded.`);
    }
    const option = this.sharedOption(setup.policy);
    const notes = this.modelNotes(setup);
    this.change({ kind: 'web', webTaskId: id, seedRandom: false, policyId: option.id, rawMetaPrompt: isRaw(setup.policy), episodes: setup.episodes, maxSteps: setup.maxSteps });
    this.notice = `Loaded a shared setup (web task ${id}). ${notes.join(' ')}`.trim();
  }

  /**
   * Fill the form for a workshop room's practice: the story and seed of a practice task, the
   * round's K (episodes) and S (max steps), and, when `draft` is given, the student's draft as the
   * meta-prompt (the option "Your room draft", replacing an earlier one); without it the policy
   * stays as chosen. A story not on the shelf leaves the story as it was.
   */
  practise(practice: { storyId: string; seed: number; episodes: number; maxSteps: number; draft: string | null }): void {
    const patch: Partial<LearnForm> = { episodes: practice.episodes, maxSteps: practice.maxSteps };
    if (this.shelf.find(practice.storyId)) {
      this.setKind('story');
      Object.assign(patch, { storyId: practice.storyId, seed: practice.seed, seedRandom: false });
    }
    if (practice.draft !== null) {
      const option: PolicyOption = { id: 'room-draft', label: 'Your room draft', group: 'From the workshop room', spec: { kind: 'meta', name: 'Your room draft', strategy: practice.draft } };
      this.sharedPolicies = [...this.sharedPolicies.filter((o) => o.id !== option.id), option];
      Object.assign(patch, { policyId: option.id, rawMetaPrompt: false });
    }
    this.change(patch);
  }

  /** The policy option of a shared policy (added as "Shared: …" when no library entry has it). */
  private sharedOption(policy: SharedSetup['policy']): PolicyOption {
    let option = optionForSpec(policy, this.options);
    if (!option) {
      option = { id: `shared:${this.sharedPolicies.length + 1}`, label: `Shared: ${policyLabel(withoutRaw(policy))}`, group: 'From a shared link', spec: withoutRaw(policy) };
      this.sharedPolicies = [...this.sharedPolicies, option];
    }
    return option;
  }

  private modelNotes(setup: SharedSetup): string[] {
    return setup.models.actor !== this.models.actor || setup.models.metaAgent !== this.models.metaAgent
      ? [`The setup was shared with actor “${setup.models.actor}” and meta-agent “${setup.models.metaAgent}”; this session will use your Settings’ models (${this.models.actor || 'none'}, ${this.models.metaAgent || 'none'}).`]
      : [];
  }

  /**
   * Fill the form with a stored session's settings (to show an unfinished session as it is): its
   * story (by id, else by md5; the picker keeps its choice when the story shelf lacks it), seed,
   * policy (added as "From a stored session" when no option matches), K, S, the episode-1 guiding
   * prompt and the context window it assumed.
   */
  showSession(config: SessionConfig): void {
    const entries = this.shelf.entries;
    const story = entries.find((e) => e.id === config.story.id) ?? entries.find((e) => e.id === `user:${config.story.md5}` || e.catalog?.md5 === config.story.md5);
    let option = optionForSpec(config.policy, this.options);
    if (!option) {
      option = { id: `session:${this.sharedPolicies.length + 1}`, label: policyLabel(withoutRaw(config.policy)), group: 'From a stored session', spec: withoutRaw(config.policy) };
      this.sharedPolicies = [...this.sharedPolicies, option];
    }
    const web = config.task?.kind === 'web' ? { kind: 'web' as const, webTaskId: config.task.id } : { kind: 'story' as const };
    this.change({
      ...web, storyId: story?.id ?? this.form.storyId, seed: config.seed, seedRandom: false, policyId: option.id, rawMetaPrompt: isRaw(config.policy), episodes: config.episodes,
      maxSteps: config.maxSteps, guidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow,
    });
  }

  /** Make the setup share link, show it and copy it to the clipboard. */
  async copySetupLink(pageUrl: string): Promise<void> {
    this.error = null;
    const { problem, policy } = this.validate();
    const sharable = policy ? sharablePolicy(policy) : null;
    if (problem !== null || !sharable || (this.form.seedRandom && this.form.kind === 'story')) {
      this.error = problem ?? (sharable ? 'A link carries a fixed seed: type a seed instead of “random” to share this setup.' : 'This policy cannot be shared as a link.');
      return;
    }
    await this.errors.run(async () => {
      const ref = this.form.kind === 'web' ? parseTaskId(this.form.webTaskId) : { storyId: this.form.storyId, seed: this.form.seed };
      const task = await this.runs.resolveTask(ref.storyId, ref.seed);
      const web = task.task?.kind === 'web' ? { kind: 'web' as const, id: task.task.id } : undefined;
      this.shareLink = shareUrl(pageUrl, { kind: 'setup', setup: setupOf(this.form, { id: task.storyId, md5: task.md5, title: task.title, seed: task.seed, ...(web ? { task: web } : {}) }, sharable, this.models) });
      this.copied = false;
      this.copied = await this.copyText(this.shareLink).then(() => true, () => false);
    });
  }

  dismissNotice(): void {
    this.notice = null;
  }

  private async start(): Promise<void> {
    this.countTokens = estimateTokenCounter();
    await this.errors.run(async () => {
      await Promise.all([this.shelf.init(), this.catalog.init()]);
      await this.restoreForm();
      const query = this.services.query();
      const asked = query.get('story');
      if (!this.memory.found) {
        const { storyId, seed, ...counts } = this.firstVisit(this.shelf.entries);
        // Only fields still at their defaults: what a person typed before the page was ready stays.
        const defaults = defaultLearnForm() as unknown as Record<string, unknown>;
        const form = this.form as unknown as Record<string, unknown>;
        this.change(Object.fromEntries(Object.entries(counts).filter(([key]) => form[key] === defaults[key])) as Partial<LearnForm>);
        // The first visit's K and S are the story defaults a switch to a web task replaces.
        this.storyShape = { episodes: this.form.episodes, maxSteps: this.form.maxSteps };
        if (storyId !== undefined && (asked === null || !this.shelf.find(asked))) this.change({ storyId, seed: seed ?? 0, seedRandom: false });
      }
      const wanted = (asked !== null && this.shelf.find(asked) ? asked : null) ?? (this.form.storyId !== '' ? null : await this.shelf.store.getSetting(LAST_STORY_KEY).catch(() => undefined));
      const id = typeof wanted === 'string' && this.shelf.find(wanted) ? wanted : this.form.storyId === '' ? this.shelf.entries[0]?.id : undefined;
      if (id !== undefined) this.selectStory(id);
    });

    this.ready = true;
  }

  /** True when `init` restored a form saved by an earlier visit (workshop presets then leave it). */
  get restoredForm(): boolean {
    return this.memory.found;
  }

  /** Remember the form as it is now (the view calls this from an `$effect`; form-memory.svelte.ts). */
  saveForm(): void {
    this.memory.save(this.form);
  }

  /** The form as last left in this view (a story no longer on the story shelf, or a policy no longer
   * offered, falls back to none / the naive meta-agent). */
  private async restoreForm(): Promise<void> {
    const saved = await this.memory.load(defaultLearnForm());
    if (!this.shelf.find(saved.storyId)) saved.storyId = '';
    if (!this.options.some((o) => o.id === saved.policyId)) saved.policyId = defaultLearnForm().policyId;
    this.form = saved;
  }
}

/**
 * The player page's state: the story being played (from the shared `StoryShelf`), seed, max
 * score, the running `GameSession`, and the one visible error. Every action catches what it
 * throws and shows it in `error` (a bad story file's `StoryFileError` message as is); the page
 * keeps working. All I/O goes through the injected `PlayerServices` and the story shelf. The seed
 * may be "random" (seed.ts): a seed is drawn (injected `draw`) each time a game starts.
 */
import { explainInterpreterError } from '../../engine/errors.ts';
import { GameSession } from './game-session.svelte.ts';
import { transcriptFileName, transcriptHtml, transcriptText } from './transcript-export.ts';
import { isSeed, maxScoreHint } from '../shared/state/shelf.ts';
import { drawSeed, parseSeedText, SEED_HELP } from '../shared/format/seed.ts';
import type { PlayerServices } from '../shared/state/services.ts';
import { LAST_STORY_KEY, StoryShelf, type AddedStory, type LoadedStory } from '../shared/state/story-shelf.svelte.ts';
import { ErrorSlot } from '../shared/state/error-slot.svelte.ts';

/** The story being played. */
export type CurrentStory = LoadedStory;

/** What to show for a failure: interpreter internals in the user's terms (errors.ts). */

export class Player {
  readonly session: GameSession;
  /** Value of the story picker ('' = none). */
  selectedId = $state('');
  current = $state.raw<CurrentStory | null>(null);
  /** Max score in score points; null = unknown (W-AUC n/a). */
  maxScore = $state<number | null>(null);
  /** Seed for the next (re)start; the running game's seed is `session.seed`. */
  seed = $state(0);
  /** The seed field says "random": every start draws a new seed (shown as `session.seed`). */
  seedRandom = $state(false);
  /** The view's error slot. */
  readonly errors = new ErrorSlot();
  /** The error slot's text (a thrown error's, key scrubbed, or a problem found here); null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }
  /** Something odd about the story playing that does not stop it (a header checksum mismatch):
   * shown as a warning; the game goes on. */
  warning = $state<string | null>(null);
  loading = $state(false);
  ready = $state(false);
  /** The max score the game stated ("out of a possible N"), offered when it is unknown. */
  readonly maxScoreHint = $derived.by(() =>
    this.maxScore === null ? maxScoreHint(this.session.transcript.filter((e) => e.kind === 'output').map((e) => e.text)) : null,
  );

  private loadToken = 0;
  private starting: Promise<void> | null = null;

  constructor(
    private readonly services: PlayerServices,
    readonly shelf: StoryShelf = new StoryShelf(services),
    private readonly draw: () => number = drawSeed,
  ) {
    this.session = new GameSession(() => this.shelf.store, services.now);
  }

  /** Open the story shelf and reopen the last story played (or `?story=` with `?seed=`). Runs once. */
  init(): Promise<void> {
    this.starting ??= this.start();
    return this.starting;
  }

  /** Load and start the story shelf story `id` (a no-op for the story already playing), with `seed`
   * or else the catalog's default seed (0 for unknown stories). */
  async selectStory(id: string, seed?: number): Promise<void> {
    const entry = this.shelf.find(id);
    if (!entry || (id === this.current?.entry.id && !this.loading)) return;
    this.selectedId = id;
    this.error = null;
    await this.withLoading(async () => {
      if (await this.play(await this.shelf.load(entry), seed)) await this.shelf.store.setSetting(LAST_STORY_KEY, id);
    });
  }

  /** Add story files (file picker or drop): validate, store, then play the last one. */
  async addFiles(files: readonly File[]): Promise<void> {
    this.error = null;
    for (const file of files) {
      await this.withLoading(async () => this.playAdded(await this.shelf.addFile(file)));
    }
  }

  /** Download a story from `address` (absolute, or relative to the page), then add it. */
  async addUrl(address: string): Promise<void> {
    this.error = null;
    await this.withLoading(async () => this.playAdded(await this.shelf.addUrl(address)));
  }

  /** Remove a user story from the story shelf (its save slots stay). */
  async removeStory(id: string): Promise<void> {
    this.error = null;
    await this.errors.attempt(async () => {
      await this.shelf.remove(id);
      if (this.current?.entry.id === id) {
        this.session.end();
        this.current = null;
        this.selectedId = '';
      }
    });
  }

  /** Restart the game: with the same seed a cheap reset, with a new seed a fresh load. */
  async restart(): Promise<void> {
    const current = this.current;
    if (!current) return;
    await this.errors.attempt(async () => {
      if (this.seedRandom) this.seed = this.draw();
      else if (this.seed === this.session.seed) return this.session.restart();
      const engine = await this.services.loadEngine(current.bytes, this.shelf.loadOptions(current, this.seed));
      await this.session.begin(engine);
    });
  }

  /** Set the seed for the next restart. Shows an error for anything but an integer in [0, 2^32). */
  setSeed(seed: number): void {
    if (!isSeed(seed)) {
      this.error = 'The seed must be a whole number from 0 to 4294967295.';
      return;
    }
    this.seed = seed;
    this.seedRandom = false;
  }

  /** The seed field's text: a number, or "random" (a seed is drawn at each start). */
  setSeedText(text: string): void {
    const parsed = parseSeedText(text);
    if (!parsed.ok) this.error = `The seed must be ${SEED_HELP}.`;
    else if (parsed.choice.kind === 'random') this.seedRandom = true;
    else this.setSeed(parsed.choice.seed);
  }

  /** Record the max score the user supplied for the current story (null = unknown). */
  async setMaxScore(maxScore: number | null): Promise<void> {
    const current = this.current;
    if (!current) return;
    if (maxScore !== null && (!Number.isInteger(maxScore) || maxScore <= 0)) {
      this.error = 'The max score must be a whole number above 0.';
      return;
    }
    this.maxScore = maxScore;
    await this.errors.attempt(() => this.shelf.setMaxScore(current, maxScore));
  }

  send(command: string): Promise<boolean> {
    return this.errors.attempt(() => this.session.send(command));
  }

  undo(): Promise<boolean> {
    return this.errors.attempt(() => this.session.undo());
  }

  save(name: string): Promise<boolean> {
    this.error = null;
    return this.errors.attempt(() => this.session.save(name));
  }

  restoreSlot(name: string): Promise<boolean> {
    this.error = null;
    return this.errors.attempt(() => this.session.restoreSlot(name));
  }

  /** Download the transcript shown as plain text (`txt`) or a standalone escaped page (`html`). */
  saveTranscript(format: 'txt' | 'html'): void {
    const current = this.current;
    if (!current || this.session.transcript.length === 0) return;
    const meta = { storyTitle: current.catalog?.title ?? current.entry.title, savedAtMs: this.services.now(), seed: this.session.seed };
    const entries = this.session.transcript;
    if (format === 'txt') this.services.download(transcriptFileName(meta, 'txt'), transcriptText(entries, meta), 'text/plain');
    else this.services.download(transcriptFileName(meta, 'html'), transcriptHtml(entries, meta), 'text/html');
  }

  deleteSlot(name: string): Promise<boolean> {
    this.error = null;
    return this.errors.attempt(() => this.session.deleteSlot(name));
  }

  dismissError(): void {
    this.error = null;
  }

  private async start(): Promise<void> {
    await this.errors.attempt(async () => {
      await this.shelf.init();
      if (this.shelf.catalogProblem !== null) this.error = this.shelf.catalogProblem;
      const query = this.services.query();
      const wanted = query.get('story') ?? (await this.shelf.store.getSetting(LAST_STORY_KEY));
      this.seedRandom = query.get('seed')?.trim().toLowerCase() === 'random';
      const seed = query.has('seed') && !this.seedRandom ? Number(query.get('seed')) : undefined;
      if (typeof wanted === 'string' && this.shelf.find(wanted)) await this.selectStory(wanted, seed);
    });
    this.ready = true;
  }

  /** Play a story just added (a storage failure is shown, the story still plays). A story new to
   * the story shelf that fails to start is taken out of it again, and the error says so. */
  private async playAdded({ story, problem, isNew }: AddedStory): Promise<void> {
    if (problem !== null) this.error = problem;
    this.selectedId = story.entry.id;
    try {
      await this.play(story);
    } catch (error) {
      if (!isNew) throw error;
      await this.shelf.remove(story.entry.id).catch(() => undefined);
      throw new Error(`${explainInterpreterError(error)} “${story.entry.title}” was not added to the story shelf.`, { cause: error });
    }
  }

  /** Start `story`; false when a newer load superseded this one. */
  private async play(story: LoadedStory, seedOverride?: number): Promise<boolean> {
    const token = ++this.loadToken;
    const seed = seedOverride !== undefined && isSeed(seedOverride) ? seedOverride : this.seedRandom ? this.draw() : (story.catalog?.defaultSeed ?? 0);
    const engine = await this.services.loadEngine(story.bytes, this.shelf.loadOptions(story, seed));
    if (token !== this.loadToken) {
      engine.dispose();
      return false;
    }
    this.current = story;
    this.selectedId = story.entry.id;
    this.warning = story.warnings[0] ?? null;
    this.seed = seed;
    this.maxScore = await this.shelf.maxScoreOf(story);
    await this.session.begin(engine);
    return true;
  }

  /** `errors.attempt` with the loading flag; the picker falls back to the story still playing on failure. */
  private async withLoading(task: () => Promise<void>): Promise<void> {
    this.loading = true;
    const ok = await this.errors.attempt(task);
    this.loading = false;
    if (!ok) this.selectedId = this.current?.entry.id ?? '';
  }
}

/**
 * The Evaluate view's setup form: the policies to compare and the baseline, the task sets — ID and
 * OOD (catalog tags "id" / "ood", each game at its default seed, from the stories on the story shelf),
 * custom story:seed picks, and web tasks typed as ids and named sets (WEB-ID-test…; each named set
 * is a task set, single ids join "custom") —, repeats, K and S (defaults 3 × 10 when every task is
 * a web task, as the CLI; a value typed by hand stays), and contrasts: any pair of chosen policies
 * a − b declared beside each policy against the baseline (tested and Holm-corrected). Derived: the task sets as picks, the games a
 * set is missing, the planned leak warnings and what keeps the form from starting. No I/O.
 */
import type { ShelfEntry } from '../shared/state/shelf.ts';
import { parseSeeds, uniquePicks, type TaskPick } from '../shared/format/task-picks.ts';
import { EVALUATION_DEFAULTS } from '../../eval/run-defaults.ts';
import { SESSION_DEFAULTS } from '../../ttl/run-defaults.ts';
import { parseWebTaskList, WEB_DEFAULTS, webPick, webTaskLabel, type WebTaskList } from '../shared/format/web-task-list.ts';
import type { WebCatalog } from '../shared/state/web-catalog.ts';
import { isWebTaskId } from '../shared/state/web-task-id.ts';
import { plannedLeaks } from '../shared/evaluation/leak.ts';
import type { PolicyOption } from '../shared/state/policy-options.ts';

export interface PlannedSet {
  name: string;
  picks: TaskPick[];
  /** Tagged games that are not on the story shelf. */
  missing: string[];
}

/** The picks of a catalog-tag set: per tagged game the first shelf story of it, default seed. */
export function tagSet(name: string, tag: string, entries: readonly ShelfEntry[], catalogGames: readonly { id: string; tags: string[] }[]): PlannedSet {
  const games = catalogGames.filter((g) => g.tags.includes(tag));
  const picks: TaskPick[] = [];
  const missing: string[] = [];
  for (const game of games) {
    const entry = entries.find((e) => e.catalog?.id === game.id);
    if (entry) picks.push({ storyId: entry.id, seed: entry.catalog?.defaultSeed ?? 0 });
    else missing.push(game.id);
  }
  return { name, picks, missing };
}

/** Separates a contrast's two policy ids in the saved form. */
const PAIR = '\u001f';

export const EVALUATE_DEFAULTS = { repeats: EVALUATION_DEFAULTS.repeats, episodes: SESSION_DEFAULTS.episodes, maxSteps: SESSION_DEFAULTS.maxSteps } as const;

/** The Evaluate form's fields kept across reloads; `episodes` / `maxSteps` null = not typed. */
export interface EvaluateFormFields {
  chosen: string[];
  /** Chosen library meta-prompts run raw: their text is the meta-agent's whole system message. */
  raw: string[];
  baseline: string;
  useId: boolean;
  useOod: boolean;
  custom: Record<string, string>;
  webText: string;
  repeats: number;
  episodes: number | null;
  maxSteps: number | null;
  contextWindow: number | null;
  /** Pairs a − b declared beside each policy against the baseline, each as `a` U+001F `b` (the
   * form memory keeps string lists only); absent in forms saved before. */
  contrasts?: string[];
}

/** The fields of a fresh form. */
export const EVALUATE_FORM_FIELDS: EvaluateFormFields = {
  chosen: [...EVALUATION_DEFAULTS.policies], raw: [], baseline: EVALUATION_DEFAULTS.baseline, useId: false, useOod: false, custom: {}, webText: '', repeats: EVALUATE_DEFAULTS.repeats, episodes: null, maxSteps: null, contextWindow: null, contrasts: [],
};

export class EvaluateForm {
  options = $state.raw<PolicyOption[]>([]);
  chosen = $state.raw<string[]>([...EVALUATION_DEFAULTS.policies]);
  /** Ids of meta-prompts to run raw ("use the text as the whole system prompt"). */
  raw = $state.raw<string[]>([]);
  baseline = $state<string>(EVALUATION_DEFAULTS.baseline);
  useId = $state(false);
  useOod = $state(false);
  /** Custom picks: shelf id → seeds text; absent = not chosen. */
  custom = $state.raw<Record<string, string>>({});
  entries = $state.raw<readonly ShelfEntry[]>([]);
  /** Catalog games with their tags (for the ID / OOD sets). */
  catalogGames = $state.raw<readonly { id: string; tags: string[] }[]>([]);
  /** Web tasks as typed: ids and named sets ("WEB-ID-test, web:shop/t1:3"). */
  webText = $state('');
  /** The web task catalog once loaded (null: not yet). */
  webCatalog = $state.raw<WebCatalog | null>(null);
  repeats = $state<number>(EVALUATE_DEFAULTS.repeats);
  /** K and S as typed (null: the default for the tasks chosen). */
  private episodesTyped = $state<number | null>(null);
  private maxStepsTyped = $state<number | null>(null);
  get episodes(): number {
    return this.episodesTyped ?? (this.allWeb ? WEB_DEFAULTS.episodes : EVALUATE_DEFAULTS.episodes);
  }
  set episodes(value: number) {
    this.episodesTyped = value;
  }
  get maxSteps(): number {
    return this.maxStepsTyped ?? (this.allWeb ? WEB_DEFAULTS.maxSteps : EVALUATE_DEFAULTS.maxSteps);
  }
  set maxSteps(value: number) {
    this.maxStepsTyped = value;
  }
  /** The meta-agent's context window, tokens; null = what the provider reports, else the table,
   * else 32,000 with a note. */
  contextWindow = $state<number | null>(null);

  /** Contrasts a − b the user declared (any pair of policies; each policy against the baseline is
   * always declared). A pair with a policy no longer chosen is kept but not run (`activeContrasts`). */
  contrasts = $state.raw<{ a: string; b: string }[]>([]);

  readonly chosenOptions = $derived.by(() => this.options.filter((o) => this.chosen.includes(o.id)));
  /** The declared contrasts between two chosen policies that are not already a policy against the
   * baseline (what the evaluation's config carries). */
  readonly activeContrasts = $derived.by(() => this.contrasts.filter((c) => this.chosen.includes(c.a) && this.chosen.includes(c.b) && !this.isBaselinePair(c.a, c.b)));
  /** The typed web tasks parsed (null: none typed, or the catalog is still loading). */
  readonly web = $derived.by((): WebTaskList | { error: string } | null =>
    this.webText.trim() && this.webCatalog ? parseWebTaskList(this.webText, this.webCatalog) : null);
  readonly sets = $derived.by((): PlannedSet[] => {
    const out: PlannedSet[] = [];
    if (this.useId) out.push(tagSet('ID', 'id', this.entries, this.catalogGames));
    if (this.useOod) out.push(tagSet('OOD', 'ood', this.entries, this.catalogGames));
    const web = this.web && 'sets' in this.web ? this.web : null;
    for (const s of web?.sets ?? []) out.push({ name: s.name, picks: s.ids.map(webPick), missing: [] });
    const picks = this.entries.flatMap((e) => {
      const text = this.custom[e.id];
      const parsed = text === undefined ? null : parseSeeds(text);
      return parsed && 'seeds' in parsed ? parsed.seeds.map((seed) => ({ storyId: e.id, seed })) : [];
    });
    picks.push(...(web?.ids ?? []).map(webPick));
    if (picks.length) out.push({ name: 'custom', picks: uniquePicks(picks), missing: [] });
    return out;
  });
  /** Every task chosen is a web task (K and S default to 3 × 10; the web guiding prompt). */
  readonly allWeb = $derived.by(() => this.taskCount > 0 && this.sets.every((s) => s.picks.every((p) => isWebTaskId(p.storyId))));
  readonly taskCount = $derived.by(() => this.sets.reduce((n, s) => n + s.picks.length, 0));
  readonly seedProblems = $derived.by(() => {
    const out: Record<string, string> = {};
    for (const [id, text] of Object.entries(this.custom)) {
      const parsed = parseSeeds(text);
      if ('error' in parsed) out[id] = parsed.error;
    }
    return out;
  });
  readonly leaks = $derived.by(() => plannedLeaks(this.chosenOptions, this.sets.flatMap((s) => s.picks.map((p) => this.gameOf(p.storyId)))));
  readonly problems = $derived.by(() => {
    const out: string[] = [];
    if (this.chosen.length === 0) out.push('Choose at least one policy.');
    else if (!this.chosen.includes(this.baseline)) out.push('Choose the baseline among the chosen policies.');
    if (this.web && 'error' in this.web) out.push(`Web tasks: ${this.web.error}`);
    else if (this.webText.trim() && !this.webCatalog) out.push('Loading the web task catalog…');
    else if (this.taskCount === 0) {
      const lacking = this.sets.flatMap((set) => set.missing);
      out.push(lacking.length > 0
        ? `None of the games of the chosen task sets is on your story shelf (${lacking.join(', ')}): add their files in the Play view or get the Jericho games, or choose other tasks.`
        : 'Choose at least one task (ID, OOD, your own picks or web tasks).');
    }
    if (Object.keys(this.seedProblems).length) out.push('Fix the seeds marked in the story list.');
    return out;
  });

  constructor(private readonly gameOf: (storyId: string) => string) {}

  /** Whether a − b is already declared as a policy against the baseline (either way round). */
  isBaselinePair(a: string, b: string): boolean {
    return a === this.baseline || b === this.baseline;
  }

  /** Declare a − b. @returns null when added, else why not (the same policy twice, a policy not
   * chosen, already declared either way round, or already a policy against the baseline). */
  addContrast(a: string, b: string): string | null {
    if (!a || !b || a === b) return 'Choose two different policies.';
    if (!this.chosen.includes(a) || !this.chosen.includes(b)) return 'Choose both policies above first.';
    if (this.isBaselinePair(a, b)) return `${a === this.baseline ? b : a} against the baseline is always compared.`;
    if (this.contrasts.some((c) => (c.a === a && c.b === b) || (c.a === b && c.b === a))) return `${a} − ${b} is already declared.`;
    this.contrasts = [...this.contrasts, { a, b }];
    return null;
  }

  removeContrast(index: number): void {
    this.contrasts = this.contrasts.filter((_, i) => i !== index);
  }

  /** The fields a reload keeps (form-memory.svelte.ts; K and S only when typed). */
  snapshot(): EvaluateFormFields {
    return {
      chosen: this.chosen, raw: this.raw, baseline: this.baseline, useId: this.useId, useOod: this.useOod, custom: this.custom, webText: this.webText,
      repeats: this.repeats, episodes: this.episodesTyped, maxSteps: this.maxStepsTyped, contextWindow: this.contextWindow, contrasts: this.contrasts.map((c) => `${c.a}${PAIR}${c.b}`),
    };
  }

  /** Fill the form with fields `snapshot` gave (already merged over `EVALUATE_FORM_FIELDS`). */
  restore(saved: EvaluateFormFields): void {
    this.chosen = saved.chosen;
    this.raw = saved.raw;
    this.baseline = saved.baseline;
    this.useId = saved.useId;
    this.useOod = saved.useOod;
    this.custom = Object.fromEntries(Object.entries(saved.custom).filter(([, v]) => typeof v === 'string'));
    this.webText = saved.webText;
    this.repeats = saved.repeats;
    this.episodesTyped = saved.episodes;
    this.maxStepsTyped = saved.maxSteps;
    this.contextWindow = saved.contextWindow;
    this.contrasts = (Array.isArray(saved.contrasts) ? saved.contrasts : []).flatMap((text) => {
      const [a, b, ...rest] = typeof text === 'string' ? text.split(PAIR) : [];
      return a && b && a !== b && !rest.length ? [{ a, b }] : [];
    });
  }

  /** A pick for people: its game and seed ("detective:0"). */
  pickLabel(pick: TaskPick): string {
    return webTaskLabel(`${this.gameOf(pick.storyId)}:${pick.seed}`);
  }

  toggle(id: string, on: boolean): void {
    this.chosen = on ? [...this.chosen.filter((x) => x !== id), id] : this.chosen.filter((x) => x !== id);
    if (on && !this.chosen.includes(this.baseline)) this.baseline = id;
  }

  /** Run meta-prompt `id` raw (its text the whole system prompt) or wrapped in our header and footer. */
  setRaw(id: string, on: boolean): void {
    this.raw = on ? [...this.raw.filter((x) => x !== id), id] : this.raw.filter((x) => x !== id);
  }

  setCustom(storyId: string, seeds: string | null): void {
    const next = { ...this.custom };
    if (seeds === null) delete next[storyId];
    else next[storyId] = seeds;
    this.custom = next;
  }
}

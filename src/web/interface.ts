/**
 * Public types of the environment abstraction the learning loops will use for both kinds of task
 * (a Z-machine story, a web task), and of the web benchmark: sites, task templates, instances and
 * their checks (WebArena's string_match / url_match / state). Plain data and functions only: no DOM,
 * no Node APIs (checked by tsconfig.core.json), so the same types serve the page, Workers and the CLI.
 */

/** The kinds of environment. */
export type EnvironmentKind = 'zmachine' | 'web';

/**
 * What the actor's prompt and the meta-agent's prompt say about a kind of environment. For the
 * Z-machine these are today's `ACTOR_PREAMBLE`, `REPLY_CONTRACT` and `META_PROMPT_HEADER`.
 */
export interface EnvironmentTexts {
  /** The actor's fixed preamble (who it is, what an action looks like). */
  actorPreamble: string;
  /** The reply contract appended to every actor turn (REASONING / ACTION lines). */
  replyContract: string;
  /** The fixed header of the meta-prompt: what the episode logs the meta-agent reads contain. */
  logHeader: string;
  /** The action sent when no action can be parsed from the actor's reply. */
  fallbackAction: string;
}

/**
 * What a web page showed at one moment, enough to draw it again (a replay, the page's live frame):
 * the URL, the title, the body's HTML with form fields' current values written into attributes
 * (so typed text shows), and the element id (`bid`) the last action acted on, if any.
 */
export interface PageSnapshot {
  url: string;
  title: string;
  /** The `<body>`'s inner HTML; every element carries its `bid` attribute. */
  html: string;
  /** The element the last action targeted (for highlighting), or null. */
  targetBid: string | null;
}

/** An observation: `text` is what the actor and the episode log see; `page` (web tasks) what the
 * page showed, for drawing it (never sent to a model). */
export interface EnvironmentObservation {
  text: string;
  page?: PageSnapshot;
}

/** The result of one step. `reward` is the score change of this step (score points; signed);
 * `score` the episode's cumulative score after it; `done` ends the episode. */
export interface EnvironmentStep<O extends EnvironmentObservation = EnvironmentObservation> {
  observation: O;
  reward: number;
  score: number;
  done: boolean;
}

/**
 * One environment instance (one task), reused across the episodes of a session. Methods are async
 * so a worker-backed implementation (the Z-machine's EngineProxy) fits the same shape.
 */
export interface Environment<O extends EnvironmentObservation = EnvironmentObservation> {
  readonly kind: EnvironmentKind;
  /** The best episode score (score points); 1 for a web task (binary reward). */
  readonly maxScore: number;
  readonly texts: EnvironmentTexts;
  /** Start an episode from the initial state for `seed` (same seed ⇒ same start, same data). */
  reset(seed: number): Promise<O>;
  /** Apply one action. Malformed or impossible actions are not thrown: they come back as an
   * observation that says what was wrong (reward 0, not done). @throws Error after `done`. */
  step(action: string): Promise<EnvironmentStep<O>>;
  /** The episode is cut off (step limit): the final judgement without a further action. For a
   * web task the check runs with no answer, as WebArena's harness does at its step limit. */
  stop(): Promise<EnvironmentStep<O>>;
}

/** A random source, injected (the loops use `SeededRng` from src/ttl/rng.ts, which fits). */
export interface RandomSource {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
}

/** Builds the random source for a seed (deterministic: same seed, same sequence). */
export type RandomSourceFactory = (seed: number) => RandomSource;

// ---- web benchmark ----

/** The five sites (WebArena-Lite's shopping, shopping_admin, reddit, gitlab, map). */
export type WebSiteId = 'shop' | 'shop-admin' | 'forum' | 'forge' | 'map';

export const WEB_SITES: readonly WebSiteId[] = ['shop', 'shop-admin', 'forum', 'forge', 'map'];

/** In-distribution sites (train / val / test instances within each) and out-of-distribution ones. */
export const WEB_ID_SITES: readonly WebSiteId[] = ['shop', 'forge', 'map'];
export const WEB_OOD_SITES: readonly WebSiteId[] = ['forum', 'shop-admin'];

/** Where an instance belongs in the method's split. */
export type WebSplit = 'train' | 'val' | 'test' | 'ood';

/** The named task sets. */
export type WebTaskSetName = 'WEB-ID-train' | 'WEB-ID-val' | 'WEB-ID-test' | 'WEB-OOD';

/** WebArena's kinds of intent. */
export type WebTaskKind = 'information' | 'navigation' | 'change';

/** How an episode is judged (WebArena `eval_types`; `state` plays program_html's role). */
export type WebCheckKind = 'string_match' | 'url_match' | 'state';

/**
 * String match on the answer sent with send_msg_to_user (WebArena `reference_answers`): both
 * sides are cleaned (trimmed, one pair of surrounding quotes dropped, lower-cased). `exact`: equal;
 * `mustInclude`: each string occurs in the answer (a single one-word reference must be a whole
 * token). An unachievable task has `exact: 'N/A'`.
 */
export interface StringMatchCheck {
  kind: 'string_match';
  exact?: string;
  mustInclude?: string[];
}

/** URL match (WebArena `reference_url`, rule "GOLD in PRED"): same host and path, and every
 * query parameter of the reference present with its value in the final URL. */
export interface UrlMatchCheck {
  kind: 'url_match';
  url: string;
}

/** A check run on the site's state after the episode (WebArena's program_html role). */
export interface StateCheck<S = unknown> {
  kind: 'state';
  /** What is checked, in words (for listings and logs). */
  description: string;
  test(state: S): boolean;
}

export type WebCheck<S = unknown> = StringMatchCheck | UrlMatchCheck | StateCheck<S>;

/** What an oracle step aims at: the accessibility node with this role and accessible name
 * (exact; the first in document order, or the `nth` (0-based) one). */
export interface OracleTarget {
  role: string;
  name: string;
  nth?: number;
}

/**
 * One step of an oracle script, computed from the data; the runner resolves `target` to the
 * element id on the page it sees and produces a BrowserGym action string.
 */
export type OracleStep =
  | { action: 'click' | 'hover'; target: OracleTarget }
  | { action: 'fill'; target: OracleTarget; text: string }
  | { action: 'select_option'; target: OracleTarget; option: string }
  | { action: 'press'; target: OracleTarget; key: string }
  | { action: 'goto'; url: string }
  | { action: 'go_back' }
  | { action: 'send_msg_to_user'; text: string };

/** A task instance: a template filled in from the seed's data. */
export interface WebTaskInstance<S = unknown> {
  intent: string;
  check: WebCheck<S>;
  /** Reaches reward 1. */
  oracle: OracleStep[];
  /** A plausible wrong attempt that must get reward 0 (the check tells right from wrong). */
  wrong: OracleStep[];
  /** True for an unachievable intent (the right answer is "N/A"). */
  unachievable?: boolean;
}

/** A task template (WebArena's intent_template) of one site; `D` is that site's data. */
export interface WebTaskTemplate<D = unknown, S = unknown> {
  /** "t1" … (unique over all sites, like WebArena's intent_template_id). */
  id: string;
  site: WebSiteId;
  kind: WebTaskKind;
  /** The intent with {placeholders}, for listings. */
  intentTemplate: string;
  /** A teaching task: the natural first attempt fails and the site then says what to try next
   * (for showing test-time learning, like the teaching games). */
  teaching?: boolean;
  /** Fill the template from the site's data for one seed; `rng` is seeded by that seed. */
  instantiate(data: D, rng: RandomSource): WebTaskInstance<S>;
}

/** One row of `metattl tasks --kind web --json`. */
export interface WebTaskListing {
  /** `web:<site>/<template>:<seed>`, e.g. `web:shop/t3:2`. */
  id: string;
  site: WebSiteId;
  template: string;
  intent: string;
  check: WebCheckKind;
  split: WebSplit;
}

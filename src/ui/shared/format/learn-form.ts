/**
 * The Learn view's setup form as plain data: story, seed, policy (a baseline, or a meta-prompt
 * of the library — the naive meta-agent is the built-in "naive" entry —, or "you" as the
 * meta-agent), a random seed, K, S, the episode-1 guiding prompt and the context window
 * (method.md defaults: K = 6, S = 50; a web task instead of a story: 3 × 10, the web guide, as the
 * CLI). Also the policy
 * options, the form's validation, and the setup share payload (never a key). Pure.
 */
import { DEFAULT_GUIDING_PROMPT } from '../../../agents/actor-prompt.ts';
import type { MetaPromptEntry } from '../../../agents/meta-prompt-library.ts';
import type { SharedSetup } from '../../../share/share-link.ts';
import type { PolicySpec } from '../../../ttl/policy.ts';
import { SESSION_DEFAULTS } from '../../../ttl/run-defaults.ts';
import { isSeed } from '../state/shelf.ts';

export const DEFAULT_EPISODES = SESSION_DEFAULTS.episodes;
export const DEFAULT_MAX_STEPS = SESSION_DEFAULTS.maxSteps;
/** Upper bounds the share-link schema accepts. */
export const MAX_EPISODES = 100;
export const MAX_STEPS = 1000;

export interface LearnForm {
  /** A story on the story shelf, or a web task. */
  kind: 'story' | 'web';
  /** Story picker id ('' = none). */
  storyId: string;
  /** Web task id `web:<site>/<template>:<seed>` ('' = none); its seed is the session's. */
  webTaskId: string;
  seed: number;
  /** Draw a new seed when a session starts (the seed field says "random"); `seed` is then unused. */
  seedRandom: boolean;
  /** A `PolicyOption.id`. */
  policyId: string;
  /** K and S. */
  episodes: number;
  maxSteps: number;
  /** The episode-1 guiding prompt. */
  guidingPrompt: string;
  /** Context window of the meta-agent / reflection model, tokens; null = `contextWindowFor(model)`. */
  contextWindow: number | null;
  /** "Use the text as the whole system prompt (raw)": a meta-prompt's text is the meta-agent's
   * system message as it is, without our header and footer (policy.ts `raw`). Meta-prompts only. */
  rawMetaPrompt: boolean;
}

export const defaultLearnForm = (): LearnForm => ({
  kind: 'story', storyId: '', webTaskId: '', seed: 0, seedRandom: false, policyId: 'meta:naive', episodes: DEFAULT_EPISODES, maxSteps: DEFAULT_MAX_STEPS,
  guidingPrompt: DEFAULT_GUIDING_PROMPT, contextWindow: null, rawMetaPrompt: false,
});

export interface PolicyOption {
  /** 'static' | 'reflexion' | 'memory' | 'textgrad' | 'meta:<entry id>' | 'shared:<n>' | 'session:<n>' | 'room-draft' | 'human'. */
  id: string;
  label: string;
  group: 'Baselines' | 'Meta-prompts' | 'From a shared link' | 'From a stored session' | 'From the workshop room' | 'You';
  spec: PolicySpec;
}

export const BASELINE_OPTIONS: readonly PolicyOption[] = [
  { id: 'static', label: 'Static (no update)', group: 'Baselines', spec: { kind: 'static' } },
  { id: 'reflexion', label: 'Reflexion', group: 'Baselines', spec: { kind: 'reflexion' } },
  { id: 'memory', label: 'Memory agent', group: 'Baselines', spec: { kind: 'memory' } },
  { id: 'textgrad', label: 'TextGrad (critique, then update)', group: 'Baselines', spec: { kind: 'textgrad' } },
];

/** "You are the meta-agent": a person writes the guide between episodes (the Learn view asks). */
export const HUMAN_OPTION: PolicyOption = { id: 'human', label: 'You (human meta-agent)', group: 'You', spec: { kind: 'human' } };

export const metaOptionId = (entryId: string): string => `meta:${entryId}`;

/** The built-in meta-prompt "Try it without a key" preselects: the fact bank, which learns with the
 * simulated model (the naive one scores 0, 2, 0 on The Lever Room with it, and shows nothing). */
export const KEYLESS_META_PROMPT = 'fact-bank';

/** The options of the policy picker: baselines, then every library meta-prompt. */
export function policyOptions(entries: readonly MetaPromptEntry[], extra: readonly PolicyOption[] = []): PolicyOption[] {
  return [
    ...BASELINE_OPTIONS,
    ...entries.map((e): PolicyOption => ({
      id: metaOptionId(e.id), label: e.id === 'naive' ? 'Naive meta-agent' : `Meta-agent: ${e.name}`, group: 'Meta-prompts',
      spec: { kind: 'meta', name: e.name, strategy: e.strategy },
    })),
    ...extra,
  ];
}

/** The option whose policy is `spec` (meta-prompts matched by strategy text, then name; a raw one
 * by its exact text, since every byte of it is sent); null when none. The option's own spec never
 * carries `raw`: the form's `rawMetaPrompt` does (`formPolicy`). */
export function optionForSpec(spec: PolicySpec, options: readonly PolicyOption[]): PolicyOption | null {
  if (spec.kind !== 'meta') return options.find((o) => o.spec.kind === spec.kind) ?? null;
  const metas = options.filter((o) => o.spec.kind === 'meta');
  const sameText = (strategy: string) => (spec.raw ? strategy === spec.strategy : strategy.trim() === spec.strategy.trim());
  const same = metas.filter((o) => o.spec.kind === 'meta' && sameText(o.spec.strategy));
  return same.find((o) => o.spec.kind === 'meta' && o.spec.name === spec.name) ?? same[0] ?? null;
}

/** `spec` without the raw mark (what a policy option holds). */
export function withoutRaw(spec: PolicySpec): PolicySpec {
  if (spec.kind !== 'meta' || !spec.raw) return spec;
  return { kind: 'meta', name: spec.name, strategy: spec.strategy };
}

/**
 * The policy a form runs: the chosen option's, and with `rawMetaPrompt` on a meta-prompt, that
 * prompt's text as the meta-agent's whole system message (`raw: true`). The raw box means nothing
 * for a baseline or "you": their policy is returned unchanged. Null without an option.
 */
export function formPolicy(option: PolicyOption | null, form: Pick<LearnForm, 'rawMetaPrompt'>): PolicySpec | null {
  if (!option) return null;
  const spec = withoutRaw(option.spec);
  return form.rawMetaPrompt && spec.kind === 'meta' ? { ...spec, raw: true } : spec;
}

/** A short name of a policy for lists and legends. */
export function policyLabel(spec: PolicySpec): string {
  if (spec.kind === 'meta' && spec.raw) return `meta (raw): ${spec.name}`;
  if (spec.kind === 'meta') return spec.strategy.trim() === '' ? 'naive meta-agent' : `meta: ${spec.name}`;
  if (spec.kind === 'human') return 'you (human meta-agent)';
  return spec.kind === 'memory' ? 'memory agent' : spec.kind;
}

const wholeIn = (n: number, min: number, max: number): boolean => Number.isInteger(n) && n >= min && n <= max;

/** Why the form cannot start a session (user-readable), or null. */
export function formProblem(form: LearnForm, storyKnown: boolean, policyKnown: boolean): string | null {
  if (form.kind === 'web') {
    if (!/^web:[a-z-]+\/t\d+:\d+$/.test(form.webTaskId)) return 'Choose a web task first.';
  } else {
    if (form.storyId === '' || !storyKnown) return 'Choose a story first.';
    if (!form.seedRandom && !isSeed(form.seed)) return 'The seed must be a whole number from 0 to 4294967295.';
  }
  if (!policyKnown) return 'Choose a policy.';
  if (!wholeIn(form.episodes, 1, MAX_EPISODES)) return `K (episodes) must be a whole number from 1 to ${MAX_EPISODES}.`;
  if (!wholeIn(form.maxSteps, 1, MAX_STEPS)) return `S (steps per episode) must be a whole number from 1 to ${MAX_STEPS}.`;
  if (form.contextWindow !== null && !wholeIn(form.contextWindow, 1_000, 10_000_000)) return 'The context window must be a whole number of tokens from 1,000 up.';
  return null;
}

/** The setup share payload of a form (story identified by md5 too; model names only, never a key).
 * `story` is the resolved task (`seed`: a web task's seed, from its id); a web task travels as `task`. */
export function setupOf(form: LearnForm, story: { id: string; md5: string; title: string; seed?: number; task?: { kind: 'web'; id: string } }, policy: SharedSetup['policy'], models: { actor: string; metaAgent: string }): SharedSetup {
  return {
    storyId: story.id, storyMd5: story.md5, storyTitle: story.title, seed: story.seed ?? form.seed, policy,
    episodes: form.episodes, maxSteps: form.maxSteps, models: { actor: models.actor, metaAgent: models.metaAgent },
    ...(story.task ? { task: story.task } : {}),
  };
}

/** The policy as a share link carries it; null for a policy links cannot carry. */
export function sharablePolicy(spec: PolicySpec): SharedSetup['policy'] | null {
  switch (spec.kind) {
    case 'static':
    case 'reflexion':
    case 'memory':
    case 'textgrad':
    case 'human':
      return { kind: spec.kind };
    case 'meta':
      return { kind: 'meta', name: spec.name, strategy: spec.strategy, ...(spec.raw ? { raw: true as const } : {}) };
    default:
      return null;
  }
}

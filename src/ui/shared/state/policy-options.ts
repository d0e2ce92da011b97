/**
 * The policies an evaluation can compare (method.md, "Baselines"): static, reflexion, memory, textgrad, the
 * naive meta-agent, the built-in meta-prompts and the user's library meta-prompts (evolved ones
 * carry `selectedOn`, which drives the leak warning). Pure.
 */
import { BUILT_IN_META_PROMPTS } from '../../../agents/meta-prompt-library.ts';
import type { EvaluatedPolicy, EvaluationState } from '../../../eval/interface.ts';
import type { PolicySpec } from '../../../ttl/policy.ts';
import type { LibraryMetaPrompt } from './entry-io.ts';

export interface PolicyOption {
  /** Unique id, also the policy's id in the report. */
  id: string;
  label: string;
  description: string;
  group: 'baseline' | 'built-in' | 'library';
  spec: PolicySpec;
  /** Games the meta-prompt was selected on (evolved entries). */
  selectedOn: string[];
}

const BASELINES: PolicyOption[] = [
  { id: 'static', label: 'Static', description: 'The actor with a fixed guiding prompt; nothing is learned.', group: 'baseline', spec: { kind: 'static' }, selectedOn: [] },
  { id: 'reflexion', label: 'Reflexion', description: 'After each episode a reflection on the last trajectory becomes the guide.', group: 'baseline', spec: { kind: 'reflexion' }, selectedOn: [] },
  { id: 'memory', label: 'Memory agent', description: 'Summaries of every episode are kept; the guide is rewritten from all of them.', group: 'baseline', spec: { kind: 'memory' }, selectedOn: [] },
  { id: 'textgrad', label: 'TextGrad', description: 'After each episode a critique of the guide (a textual gradient), then an update step that applies it.', group: 'baseline', spec: { kind: 'textgrad' }, selectedOn: [] },
];

/** Every option: the baselines, the built-in meta-prompts (naive first), then the library's. */
export function policyOptions(library: readonly LibraryMetaPrompt[]): PolicyOption[] {
  const builtIn = BUILT_IN_META_PROMPTS.map((m): PolicyOption => ({
    id: m.id, label: m.name, description: m.description, group: 'built-in', spec: { kind: 'meta', name: m.id, strategy: m.strategy }, selectedOn: [...m.selectedOn],
  }));
  const taken = new Set([...BASELINES, ...builtIn].map((o) => o.id));
  const user = library.filter((e) => !taken.has(e.id)).map((e): PolicyOption => ({
    id: e.id, label: e.name, description: e.description, group: 'library', spec: { kind: 'meta', name: e.id, strategy: e.strategy }, selectedOn: [...e.selectedOn],
  }));
  return [...BASELINES, ...builtIn, ...user];
}

/** The evaluated policies of the chosen ids, in option order; a meta-prompt whose id is in `raw`
 * runs its text as the meta-agent's whole system message (`spec.raw`, named "… (raw)"); `raw`
 * means nothing for a baseline. */
export function evaluatedPolicies(options: readonly PolicyOption[], chosen: readonly string[], raw: readonly string[] = []): EvaluatedPolicy[] {
  return options.filter((o) => chosen.includes(o.id)).map((o) => (o.spec.kind === 'meta' && raw.includes(o.id)
    ? { id: o.id, name: `${o.label} (raw)`, spec: { ...o.spec, raw: true }, selectedOn: o.selectedOn }
    : { id: o.id, name: o.label, spec: o.spec, selectedOn: o.selectedOn }));
}

/** `state` with a name on every policy that has none (states stored before names were kept): the
 * option of the same id's label, else the id stays the name. Returns `state` itself when nothing changes. */
export function withPolicyNames(state: EvaluationState, options: readonly PolicyOption[]): EvaluationState {
  if (state.config.policies.every((p) => p.name !== undefined)) return state;
  const policies = state.config.policies.map((p) => (p.name !== undefined ? p : { ...p, name: options.find((o) => o.id === p.id)?.label ?? p.id }));
  return { ...state, config: { ...state.config, policies } };
}

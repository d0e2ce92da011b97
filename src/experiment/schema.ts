/**
 * The experiment file's schema check: an unknown JSON value → an ExperimentSpec with defaults
 * filled in, or an ExperimentSpecError naming every bad field by its path (`arms[2].evolution`).
 * Limits follow the CLI's (src/cli/numbers.ts LIMITS are not imported: the core stays CLI-free).
 * No UI, DOM or Node imports.
 */
import { MetattlError } from '../common/errors.ts';
import type { ArmSpec, EvolutionSpec, ExperimentSpec, ModelSet, PaperReference, RecallProbeSpec } from './interface.ts';
import { EVOLUTION_DEFAULTS as D } from '../evolve/run-defaults.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';

/** Thrown with one line per bad field; `problems` holds them. */
export class ExperimentSpecError extends MetattlError {
  constructor(readonly problems: string[]) {
    super('experiment_spec', `experiment: ${problems.join('; ')}`);
    this.name = 'ExperimentSpecError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Most replicates of one evolution (each is a whole evolution run). */
export const MAX_REPLICATES = 20;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Policies that have no meta-prompt text to run raw. */
const NOT_A_META_PROMPT = ['static', 'reflexion', 'memory', 'textgrad', 'human', 'naive'];

class Checker {
  problems: string[] = [];
  bad(path: string, want: string, got: unknown): void {
    this.problems.push(`${path} must be ${want}, got ${JSON.stringify(got) ?? 'nothing'}`);
  }
  int(o: Obj, key: string, path: string, min: number, max: number, fallback?: number): number {
    const v = o[key] ?? fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) this.bad(`${path}${key}`, `a whole number from ${min} to ${max}`, o[key]);
    return typeof v === 'number' ? v : 0;
  }
  str(o: Obj, key: string, path: string, pattern?: RegExp, fallback?: string): string {
    const v = o[key] ?? fallback;
    if (typeof v !== 'string' || (pattern && !pattern.test(v))) this.bad(`${path}${key}`, pattern ? `a name (letters, digits, . _ -)` : 'a string', o[key]);
    return typeof v === 'string' ? v : '';
  }
  optStr(o: Obj, key: string, path: string): string | undefined {
    if (o[key] === undefined) return undefined;
    return this.str(o, key, path);
  }
}

function evolutionOf(c: Checker, v: unknown, i: number, sets: Record<string, string[]>, folded: boolean): EvolutionSpec {
  const path = `evolutions[${i}].`;
  if (!isObj(v)) {
    c.bad(`evolutions[${i}]`, 'an object', v);
    return { id: '', budget: 0, minibatch: D.minibatchSize, trainRepeats: D.trainRepeats, valRepeats: D.valRepeats, proposer: D.proposer, rngSeed: D.rngSeed };
  }
  const proposer = v.proposer ?? 'llm';
  if (proposer !== 'llm' && proposer !== 'random' && proposer !== 'random-neutral') c.bad(`${path}proposer`, '"llm", "random" or "random-neutral"', v.proposer);
  const spec: EvolutionSpec = {
    id: c.str(v, 'id', path, NAME), budget: c.int(v, 'budget', path, 1, 100_000), minibatch: c.int(v, 'minibatch', path, 1, 100, D.minibatchSize),
    trainRepeats: c.int(v, 'trainRepeats', path, 1, 1000, D.trainRepeats), valRepeats: c.int(v, 'valRepeats', path, 1, 1000, D.valRepeats),
    proposer: proposer === 'random' || proposer === 'random-neutral' ? proposer : 'llm', rngSeed: c.int(v, 'rngSeed', path, 0, 0xffffffff, D.rngSeed),
  };
  if (v.replicates !== undefined) spec.replicates = c.int(v, 'replicates', path, 1, MAX_REPLICATES);
  if (v.proposerInput !== undefined) {
    if (v.proposerInput !== 'no-trace' && v.proposerInput !== 'full') c.bad(`${path}proposerInput`, '"no-trace" or "full"', v.proposerInput);
    else if (v.proposerInput === 'no-trace' && (proposer !== 'llm' || v.optimizer === 'opro')) c.bad(`${path}proposerInput`, '"full" unless the proposer is "llm" with the GEPA optimizer', v.proposerInput);
    else if (v.proposerInput === 'no-trace') spec.proposerInput = 'no-trace';
  }
  if (v.matchEditSizesOf !== undefined) {
    if (proposer !== 'random-neutral') c.bad(`${path}matchEditSizesOf`, 'left out unless the proposer is "random-neutral"', v.matchEditSizesOf);
    else spec.matchEditSizesOf = c.str(v, 'matchEditSizesOf', path, NAME);
  }
  if (v.optimizer !== undefined) {
    if (v.optimizer !== 'gepa' && v.optimizer !== 'opro') c.bad(`${path}optimizer`, '"gepa" or "opro"', v.optimizer);
    else if (v.optimizer === 'opro' && proposer !== 'llm') c.bad(`${path}optimizer`, '"gepa" with the random proposer (OPRO needs the LLM proposer)', v.optimizer);
    else if (v.optimizer === 'opro') spec.optimizer = 'opro';
  }
  for (const key of ['train', 'val'] as const) {
    if (folded) {
      if (v[key] !== undefined) c.bad(`${path}${key}`, 'left out in a fold experiment (each fold gives train and validation games)', v[key]);
      continue;
    }
    const name = c.str(v, key, path);
    if (name && !sets[name]) c.bad(`${path}${key}`, `one of the task sets (${Object.keys(sets).join(', ')})`, v[key]);
    spec[key] = name;
  }
  return spec;
}

function armOf(c: Checker, v: unknown, i: number, evolutions: readonly EvolutionSpec[]): ArmSpec {
  const path = `arms[${i}].`;
  if (!isObj(v)) {
    c.bad(`arms[${i}]`, 'an object', v);
    return { id: '', policy: '' };
  }
  const id = c.str(v, 'id', path, NAME);
  if ((v.policy === undefined) === (v.evolution === undefined)) {
    c.bad(`arms[${i}]`, 'an object with exactly one of "policy" and "evolution"', v);
    return { id, policy: '' };
  }
  if (v.raw !== undefined && typeof v.raw !== 'boolean') c.bad(`${path}raw`, 'true or false', v.raw);
  if (v.policy !== undefined) {
    const policy = c.str(v, 'policy', path);
    if (v.raw !== true) return { id, policy };
    // Raw: the meta-prompt's text is the meta-agent's whole system message (a file, or a meta-prompt of the page's library).
    if (NOT_A_META_PROMPT.includes(policy)) c.bad(`${path}raw`, `left out for policy "${policy}" (raw takes a meta-prompt: its text becomes the whole system prompt)`, v.raw);
    return { id, policy, raw: true };
  }
  if (v.raw === true) c.bad(`${path}raw`, 'left out for an evolution arm (raw takes a meta-prompt file)', v.raw);
  const evolution = c.str(v, 'evolution', path);
  const target = evolutions.find((e) => e.id === evolution);
  if (!target) c.bad(`${path}evolution`, `the id of one of the evolutions (${evolutions.map((e) => e.id).join(', ') || 'none declared'})`, v.evolution);
  if (v.replicates === undefined) return { id, evolution };
  // `replicates` on the arm replicates its evolution (the runs are the evolution's, shared by every arm that uses it).
  const replicates = c.int(v, 'replicates', path, 1, MAX_REPLICATES);
  if (target && target.replicates !== undefined && target.replicates !== replicates) c.bad(`${path}replicates`, `${target.replicates}, as evolution "${evolution}" already has (an evolution has one number of replicates)`, v.replicates);
  else if (target) target.replicates = replicates;
  return { id, evolution, replicates };
}

function modelsOf(c: Checker, v: unknown): ModelSet[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    c.bad('models', 'a list of { actor?, metaAgent?, proposer?, label? }', v);
    return [];
  }
  return v.map((m, i) => {
    if (!isObj(m)) {
      c.bad(`models[${i}]`, 'an object', m);
      return {};
    }
    const out: ModelSet = {};
    for (const key of ['label', 'actor', 'metaAgent', 'proposer'] as const) {
      const s = c.optStr(m, key, `models[${i}].`);
      if (s !== undefined) out[key] = s;
    }
    return out;
  });
}

function taskSetsOf(c: Checker, v: unknown): Record<string, string[]> {
  if (!isObj(v) || Object.keys(v).length === 0) {
    c.bad('taskSets', 'an object of task set name → list of tasks', v);
    return {};
  }
  const out: Record<string, string[]> = {};
  for (const [name, tasks] of Object.entries(v)) {
    if (!NAME.test(name)) c.bad(`taskSets["${name}"]`, 'named with letters, digits, . _ -', name);
    if (!Array.isArray(tasks) || tasks.length === 0 || !tasks.every((t) => typeof t === 'string' && t.trim() !== '')) c.bad(`taskSets.${name}`, 'a non-empty list of task ids', tasks);
    else if (new Set(tasks).size !== tasks.length) c.bad(`taskSets.${name}`, 'a list without repeats', tasks);
    else out[name] = tasks.map((t) => (t as string).trim());
  }
  return out;
}

/** The recall probe's spec (absent = none): task sets of this experiment, k, probes, seed, and walkthroughs by game. */
function recallProbeOf(c: Checker, v: unknown, sets: Record<string, string[]>): RecallProbeSpec | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) {
    c.bad('recallProbe', 'an object { taskSets, k?, probes?, seed?, walkthroughs? }', v);
    return undefined;
  }
  const path = 'recallProbe.';
  const taskSets = Array.isArray(v.taskSets) ? v.taskSets.filter((s): s is string => typeof s === 'string') : [];
  if (!Array.isArray(v.taskSets) || v.taskSets.length === 0 || taskSets.length !== v.taskSets.length || taskSets.some((s) => !sets[s])) c.bad(`${path}taskSets`, `a non-empty list of task set names among ${Object.keys(sets).join(', ')}`, v.taskSets);
  else if (taskSets.every((s) => sets[s]!.every((t) => t.startsWith('web:')))) c.bad(`${path}taskSets`, 'task sets with at least one story game (web tasks have no walkthrough)', v.taskSets);
  const spec: RecallProbeSpec = { taskSets, k: c.int(v, 'k', path, 1, 100, 5), probes: c.int(v, 'probes', path, 1, 10_000, 20), seed: c.int(v, 'seed', path, 0, 0xffffffff, 0) };
  if (v.walkthroughs !== undefined) {
    const w = v.walkthroughs;
    if (!isObj(w) || !Object.values(w).every((list) => Array.isArray(list) && list.length > 0 && list.every((x) => typeof x === 'string' && x.trim() !== ''))) c.bad(`${path}walkthroughs`, 'an object of game → a non-empty list of commands', w);
    else spec.walkthroughs = Object.fromEntries(Object.entries(w).map(([g, list]) => [g, (list as string[]).map((x) => x.trim())]));
  }
  return spec;
}

/** Check an experiment file's JSON. @throws ExperimentSpecError naming every bad field */
export function validateExperiment(value: unknown): ExperimentSpec {
  const c = new Checker();
  if (!isObj(value)) throw new ExperimentSpecError([`the experiment must be a JSON object, got ${JSON.stringify(value)}`]);
  if (value.format !== undefined && value.format !== 'metattl-experiment-1') c.bad('format', '"metattl-experiment-1"', value.format);
  const taskSets = taskSetsOf(c, value.taskSets);
  let folds: ExperimentSpec['folds'] = null;
  if (value.folds !== undefined && value.folds !== null) {
    const f = value.folds;
    const set = isObj(f) ? f.leaveOneOut : undefined;
    if (typeof set !== 'string' || !taskSets[set]) c.bad('folds.leaveOneOut', `one of the task sets (${Object.keys(taskSets).join(', ')})`, set);
    else if (taskSets[set]!.length < 3) c.bad('folds.leaveOneOut', 'a task set of at least 3 games (train, validation and test must differ)', set);
    else folds = { leaveOneOut: set };
  }
  const evolutions = Array.isArray(value.evolutions) ? value.evolutions.map((e, i) => evolutionOf(c, e, i, taskSets, folds !== null)) : [];
  if (value.evolutions !== undefined && !Array.isArray(value.evolutions)) c.bad('evolutions', 'a list', value.evolutions);
  if (new Set(evolutions.map((e) => e.id)).size !== evolutions.length) c.problems.push('evolutions: two evolutions have the same id');
  evolutions.forEach((e, i) => {
    if (e.matchEditSizesOf !== undefined && !evolutions.slice(0, i).some((x) => x.id === e.matchEditSizesOf && x.proposer === 'llm')) {
      c.bad(`evolutions[${i}].matchEditSizesOf`, 'the id of an earlier evolution with the LLM proposer', e.matchEditSizesOf);
    }
  });
  const arms = Array.isArray(value.arms) ? value.arms.map((a, i) => armOf(c, a, i, evolutions)) : [];
  if (arms.length === 0) c.bad('arms', 'a non-empty list of { id, policy } or { id, evolution }', value.arms);
  if (new Set(arms.map((a) => a.id)).size !== arms.length) c.problems.push('arms: two arms have the same id');
  const baseline = c.str(value, 'baseline', '');
  if (baseline && arms.length && !arms.some((a) => a.id === baseline)) c.bad('baseline', `the id of one of the arms (${arms.map((a) => a.id).join(', ')})`, baseline);
  let evaluateOn: string[] = [];
  if (folds) {
    if (value.evaluateOn !== undefined && JSON.stringify(value.evaluateOn) !== '["test"]') c.bad('evaluateOn', 'left out (or ["test"]) in a fold experiment', value.evaluateOn);
    evaluateOn = ['test'];
  } else if (!Array.isArray(value.evaluateOn) || value.evaluateOn.length === 0) c.bad('evaluateOn', 'a non-empty list of task set names', value.evaluateOn);
  else {
    evaluateOn = value.evaluateOn.filter((s): s is string => typeof s === 'string');
    for (const s of value.evaluateOn) if (typeof s !== 'string' || !taskSets[s]) c.bad('evaluateOn', `task set names among ${Object.keys(taskSets).join(', ')}`, s);
  }
  const contrasts: { a: string; b: string }[] = [];
  if (value.contrasts !== undefined) {
    if (!Array.isArray(value.contrasts)) c.bad('contrasts', 'a list of { a, b } arm ids (the difference a − b)', value.contrasts);
    else value.contrasts.forEach((x, i) => {
      const ids = arms.map((a) => a.id);
      if (!isObj(x) || typeof x.a !== 'string' || typeof x.b !== 'string' || x.a === x.b || !ids.includes(x.a) || !ids.includes(x.b)) c.bad(`contrasts[${i}]`, `{ a, b }: two different arm ids among ${ids.join(', ')}`, x);
      else contrasts.push({ a: x.a, b: x.b });
    });
  }
  const recallProbe = recallProbeOf(c, value.recallProbe, taskSets);
  const paper = value.paper ?? null;
  if (paper !== null && paper !== 'jericho' && paper !== 'webarena-lite') c.bad('paper', '"jericho", "webarena-lite" or null', paper);
  const spec: ExperimentSpec = {
    format: 'metattl-experiment-1', name: c.str(value, 'name', '', NAME), description: typeof value.description === 'string' ? value.description : '',
    episodes: c.int(value, 'episodes', '', 1, 100), steps: c.int(value, 'steps', '', 1, 10_000), repeats: c.int(value, 'repeats', '', 1, 1000),
    bootstrapSeed: c.int(value, 'bootstrapSeed', '', 0, 0xffffffff, EVALUATION_DEFAULTS.bootstrapSeed), models: modelsOf(c, value.models), taskSets, evolutions, folds, arms, baseline, evaluateOn,
    paper: paper as PaperReference, ...(contrasts.length ? { contrasts } : {}), ...(recallProbe ? { recallProbe } : {}),
  };
  if (c.problems.length) throw new ExperimentSpecError(c.problems);
  return spec;
}

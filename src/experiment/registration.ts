/**
 * A frozen run card: the experiment's spec, its primary contrast and α, written with a hash of the
 * spec and the code version before any call (`metattl experiment register`). A run into a
 * directory holding a registration must have the registered spec; a report says whether the run
 * matches its registration, and labels every comparison primary, secondary or exploratory.
 */
import { MetattlError } from '../common/errors.ts';
import { textHash } from '../agents/meta-prompt.ts';
import type { Comparison } from '../eval/interface.ts';
import type { ExperimentSpec, ExperimentState, PrimaryContrast, RegistrationCheck } from './interface.ts';

export type { PrimaryContrast, RegistrationCheck } from './interface.ts';

export const REGISTRATION_FORMAT = 'metattl-registration-1';

/** `registration.json`. */
export interface Registration {
  format: typeof REGISTRATION_FORMAT;
  name: string;
  /** ISO time of registration. */
  registeredAt: string;
  /** The code that registered (src/common/code-version.ts). */
  codeVersion: string;
  /** Hex sha-256 of canonicalJson(spec) (specHash below). */
  specHash: string;
  primaryContrast: PrimaryContrast;
  /** The significance level the primary contrast is judged at (two-sided), in (0, 0.5]. */
  alpha: number;
  spec: ExperimentSpec;
}

/** A registration that cannot be written or read. */
export class RegistrationError extends MetattlError {
  constructor(message: string) {
    super('registration', message);
    this.name = 'RegistrationError';
  }
}

/**
 * JSON with every object's keys in code-unit order at every depth and no whitespace (the spec's
 * identity: two specs that differ only in key order have the same text). `undefined` members are
 * left out as JSON.stringify leaves them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  });
}

/** Hex sha-256 (FIPS 180-4) of the spec's canonical JSON (UTF-8). */
export function specHash(spec: ExperimentSpec): string {
  return textHash(canonicalJson(spec));
}

/** Task sets the spec's arms are evaluated on ("test" for a fold experiment). */
function evaluatedSets(spec: ExperimentSpec): string[] {
  return spec.folds ? ['test'] : spec.evaluateOn;
}

/**
 * The registration of `spec`. Default primary contrast: the spec's first declared contrast, else
 * its first non-baseline arm − the baseline; on every evaluated task set (or `taskSet`). Default α 0.05.
 * @throws RegistrationError for an arm or a task set the spec does not have, or α outside (0, 0.5]
 */
export function makeRegistration(spec: ExperimentSpec, options: { primary?: { a: string; b: string }; taskSet?: string | null; alpha?: number; now: string; codeVersion: string }): Registration {
  const first = spec.contrasts?.[0];
  const chosen = options.primary ?? (first ? { a: first.a, b: first.b } : { a: spec.arms.find((x) => x.id !== spec.baseline)?.id ?? spec.baseline, b: spec.baseline });
  const primary: PrimaryContrast = { a: chosen.a, b: chosen.b, taskSet: options.taskSet ?? null };
  const arms = spec.arms.map((x) => x.id);
  for (const id of [primary.a, primary.b]) if (!arms.includes(id)) throw new RegistrationError(`primary contrast ${primary.a}-${primary.b}: "${id}" is not an arm of ${spec.name} (${arms.join(', ')})`);
  if (primary.a === primary.b) throw new RegistrationError(`primary contrast ${primary.a}-${primary.b}: compare two different arms`);
  if (primary.taskSet !== null && !evaluatedSets(spec).includes(primary.taskSet)) throw new RegistrationError(`primary contrast on "${primary.taskSet}": ${spec.name} evaluates on ${evaluatedSets(spec).join(', ')}`);
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha <= 0.5)) throw new RegistrationError(`alpha must be in (0, 0.5], got ${alpha}`);
  return { format: REGISTRATION_FORMAT, name: spec.name, registeredAt: options.now, codeVersion: options.codeVersion, specHash: specHash(spec), primaryContrast: primary, alpha, spec };
}

/**
 * Parse registration.json. @throws RegistrationError naming what is wrong (not JSON, another
 * format, a missing field, or a specHash that is not its spec's: the file was edited)
 */
export function parseRegistration(text: string): Registration {
  let data: Partial<Registration>;
  try {
    data = JSON.parse(text) as Partial<Registration>;
  } catch (error) {
    throw new RegistrationError(`registration.json is not JSON (${(error as Error).message})`);
  }
  if (data.format !== REGISTRATION_FORMAT) throw new RegistrationError(`registration.json: format must be "${REGISTRATION_FORMAT}"`);
  for (const key of ['name', 'registeredAt', 'codeVersion', 'specHash', 'primaryContrast', 'alpha', 'spec'] as const) if (data[key] === undefined) throw new RegistrationError(`registration.json: "${key}" is missing`);
  const r = data as Registration;
  if (specHash(r.spec) !== r.specHash) throw new RegistrationError(`registration.json: its spec does not hash to its specHash ${r.specHash} (the file was edited after registration)`);
  return r;
}

/** Dotted paths (two levels deep) where `a` and `b` differ, by canonical JSON. */
export function specDifferences(a: ExperimentSpec, b: ExperimentSpec): string[] {
  const out: string[] = [];
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
    const x = ra[key];
    const y = rb[key];
    if (canonicalJson(x) === canonicalJson(y)) continue;
    const isMap = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
    if (isMap(x) && isMap(y)) {
      const mx = x as Record<string, unknown>;
      const my = y as Record<string, unknown>;
      for (const k of [...new Set([...Object.keys(mx), ...Object.keys(my)])].sort()) if (canonicalJson(mx[k]) !== canonicalJson(my[k])) out.push(`${key}.${k}`);
    } else out.push(key);
  }
  return out;
}

/** Whether comparison `c` (oriented a − b) is the primary contrast, in either orientation. */
function isPrimary(c: { a: string; b: string; taskSet: string }, p: PrimaryContrast, stepTaskSet: string): boolean {
  const pair = (c.a === p.a && c.b === p.b) || (c.a === p.b && c.b === p.a);
  return pair && (p.taskSet === null || p.taskSet === stepTaskSet);
}

type Labelled<C> = C & { registered: 'primary' | 'secondary' | 'exploratory' };

/**
 * The registration's standing for a run, and every comparison labelled: `primary` (the registered
 * contrast), `secondary` (another declared contrast) or `exploratory` (an undeclared pair, or any
 * comparison of a run that does not match its registration: a re-cut is exploratory).
 */
export function checkRegistration<C extends { a: string; b: string; taskSet: string; step: string; delta: Comparison['delta']; holmP: number | null }>(
  registration: Registration, state: ExperimentState, declared: readonly C[], exploratory: readonly C[],
): { check: RegistrationCheck; declared: Labelled<C>[]; exploratory: Labelled<C>[] } {
  const differences = specDifferences(registration.spec, state.spec);
  const registeredBeforeRun = registration.registeredAt <= state.startedAt;
  const matches = differences.length === 0 && registeredBeforeRun;
  const p = registration.primaryContrast;
  const labelled = declared.map((c) => ({ ...c, registered: !matches ? 'exploratory' as const : isPrimary(c, p, c.taskSet) ? 'primary' as const : 'secondary' as const }));
  const primary = declared.filter((c) => isPrimary(c, p, c.taskSet)).map((c) => {
    // Oriented as registered.
    const flipped = c.a !== p.a;
    const delta = flipped ? { ...c.delta, mean: -c.delta.mean, low: -c.delta.high, high: -c.delta.low } : c.delta;
    return { step: c.step, taskSet: c.taskSet, delta, holmP: c.holmP, supported: matches && c.holmP !== null && c.holmP <= registration.alpha && delta.mean > 0 };
  });
  return {
    check: {
      registeredAt: registration.registeredAt, codeVersion: registration.codeVersion, specHash: registration.specHash, primaryContrast: p, alpha: registration.alpha,
      runSpecHash: specHash(state.spec), runCodeVersion: state.codeVersion ?? null, matches, registeredBeforeRun, differences, standing: matches ? 'confirmatory' : 'exploratory', primary,
    },
    declared: labelled,
    exploratory: exploratory.map((c) => ({ ...c, registered: 'exploratory' as const })),
  };
}

/** One line for a report: "Registered … : this run matches …" or why it is exploratory. */
export function registrationLines(check: RegistrationCheck | null | undefined): string[] {
  if (!check) return ['Not registered: the declared contrasts come from the experiment\'s spec, not from a run card frozen before the run (`metattl experiment register`).'];
  const p = check.primaryContrast;
  const head = `Registered ${check.registeredAt} (spec sha-256 ${check.specHash.slice(0, 12)}…, code ${check.codeVersion}); primary contrast ${p.a} − ${p.b}${p.taskSet ? ` on ${p.taskSet}` : ' on every evaluated task set'}, α = ${check.alpha}.`;
  const standing = check.matches
    ? `This run matches its registration (code ${check.runCodeVersion ?? 'unknown'}): the primary contrast is confirmatory, the other declared contrasts secondary, every other pair exploratory.`
    : `This run does NOT match its registration — ${[check.differences.length ? `its spec differs in ${check.differences.join(', ')}` : '', check.registeredBeforeRun ? '' : 'the registration was written after the run began'].filter(Boolean).join('; ')}: every comparison is exploratory.`;
  const primary = check.primary.map((x) => `Primary ${p.a} − ${p.b} on ${x.taskSet} (${x.step}): Δ ${x.delta.mean.toFixed(3)} [${x.delta.low.toFixed(3)}, ${x.delta.high.toFixed(3)}], Holm p ${x.holmP === null ? 'n/a' : x.holmP.toFixed(3)} — ${x.supported ? `supported at α = ${check.alpha}` : check.matches ? `not supported at α = ${check.alpha}` : 'exploratory'}.`);
  return [head, standing, ...primary];
}

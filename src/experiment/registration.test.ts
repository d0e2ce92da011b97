/** The run card: canonical JSON, the spec hash, differences, and how comparisons are labelled against a registration. */
import { describe, expect, it } from 'vitest';
import { BUILTIN_EXPERIMENTS } from './builtins.ts';
import type { ExperimentState } from './interface.ts';
import { canonicalJson, checkRegistration, makeRegistration, parseRegistration, RegistrationError, specDifferences, specHash } from './registration.ts';

// The random control evaluated on ID as well as OOD (the built-in evaluates on OOD only), so both task sets can be registered.
const spec = { ...BUILTIN_EXPERIMENTS['random-control']!, evaluateOn: ['ID', 'OOD'] };
const stateOf = (s = spec, startedAt = '2026-01-02T00:00:00.000Z'): ExperimentState => ({ format: 'metattl-experiment-state-1', spec: s, status: 'complete', models: [], steps: {}, startedAt, finishedAt: null, codeVersion: '0.1.0+abc' });
const delta = { mean: 0.1, low: 0.02, high: 0.2 };
const comparison = (a: string, b: string, holmP: number | null) => ({ a, b, taskSet: 'ID', step: 'eval-ID', delta, holmP });

describe('registration', () => {
  it('canonical JSON sorts keys at every depth, keeps array order and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
    const reversed = (v: unknown): unknown => (Array.isArray(v) ? v.map(reversed) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v);
    const shuffled = reversed(spec) as typeof spec;
    expect(JSON.stringify(shuffled)).not.toBe(JSON.stringify(spec));
    expect(specHash(shuffled)).toBe(specHash(spec));
    expect(specHash({ ...spec, repeats: 16 })).not.toBe(specHash(spec));
    expect(specHash(spec)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names the differing fields, one level into maps', () => {
    expect(specDifferences(spec, { ...spec, repeats: 3, taskSets: { ...spec.taskSets, OOD: ['balances'] } })).toEqual(['repeats', 'taskSets.OOD']);
    expect(specDifferences(spec, structuredClone(spec))).toEqual([]);
  });

  it('labels the primary (in either orientation, oriented as registered), secondary and exploratory; a mismatch or a late registration makes all exploratory', () => {
    const reg = makeRegistration(spec, { now: '2026-01-01T00:00:00.000Z', codeVersion: '0.1.0+abc', primary: { a: 'naive', b: 'evolved' }, alpha: 0.05 });
    const declared = [comparison('evolved', 'naive', 0.01), comparison('random-evolved', 'naive', 0.5)];
    const ok = checkRegistration(reg, stateOf(), declared, [comparison('x', 'y', null)]);
    expect(ok.check).toMatchObject({ matches: true, standing: 'confirmatory', differences: [], registeredBeforeRun: true, runCodeVersion: '0.1.0+abc' });
    expect(ok.declared.map((c) => c.registered)).toEqual(['primary', 'secondary']);
    expect(ok.exploratory.map((c) => c.registered)).toEqual(['exploratory']);
    // Registered naive − evolved: the evolved − naive comparison mirrored; Δ < 0 so not supported even at Holm p 0.01.
    expect(ok.check.primary).toEqual([{ step: 'eval-ID', taskSet: 'ID', delta: { mean: -0.1, low: -0.2, high: -0.02 }, holmP: 0.01, supported: false }]);
    const forward = checkRegistration(makeRegistration(spec, { now: '2026-01-01T00:00:00.000Z', codeVersion: 'x', primary: { a: 'evolved', b: 'naive' } }), stateOf(), declared, []);
    expect(forward.check.primary[0]).toMatchObject({ delta, supported: true });
    const recut = checkRegistration(reg, stateOf({ ...spec, repeats: 3 }), declared, []);
    expect(recut.check).toMatchObject({ matches: false, standing: 'exploratory', differences: ['repeats'] });
    expect(recut.declared.map((c) => c.registered)).toEqual(['exploratory', 'exploratory']);
    const late = checkRegistration(reg, stateOf(spec, '2025-12-31T00:00:00.000Z'), declared, []);
    expect(late.check).toMatchObject({ matches: false, registeredBeforeRun: false, differences: [] });
    expect(late.check.primary[0]!.supported).toBe(false);
  });

  it('refuses unknown arms, task sets and α; reading, a file whose spec no longer has its hash', () => {
    const at = { now: '2026-01-01T00:00:00.000Z', codeVersion: 'x' };
    expect(() => makeRegistration(spec, { ...at, primary: { a: 'gepa', b: 'naive' } })).toThrow(RegistrationError);
    expect(() => makeRegistration(spec, { ...at, taskSet: 'test' })).toThrow('random-control evaluates on ID, OOD');
    expect(() => makeRegistration(spec, { ...at, alpha: 0 })).toThrow('alpha must be in (0, 0.5]');
    expect(makeRegistration(spec, at).primaryContrast).toEqual({ a: 'evolved', b: 'random-evolved', taskSet: null });
    const text = JSON.stringify(makeRegistration(spec, at));
    expect(parseRegistration(text).specHash).toBe(specHash(spec));
    expect(() => parseRegistration(text.replace('"repeats":15', '"repeats":5'))).toThrow('the file was edited after registration');
    expect(() => parseRegistration('{')).toThrow('not JSON');
    expect(() => parseRegistration('{"format":"other"}')).toThrow('format must be "metattl-registration-1"');
  });
});

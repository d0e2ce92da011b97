/**
 * A frozen run card and full provenance, through the CLI bundle against the mock:
 * `experiment register` writes registration.json (spec, its sha-256 over canonical JSON — the same
 * whatever the key order — code version, primary contrast, α) before any call; `run` refuses a spec
 * that is not the registered one; `report` says whether the run matches its registration and
 * labels comparisons primary / secondary / exploratory (a re-cut registration makes every one
 * exploratory); codeVersion in experiment.json, results.json and session records; the provider's
 * model and system_fingerprint on every actor step; a resume that changes models or settings is
 * refused unless --allow-changed-settings, which records the change; `plan` names its prices.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

let mock: MockLlm;
beforeAll(async () => {
  // The provider answers `mock-model` with a dated snapshot, as OpenAI answers gpt-4o-mini.
  mock = await startMockLlm({ exploreCommands: ['north', 'take all', 'look'], servedModels: { 'mock-model': 'mock-model-2024-07-18' } });
});
afterAll(() => mock.close());

const env = { ...process.env, OPENAI_API_KEY: 'k', METATTL_STORIES_DIR: mkdtempSync(join(tmpdir(), 'prov-stories-')), STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const provider = (model = 'mock-model') => ['--base-url', mock.baseUrl, '--actor-model', model, '--meta-model', 'mock-model', '--proposer-model', 'mock-model', '--concurrency', '2'];
const tmp = () => mkdtempSync(join(tmpdir(), 'prov-'));
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
/** "<version>+<12 hex>[.dirty]" or "<version>+nogit" (scripts/code-version.mjs), the package's own version. */
const VERSION = (json(join(REPO_ROOT, 'package.json')) as { version: string }).version.replace(/\./g, '\\.');
const CODE_VERSION = new RegExp(`^${VERSION}\\+([0-9a-f]{12}(\\.dirty)?|nogit)$`);

/** A two-arm, two-game experiment with no evolution: the smallest run with a comparison. */
const SPEC = {
  format: 'metattl-experiment-1', name: 'prov-check', description: 'Provenance check', episodes: 2, steps: 3, repeats: 1, bootstrapSeed: 0, models: [],
  taskSets: { ID: ['detective', 'zork1'] }, evolutions: [], folds: null, arms: [{ id: 'naive', policy: 'naive' }, { id: 'static', policy: 'static' }, { id: 'memory', policy: 'memory' }],
  baseline: 'naive', contrasts: [{ a: 'static', b: 'memory' }], evaluateOn: ['ID'], paper: null,
};

/** `value` with every object's keys in reverse order, at every depth. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).reverse().map((k) => [k, reversedKeys((value as Record<string, unknown>)[k])]));
}

/** Sorted-key JSON, written here independently of the product's canonicalJson. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`).join(',')}}`;
}

describe('experiment register: the run card', () => {
  it('writes spec, sha-256 of its canonical JSON (the same in any key order), code version, primary contrast and α; refuses bad contrasts and overwriting', async () => {
    const dir = tmp();
    const file = join(dir, 'spec.json');
    const reversed = join(dir, 'reversed.json');
    writeFileSync(file, JSON.stringify(SPEC));
    writeFileSync(reversed, JSON.stringify(reversedKeys(SPEC)));
    const one = await runCli(['experiment', 'register', file, '--out', join(dir, 'a'), '--primary', 'static:naive', '--alpha', '0.1'], env);
    expect(one.code, one.stderr).toBe(0);
    const two = await runCli(['experiment', 'register', reversed, '--out', join(dir, 'b'), '--primary', 'static:naive', '--alpha', '0.1'], env);
    expect(two.code, two.stderr).toBe(0);
    const a = json(join(dir, 'a', 'registration.json'));
    const b = json(join(dir, 'b', 'registration.json'));
    expect(a).toMatchObject({ format: 'metattl-registration-1', name: 'prov-check', primaryContrast: { a: 'static', b: 'naive', taskSet: null }, alpha: 0.1, spec: { name: 'prov-check', repeats: 1 } });
    expect(a.codeVersion).toMatch(CODE_VERSION);
    expect(a.specHash).toBe(createHash('sha256').update(sortedJson(a.spec)).digest('hex'));
    expect(b.specHash).toBe(a.specHash);
    expect(one.stdout).toContain(`spec sha-256 ${a.specHash}`);
    // An override is part of the spec: another hash. Default primary: the spec's first declared contrast.
    const other = await runCli(['experiment', 'register', file, '--out', join(dir, 'c'), '--repeats', '2'], env);
    expect(other.code, other.stderr).toBe(0);
    const c = json(join(dir, 'c', 'registration.json'));
    expect(c.specHash).not.toBe(a.specHash);
    expect(c).toMatchObject({ primaryContrast: { a: 'static', b: 'memory', taskSet: null }, alpha: 0.05, spec: { repeats: 2 } });

    const again = await runCli(['experiment', 'register', file, '--out', join(dir, 'a')], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists: a registration is frozen/);
    const badArm = await runCli(['experiment', 'register', file, '--out', join(dir, 'd'), '--primary', 'evolved:naive'], env);
    expect(badArm.code).toBe(2);
    expect(badArm.stderr).toContain('"evolved" is not an arm of prov-check (naive, static, memory)');
    const badSet = await runCli(['experiment', 'register', file, '--out', join(dir, 'd'), '--primary-task-set', 'OOD'], env);
    expect(badSet.stderr).toContain('prov-check evaluates on ID');
    const badAlpha = await runCli(['experiment', 'register', file, '--out', join(dir, 'd'), '--alpha', '0.7'], env);
    expect(badAlpha.stderr).toContain('alpha must be in (0, 0.5]');
    expect(existsSync(join(dir, 'd', 'registration.json'))).toBe(false);
  });

  it('refuses, with run\'s own message and exit 2, a budget that experiment run would refuse, and writes nothing', async () => {
    const dir = tmp();
    const reg = await runCli(['experiment', 'register', 'paper-jericho', '--budget', '2', '--out', join(dir, 'r')], env);
    expect(reg.code).toBe(2);
    expect(reg.stderr).toMatch(/evolve-meta-ttl: The budget of 2 metric calls cannot pay for the seed's validation .*: at least \d+ are needed/);
    expect(existsSync(join(dir, 'r', 'registration.json'))).toBe(false);
    const run = await runCli(['experiment', 'run', 'paper-jericho', '--budget', '2', '--store', join(dir, 's')], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(reg.stderr);
  });

  it('a registered run matches: primary / secondary / exploratory labels; a spec that differs is refused; a registration re-cut or written after the run makes every comparison exploratory', async () => {
    const dir = tmp();
    const file = join(dir, 'spec.json');
    // No declared key contrast: each arm − naive is declared, static − memory exploratory.
    writeFileSync(file, JSON.stringify({ ...SPEC, contrasts: undefined }));
    const store = join(dir, 'store');
    const expDir = join(store, 'experiments', 'prov-check');
    expect((await runCli(['experiment', 'register', file, '--store', store, '--primary', 'static:naive'], env)).code).toBe(0);
    // The registered spec had 1 repeat: a run with 2 is refused before any call.
    const requests = mock.requests.length;
    const refused = await runCli(['experiment', 'run', file, '--repeats', '2', ...provider(), '--store', store], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the spec differs from its registration .* in repeats\./);
    expect(mock.requests.length).toBe(requests);
    expect(existsSync(join(expDir, 'experiment.json'))).toBe(false);

    const run = await runCli(['experiment', 'run', file, ...provider(), '--store', store, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const report = json(join(expDir, 'report', 'report.json'));
    const registration = json(join(expDir, 'registration.json'));
    expect(report.registration).toMatchObject({ matches: true, standing: 'confirmatory', registeredBeforeRun: true, differences: [], specHash: registration.specHash, runSpecHash: registration.specHash, alpha: 0.05, primaryContrast: { a: 'static', b: 'naive' } });
    expect(report.registration.runCodeVersion).toMatch(CODE_VERSION);
    expect(report.codeVersion).toBe(report.registration.runCodeVersion);
    const labels = report.comparisons.map((c: { a: string; b: string; registered: string }) => `${c.a}-${c.b}:${c.registered}`);
    expect(labels).toEqual(['static-naive:primary', 'memory-naive:secondary']);
    expect(report.exploratoryComparisons.map((c: { a: string; b: string; registered: string }) => `${[c.a, c.b].sort().join('-')}:${c.registered}`)).toEqual(['memory-static:exploratory']);
    const primaryComparison = report.comparisons[0];
    expect(report.registration.primary).toEqual([{ step: 'eval-ID', taskSet: 'ID', delta: primaryComparison.delta, holmP: primaryComparison.holmP, supported: false }]);
    const md = readFileSync(join(expDir, 'report', 'report.md'), 'utf8');
    expect(md).toContain('This run matches its registration');
    expect(md).toContain('eval-ID · primary');
    expect(readFileSync(join(expDir, 'report', 'report.html'), 'utf8')).toContain('This run matches its registration');

    // A registration of other settings (a re-cut), put beside the run afterwards: exploratory.
    const recut = join(dir, 'recut');
    expect((await runCli(['experiment', 'register', file, '--out', recut, '--repeats', '3', '--primary', 'memory:naive'], env)).code).toBe(0);
    copyFileSync(join(recut, 'registration.json'), join(expDir, 'registration.json'));
    const re = await runCli(['experiment', 'report', expDir, '--json', '--out', join(dir, 'rereport')], env);
    expect(re.code, re.stderr).toBe(0);
    const rr = JSON.parse(re.stdout).report;
    expect(rr.registration).toMatchObject({ matches: false, standing: 'exploratory', registeredBeforeRun: false, differences: ['repeats'] });
    expect(rr.comparisons.every((c: { registered: string }) => c.registered === 'exploratory')).toBe(true);
    expect(rr.registration.primary[0].supported).toBe(false);
    for (const name of ['report.md', 'report.html']) {
      const text = readFileSync(join(dir, 'rereport', name), 'utf8');
      expect(text).toContain('does NOT match its registration');
      expect(text).toContain('its spec differs in repeats; the registration was written after the run began: every comparison is exploratory');
    }
    // An edited registration (its spec no longer hashes to its specHash) is refused by name.
    const edited = { ...json(join(expDir, 'registration.json')), alpha: 0.05 };
    edited.spec.repeats = 1;
    writeFileSync(join(expDir, 'registration.json'), JSON.stringify(edited));
    const tampered = await runCli(['experiment', 'report', expDir], env);
    expect(tampered.code).toBe(2);
    expect(tampered.stderr).toContain('the file was edited after registration');
  }, 60_000);
});

describe('provenance in every record', () => {
  it('codeVersion in experiment.json, results.json and session records; the provider\'s model and fingerprint on every actor step; resume refused on changed settings unless allowed, then recorded', async () => {
    const dir = tmp();
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify({ ...SPEC, arms: SPEC.arms.slice(0, 2), contrasts: undefined }));
    const store = join(dir, 'store');
    const run = await runCli(['experiment', 'run', file, ...provider(), '--store', store], env);
    expect(run.code, run.stderr).toBe(0);
    const expDir = join(store, 'experiments', 'prov-check');
    const state = json(join(expDir, 'experiment.json'));
    expect(state.codeVersion).toMatch(CODE_VERSION);
    expect(state.llm).toMatchObject({ baseUrl: mock.baseUrl, roles: { actor: { maxTokens: expect.any(Number) } } });
    const results = json(join(expDir, 'eval-ID', 'out', 'results.json'));
    expect(results.codeVersion).toBe(state.codeVersion);
    expect(results.sessions).toHaveLength(4);
    for (const s of results.sessions) {
      expect(s.session.codeVersion).toBe(state.codeVersion);
      const steps = s.session.episodes.flatMap((e: { steps: unknown[] }) => e.steps);
      expect(steps.length).toBeGreaterThan(0);
      // Asked for mock-model; the provider said it used the snapshot, with its fingerprint.
      for (const step of steps) expect(step).toMatchObject({ providerModel: 'mock-model-2024-07-18', systemFingerprint: 'fp_mock' });
      // The meta-agent's calls too (naive adapts after every episode but the last; static calls none).
      expect(s.session.exchanges).toHaveLength(s.policyId === 'naive' ? 1 : 0);
      for (const x of s.session.exchanges) expect(x).toMatchObject({ kind: 'meta_agent', providerModel: 'mock-model-2024-07-18', systemFingerprint: 'fp_mock' });
    }
    expect(json(join(expDir, 'report', 'report.json')).registration).toBeNull();
    expect(readFileSync(join(expDir, 'report', 'report.md'), 'utf8')).toContain('Not registered');

    // Another actor model and temperature on resume: refused, nothing changed.
    const before = readFileSync(join(expDir, 'experiment.json'), 'utf8');
    const refused = await runCli(['experiment', 'resume', file, ...provider('other-model'), '--actor-temperature', '0.3', '--store', store], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('experiment resume would change the run\'s settings: set 0 actor model: mock-model → other-model; actor temperature: ');
    expect(refused.stderr).toContain('→ 0.3');
    expect(refused.stderr).toContain('--allow-changed-settings');
    expect(readFileSync(join(expDir, 'experiment.json'), 'utf8')).toBe(before);
    const flags = await runCli(['experiment', 'resume', file, '--repeats', '3', ...provider(), '--store', store], env);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('the flags would change repeats');
    // The same refusal one level down: the experiment's evaluation step, resumed by `eval` itself.
    const evalStore = join(expDir, 'eval-ID', 'store');
    const evalRefused = await runCli(['eval', '--store', evalStore, '--resume', 'eval-ID', '--out', join(dir, 'eval-out'), ...provider('other-model')], env);
    expect(evalRefused.code).toBe(2);
    expect(evalRefused.stderr).toContain('eval --resume would change the run\'s settings: actor model: mock-model → other-model');
    // Asked for: continues, and the change is recorded with the code that made it.
    const allowed = await runCli(['experiment', 'resume', file, ...provider('other-model'), '--actor-temperature', '0.3', '--store', store, '--allow-changed-settings'], env);
    expect(allowed.code, allowed.stderr).toBe(0);
    const after = json(join(expDir, 'experiment.json'));
    expect(after.changes).toHaveLength(1);
    expect(after.changes[0]).toMatchObject({ codeVersion: state.codeVersion, changes: [expect.stringMatching(/^set 0 actor model: mock-model → other-model$/), expect.stringMatching(/^actor temperature: .* → 0\.3$/)] });
    expect(after.models).toEqual([{ actor: 'other-model', metaAgent: 'mock-model', proposer: 'mock-model' }]);
    // The same again is no change.
    expect((await runCli(['experiment', 'resume', file, ...provider('other-model'), '--actor-temperature', '0.3', '--store', store], env)).code).toBe(0);
  }, 60_000);

  it('every LLM proposal (GEPA reflection and OPRO) records the model the provider said it used, kept across a resume', async () => {
    for (const optimizer of ['gepa', 'opro']) {
      const store = join(tmp(), 'store');
      const args = ['evolve', '--train', 'detective:0', '--val', 'temple:0', '--repeats', '1', '--episodes', '2', '--steps', '3', '--budget', '6', '--optimizer', optimizer, '--store', store, '--id', 'prov-evo', '--json', ...provider()];
      const run = await runCli(args, env);
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as { candidates: { status: string; origin: string; providerModel?: string; systemFingerprint?: string }[] };
      const proposals = out.candidates.filter((c) => c.status !== 'seed');
      expect(proposals.length, optimizer).toBeGreaterThan(0);
      for (const c of proposals) expect(c, optimizer).toMatchObject({ providerModel: 'mock-model-2024-07-18', systemFingerprint: 'fp_mock' });
      expect(out.candidates[0]).not.toHaveProperty('providerModel');
      // A resume replays the cached replies: the same provenance, no new call.
      const again = await runCli([...args, '--resume'], env);
      expect(JSON.parse(again.stdout).candidates).toEqual(out.candidates);
    }
  }, 60_000);

  it('experiment plan names the models and the prices its cost range is at', async () => {
    const mini = await runCli(['experiment', 'plan', 'paper-jericho'], env);
    expect(mini.code).toBe(0);
    expect(mini.stdout).toMatch(/total: .* tokens, \$[\d.]+–[\d.]+ at gpt-4o-mini \$0\.15\/\$0\.60 per M tokens in\/out \(cached in \$0\.075\) \(actor, meta-agent, proposer\)\n/);
    const gpt5 = await runCli(['experiment', 'plan', 'paper-jericho', '--actor-model', 'gpt-5'], env);
    expect(gpt5.stdout).toMatch(/\$[\d.]+–[\d.]+ at gpt-5 \$1\.25\/\$10\.00 per M tokens in\/out \(cached in \$0\.125\) \(actor, meta-agent, proposer\)/);
    const split = JSON.parse((await runCli(['experiment', 'plan', 'paper-jericho', '--json', '--meta-model', 'gpt-5'], env)).stdout);
    expect(split.pricesUsed).toEqual([
      { model: 'gpt-4o-mini', roles: ['actor', 'proposer'], price: { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6, cachedInputPerMTokUsd: 0.075 } },
      { model: 'gpt-5', roles: ['meta-agent'], price: { inputPerMTokUsd: 1.25, outputPerMTokUsd: 10, cachedInputPerMTokUsd: 0.125 } },
    ]);
    const unpriced = await runCli(['experiment', 'plan', 'paper-jericho', '--actor-model', 'my-finetune'], env);
    expect(unpriced.stdout).toMatch(/— at my-finetune no price \(actor, meta-agent, proposer\) \(no price at this provider for my-finetune/);
  });
});

/**
 * `npx metattl experiment` against the mock, at a tiny scale (K, S, repeats and budget shrunk by
 * overrides): plan --json before any call, each built-in experiment end to end with every report
 * field (skeptic-holdout's selection test on a run where every fold kept the seed), a run killed twice (mid-evolution, mid-evaluation) and resumed ending equal to an
 * uninterrupted run, and a missing game naming `stories get`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { BIN, runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['north', 'take all', 'look', 'inventory', 'south'] });
});
afterAll(() => mock.close());

const env = { ...process.env, OPENAI_API_KEY: 'k', METATTL_STORIES_DIR: mkdtempSync(join(tmpdir(), 'exp-stories-')), STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const provider = () => ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model', '--concurrency', '2'];
const tiny = ['--episodes', '2', '--steps', '3', '--repeats', '1', '--val-repeats', '1'];
const store = () => mkdtempSync(join(tmpdir(), 'exp-store-'));
const reportOf = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, 'experiments', name, 'report', 'report.json'), 'utf8'));

/** Run the CLI with `args` and `--store dir`, SIGKILL it at the first stderr text holding `marker`;
 * fails the test when it ends before that. */
async function killAt(args: readonly string[], dir: string, marker: string): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...args, '--store', dir], { cwd: REPO_ROOT, env });
  await new Promise<void>((finish) => {
    let seen = '';
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(marker) && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('exit', () => finish());
  });
  expect(child.signalCode).toBe('SIGKILL');
}

/** Run `args` (an `experiment run …` without --store), SIGKILL it at `marker`, resume it, and
 * require the report to equal `expected` (the uninterrupted run's). */
async function killedThenResumed(name: string, args: readonly string[], marker: string, expected: unknown): Promise<void> {
  const dir = store();
  await killAt(args, dir, marker);
  const resumed = await runCli(['experiment', 'resume', name, ...provider(), '--store', dir], env);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(reportOf(dir, name)).toEqual(expected);
}

/** Every field the issue asks of a report row and of the report. */
function expectReportFields(report: Record<string, unknown>, rows: number, extra: string[] = [], repeats = 1): void {
  // `vocabulary` is there when the experiment's games are story files (not web tasks).
  expect(Object.keys(report).filter((k) => k !== 'vocabulary').sort()).toEqual(['codeVersion', 'comparisons', 'description', 'evolutions', 'exploratoryComparisons', 'foldResults', 'folds', 'format', 'models', 'name', 'paperReference', 'pendingSteps', 'perGame', 'powerDelta', 'registration', 'rows', 'settings', 'status', 'warnings', 'armMatching', ...extra].sort());
  for (const c of report.comparisons as Record<string, unknown>[]) {
    expect(Object.keys(c)).toEqual(expect.arrayContaining(['a', 'b', 'taskSet', 'delta', 'perGame', 'gameLevel', 'holmP', 'positive']));
    expect(Object.keys(c.gameLevel as object)).toEqual(expect.arrayContaining(['tLow', 'tHigh', 'signFlipP', 'minP', 'games']));
    expect(typeof c.holmP).toBe('number');
  }
  expect(report).toMatchObject({ status: 'complete', pendingSteps: [], models: [{ actor: 'mock-model', metaAgent: 'mock-model', proposer: 'mock-model' }], settings: { episodes: 2, steps: 3, repeats, bootstrapSeed: 0 } });
  const list = report.rows as Record<string, unknown>[];
  expect(list).toHaveLength(rows);
  for (const row of list) {
    expect(Object.keys(row).filter((k) => k !== 'dictionaryOverlap').sort()).toEqual(['arm', 'averageScore', 'bestScore', 'curve', 'diffVsBaseline', 'fold', 'games', 'leakWarning', 'modelSet', 'normalisedCurve', 'paper', 'sessions', 'split', 'step', 'taskSet', 'wAuc'].sort());
    if ('vocabulary' in report) expect(row.dictionaryOverlap === null || typeof row.dictionaryOverlap === 'number').toBe(true);
    expect(row.wAuc).toMatchObject({ n: expect.any(Number), estimate: expect.any(Number), low: expect.any(Number), high: expect.any(Number) });
    expect(row.curve).toHaveLength(2);
  }
}

describe('metattl experiment', () => {
  it('list and plan --json: every step, fold, metric call, LLM call and the estimate beside the paper, before any call', async () => {
    const list = await runCli(['experiment', 'list', '--json'], env);
    expect(JSON.parse(list.stdout).map((e: { name: string }) => e.name)).toEqual(['paper-jericho', 'skeptic-holdout', 'random-control', 'optimizer-baselines', 'web-lite', 'vocab-ood']);
    const plan = await runCli(['experiment', 'plan', 'paper-jericho', '--json'], env);
    expect(plan.code).toBe(0);
    const out = JSON.parse(plan.stdout);
    expect(out.steps.map((s: { id: string }) => s.id)).toEqual(['evolve-meta-ttl', 'eval-ID', 'eval-OOD']);
    expect(out.steps[0]).toMatchObject({ kind: 'evolution', train: ['detective', 'zork1', 'temple'], val: ['detective', 'zork1', 'temple'], evolution: { budget: 100, minibatch: 1, valRepeats: 5 } });
    expect(out.steps[2]).toMatchObject({ kind: 'evaluation', tasks: ['balances', 'library', 'zork3'], repeats: 15 });
    // 100 metric calls of the evolution + 5 arms × 3 games × 15 repeats per evaluation.
    expect(out.estimate.steps.map((s: { metricCalls: number }) => s.metricCalls)).toEqual([100, 225, 225]);
    expect(out.estimate.total.metricCalls).toBe(550);
    expect(out.estimate.perSessionTokens.paper).toEqual({ episodes: 6, metaTtl: 364000, static: 196000 });
    expect(out.estimate.total.llmCalls.low).toBeGreaterThan(0);
    expect(out.estimate.total.tokens.high).toBeGreaterThanOrEqual(out.estimate.total.tokens.low);
    // Power before any call: 3 games, σ 0.10 and τ 0 assumed, Δ 0.05 → the game-level t-test's repeats; no flag possible.
    expect(out.power).toMatchObject({ delta: 0.05, sessionSd: 0.1, tau: 0 });
    expect(out.power.steps.map((s: { step: string; games: number; flagReachable: boolean }) => [s.step, s.games, s.flagReachable])).toEqual([['eval-ID', 3, false], ['eval-OOD', 3, false]]);
    expect(out.power.steps[0].repeatsNeeded).toBeGreaterThan(15);
    const pilot = join(store(), 'pilot.json');
    writeFileSync(pilot, JSON.stringify({ comparisons: [{ declared: true, power: { sessionSd: 0.1, tau: 0.2 } }] }));
    const capped = JSON.parse((await runCli(['experiment', 'plan', 'paper-jericho', '--json', '--power-delta', '0.1', '--pilot', pilot], env)).stdout);
    expect(capped.power).toMatchObject({ delta: 0.1, tau: 0.2 });
    expect(capped.power.steps[0].repeatsNeeded).toBeNull();
    expect(capped.power.steps[0].reason).toMatch(/add games/);
    const badDelta = await runCli(['experiment', 'plan', 'paper-jericho', '--power-delta', '2'], env);
    expect(badDelta.code).toBe(2);
    expect(badDelta.stderr).toContain('--power-delta must be');
    const holdout = JSON.parse((await runCli(['experiment', 'plan', 'skeptic-holdout', '--json'], env)).stdout);
    expect(holdout.folds.map((f: { train: string[]; val: string[]; test: string[] }) => [f.train, f.val, f.test])).toEqual([
      [['zork1'], ['temple'], ['detective']], [['temple'], ['detective'], ['zork1']], [['detective'], ['zork1'], ['temple']],
    ]);
    const bad = await runCli(['experiment', 'plan', 'paper-jericho', '--task-set', 'HELD=zork1'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no task set "HELD"/);
  });

  it('paper-jericho runs end to end; killed mid-evolution and mid-evaluation, resume ends equal to an uninterrupted run', async () => {
    const args = ['experiment', 'run', 'paper-jericho', ...tiny, '--budget', '8', '--task-set', 'OOD=balances,library', ...provider()];
    const full = store();
    const done = await runCli([...args, '--store', full, '--json'], env);
    expect(done.code, done.stderr).toBe(0);
    const report = reportOf(full, 'paper-jericho');
    expectReportFields(report, 10);
    expect(JSON.parse(done.stdout).report).toEqual(report);
    const evolvedId = report.rows.find((r: { taskSet: string; arm: string }) => r.taskSet === 'ID' && r.arm === 'evolved');
    expect(evolvedId).toMatchObject({ sessions: 3, games: 3, split: { role: 'selected-on' }, paper: { wAuc: 0.41, averageScore: 110.8 }, leakWarning: expect.stringContaining('detective, zork1, temple') });
    // OOD cut to balances and library is not the paper's OOD (balances, library, zork3): no paper number beside it.
    expect(report.rows.find((r: { taskSet: string; arm: string }) => r.taskSet === 'OOD' && r.arm === 'naive')).toMatchObject({ sessions: 2, paper: null, leakWarning: null });
    expect(report.perGame).toHaveLength(25);
    expect(report.perGame[0]).toMatchObject({ step: 'eval-ID', taskSet: 'ID', arm: 'static', game: 'detective', sessions: 1, wAuc: { n: 1 } });
    expect(report.evolutions[0]).toMatchObject({ step: 'evolve-meta-ttl', budget: 8, proposer: 'llm', train: ['detective', 'zork1', 'temple'] });
    // Each task set's vocabulary overlap with the evolution's games, as `stories overlap` measures it.
    const overlap = JSON.parse((await runCli(['stories', 'overlap', '--train', 'detective,zork1,temple', 'library', 'balances', '--json'], env)).stdout);
    expect(report.vocabulary.map((v: { step: string; training: string[]; missing: string[] }) => [v.step, v.training, v.missing])).toEqual([['eval-ID', ['detective', 'zork1', 'temple'], []], ['eval-OOD', ['detective', 'zork1', 'temple'], []]]);
    expect(report.vocabulary[0].dictionary.share).toBe(1);
    expect(report.vocabulary[1].perGame).toEqual(['balances', 'library'].map((g) => { const { file: _f, version: _v, ...row } = overlap.games.find((x: { game: string }) => x.game === g); return row; }));
    expect(report.rows.find((r: { taskSet: string }) => r.taskSet === 'OOD').dictionaryOverlap).toBe(report.vocabulary[1].dictionary.share);
    expect(done.stdout).not.toContain('dictionary overlap'); // --json: the overlap is in the report
    for (const file of ['report.md', 'report.html', 'report.csv']) expect(readFileSync(join(full, 'experiments', 'paper-jericho', 'report', file), 'utf8')).toContain('evolved');

    const killed = store();
    await killAt(args, killed, '[3/8]');
    await killAt(['experiment', 'resume', 'paper-jericho', ...provider()], killed, '] evolved on ');
    const resumed = await runCli(['experiment', 'resume', 'paper-jericho', ...provider(), '--store', killed, '--json'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(reportOf(killed, 'paper-jericho')).toEqual(report);
    const reported = await runCli(['experiment', 'report', 'paper-jericho', '--store', killed, '--json'], env);
    expect(JSON.parse(reported.stdout).report).toEqual(report);
    const again = await runCli([...args, '--store', killed], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already in .*experiment resume/);
  }, 60_000);

  it('skeptic-holdout: three folds, each with its held-out gap and selection test; every fold kept the seed on deterministic mock replies, so selection optimism is 0; killed and resumed, the same report', async () => {
    // Budget 4 = the seed's validation (1) + one iteration (2 × 1 + 1); the mock's proposal does not
    // beat the seed, so every fold chooses the seed: no selection happened.
    const dir = store();
    const args = ['experiment', 'run', 'skeptic-holdout', ...tiny, '--repeats', '2', '--budget', '4', ...provider()];
    const run = await runCli([...args, '--store', dir], env);
    expect(run.code, run.stderr).toBe(0);
    const report = reportOf(dir, 'skeptic-holdout');
    expectReportFields(report, 12, ['foldRegime', 'foldsPooled'], 2);
    expect(report.foldResults).toHaveLength(3);
    for (const f of report.foldResults) {
      expect(new Set([...f.train, ...f.val, ...f.test]).size).toBe(3);
      expect(f.heldOutGap).toMatchObject({ estimate: expect.any(Number), low: expect.any(Number), high: expect.any(Number) });
      expect(f).toMatchObject({ chosenCandidate: 'c0', chosenIsSeed: true });
      // Recorded validation W-AUC = the fresh sessions' (deterministic replies): optimism 0, zero width, n = 2 fresh sessions.
      expect(f.freshValidationWAuc.estimate).toBeCloseTo(f.validationWAuc, 12);
      expect(f.selectionOptimism).toEqual({ mean: 0, low: 0, high: 0, n: 2, df: null });
      expect(f.transferGap).toMatchObject({ mean: 0, n: 4 });
    }
    // The games differ in difficulty (the old "validation − held-out W-AUC" was not 0 everywhere).
    expect(new Set(report.foldResults.map((f: { validationWAuc: number }) => f.validationWAuc)).size).toBeGreaterThan(1);
    expect(report.foldsPooled).toEqual([expect.objectContaining({ folds: 3, seedFolds: 3, selectionOptimism: { mean: 0, low: 0, high: 0, n: 6, df: null } })]);
    expect(report.foldRegime).toContain('1 training + 1 validation game');
    expect(report.rows.filter((r: { arm: string; taskSet: string }) => r.arm === 'evolved').map((r: { taskSet: string; split: { role: string }; leakWarning: string | null }) => [r.taskSet, r.split.role, r.leakWarning === null])).toEqual([
      ['test', 'held-out', true], ['validation', 'selected-on', false], ['test', 'held-out', true], ['validation', 'selected-on', false], ['test', 'held-out', true], ['validation', 'selected-on', false],
    ]);
    // Only the held-out evaluations carry declared contrasts.
    expect(report.comparisons.map((c: { step: string }) => c.step)).toEqual(['fold-detective.eval-test', 'fold-zork1.eval-test', 'fold-temple.eval-test']);
    expect(run.stdout).toMatch(/fold-temple: chosen c0 \(seed: no selection happened\); held-out gap .*; selection optimism 0\.000 \[0\.000, 0\.000\] \(n 2\); transfer gap/);
    expect(run.stdout).toMatch(/pooled over 3 folds \(3 chose the seed\)/);
    const folds = readFileSync(join(dir, 'experiments', 'skeptic-holdout', 'report', 'folds.csv'), 'utf8').trim().split('\n');
    expect(folds.map((l) => l.split(',')[1])).toEqual(['fold', 'fold-detective', 'fold-zork1', 'fold-temple', 'pooled']);
    await killedThenResumed('skeptic-holdout', args, '[2/4]', report);
  }, 60_000);

  it('random-control runs three proposers at equal budget, reports their counts side by side; killed and resumed, the same report', async () => {
    const dir = store();
    const control = await runCli(['experiment', 'run', 'random-control', ...tiny, '--budget', '8', '--task-set', 'OOD=balances,library', ...provider(), '--store', dir], env);
    expect(control.code, control.stderr).toBe(0);
    const report = reportOf(dir, 'random-control');
    expectReportFields(report, 4);
    expect(report.evolutions.map((e: { proposer: string; budget: number; proposerInput?: string }) => [e.proposer, e.budget, e.proposerInput ?? 'full'])).toEqual([['llm', 8, 'full'], ['random-neutral', 8, 'full'], ['llm', 8, 'no-trace']]);
    // Per-arm accounting, counted again from each evolution's own stored run.
    for (const e of report.evolutions as { step: string; proposals: number; accepted: number; validated: number; proposerTokens: number; editSizes: number[] }[]) {
      const runStore = await openNodeStore(join(dir, 'experiments', 'random-control', e.step, 'store'));
      const stored = await loadEvolutionState(runStore, e.step).finally(() => runStore.close());
      const proposals = stored!.candidates.filter((c) => c.parentId !== null && !c.merge);
      expect([e.proposals, e.accepted]).toEqual([proposals.length, proposals.filter((c) => c.status === 'accepted').length]);
      expect(e.editSizes.length).toBeLessThanOrEqual(e.proposals);
    }
    expect(report.evolutions[1].proposerTokens).toBe(0);
    expect(report.evolutions[0].proposerTokens).toBeGreaterThan(0);
    expect(report.armMatching).toHaveLength(1);
    expect(report.armMatching[0].text).toMatch(/^(Matched|Not matched): evolve-meta-ttl \(llm\) \d+ proposals/);
    expect(readFileSync(join(dir, 'experiments', 'random-control', 'report', 'evolutions.csv'), 'utf8')).toMatch(/^step,model_set,fold,proposer,optimizer,proposer_input,edit_sizes_from,.*\nevolve-meta-ttl,0,,llm,gepa,full,,/);
    // Evaluated only off the training games.
    expect(report.rows.map((r: { arm: string; step: string; split: { role: string } }) => [r.step, r.arm, r.split.role])).toEqual([
      ['eval-OOD', 'naive', 'not-selected'], ['eval-OOD', 'evolved', 'held-out'], ['eval-OOD', 'random-evolved', 'held-out'], ['eval-OOD', 'no-trace-evolved', 'held-out'],
    ]);
    // The contrasts the experiment exists for are declared and Holm-corrected beside each arm vs naive.
    expect(report.comparisons.map((c: { step: string; a: string; b: string }) => `${c.step} ${c.a}-${c.b}`)).toEqual([
      'eval-OOD evolved-naive', 'eval-OOD random-evolved-naive', 'eval-OOD no-trace-evolved-naive', 'eval-OOD evolved-random-evolved', 'eval-OOD evolved-no-trace-evolved',
    ]);
    expect(report.comparisons[3].perGame.map((g: { game: string }) => g.game)).toEqual(['balances', 'library']);
    expect(report.comparisons[3].gameLevel).toMatchObject({ games: 2, minP: 0.5 });
    // Each step's own results.json declares the same contrasts, with the same numbers (its Holm
    // family is the step; the report's is every step).
    for (const step of ['eval-OOD']) {
      const results = JSON.parse(readFileSync(join(dir, 'experiments', 'random-control', step, 'out', 'results.json'), 'utf8'));
      const own = report.comparisons.filter((c: { step: string }) => c.step === step);
      expect(results.comparisons.map((c: { a: string; b: string }) => `${c.a}-${c.b}`)).toEqual(own.map((c: { a: string; b: string }) => `${c.a}-${c.b}`));
      for (const [i, c] of results.comparisons.entries()) expect({ delta: c.delta, perGame: c.perGame, gameLevel: c.gameLevel, sessions: c.sessions }).toEqual({ delta: own[i].delta, perGame: own[i].perGame, gameLevel: own[i].gameLevel, sessions: own[i].sessions });
    }
    expect(report.comparisons.some((c: { positive: boolean }) => c.positive)).toBe(false);
    expect(report.warnings.map((w: { code: string; message: string }) => [w.code, w.message.split(':')[0]])).toEqual([['few_games', 'eval-OOD']]);
    expect(report.warnings[0].message).toContain('2 games (task set OOD) cannot support a claim about games in general; this is a claim about these games');
    const byDir = await runCli(['experiment', 'report', join(dir, 'experiments', 'random-control'), '--json', '--power-delta', '0.1', '--out', join(dir, 'again')], env);
    expect(byDir.code, byDir.stderr).toBe(0);
    const json = JSON.parse(byDir.stdout);
    expect(json.comparisons.map((c: { a: string }) => c.a)).toEqual(report.comparisons.map((c: { a: string }) => c.a));
    expect(json.comparisons[0].power.delta).toBe(0.1);
    expect(json.warnings).toEqual(report.warnings);
    for (const file of ['report.md', 'report.html']) expect(readFileSync(join(dir, 'again', file), 'utf8')).toContain('cannot support a claim about games in general');
    expect(readFileSync(join(dir, 'again', 'comparisons.csv'), 'utf8')).toMatch(/^step,a,b,task_set,declared,.*,per_game,few_games,registered,model,model_caveat\n/);
    await killedThenResumed('random-control', ['experiment', 'run', 'random-control', ...tiny, '--budget', '8', '--task-set', 'OOD=balances,library', ...provider()], '[3/8]', report);
  }, 60_000);

  it('web-lite runs on web tasks; killed and resumed, the same report', async () => {
    const web = store();
    const sets = ['train=web:shop/t1:1', 'val=web:shop/t1:3', 'ID=web:shop/t1:4', 'OOD=web:shop-admin/t13:1'].flatMap((s) => ['--task-set', s]);
    const lite = await runCli(['experiment', 'run', 'web-lite', ...tiny, '--budget', '4', ...sets, ...provider(), '--store', web], env);
    expect(lite.code, lite.stderr).toBe(0);
    const webReport = reportOf(web, 'web-lite');
    expectReportFields(webReport, 10);
    expect(webReport.rows.find((r: { taskSet: string; arm: string }) => r.taskSet === 'ID' && r.arm === 'evolved')).toMatchObject({ split: { games: ['web:shop/t1'], role: 'selected-on' }, paper: null });
    await killedThenResumed('web-lite', ['experiment', 'run', 'web-lite', ...tiny, '--budget', '4', ...sets, ...provider()], '[2/4]', webReport);
  }, 60_000);

  it('optimizer-baselines runs a GEPA and an OPRO evolution at equal budget and a TextGrad arm in one evaluation; killed and resumed, the same report', async () => {
    const dir = store();
    const out = await runCli(['experiment', 'run', 'optimizer-baselines', ...tiny, '--budget', '8', '--task-set', 'OOD=balances', ...provider(), '--store', dir], env);
    expect(out.code, out.stderr).toBe(0);
    const report = reportOf(dir, 'optimizer-baselines');
    expectReportFields(report, 8);
    expect(report.evolutions.map((e: { proposer: string; optimizer: string; budget: number }) => [e.optimizer, e.proposer, e.budget])).toEqual([['gepa', 'llm', 8], ['opro', 'llm', 8]]);
    expect(report.rows.map((r: { arm: string }) => r.arm)).toEqual(['naive', 'textgrad', 'evolved', 'opro-evolved', 'naive', 'textgrad', 'evolved', 'opro-evolved']);
    await killedThenResumed('optimizer-baselines', ['experiment', 'run', 'optimizer-baselines', ...tiny, '--budget', '8', '--task-set', 'OOD=balances', ...provider()], '[3/8]', report);
  }, 60_000);

  it('a JSON experiment file is schema-checked, every bad field named', async () => {
    const file = join(store(), 'mine.json');
    writeFileSync(file, JSON.stringify({ name: 'mine', episodes: 0, steps: 3, repeats: 1, taskSets: { T: ['lever-room'] }, arms: [{ id: 'naive', policy: 'naive' }], baseline: 'static', evaluateOn: ['T', 'U'] }));
    const bad = await runCli(['experiment', 'plan', file], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('baseline must be the id of one of the arms (naive), got "static"; evaluateOn must be task set names among T, got "U"; episodes must be a whole number from 1 to 100, got 0');
    writeFileSync(file, JSON.stringify({ name: 'mine', episodes: 2, steps: 3, repeats: 1, taskSets: { T: ['lever-room'] }, arms: [{ id: 'static', policy: 'static' }, { id: 'naive', policy: 'naive' }], baseline: 'naive', evaluateOn: ['T'] }));
    const dir = store();
    const run = await runCli(['experiment', 'run', file, ...provider(), '--store', dir, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).report.rows.map((r: { arm: string; sessions: number; paper: unknown }) => [r.arm, r.sessions, r.paper])).toEqual([['static', 1, null], ['naive', 1, null]]);
  });

  it('a missing game stops run before any call, naming stories get', async () => {
    const dir = store();
    const before = mock.requests.length;
    const out = await runCli(['experiment', 'run', 'paper-jericho', ...tiny, '--task-set', 'OOD=ztuu', ...provider(), '--store', dir], env);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('needs games that are not in any stories directory: ztuu. Get them with: npx metattl stories get ztuu');
    expect(mock.requests.length).toBe(before);
  });
});

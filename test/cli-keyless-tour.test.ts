/**
 * The keyless CLI tour ("The same in the CLI, with no key"): four commands with `--provider
 * simulated` — a session, an evaluation of two meta-prompts, an evolution from naive and the
 * skeptic-holdout experiment on the teaching games — run exactly as written, at the size written,
 * and show what the simulated model is for: the fact bank's Δ over naive has an interval above 0,
 * the evolution accepts a child, a fold chooses a prompt that is not the seed; and every printed
 * report, file and JSON object says the results are a simulation's.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SIMULATION_NOTICE } from '../src/llm/model-label.ts';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);

/** The tour's commands and the lines they print, as the docs show them (`DIR` = a scratch folder). */
const KEYLESS_TOUR = {
  session: 'npx metattl session vault --provider simulated --policy fact-bank --episodes 3 --steps 15',
  sessionShows: 'on The Vault seed 1: complete; scores 1, 5, 5; W-AUC 0.867; 0 faulted episodes',
  eval: 'npx metattl eval --provider simulated --policies naive,fact-bank --tasks lever-room,vault --repeats 3 --episodes 4 --steps 15 --out DIR/eval',
  evalShows: /^fact-bank\s+custom\s+6\s+0\.657 \[0\.480, 0\.820\]\s+2\.7 \[1\.7, 3\.5\]\s+0\.483 \[0\.340, 0\.633\]$/m,
  evolve: 'npx metattl evolve --provider simulated --train lever-room --val lever-room,vault --episodes 4 --steps 15 --budget 8 --store DIR',
  evolveShows: "candidate c1: accepted (minibatch sum 0.6200 > parent's 0.1600)",
  experiment: 'npx metattl experiment run skeptic-holdout --provider simulated --task-set ID=lever-room,vault,zork1 --episodes 4 --steps 15 --repeats 2 --budget 8 --store DIR',
  experimentShows: 'fold-lever-room: chosen c1; held-out gap 0.360 [0.260, 0.460]',
} as const;

const PLAYED_BY = `Played by the ${SIMULATION_NOTICE}.`;
const dir = mkdtempSync(join(tmpdir(), 'keyless-tour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one of the tour's command lines from the repository root with no key in the environment. */
async function tour(command: string): Promise<{ stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  return run('bash', ['-c', command.replaceAll('DIR', dir)], { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 });
}

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

/** The last two cells of every CSV line under its header: model and model_caveat (the caveat is
 * quoted, since it holds a comma). */
const MODEL_CELLS = `,simulated model,"${SIMULATION_NOTICE}"`;
function expectCsvNamesTheSimulation(path: string): void {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  expect(lines[0]!.endsWith(',model,model_caveat'), path).toBe(true);
  expect(lines.length, path).toBeGreaterThan(1);
  for (const line of lines.slice(1)) expect(line.endsWith(MODEL_CELLS), `${path}: ${line}`).toBe(true);
}

describe('the keyless CLI tour (--provider simulated)', () => {
  it('a session on The Vault learns the code in episode 2, and says who played', async () => {
    const text = await tour(KEYLESS_TOUR.session);
    expect(text.stdout.trim().split('\n').at(-1)).toMatch(new RegExp(`^session \\S+ ${KEYLESS_TOUR.sessionShows.replace(/[.;]/g, '\\$&')}$`));
    expect(text.stderr).toContain(PLAYED_BY);
    const out = json((await tour(`${KEYLESS_TOUR.session} --json`)).stdout);
    expect(out.scores).toEqual([1, 5, 5]);
    expect(out.model).toEqual({ name: 'simulated model', simulated: true, kind: 'simulated', caveat: SIMULATION_NOTICE });
  }, 120_000);

  it("an evaluation of naive and a fact bank: the fact bank's Δ interval lies above 0, and every report names the simulation", async () => {
    const { stdout, stderr } = await tour(KEYLESS_TOUR.eval);
    expect(stdout).toMatch(KEYLESS_TOUR.evalShows);
    expect(stderr).toContain(PLAYED_BY);
    const results = json(readFileSync(join(dir, 'eval', 'results.json'), 'utf8'));
    expect(results.model).toMatchObject({ simulated: true, caveat: SIMULATION_NOTICE });
    const csv = readFileSync(join(dir, 'eval', 'summary.csv'), 'utf8').split('\n');
    const header = csv[0]!.split(',');
    const row = csv.find((l) => l.startsWith('fact-bank,'))!.split(',');
    expect(Number(row[header.indexOf('diff_low')])).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'eval', 'report.md'), 'utf8').split('\n')).toContain(`> **Model: simulated (${SIMULATION_NOTICE}).**`);
    for (const file of ['summary.csv', 'comparisons.csv']) expectCsvNamesTheSimulation(join(dir, 'eval', file));
  }, 180_000);

  it('an evolution from naive accepts a child within 8 metric calls, and its JSON names the simulation', async () => {
    const { stdout, stderr } = await tour(KEYLESS_TOUR.evolve);
    // The progress lines (each candidate's fate) go to stderr; the summary to stdout.
    expect(stderr).toContain(KEYLESS_TOUR.evolveShows);
    expect(stdout).toMatch(/^evolution \S+: complete .*best c1/m);
    expect(stderr).toContain(PLAYED_BY);
    const out = json((await tour(`${KEYLESS_TOUR.evolve.replace(/ --train .*$/, ' --resume --store DIR')} --json`)).stdout);
    const candidates = out.candidates as { status: string; strategy: string }[];
    expect(candidates[0]!.strategy).toBe('');
    expect(candidates.filter((c) => c.status === 'accepted').length).toBeGreaterThanOrEqual(1);
    expect(out.model).toMatchObject({ simulated: true, caveat: SIMULATION_NOTICE });
  }, 180_000);

  it('skeptic-holdout on the teaching games: a fold chooses a prompt that is not the seed, and the report says it is a simulation', async () => {
    const { stdout, stderr } = await tour(KEYLESS_TOUR.experiment);
    expect(stdout).toContain(KEYLESS_TOUR.experimentShows);
    expect(stderr).toContain(PLAYED_BY);
    const reportDir = join(dir, 'experiments', 'skeptic-holdout', 'report');
    const report = json(readFileSync(join(reportDir, 'report.json'), 'utf8'));
    const folds = report.foldResults as { chosenIsSeed: boolean }[];
    expect(folds).toHaveLength(3);
    expect(folds.some((f) => !f.chosenIsSeed)).toBe(true);
    expect(JSON.stringify(report.simulated)).toContain(SIMULATION_NOTICE);
    expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toContain(`- Model: simulated (${SIMULATION_NOTICE})`);
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain(SIMULATION_NOTICE);
    for (const file of ['report.csv', 'comparisons.csv', 'folds.csv', 'evolutions.csv']) expectCsvNamesTheSimulation(join(reportDir, file));
  }, 600_000);
});

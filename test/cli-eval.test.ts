/**
 * `npx metattl eval` against the mock on real stories: 3 policies × 2 tasks × 2 repeats = 12
 * sessions, whose summary means equal the means of the per-session W-AUCs in results.json; the
 * CSV and Markdown exports; the selection-leak warning for a meta-prompt selected on a test game.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_META_PROMPTS } from '../src/agents/meta-prompt-library.ts';
import { CSV_HEADER } from '../src/eval/report-csv.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);
const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

describe('metattl eval', () => {
  it('runs 12 sessions and summarises them with intervals, CSV and Markdown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-eval-'));
    const evolved = join(dir, 'evolved.json');
    writeFileSync(evolved, JSON.stringify({ name: 'evolved', strategy: BUILT_IN_META_PROMPTS[2]!.strategy, selectedOn: ['detective', 'zork1'] }));
    const out = join(dir, 'out');
    const { stdout } = await run(
      process.execPath,
      [resolve(REPO_ROOT, 'bin/metattl.js'), 'eval', '--policies', `static,naive,${evolved}`, '--tasks', 'detective:0,temple:0', '--repeats', '2',
        '--episodes', '3', '--steps', '6', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--out', out, '--baseline', 'static', '--contrast', 'evolved:naive'],
      { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: 'eval-secret-key-123' } },
    );
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.status).toBe('complete');
    expect(results.sessions).toHaveLength(12);
    expect(results.sessions.every((s: { session: { episodes: unknown[] } }) => s.session.episodes.length === 3)).toBe(true);
    for (const policy of ['static', 'naive', 'evolved']) {
      const mine = results.sessions.filter((s: { policyId: string }) => s.policyId === policy);
      expect(mine).toHaveLength(4);
      const meanWAuc = mine.reduce((a: number, s: { wAuc: number }) => a + s.wAuc, 0) / 4;
      const row = results.report.policies.find((p: { policyId: string }) => p.policyId === policy);
      expect(row.sessions).toBe(4);
      expect(row.games).toBe(2);
      expect(row.wAuc.estimate).toBeCloseTo(meanWAuc, 12);
      expect(row.wAuc.low).toBeLessThanOrEqual(row.wAuc.estimate);
      expect(row.wAuc.high).toBeGreaterThanOrEqual(row.wAuc.estimate);
      expect(row.curve).toHaveLength(3);
    }
    const evolvedRow = results.report.policies.find((p: { policyId: string }) => p.policyId === 'evolved');
    expect(evolvedRow.leakWarning).toBe('The evaluated meta-prompt was selected on these games: detective. Its results on them are not a held-out test.');
    expect(results.report.policies.find((p: { policyId: string }) => p.policyId === 'naive').leakWarning).toBeNull();
    expect(results.report.policies.find((p: { policyId: string }) => p.policyId === 'static').diffVsBaseline).toBeNull();
    // The claims contract: declared contrasts (each vs the baseline, then --contrast), Holm-corrected; warnings.
    expect(results.comparisons.map((c: { a: string; b: string }) => `${c.a}-${c.b}`)).toEqual(['naive-static', 'evolved-static', 'evolved-naive']);
    expect(results.comparisons).toEqual(results.report.comparisons);
    for (const c of results.comparisons) {
      expect(c.perGame.map((g: { game: string }) => g.game)).toEqual(['detective', 'temple']);
      expect(c.gameLevel).toMatchObject({ games: 2, minP: 0.5 });
      expect(c.holmP).toBeGreaterThanOrEqual(c.gameLevel.signFlipP);
      expect(c.positive).toBe(false);
    }
    expect(results.warnings.map((w: { code: string }) => w.code)).toContain('few_games');
    expect(readFileSync(join(out, 'comparisons.csv'), 'utf8').split('\n')).toHaveLength(5);
    const csv = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe(CSV_HEADER.join(','));
    expect(csv).toHaveLength(4);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('| policy | task set | sessions | games | W-AUC |');
    expect(md).toContain(`Code version: ${results.codeVersion}.`);
    expect(md).toContain('selected on these games: detective');
    // The evolved policy's vocabulary overlap with the games it was selected on, as `stories overlap` measures it.
    const overlap = JSON.parse((await run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), 'stories', 'overlap', '--train', 'detective,zork1', 'detective', 'temple', '--json'], { cwd: REPO_ROOT })).stdout);
    expect(results.vocabulary).toHaveLength(1);
    expect(results.vocabulary[0]).toMatchObject({ policy: 'evolved', taskSet: 'custom', training: ['detective', 'zork1'], games: ['detective', 'temple'], missing: [] });
    expect(results.vocabulary[0].perGame).toEqual(['detective', 'temple'].map((g) => { const { file: _f, version: _v, ...row } = overlap.games.find((x: { game: string }) => x.game === g); return row; }));
    expect(results.vocabulary[0].perGame[0].dictionary.share).toBe(1);
    expect(results.vocabulary[0].dictionary.share).toBeGreaterThan(results.vocabulary[0].perGame[1].dictionary.share);
    expect(md).toContain('## Vocabulary overlap with the training games');
    expect(md).toContain(`| evolved | custom | detective, zork1 | ${(100 * results.vocabulary[0].dictionary.share).toFixed(1)} % (`);
    expect(stdout).toContain('W-AUC (95% CI)');
    for (const file of ['results.json', 'summary.csv', 'report.md']) expect(readFileSync(join(out, file), 'utf8')).not.toContain('eval-secret-key-123');
  }, 60_000);

  it('--resume of a store with a truncated record stops with exit 1 naming the file and record; --from-last-good then finishes with the same results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-eval-'));
    const store = join(dir, 'store');
    const args = (out: string) => [resolve(REPO_ROOT, 'bin/metattl.js'), 'eval', '--policies', 'static', '--tasks', 'detective:0', '--repeats', '3', '--episodes', '1', '--steps', '3',
      '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--out', join(dir, out), '--store', store, '--json'];
    const env = { ...process.env, OPENAI_API_KEY: 'k' };
    const first = JSON.parse((await run(process.execPath, args('a'), { cwd: REPO_ROOT, env })).stdout);
    expect(first.status).toBe('complete');
    const { openNodeStore } = await import('../src/store/node-store.ts');
    const where = (await (await openNodeStore(store)).getRun(first.id))!.where;
    const lines = readFileSync(where, 'utf8').split('\n');
    expect(lines).toHaveLength(4);
    writeFileSync(where, [lines[0], lines[1], lines[2]!.slice(0, 100)].join('\n')); // the last record cut short
    const refused = await run(process.execPath, [...args('b'), '--resume', first.id], { cwd: REPO_ROOT, env }).catch((e: { code: number; stderr: string }) => e);
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toContain(`The stored evaluation "${first.id}" is damaged, so it was not resumed: ${where}, line 3: `);
    expect((refused as { stderr: string }).stderr).toContain('Intact before it: records 1–2;');
    const resumed = JSON.parse((await run(process.execPath, [...args('c'), '--resume', first.id, '--from-last-good'], { cwd: REPO_ROOT, env })).stdout);
    expect(resumed.status).toBe('complete');
    const wAucs = (dirName: string) => JSON.parse(readFileSync(join(dir, dirName, 'results.json'), 'utf8')).sessions.map((x: { wAuc: number; scores: number[] }) => [x.wAuc, x.scores]);
    expect(wAucs('c')).toEqual(wAucs('a'));
  });

  it('--resume of a store whose last line a kill tore mid-write (past the saved mark) drops that line, says so, and finishes with the same results, no --from-last-good needed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-eval-'));
    const store = join(dir, 'store');
    const args = (out: string) => [resolve(REPO_ROOT, 'bin/metattl.js'), 'eval', '--policies', 'static', '--tasks', 'detective:0', '--repeats', '2', '--episodes', '1', '--steps', '3',
      '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--out', join(dir, out), '--store', store, '--json'];
    const env = { ...process.env, OPENAI_API_KEY: 'k' };
    const first = JSON.parse((await run(process.execPath, args('a'), { cwd: REPO_ROOT, env })).stdout);
    const { openNodeStore } = await import('../src/store/node-store.ts');
    const where = (await (await openNodeStore(store, { onNotice: () => {} })).getRun(first.id))!.where;
    const lines = readFileSync(where, 'utf8').split('\n');
    writeFileSync(where, `${lines.join('\n')}${lines[0]!.slice(0, 50)}`); // half of one more record, no newline
    const resumed = await run(process.execPath, [...args('b'), '--resume', first.id], { cwd: REPO_ROOT, env });
    expect(JSON.parse(resumed.stdout).status).toBe('complete');
    expect(resumed.stderr).toContain(`metattl: ${where}, line ${lines.length}: the last line was cut short (50 bytes, no newline)`);
    const wAucs = (dirName: string) => JSON.parse(readFileSync(join(dir, dirName, 'results.json'), 'utf8')).sessions.map((x: { wAuc: number; scores: number[] }) => [x.wAuc, x.scores]);
    expect(wAucs('b')).toEqual(wAucs('a'));
  });
});

/**
 * The other optimizers as baselines, as real processes against the mock: `metattl evolve
 * --optimizer opro` (its proposer reads the scored pool, lowest first; a killed run resumed ends
 * the same) and `metattl eval` with a TextGrad arm (two meta-agent calls per episode, recorded
 * with their tokens).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { messageText, type ChatBody } from './mock-llm/roles.ts';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);
const BIN = resolve(REPO_ROOT, 'bin/metattl.js');
const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

const LLM = ['--base-url', '', '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model'];
const llm = () => LLM.map((a, i) => (i === 1 ? mock.baseUrl : a));
const evolveArgs = (store: string) => [
  'evolve', '--optimizer', 'opro', '--train', 'detective:0', '--val', 'detective:0,temple:0', '--repeats', '1', '--episodes', '4', '--steps', '10', '--budget', '10',
  '--store', store, ...llm(), '--rng-seed', '11', '--concurrency', '2', '--guide', 'Explore systematically.', '--id', 'opro-run',
];
const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const userText = (body: unknown) => messageText((body as ChatBody).messages.at(-1)!);
const systemOf = (body: unknown) => messageText((body as ChatBody).messages[0]!);
type OutCandidate = { id: string; status: string; strategy: string; valScores: Record<string, number> };
const meanVal = (c: OutCandidate) => (c.valScores['detective:0']! + c.valScores['temple:0']!) / 2;

describe('baseline optimizers', () => {
  it('evolve --optimizer opro shows the proposer the scored pool lowest first, records the choice, and a killed run resumed ends the same', async () => {
    const from = mock.requests.length;
    const store = mkdtempSync(join(tmpdir(), 'opro-full-'));
    const full = JSON.parse((await run(process.execPath, [BIN, ...evolveArgs(store), '--json'], { cwd: REPO_ROOT, env })).stdout);
    expect(full.status).toBe('complete');
    expect(full.outerLoop.optimizer).toBe('opro');
    expect(full.metricCallsUsed).toBeLessThanOrEqual(10);
    const proposals = mock.requests.slice(from).filter((r) => r.role === 'proposer');
    expect(proposals).toHaveLength(full.proposals);
    expect(proposals.length).toBeGreaterThanOrEqual(2);
    expect(systemOf(proposals[0]!.body)).toMatch(/^You are an optimiser\./);
    // The first proposal sees the seed only; each later one the seed and accepted candidates so far, by mean validation W-AUC, ascending.
    const candidates: OutCandidate[] = full.candidates;
    const seed = candidates[0]!;
    expect(userText(proposals[0]!.body)).toContain(`from lowest to highest:\n\n<solution score="${meanVal(seed).toFixed(3)}">\n(empty: no strategy, the naive meta-agent)\n</solution>\n\nAn example of the task`);
    const poolBefore2 = candidates.filter((c) => c.status === 'seed' || (c.status === 'accepted' && c.id === 'c1'));
    const expected = [...poolBefore2].sort((a, b) => meanVal(a) - meanVal(b) || Number(a.id.slice(1)) - Number(b.id.slice(1)));
    const scores = [...userText(proposals[1]!.body).matchAll(/<solution score="([\d.]+)">/g)].map((m) => m[1]);
    expect(scores).toEqual(expected.map((c) => meanVal(c).toFixed(3)));
    expect(scores).toHaveLength(2);
    expect(Number(scores[0])).toBeLessThanOrEqual(Number(scores[1]));
    const opened = await openNodeStore(store);
    expect((await loadEvolutionState(opened, 'opro-run'))?.config.optimizer).toBe('opro');
    opened.close();

    const dir = mkdtempSync(join(tmpdir(), 'opro-killed-'));
    const child = spawn(process.execPath, [BIN, ...evolveArgs(dir)], { cwd: REPO_ROOT, env });
    await new Promise<void>((done) => {
      let seen = '';
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('[3/10]') && child.exitCode === null) child.kill('SIGKILL');
      });
      child.on('exit', () => done());
    });
    expect(child.signalCode).toBe('SIGKILL');
    const resumed = JSON.parse((await run(process.execPath, [BIN, ...evolveArgs(dir), '--resume', '--json'], { cwd: REPO_ROOT, env })).stdout);
    expect(resumed).toEqual(full);
  }, 60_000);

  it('refuses --optimizer opro with the random proposer and an unknown optimizer (exit 2)', async () => {
    for (const extra of [['--proposer', 'random'], ['--optimizer', 'textgrad']]) {
      const result = await run(process.execPath, [BIN, ...evolveArgs(mkdtempSync(join(tmpdir(), 'opro-bad-'))), ...extra], { cwd: REPO_ROOT, env }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect(result.code, extra.join(' ')).toBe(2);
      expect(result.stderr, extra.join(' ')).toMatch(/^metattl: --optimizer/);
    }
  });

  it('eval --policies static,naive,textgrad runs a TextGrad arm: a critique then an update after each episode but the last, tokens counted', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'eval-textgrad-')), 'out');
    await run(process.execPath, [BIN, 'eval', '--policies', 'static,naive,textgrad', '--tasks', 'detective:0', '--repeats', '1', '--episodes', '3', '--steps', '6', ...llm().slice(0, 6), '--out', out], { cwd: REPO_ROOT, env });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.status).toBe('complete');
    const textgrad = results.sessions.find((s: { policyId: string }) => s.policyId === 'textgrad').session;
    expect(textgrad.config.policy).toEqual({ kind: 'textgrad' });
    type Exchange = { afterEpisode: number; kind: string; learnStatus: string | null; usage: { promptTokens: number } | null; guidingPromptAfter: string; userMessage: string };
    const exchanges: Exchange[] = textgrad.exchanges;
    expect(exchanges.map((e) => [e.afterEpisode, e.kind])).toEqual([[1, 'textual_gradient'], [1, 'textgrad_update'], [2, 'textual_gradient'], [2, 'textgrad_update']]);
    expect(exchanges.every((e) => (e.usage?.promptTokens ?? 0) > 0)).toBe(true);
    // The mock critic's reply (a generic text) is what the update step is told to apply; the update's <learn> becomes episode 2's guide.
    expect(exchanges[1]!.userMessage).toContain(`<critique>\n${(textgrad.exchanges[0] as { reply: string }).reply.trim()}\n</critique>`);
    expect(exchanges[1]!.learnStatus).toBe('updated');
    expect(textgrad.episodes[1].trajectory.guidingPrompt).toBe(exchanges[1]!.guidingPromptAfter);
    const row = results.report.policies.find((p: { policyId: string }) => p.policyId === 'textgrad');
    expect(row.sessions).toBe(1);
    const wAuc = results.sessions.find((s: { policyId: string }) => s.policyId === 'textgrad').wAuc;
    expect(row.wAuc.estimate).toBeCloseTo(wAuc, 12);
  });
});

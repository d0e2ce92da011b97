/**
 * `npx metattl evolve` with a human in the loop, as real processes against the mock: a run paused
 * after iteration 1 (--pause-after), a person's candidate added with `evolve add-candidate`
 * (evaluated on the minibatch, validated when accepted, charged to the budget, origin human),
 * the run resumed to its end, and a branch from iteration 1 (--branch --from-iteration) that starts
 * from the source's pool and budget spent.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);
const BIN = resolve(REPO_ROOT, 'bin/metattl.js');
const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

const provider = () => ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model'];
const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const metattl = async (args: string[]) => JSON.parse((await run(process.execPath, [BIN, ...args, '--json'], { cwd: REPO_ROOT, env })).stdout);

interface OutCandidate { id: string; parentId: string | null; status: string; strategy: string; valScores: Record<string, number>; origin: string; iteration: number }

describe('metattl evolve: a human in the loop', () => {
  it('pause, add a candidate, resume; branch from iteration 1', async () => {
    mock.setOptions({ proposerReply: 'build', metaAgentReply: 'build', exploreCommands: EXPLORE });
    const store = mkdtempSync(join(tmpdir(), 'evo-human-'));
    const base = ['evolve', '--train', 'detective:0', '--val', 'detective:0,temple:0', '--repeats', '1', '--episodes', '3', '--steps', '8', '--budget', '18',
      '--store', store, ...provider(), '--rng-seed', '11', '--concurrency', '2', '--guide', 'Explore systematically.'];
    const paused = await metattl([...base, '--id', 'run-h', '--pause-after', '1']);
    expect(paused).toMatchObject({ status: 'paused', stopReason: 'paused', iteration: 1, iterationsDone: 1, branchedFrom: null });
    expect(paused.candidates).toHaveLength(2);

    const file = join(store, 'strategy.txt');
    writeFileSync(file, 'Read every room description twice.\nTake everything that is not nailed down.\n');
    const added = await metattl(['evolve', 'add-candidate', '--store', store, '--run', 'run-h', '--parent', 'c0', '--strategy-file', file, ...provider()]);
    expect(added.candidate).toMatchObject({ id: 'c2', parentId: 'c0', origin: 'human', strategy: 'Read every room description twice.\nTake everything that is not nailed down.', feedback: null });
    expect(added.candidate.minibatch.taskIds).toEqual(['detective:0']);
    const accepted = added.candidate.minibatch.childSum > added.candidate.minibatch.parentSum;
    expect(added.candidate.status).toBe(accepted ? 'accepted' : 'rejected');
    // Parent and child on the minibatch (2 metric calls), then both validation tasks when accepted.
    expect(added.metricCallsUsed).toBe(paused.metricCallsUsed + 2 + (accepted ? 2 : 0));
    expect(Object.keys(added.candidate.valScores).sort()).toEqual(accepted ? ['detective:0', 'temple:0'] : []);
    expect(added).toMatchObject({ status: 'paused', iterationsDone: 1 });

    // Feedback instead of a strategy: the proposer writes the candidate from it (the mock quotes it).
    const feedbackFile = join(store, 'feedback.txt');
    writeFileSync(feedbackFile, 'Look under things before leaving a room.\n');
    const fromFeedback = await metattl(['evolve', 'add-candidate', '--store', store, '--run', 'run-h', '--parent', 'c0', '--feedback-file', feedbackFile, ...provider()]);
    expect(fromFeedback.candidate).toMatchObject({ id: 'c3', parentId: 'c0', origin: 'human', feedback: 'Look under things before leaving a room.', strategy: "From a person's feedback: Look under things before leaving a room." });
    // The proposer call's model as the provider named it (the mock answers with the model asked for); a person's own text has none.
    expect(fromFeedback.candidate.providerModel).toBe('mock-model');
    expect(added.candidate).not.toHaveProperty('providerModel');
    expect(fromFeedback.metricCallsUsed).toBeGreaterThanOrEqual(added.metricCallsUsed + 2);
    expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);

    const finished = await metattl([...base, '--id', 'run-h', '--resume']);
    expect(finished.status).toBe('complete');
    expect(finished.metricCallsUsed).toBeLessThanOrEqual(18);
    expect(finished.candidates.slice(0, 4).map((c: OutCandidate) => [c.id, c.origin, c.iteration])).toEqual([['c0', 'proposer', 0], ['c1', 'proposer', 1], ['c2', 'human', 1], ['c3', 'human', 1]]);

    const branch = await metattl(['evolve', '--store', store, ...provider(), '--branch', 'run-h', '--from-iteration', '1', '--budget', '20', '--accept', 'improvement_or_equal', '--id', 'br']);
    expect(branch.branchedFrom).toEqual({ runId: 'run-h', iteration: 1 });
    expect(branch.outerLoop.acceptance).toBe('improvement_or_equal');
    expect(branch.budget).toBe(20);
    // The state after iteration 1 is the source's: its seed and first child, without the human candidate added after it.
    const pick = (c: OutCandidate) => ({ id: c.id, strategy: c.strategy, status: c.status, valScores: c.valScores });
    expect(branch.candidates.slice(0, 2).map(pick)).toEqual(paused.candidates.map(pick));
    expect(branch.candidates.every((c: OutCandidate) => c.origin === 'proposer')).toBe(true);
    expect(branch.status).toBe('complete');
    expect(branch.metricCallsUsed).toBeGreaterThan(paused.metricCallsUsed);
  }, 60_000);

  it('refuses a parent outside the pool, --from-iteration without --branch, and a branch that changes the tasks', async () => {
    const store = mkdtempSync(join(tmpdir(), 'evo-human-usage-'));
    const file = join(store, 's.txt');
    writeFileSync(file, 'x');
    const fail = async (args: string[]) => run(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env }).then(() => null, (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }));
    expect(await fail(['evolve', 'add-candidate', '--store', store, '--run', 'nope', '--parent', 'c0', '--strategy-file', file, ...provider()])).toMatchObject({ code: 2, stderr: expect.stringContaining('no evolution run "nope"') });
    expect(await fail(['evolve', 'add-candidate', '--store', store, '--run', 'nope', '--parent', 'c0', ...provider()])).toMatchObject({ code: 2, stderr: expect.stringContaining('--strategy-file F') });
    expect(await fail(['evolve', '--store', store, ...provider(), '--train', 'detective:0', '--val', 'detective:0', '--from-iteration', '1'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--from-iteration goes with --branch') });
    expect(await fail(['evolve', '--store', store, ...provider(), '--branch', 'nope', '--from-iteration', '1', '--episodes', '2'])).toMatchObject({ code: 2, stderr: expect.stringContaining("--branch keeps the source run's --episodes") });
    expect(await fail(['evolve', '--store', store, ...provider(), '--branch', 'nope', '--from-iteration', '1'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--branch: no evolution run "nope"') });
  });
});

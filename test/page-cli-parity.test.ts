/**
 * Page and CLI wire the same core service (evolve/evolution-service.ts): the Evolve view's driver
 * (the page's worker-pool stand-in, its Settings' models) and `metattl evolve`'s runner (worker
 * engines, the provider flags) given the same run config against the same mock store the same
 * fresh state first, and end in the same stored state — field for field but wall-clock times.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVOLVE } from '../src/cli/commands.ts';
import { runStoredEvolution } from '../src/cli/evolve-run.ts';
import { llmSettingsFromFlags } from '../src/cli/llm-options.ts';
import { parseCommand } from '../src/cli/option-defs.ts';
import { parseTasks, type CliTask } from '../src/cli/tasks.ts';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import type { EvolutionConfig, EvolutionState } from '../src/evolve/interface.ts';
import type { RunHeader, Store } from '../src/store/interface.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { EvolutionDriver } from '../src/ui/shared/state/evolution-driver.svelte.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { manualSchedule, testTab } from './support/ui/run-test-support.ts';

let mock: MockLlm;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'south', 'look'] });
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ID = 'parity-run';
/** A memory store that records every header written to the run. */
function recordingStore(): { store: Store; headers: EvolutionState[] } {
  const store = new MemoryStore();
  const headers: EvolutionState[] = [];
  const putRun = store.putRun.bind(store);
  store.putRun = async (header: RunHeader) => {
    if (header.id === ID) headers.push(structuredClone(header.data as EvolutionState));
    return putRun(header);
  };
  return { store, headers };
}
const timeless = (s: EvolutionState | undefined) => s && { ...s, startedAt: '', finishedAt: '' };

describe('page and CLI run an evolution through one service', () => {
  it('the same fresh state first, and the same final state', async () => {
    const strip = ({ story: _s, ...t }: CliTask) => t;
    const train = await parseTasks('advent:0', '--train');
    const val = await parseTasks('advent:1', '--val');
    const config: EvolutionConfig = {
      train: train.map(strip), val: val.map(strip), repeats: 1, trainRepeats: 1, valRepeats: 1, episodes: 1, maxSteps: 3, initialGuidingPrompt: 'Explore.',
      seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 4, maxConsecutiveFailures: 5, proposer: 'llm', proposerInstruction: 'gepa', optimizer: 'gepa', rngSeed: 7,
      concurrency: 1, models: { actor: 'mock-model', metaAgent: 'mock-model', proposer: 'mock-model' }, contextWindow: 8000,
    };

    const page = recordingStore();
    const tab = await testTab(mock.baseUrl, page.store);
    const driver = new EvolutionDriver(tab.runs, manualSchedule());
    const pageFinal = await driver.run(ID, structuredClone(config));
    expect(driver.error).toBeFalsy();
    expect(pageFinal?.status).toBe('complete');

    const cli = recordingStore();
    const dir = mkdtempSync(join(tmpdir(), 'metattl-parity-'));
    dirs.push(dir);
    const { values } = parseCommand(EVOLVE, ['--base-url', mock.baseUrl, '--api-key', 'sk-test-123456', '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model', '--store', dir]);
    const { state: cliFinal } = await runStoredEvolution({
      values, settings: llmSettingsFromFlags(values), store: cli.store, storeDir: dir, id: ID, config: structuredClone(config), tasks: [...train, ...val], json: true, fromLastGood: false,
    });
    expect(cliFinal.status).toBe('complete');

    expect(timeless(page.headers[0])).toEqual(timeless(cli.headers[0]));
    expect(page.headers[0]).toMatchObject({ status: 'running', metricCallsUsed: 0, sessionsPlayed: 0, faultedEpisodes: 0, rngState: 7 });
    expect(page.headers).toHaveLength(cli.headers.length);
    expect(timeless(await loadEvolutionState(page.store, ID))).toEqual(timeless(cliFinal));
    expect(timeless(pageFinal!)).toEqual(timeless(cliFinal));
  }, 300_000);
});

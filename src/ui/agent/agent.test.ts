/**
 * Agent in Node: the real engine, the real chat models against the mock LLM (test/mock-llm), a
 * memory store. A scripted episode, Stop during a slow reply, a provider wait, export and import.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../test/mock-llm/server.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import { Agent, type Schedule } from './agent.svelte.ts';
import { ApiKeyHolder } from '../shared/state/api-key.svelte.ts';
import { fakeServices, type FakeServices } from '../../../test/support/ui/fake-services.ts';
import { createBrowserLlmServices } from '../shared/state/llm-services.ts';
import { SettingsState } from '../shared/state/settings.svelte.ts';
import { StoryShelf } from '../shared/state/story-shelf.svelte.ts';

const KEY = 'sk-test-123456';
const SCRIPT = ['east', 'get all', 'west'];

let mock: MockLlm;
let services: FakeServices;
let scheduled: { delayMs: number; cancelled: boolean }[];

/** An agent on advent (seed 0); `configure` (default: the mock, its model and KEY) sets up the settings. */
async function makeAgent(configure: (settings: SettingsState, key: ApiKeyHolder) => void = useMock): Promise<Agent> {
  services = fakeServices(new MemoryStore());
  const llm = createBrowserLlmServices('http://page.invalid');
  const shelf = new StoryShelf(services);
  const key = new ApiKeyHolder();
  const settings = new SettingsState(llm, key);
  await shelf.init();
  await settings.init(shelf.store);
  configure(settings, key);
  scheduled = [];
  const schedule: Schedule = (_callback, delayMs) => {
    const entry = { delayMs, cancelled: false };
    scheduled.push(entry);
    return () => void (entry.cancelled = true);
  };
  const agent = new Agent(services, shelf, settings, llm, schedule);
  await agent.init();
  agent.selectStory('advent');
  agent.seed = 0;
  return agent;
}

function useMock(settings: SettingsState, key: ApiKeyHolder): void {
  settings.selectPreset('custom');
  settings.setBaseUrl(mock.baseUrl);
  settings.changeRole('actor', { model: 'mock-model' });
  key.set(KEY);
}

beforeEach(async () => {
  mock = await startMockLlm({ script: SCRIPT });
});

afterEach(async () => {
  await mock.close();
});

describe('Agent', () => {
  it('plays a scripted episode, meters usage and exports it without the key', async () => {
    const agent = await makeAgent();
    expect(agent.selectedId).toBe('advent');
    agent.maxSteps = 3;
    await agent.run();
    expect(agent.error).toBeNull();
    expect(agent.phase).toBe('idle');
    expect(agent.steps.map((s) => s.action)).toEqual(SCRIPT);
    expect(agent.trajectory).toMatchObject({ termination: 'step_limit', seed: 0, finalScore: 36 });
    expect(agent.score).toBe(36);
    expect(agent.tokens).toBe(agent.steps.reduce((n, s) => n + s.promptTokens + s.completionTokens, 0));
    expect(agent.tokens).toBeGreaterThan(0);
    expect(agent.unpricedModel).toBe('mock-model');
    const actor = mock.requests.filter((r) => r.role === 'actor');
    expect(actor.map((r) => r.headers.authorization)).toEqual(SCRIPT.map(() => `Bearer ${KEY}`));

    agent.exportTrajectory();
    expect(services.downloads).toHaveLength(1);
    const [file] = services.downloads;
    expect(file?.fileName).toBe('trajectory-adventure-seed0.json');
    expect(file?.text).not.toContain(KEY);
    expect(JSON.parse(file?.text ?? '')).toMatchObject({ steps: SCRIPT.map((action) => ({ action })) });

    const fresh = await makeAgent(() => undefined);
    await fresh.importFile(new File(['not json'], 'bad.json'));
    expect(fresh.error).toMatch(/^This file is not JSON/);
    await fresh.importFile(new File([file?.text ?? ''], 'run.json'));
    expect(fresh.error).toBeNull();
    expect(fresh.imported).toBe(true);
    expect(fresh.steps.map((s) => s.action)).toEqual(SCRIPT);
  });

  it('Stop during a slow reply aborts the request and records no step', async () => {
    mock.setOptions({ faults: [{ kind: 'slow', delayMs: 30_000, role: 'actor' }] });
    const agent = await makeAgent();
    const running = agent.run();
    await mock.waitForRequest((r) => r.role === 'actor');
    expect(agent.phase).toBe('running');
    agent.stop();
    expect(agent.phase).toBe('stopping');
    await running;
    expect(agent.trajectory).toMatchObject({ termination: 'aborted', stopReason: 'user', steps: [] });
    await expect.poll(() => mock.requests.find((r) => r.role === 'actor')?.closedBeforeAnswer).toBe(true);
  });

  it('shows a provider-requested wait as a countdown, which Stop cancels', async () => {
    mock.setOptions({ faults: [{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 12, role: 'actor' }] });
    const agent = await makeAgent();
    const running = agent.run();
    await expect.poll(() => agent.waitingSeconds).toBe(12);
    expect(scheduled.at(-1)).toEqual({ delayMs: 1000, cancelled: false });
    agent.stop();
    await running;
    expect(agent.waitingSeconds).toBeNull();
    expect(scheduled.at(-1)?.cancelled).toBe(true);
    expect(agent.trajectory?.termination).toBe('aborted');
  });

  it('marks the tokens as estimated when the provider sends no usage', async () => {
    mock.setOptions({ faults: [{ kind: 'no_usage' }] });
    const agent = await makeAgent();
    agent.maxSteps = 2;
    await agent.run();
    expect(agent.trajectory?.termination).toBe('step_limit');
    expect(agent.tokens).toBeGreaterThan(0);
    expect(agent.tokensEstimated).toBe(true);
  });

  it('says what is missing instead of starting', async () => {
    const agent = await makeAgent((settings) => {
      settings.selectPreset('custom');
      settings.setBaseUrl('');
    });
    agent.selectedId = '';
    await agent.run();
    expect(agent.error).toBe('Choose a story first.');
    agent.selectStory('advent');
    await agent.run();
    expect(agent.error).toBe('Set the provider’s base URL in Settings first.');
    const noModel = await makeAgent((settings) => {
      useMock(settings, new ApiKeyHolder());
      settings.changeRole('actor', { model: ' ' });
    });
    await noModel.run();
    expect(noModel.error).toBe('Set the actor’s model in Settings first.');
    expect(agent.trajectory).toBeNull();
    expect(mock.requests).toHaveLength(0);
  });
});

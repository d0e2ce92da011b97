/**
 * EngineProxy over a real worker_thread: the same results as the in-thread engine, typed errors
 * across the thread boundary, snapshots that survive the trip, and revival after dispose.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineProxy } from '../src/engine/engine-proxy.ts';
import { StoryFileError } from '../src/engine/errors.ts';
import { createNodeWorker } from '../src/engine/node/worker-factory.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';

const require = createRequire(import.meta.url);
const advent = new Uint8Array(readFileSync(require.resolve('glkote-term/tests/advent.z5')));
const proxies: EngineProxy[] = [];
afterEach(() => proxies.splice(0).forEach((p) => p.dispose()));

describe('EngineProxy (Node worker_threads)', () => {
  it('gives the same results as the in-thread engine', async () => {
    const proxy = await EngineProxy.load(createNodeWorker, advent, { seed: 2 });
    proxies.push(proxy);
    const local = loadStory(advent, { seed: 2 });
    expect(proxy.start).toEqual(local.start);
    expect(proxy.info.md5).toBe('ee2242e155fd8910921b0f8e04019a3a');
    for (const c of ['east', 'get lamp', 'west', 'south']) expect(await proxy.step(c)).toEqual(local.step(c));
    // With no player object (a story outside the catalog) there is no location.
    expect(local.start.location).toBeNull();
  });

  it('carries the player\'s location across the worker boundary, as the in-thread engine reads it', async () => {
    const rules = { playerObject: 20 };
    const proxy = await EngineProxy.load(createNodeWorker, advent, { seed: 2, rules });
    proxies.push(proxy);
    const local = loadStory(advent, { seed: 2, rules });
    expect(proxy.start.location).toEqual({ id: 29, name: 'At End Of Road' });
    const commands = ['east', 'west', 'south'];
    const batch: unknown[] = [];
    await proxy.stepBatch(commands, (r) => batch.push(r.location));
    const expected = commands.map((c) => local.step(c).location);
    expect(batch).toEqual(expected);
    expect(expected[0]).toEqual({ id: 37, name: 'Inside Building' });
  });

  it('rethrows StoryFileError with its code', async () => {
    const error = await EngineProxy.load(createNodeWorker, new Uint8Array(0), { seed: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoryFileError);
    expect((error as StoryFileError).code).toBe('empty');
  });

  it('snapshot and restore through the worker; reset revives a disposed proxy', async () => {
    const proxy = await EngineProxy.load(createNodeWorker, advent, { seed: 0 });
    proxies.push(proxy);
    await proxy.step('east');
    const snap = await proxy.snapshot();
    const after = await proxy.step('get all');
    await proxy.step('west');
    expect((await proxy.restore(snap)).statusLine).toContain('Inside Building');
    expect(await proxy.step('get all')).toEqual(after);
    proxy.dispose();
    const start = await proxy.reset();
    expect(start.statusLine).toContain('At End Of Road');
    expect((await proxy.step('east')).score).toBe(36);
  });
});

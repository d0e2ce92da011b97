/**
 * The room's private state shared through Redis (src/room-server/redis-state.ts) against Debian's
 * redis-server: two servers' copies see each other's records in order, a claim is won once, a
 * wipe reaches the other server, and an unreachable Redis is a plain-words error, its password a secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSecrets, KEY_HIDDEN, scrubText } from '../src/common/secrets.ts';
import { RedisState, RoomRedisError, redactUrl } from '../src/room-server/redis-state.ts';
import type { StateRecord } from '../src/room-server/seams.ts';
import { freePort, startRedis, type RunningRedis } from './support/redis-server.ts';

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** A memory copy kept by `follow`, as a room server keeps its own. */
function copyOf(): { records: Map<string, unknown>; apply: (records: StateRecord[], wipe: boolean) => void } {
  const records = new Map<string, unknown>();
  return {
    records,
    apply(list, wipe) {
      if (wipe) records.clear();
      for (const r of list) {
        if (r.value === null) records.delete(`${r.kind}/${r.id}`);
        else records.set(`${r.kind}/${r.id}`, r.value);
      }
    },
  };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('RedisState', () => {
  it('shares records between two servers, in order, and the first claim wins', async () => {
    const a = await RedisState.open({ url: redis.url, prefix: 'order' });
    const b = await RedisState.open({ url: redis.url, prefix: 'order' });
    try {
      await a.put({ kind: 'participant', id: 'p1', value: { name: 'Ada' } });
      const copyB = copyOf();
      await b.follow(copyB.apply);
      expect(copyB.records.get('participant/p1')).toEqual({ name: 'Ada' });
      for (let i = 1; i <= 20; i++) await a.put({ kind: 'usage', id: 'p1:a', value: { calls: i } });
      await a.put({ kind: 'participant', id: 'p1', value: null });
      await until(() => (copyB.records.get('usage/p1:a') as { calls: number } | undefined)?.calls === 20 && !copyB.records.has('participant/p1'));
      expect(await b.claim('meta', 'room', { code: 'B' })).toBe(true);
      expect(await a.claim('meta', 'room', { code: 'A' })).toBe(false);
      expect(await a.get('meta', 'room')).toEqual({ code: 'B' });
      const copyA = copyOf();
      await a.follow(copyA.apply);
      expect(copyA.records.get('meta/room')).toEqual({ code: 'B' });
      await b.wipe();
      await until(() => copyA.records.size === 0);
      expect(await a.load()).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('keeps rooms of two prefixes apart', async () => {
    const a = await RedisState.open({ url: redis.url, prefix: 'room-a' });
    const b = await RedisState.open({ url: redis.url, prefix: 'room-b' });
    try {
      await a.put({ kind: 'meta', id: 'room', value: { code: 'A' } });
      expect(await b.load()).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('says plainly when Redis cannot be reached, without its password', async () => {
    const port = await freePort();
    const error = await RedisState.open({ url: `redis://:fake-test-key-redis@127.0.0.1:${port}`, connectTimeoutMs: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoomRedisError);
    expect((error as RoomRedisError).code).toBe('room_redis');
    expect((error as Error).message).toBe(`Redis at redis://:***@127.0.0.1:${port} cannot be reached: is redis-server running there?`);
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    // The password is a secret: scrubbed from every log line and error text.
    expect(scrubText('AUTH fake-test-key-redis failed')).toBe(`AUTH ${KEY_HIDDEN} failed`);
    forgetSecrets();
  });
});

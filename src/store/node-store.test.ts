import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { StorageFullError } from './interface.ts';
import { openNodeStore } from './node-store.ts';
import { describeStoreContract } from '../../test/support/store-contract.ts';

/** When set, the next writeFile writes half its data and then fails with this errno code. */
const diskFault = vi.hoisted(() => ({ code: null as string | null }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    writeFile: async (path: string, data: string) => {
      if (diskFault.code) {
        const code = diskFault.code;
        diskFault.code = null;
        await actual.writeFile(path, data.slice(0, data.length >> 1));
        throw Object.assign(new Error(`${code}: simulated`), { code });
      }
      return actual.writeFile(path, data);
    },
  };
});

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'metattl-store-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const dirOf = new WeakMap<object, string>();
describeStoreContract('NodeStore', {
  async make() {
    const dir = await freshDir();
    const store = await openNodeStore(dir);
    dirOf.set(store, dir);
    return store;
  },
  async reopen(store) {
    store.close();
    return openNodeStore(dirOf.get(store)!);
  },
});

describe('NodeStore on a full disk', () => {
  it('maps ENOSPC to StorageFullError and keeps the old file and no temp files', async () => {
    const dir = await freshDir();
    const store = await openNodeStore(dir);
    const md5 = 'a'.repeat(32);
    await store.putSave({ storyMd5: md5, name: 'slot', snapshot: { n: 1 }, savedAt: 1 });
    diskFault.code = 'ENOSPC';
    const failed = store.putSave({ storyMd5: md5, name: 'slot', snapshot: { n: 2, big: 'x'.repeat(1000) }, savedAt: 2 });
    await expect(failed).rejects.toBeInstanceOf(StorageFullError);
    await expect(failed).rejects.toThrow(/Storage is full: could not save the save slot "slot"/);
    expect((await store.getSave(md5, 'slot'))?.snapshot).toEqual({ n: 1 });
    expect(await readdir(join(dir, 'saves', md5))).toHaveLength(1);
    diskFault.code = 'EDQUOT';
    await expect(store.setSetting('k', 'v')).rejects.toBeInstanceOf(StorageFullError);
    expect(await store.getSetting('k')).toBeUndefined();
    await store.setSetting('k', 'v2');
    expect(await store.getSetting('k')).toBe('v2');
  });
});

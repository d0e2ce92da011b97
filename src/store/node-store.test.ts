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

describe('NodeStore: a torn last line (a kill or a full disk mid-append)', () => {
  const header = (updatedAt: number) => ({ id: 'r', kind: 'evaluation' as const, updatedAt, summary: null, data: { v: updatedAt } });
  const events = (seqs: number[]) => seqs.map((seq) => ({ seq, data: { seq, text: 'x'.repeat(40) } }));

  /** A store with events 1–2 under the header's mark, then 3 appended after it, then `torn` (no newline). */
  async function tornStore(torn: (line: string) => string) {
    const dir = await freshDir();
    const store = await openNodeStore(dir, { onNotice: () => {} });
    await store.appendRunEvents('r', events([1, 2]), header(1));
    await store.appendRunEvents('r', events([3]));
    const where = (await store.getRun('r'))!.where;
    const { readFile, appendFile } = await import('node:fs/promises');
    const full = await readFile(where, 'utf8');
    await appendFile(where, torn(full.split('\n')[2]!));
    return { dir, where };
  }

  it.each([
    ['half a line', (line: string) => line.slice(0, 30)],
    ['a whole line but its newline', (line: string) => line.replace('"seq":3', '"seq":4')],
    ['one byte', () => '{'],
  ])('%s past the mark is no committed event: dropped without damage, said once, cut off before the next append', async (_name, torn) => {
    const { dir, where } = await tornStore(torn);
    const notices: string[] = [];
    const store = await openNodeStore(dir, { onNotice: (m) => notices.push(m) });
    const run = (await store.getRun('r'))!;
    expect([run.damage, run.events.map((e) => e.seq)]).toEqual([null, [1, 2, 3]]);
    await store.getRun('r');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(new RegExp(`^${where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 4: the last line was cut short \\(\\d+ bytes, no newline\\).*it is not a committed event, so it was dropped and that work is done again\\.$`));
    await store.appendRunEvents('r', events([4, 5]), header(2));
    const reopened = await openNodeStore(dir, { onNotice: (m) => notices.push(m) });
    const after = (await reopened.getRun('r'))!;
    expect([after.damage, after.events.map((e) => e.seq), notices.length]).toEqual([null, [1, 2, 3, 4, 5], 1]);
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(where, 'utf8')).split('\n')).toHaveLength(6); // five whole lines, nothing of the torn one
  });

  it('a torn line the header counted was committed: it is damage, as a cut-short record always was', async () => {
    const dir = await freshDir();
    const store = await openNodeStore(dir, { onNotice: () => {} });
    await store.appendRunEvents('r', events([1, 2, 3]), header(1));
    const where = (await store.getRun('r'))!.where;
    const { readFile, writeFile } = await import('node:fs/promises');
    const lines = (await readFile(where, 'utf8')).split('\n');
    await writeFile(where, [lines[0], lines[1], lines[2]!.slice(0, 30)].join('\n'));
    const notices: string[] = [];
    const run = (await (await openNodeStore(dir, { onNotice: (m) => notices.push(m) })).getRun('r'))!;
    expect([run.damage?.record, run.events.map((e) => e.seq), notices]).toEqual(['line 3', [1, 2], []]);
  });
});

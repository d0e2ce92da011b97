/**
 * Test support: a stop at every write of the file store. `vi.mock('node:fs/promises', writeFaultsMock)`
 * routes every file write (appendFile, writeFile, rename, rm) under `writeFaults.dir` through a
 * counter; from write number `writeFaults.at` on, each throws — a process killed before that write
 * (`kind: 'kill'`: nothing more reaches the disk) or a full disk (`kind: 'full'`: ENOSPC, which the
 * store reports as `StorageFullError`, until `writeFaults.at` is reset, i.e. space is freed).
 * Whole writes fail; a write cut in the middle is the store's own damage check (store-damage tests).
 * A kill can also be taken as a copy of the store before each write (`beforeWrite`): what a
 * process killed there leaves.
 */
import type * as FsPromises from 'node:fs/promises';

export interface WriteFaults {
  /** Only writes to paths under this directory count ('' = none). */
  dir: string;
  /** The first write (1-based) that fails; Infinity = none. */
  at: number;
  /** Writes counted so far. */
  count: number;
  /** The path of each write counted, in order. */
  paths: string[];
  kind: 'kill' | 'full';
  /** Called before each counted write is made, with its number (e.g. to copy the store as a kill
   * just before it would leave it). */
  beforeWrite?: ((n: number, write: { kind: 'appendFile' | 'rename' | 'rm'; path: string; data: unknown }) => void) | undefined;
}

/** The shared switch of the mock (one per test file, as vi.mock is). */
export const writeFaults: WriteFaults = { dir: '', at: Infinity, count: 0, paths: [], kind: 'kill' };

/** Arm the switch: writes under `dir` count from 0 and fail from write `at` on. */
export function armWriteFaults(dir: string, at: number, kind: WriteFaults['kind']): void {
  Object.assign(writeFaults, { dir, at, count: 0, paths: [], kind, beforeWrite: undefined });
}

function faultError(): Error {
  if (writeFaults.kind === 'kill') return new Error('the process was killed before this write');
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

/** The factory for `vi.mock('node:fs/promises', …)`. A write point is what changes the store: an
 * append, the rename that commits a whole-file write (its temporary file's write is part of that
 * point), a removal (not on a full disk: removing works there). */
export async function writeFaultsMock(importOriginal: () => Promise<typeof FsPromises>): Promise<typeof FsPromises> {
  const fs = await importOriginal();
  const isTmp = (path: unknown) => /\.tmp-[^/]*$/.test(String(path));
  const guard = <F>(write: F, name: 'appendFile' | 'writeFile' | 'rename' | 'rm'): F =>
    (async (path: unknown, ...rest: unknown[]) => {
      if (writeFaults.dir && String(path).startsWith(writeFaults.dir)) {
        const full = writeFaults.kind === 'full';
        const point = name === 'appendFile' || name === 'rename' || (name === 'rm' && !isTmp(path) && !full);
        if (point) {
          writeFaults.paths.push(String(path));
          writeFaults.count++;
          writeFaults.beforeWrite?.(writeFaults.count, { kind: name as 'appendFile' | 'rename' | 'rm', path: String(path), data: rest[0] });
        }
        const failing = writeFaults.count >= writeFaults.at;
        if (failing && !(full && name === 'rm')) throw faultError();
      }
      return (write as (...args: unknown[]) => Promise<unknown>)(path, ...rest);
    }) as F;
  const mocked = { ...fs, appendFile: guard(fs.appendFile, 'appendFile'), writeFile: guard(fs.writeFile, 'writeFile'), rename: guard(fs.rename, 'rename'), rm: guard(fs.rm, 'rm') };
  return { ...mocked, default: mocked } as typeof FsPromises;
}

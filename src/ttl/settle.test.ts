import { describe, expect, it } from 'vitest';
import { abortGroup, settleAll } from './settle.ts';

describe('settleAll', () => {
  it('waits for every job and rethrows the failure that came first in time', async () => {
    const finished: string[] = [];
    const batch = abortGroup(undefined);
    const signal = batch.signal();
    const slow = new Promise<string>((resolve, reject) => {
      signal.addEventListener('abort', () => setTimeout(() => { finished.push('slow'); reject(new Error('stopped because of the other')); }, 5));
    });
    const cause = Promise.resolve().then(() => { finished.push('cause'); throw new Error('budget'); });
    await expect(settleAll([slow, cause], batch.abortAll)).rejects.toThrow('budget');
    expect(finished).toEqual(['cause', 'slow']);
  });

  it('abortGroup: the parent or abortAll aborts every job signal; dispose stops listening', () => {
    const parent = new AbortController();
    const group = abortGroup(parent.signal);
    const a = group.signal();
    parent.abort();
    expect(a.aborted).toBe(true);
    expect(group.signal().aborted).toBe(true);
    const other = abortGroup(undefined);
    const b = other.signal();
    other.abortAll();
    expect(b.aborted).toBe(true);
  });

  it('returns every result in job order when none fails', async () => {
    expect(await settleAll([Promise.resolve(1), Promise.resolve(2)])).toEqual([1, 2]);
  });
});

import { describe, expect, it } from 'vitest';
import { childAbort, settleAll } from './settle.ts';

describe('settleAll', () => {
  it('waits for every job and rethrows the failure that came first in time', async () => {
    const finished: string[] = [];
    const batch = childAbort(undefined);
    const slow = new Promise<string>((resolve, reject) => {
      batch.signal.addEventListener('abort', () => setTimeout(() => { finished.push('slow'); reject(new Error('stopped because of the other')); }, 5));
    });
    const cause = Promise.resolve().then(() => { finished.push('cause'); throw new Error('budget'); });
    await expect(settleAll([slow, cause], batch.abort)).rejects.toThrow('budget');
    expect(finished).toEqual(['cause', 'slow']);
  });

  it('returns every result in job order when none fails', async () => {
    expect(await settleAll([Promise.resolve(1), Promise.resolve(2)])).toEqual([1, 2]);
  });
});

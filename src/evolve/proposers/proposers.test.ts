/** The proposer seam: which proposers an iteration asks for each config, in order. */
import { describe, expect, it } from 'vitest';
import { scriptedConfig } from '../../../test/support/scripted-evolution.ts';
import { mergeProposer } from './merge.ts';
import { proposersFor } from './index.ts';
import type { LoopContext } from './interface.ts';

const kinds = (overrides: Parameters<typeof scriptedConfig>[2], mergeDue: boolean) => proposersFor(scriptedConfig(['A'], ['B'], overrides), mergeDue).map((p) => p.kind);

describe('proposersFor', () => {
  it('names the mutation proposer from proposer and optimizer', () => {
    expect(kinds({ proposer: 'llm' }, false)).toEqual(['reflective']);
    expect(kinds({ proposer: 'llm', optimizer: 'gepa' }, false)).toEqual(['reflective']);
    expect(kinds({ proposer: 'llm', optimizer: 'opro' }, false)).toEqual(['opro']);
    expect(kinds({ proposer: 'random' }, false)).toEqual(['random']);
  });

  it('asks the merge proposer first when a merge is due, then the same mutation proposer', () => {
    expect(kinds({ proposer: 'llm', optimizer: 'opro' }, true)).toEqual(['merge', 'opro']);
    expect(kinds({ proposer: 'random' }, true)).toEqual(['merge', 'random']);
  });

  it('the merge proposer proposes nothing (null) in a run without a merge schedule', async () => {
    const config = scriptedConfig(['A'], ['B']);
    expect(await mergeProposer.propose({ merges: null } as LoopContext, config)).toBeNull();
  });
});

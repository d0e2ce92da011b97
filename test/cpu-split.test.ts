/** The loop bench's CPU split (bench/cpu-split.ts): each sample goes to the first category met
 * from its frame towards the root; idle and GC are their own; unmatched stacks are "other". */
import { describe, expect, it } from 'vitest';
import { classifyProfile, type Profile } from '../bench/cpu-split.ts';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

describe('classifyProfile', () => {
  it('puts each sample in the category nearest its frame, in ms', () => {
    const profile: Profile = {
      nodes: [
        frame(1, '(root)', '', [2, 6, 7, 8]),
        frame(2, 'main', 'file:///repo/bench/loop-bench.ts', [3]),
        frame(3, 'complete', 'file:///repo/src/llm/openai-chat-model.ts', [4, 5]),
        frame(4, 'countTokens', 'file:///repo/node_modules/gpt-tokenizer/esm/index.js'),
        frame(5, 'parse', ''),
        frame(6, '(idle)', ''),
        frame(7, '(garbage collector)', ''),
        frame(8, 'anonymous', 'node:internal/timers'),
      ],
      samples: [4, 4, 5, 3, 6, 7, 8, 2],
      timeDeltas: [1000, 2000, 500, 250, 4000, 1500, 300, 700],
    };
    const split = classifyProfile(profile, [
      { name: 'tokenizer', match: ['gpt-tokenizer'] },
      { name: 'chat model', match: ['/src/llm/'] },
      { name: 'bench', match: ['/bench/'] },
    ]);
    expect(split).toEqual({ tokenizer: 3, 'chat model': 0.75, idle: 4, gc: 1.5, other: 0.3, bench: 0.7 });
  });
});

describe('classifyProfile noUrlNames', () => {
  it('matches a function name only on frames without a script URL (new Function code)', () => {
    const profile: Profile = {
      nodes: [
        frame(1, '(root)', '', [2, 4]),
        frame(2, 'step', 'file:///repo/src/engine/zvm-engine.ts', [3]),
        frame(3, 'anonymous', ''),
        frame(4, 'anonymous', 'node:internal/timers'),
      ],
      samples: [3, 4, 2],
      timeDeltas: [1000, 2000, 500],
    };
    const split = classifyProfile(profile, [{ name: 'vm', match: ['/ifvms/'], noUrlNames: ['anonymous'] }, { name: 'ours', match: ['/src/engine/'] }]);
    expect(split).toEqual({ vm: 1, other: 2, ours: 0.5 });
  });
});

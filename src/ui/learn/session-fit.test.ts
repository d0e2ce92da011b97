import { describe, expect, it } from 'vitest';
import { roomFitText, type SessionEstimate } from './session-estimate.ts';

const point = (totalTokens: number) => ({ totalTokens }) as SessionEstimate['low'];
const estimate: SessionEstimate = {
  low: point(30_230), high: point(107_380), actorCalls: 45, policyCalls: 3, actorModel: 'm', policyModel: 'm', unpricedModels: [], simulated: false,
};

describe('the session against the room’s allowance', () => {
  it('warns when the high estimate is over the tokens left, or the calls over the calls left', () => {
    expect(roomFitText(estimate, { tokens: 2663, calls: null })).toBe('This session needs about 30,200–107,400 tokens; you have 2,663 left. Fewer episodes or steps, or ask the teacher.');
    expect(roomFitText(estimate, { tokens: null, calls: 40 })).toBe('This session makes up to 48 model calls; you have 40 left. Fewer episodes or steps, or ask the teacher.');
    expect(roomFitText(estimate, { tokens: 1000, calls: 10 })).toBe('This session needs about 30,200–107,400 tokens; you have 1,000 left, and makes up to 48 model calls; you have 10 left. Fewer episodes or steps, or ask the teacher.');
  });

  it('says nothing when it fits, without an estimate, or outside a room', () => {
    expect(roomFitText(estimate, { tokens: 200_000, calls: 100 })).toBeNull();
    expect(roomFitText(estimate, { tokens: null, calls: null })).toBeNull();
    expect(roomFitText(null, { tokens: 10, calls: 1 })).toBeNull();
    expect(roomFitText(estimate, null)).toBeNull();
  });
});

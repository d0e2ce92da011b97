/**
 * The mock's scripted rules (scripted recordings such as test/fixtures/recordings): `proposerRules` answer
 * by what the parent strategy contains (first match wins, '' matches all), and a `metaAgentRules`
 * entry with `whenSystemIncludes` applies only when the meta-prompt carries that text.
 */
import { describe, expect, it } from 'vitest';
import { chooseReply } from './reply.ts';

const proposer = (parent: string) => ({
  messages: [
    { role: 'system', content: 'Write the new strategy inside <strategy>…</strategy>.' },
    { role: 'user', content: `<current_strategy>${parent}</current_strategy>\n[STEP 1] [OBS] Lever Room [ACTION] look [REWARD] 0 [CUM_REWARD] 0` },
  ],
});
const metaAgent = (system: string) => ({
  messages: [
    { role: 'system', content: `${system}\nAnswer with <think>…</think><learn>…</learn>.` },
    { role: 'user', content: 'EPISODE 1\n[STEP 1] [OBS] Lever Room [ACTION] look [REWARD] 0 [CUM_REWARD] 0' },
  ],
});
const rules = {
  proposerRules: [{ whenParentIncludes: 'Strategy A', strategy: 'Strategy B' }, { whenParentIncludes: '', strategy: 'Strategy A' }],
  metaAgentRules: [{ whenSystemIncludes: 'Strategy A', whenLogIncludes: 'Lever Room', guide: 'PLAN:\n1. pull yellow lever' }],
};

describe('scripted rules', () => {
  it('the proposer answers by its parent strategy, first matching rule first', () => {
    expect(chooseReply(proposer(''), rules)).toMatchObject({ role: 'proposer', behaviour: 'proposer:rule', text: '<strategy>\nStrategy A\n</strategy>' });
    expect(chooseReply(proposer('Strategy A — keep hints'), rules).text).toBe('<strategy>\nStrategy B\n</strategy>');
    expect(chooseReply(proposer(''), {}).behaviour).toBe('proposer:build');
  });

  it('a meta-agent rule with whenSystemIncludes needs that text in the meta-prompt', () => {
    expect(chooseReply(metaAgent('Strategy A: remember'), rules)).toMatchObject({ role: 'metaAgent', behaviour: 'metaAgent:rule' });
    expect(chooseReply(metaAgent('Strategy A: remember'), rules).text).toContain('<learn>\nPLAN:\n1. pull yellow lever\n</learn>');
    expect(chooseReply(metaAgent('No strategy.'), rules).behaviour).toBe('metaAgent:build');
  });
});

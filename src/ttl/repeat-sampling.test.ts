import { describe, expect, it } from 'vitest';
import { requestSeed } from '../llm/request-seed.ts';
import { saltedModels } from './session-evaluator.ts';
import type { ChatModel, CompleteOptions, Role } from '../llm/interface.ts';

describe('local sampling seed per request and repeat', () => {
  const request = [{ role: 'user', content: 'look' }];

  it('is the same for the same request and repeat, and differs across repeats and requests', () => {
    expect(requestSeed(request, 3)).toBe(requestSeed(structuredClone(request), 3));
    const seeds = [0, 1, 2, 3, 4, 5].map((r) => requestSeed(request, r));
    expect(new Set(seeds).size).toBe(6);
    expect(requestSeed([{ role: 'user', content: 'north' }], 1)).not.toBe(requestSeed(request, 1));
  });

  it('repeat 0 keeps the request-only seed (FNV-1a 32 of the JSON)', () => {
    let h = 0x811c9dc5;
    for (const ch of JSON.stringify(request)) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
    expect(requestSeed(request)).toBe(h);
    expect(requestSeed(request, 0)).toBe(h);
  });

  it('a session of repeat r passes sampleSalt r on every role\'s call, keeping the rest of the model and the caller\'s options', async () => {
    const seen: { role: Role; options: CompleteOptions | undefined }[] = [];
    const model = (role: Role): ChatModel => ({ role, settings: { model: 'm' } as ChatModel['settings'], replyGrammar: true, complete: async (_m, options) => { seen.push({ role, options }); return { text: 'ok' } as never; } });
    const models = { actor: model('actor'), metaAgent: model('metaAgent'), proposer: model('proposer') } as Record<Role, ChatModel>;
    const salted = saltedModels(models, 2);
    const signal = new AbortController().signal;
    await salted.actor.complete([], { signal });
    await salted.metaAgent.complete([]);
    expect(seen.map((s) => [s.role, s.options?.sampleSalt, s.options?.signal === signal])).toEqual([['actor', 2, true], ['metaAgent', 2, false]]);
    expect(salted.actor.role).toBe('actor');
    expect(salted.actor.replyGrammar).toBe(true);
  });
});

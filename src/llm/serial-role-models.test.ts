/**
 * Local models (node-llama-cpp in the CLI, wllama in the page: both through serialRoleModels) that
 * spend the whole budget on reasoning: adapted and stopped as hosted reasoning models are, never
 * played as the fallback action. Fake hosts: no model is loaded.
 */
import { describe, expect, it } from 'vitest';
import { defaultLlmSettings } from './defaults.ts';
import { LlmError } from './errors.ts';
import type { Completion, LlmSettings, ParameterAdaptation, Role } from './interface.ts';
import { createLocalChatModels, type LocalModelHost } from './local-chat-model.ts';
import { serialRoleModels } from './serial-role-models.ts';
import { UsageMeter } from './usage-meter.ts';

function localSettings(maxTokens = 256, capTokens: number | null = null): LlmSettings {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: 'local', apiKey: '' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role] = { ...s.roles[role], model: 'thinker.gguf', maxTokens };
  s.caps = { maxUsd: null, maxTokens: capTokens };
  s.prices = {};
  return s;
}

/** A node-llama-cpp host whose replies are `replies` in turn (text, llama.cpp stop reason); records each call's maxTokens. */
function fakeHost(replies: [string, string][]): { host: LocalModelHost; budgets: number[] } {
  const budgets: number[] = [];
  const host = {
    modelFile: 'thinker.gguf', contextSize: 4096, loadMs: 0,
    countTokens: (text: string) => Math.ceil(text.length / 4),
    dispose: async () => {},
    grammar: async () => undefined,
    chat: {
      chatWrapper: { generateContextState: () => { throw new Error('no template'); } },
      generateResponse: async (_history: unknown, options: Record<string, unknown>) => {
        budgets.push(options.maxTokens as number);
        const [response, stopReason] = replies[budgets.length - 1] ?? ['ACTION: look', 'eogToken'];
        return { response, metadata: { stopReason } };
      },
      dispose: () => {},
    },
  } as unknown as LocalModelHost;
  return { host, budgets };
}

const ask = async (models: Record<Role, { complete: (m: { role: 'user'; content: string }[], o: object) => Promise<Completion> }>, role: Role, adapted: ParameterAdaptation[]) =>
  models[role].complete([{ role: 'user', content: 'You are in a room.' }], { onAdaptation: (a: ParameterAdaptation) => adapted.push(a) }).catch((e: unknown) => e);

describe('a local model that spends its whole budget on reasoning', () => {
  it.each([
    ['an empty reply', ''],
    ['only an unclosed <think>', '<think>Let me consider the lever. The red one'],
  ])('node-llama-cpp, %s at the token limit: the budget is raised once, said, kept for later calls, and the answer used', async (_name, spent) => {
    const { host, budgets } = fakeHost([[spent, 'maxTokens'], ['REASONING: pull it\nACTION: pull red lever', 'eogToken'], ['ACTION: north', 'eogToken']]);
    const settings = localSettings(256);
    const models = createLocalChatModels(host, settings, new UsageMeter(settings.caps, {}), { grammar: false });
    const adapted: ParameterAdaptation[] = [];
    const first = (await ask(models, 'actor', adapted)) as Completion;
    expect(first.content).toBe('REASONING: pull it\nACTION: pull red lever');
    expect(adapted.map((a) => [a.parameter, a.change, a.to, a.model])).toEqual([['max_tokens', 'raised', '4096', 'thinker.gguf']]);
    await ask(models, 'actor', adapted);
    expect(budgets).toEqual([256, 4096, 4096]);
    expect(adapted).toHaveLength(1);
  });

  it('when the raised budget is spent too the call fails as a refused request (the run stops resumably) naming the setting; no fallback is played', async () => {
    const { host, budgets } = fakeHost([['', 'maxTokens'], ['<think>still thinking', 'maxTokens']]);
    const settings = localSettings(300);
    const models = createLocalChatModels(host, settings, new UsageMeter(settings.caps, {}), { grammar: false });
    const error = await ask(models, 'metaAgent', []);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('bad_request');
    expect((error as LlmError).message).toBe(
      'The local model thinker.gguf spent its whole completion budget (4096 tokens) on reasoning and wrote no answer (even after its budget was raised from 300). ' +
        "Give it a larger budget with --meta-max-tokens (the page: Settings → the meta-agent's max tokens), or pick a model file that does not reason; then resume.",
    );
    expect(budgets).toEqual([300, 4096]);
  });

  it("the raise stays within the run's token cap; with no room left it stops at once; a reply cut after some answer is the model's own", async () => {
    const capped = localSettings(256, 1000);
    const budgets: number[] = [];
    const replies: Completion[] = [
      { content: '', finishReason: 'length', model: 'm', usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } },
      { content: 'ACTION: lo', finishReason: 'length', model: 'm', usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0 } },
    ];
    let left = 900;
    const models = serialRoleModels(capped, async (_role, _m, _o, _g, maxTokens) => (budgets.push(maxTokens), replies[budgets.length - 1]!), false, () => left);
    const adapted: ParameterAdaptation[] = [];
    const cut = (await ask(models, 'actor', adapted)) as Completion;
    expect([cut.content, budgets, adapted.map((a) => a.to)]).toEqual(['ACTION: lo', [256, 900], ['900']]);
    left = 100;
    budgets.length = 0;
    const none = serialRoleModels(capped, async (_role, _m, _o, _g, maxTokens) => (budgets.push(maxTokens), replies[0]!), false, () => left);
    const error = (await ask(none, 'proposer', [])) as LlmError;
    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/\(the run's token cap leaves no room to raise its budget\)\. Give it a larger budget with --proposer-max-tokens/);
    expect(budgets).toEqual([256]);
  });
});

/**
 * Per-arm accounting of an evolution (src/evolve/accounting.ts) against independently counted
 * events of a scripted run: proposals (proposal events), accepted, validated, the proposer's tokens
 * and USD (counted by the proposer itself) and each proposal's word edit distance; the report's
 * side-by-side evolutions table and the sentence saying whether the arms are matched.
 */
import { describe, expect, it } from 'vitest';
import { evolutionAccounting, wordEditDistance, wordsOf } from '../src/evolve/accounting.ts';
import type { ChatModel } from '../src/llm/interface.ts';
import { SeededRng } from '../src/ttl/rng.ts';
import { armMatchingOf, quartiles } from '../src/experiment/report.ts';
import { EVOLUTION_HEADER, evolutionCells, experimentEvolutionsToCsv } from '../src/experiment/report-formats.ts';
import type { ExperimentReport } from '../src/experiment/interface.ts';
import { runScripted, scriptedConfig } from './support/scripted-evolution.ts';

/** Word Levenshtein by plain recursion with memo (an independent reference). */
function reference(a: string[], b: string[]): number {
  const memo = new Map<string, number>();
  const d = (i: number, j: number): number => {
    if (i === 0) return j;
    if (j === 0) return i;
    const key = `${i},${j}`;
    if (!memo.has(key)) memo.set(key, Math.min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    return memo.get(key)!;
  };
  return d(a.length, b.length);
}

describe('word edit distance', () => {
  it('counts inserted, dropped and replaced words', () => {
    expect(wordEditDistance('a b c', 'a x c')).toBe(1);
    expect(wordEditDistance('', 'a  b\nc')).toBe(3);
    expect(wordEditDistance('a b c d', 'b c d e')).toBe(2);
    expect(wordEditDistance('same words here', ' same  words here ')).toBe(0);
  });

  it('equals a recursive reference on random word sequences (seeded)', () => {
    const rng = new SeededRng(5);
    const vocab = ['go', 'look', 'map', 'take', 'north'];
    for (let k = 0; k < 60; k++) {
      const a = Array.from({ length: rng.int(9) }, () => rng.pick(vocab));
      const b = Array.from({ length: rng.int(9) }, () => rng.pick(vocab));
      expect(wordEditDistance(a.join(' '), b.join(' '))).toBe(reference(a, b));
    }
  });
});

describe('evolution accounting', () => {
  const strategies = ['Map every room first.', 'Drop nothing, ever.', '', 'Map every room first and read every sign twice.', 'Try the verbs the game taught.'];
  const scores: Record<string, Record<string, number>> = { '': { t1: 0.1, t2: 0.1, v1: 0.1, v2: 0.1 } };
  const level = [0.5, 0.05, 0, 0.7, 0.02];
  strategies.forEach((s, i) => s && (scores[s] = { t1: level[i]!, t2: level[i]!, v1: level[i]!, v2: level[i]! }));
  scores['exhausted'] = { t1: 0, t2: 0, v1: 0, v2: 0 };

  it('counts equal the independently counted events, tokens and USD the proposer counted itself', async () => {
    let calls = 0;
    let tokens = 0;
    const proposer: ChatModel = {
      role: 'proposer', settings: { model: 'p', temperature: 1, maxTokens: 100 },
      complete: async () => {
        const usage = { promptTokens: 100 + calls, completionTokens: 7, reasoningTokens: 0, latencyMs: 0, costUsd: 0.002 };
        tokens += usage.promptTokens + usage.completionTokens;
        const text = strategies[calls++] ?? 'exhausted';
        return { content: `<strategy>${text}</strategy>`, finishReason: 'stop', model: 'p', usage };
      },
    };
    const run = await runScripted({ scores, proposals: [] }, scriptedConfig(['t1', 't2'], ['v1', 'v2'], { budgetMetricCalls: 30, maxConsecutiveFailures: 9 }), { proposer });
    const a = evolutionAccounting(run.state);
    const count = (type: string) => run.events.filter((e) => e.type === type).length;
    expect(a.proposals).toBe(count('proposal_made') + count('proposal_failed'));
    expect(a.proposals).toBe(calls);
    expect(a.accepted).toBe(count('accepted'));
    expect(a.validated).toBe(count('validation_done'));
    expect(a.accepted).toBeGreaterThan(0);
    expect(a.accepted).toBeLessThan(a.proposals);
    expect(a.proposerTokens).toBe(tokens);
    expect(a.proposerUsd).toBeCloseTo(0.002 * calls, 10);
    // One edit size per proposal that produced a text, each the distance from its parent's text.
    const made = run.events.flatMap((e) => (e.type === 'proposal_made' ? [e.candidate] : []));
    expect(a.editSizes).toEqual(made.map((c) => reference(wordsOf(run.state.candidates.find((p) => p.id === c.parentId)!.strategy), wordsOf(c.strategy))));
    // A state stored before the sizes were recorded gets the same sizes, computed.
    const old = structuredClone(run.state);
    for (const c of old.candidates) delete c.editSize;
    expect(evolutionAccounting(old).editSizes).toEqual(a.editSizes);
  });

  it('a random arm makes draws, spends no proposer tokens and reports no USD', async () => {
    const world = { scores: new Proxy(scores, { get: (t, k: string) => t[k] ?? { t1: 0.2, t2: 0.2, v1: 0.2, v2: 0.2 } }), proposals: [] };
    const run = await runScripted(world, scriptedConfig(['t1', 't2'], ['v1', 'v2'], { budgetMetricCalls: 20, proposer: 'random', seedStrategy: 'Explore first.' }));
    const a = evolutionAccounting(run.state);
    expect(a.proposals).toBe(run.events.filter((e) => e.type === 'proposal_made' || e.type === 'proposal_failed').length);
    expect(a.proposals).toBeGreaterThan(0);
    expect(a.proposerTokens).toBe(0);
    expect(a.proposerUsd).toBeNull();
  });
});

describe('the report shows both arms side by side', () => {
  const evo = (step: string, proposer: string, proposals: number, accepted: number, validated: number, editSizes: number[]): ExperimentReport['evolutions'][number] => ({
    runId: step, status: 'complete', stopReason: 'budget', metricCallsUsed: 100, budget: 100, sessionsPlayed: 300, bestCandidateId: 'c1', bestStrategy: 's', bestValWAuc: 0.3, candidates: proposals + 1,
    proposals, accepted, validated, proposerTokens: proposer === 'llm' ? 5000 : 0, proposerUsd: proposer === 'llm' ? 0.25 : null, editSizes,
    step, modelSet: 0, fold: null, train: ['detective'], val: ['detective'], proposer, optimizer: 'gepa',
  });

  it('says the arms are not matched, with both arms\' counts, when they differ; matched when equal', () => {
    const [m] = armMatchingOf([evo('evolve-meta-ttl', 'llm', 30, 5, 5, [40, 80]), evo('evolve-random', 'random', 45, 2, 2, [3, 4])]);
    expect(m).toMatchObject({ matched: false, steps: ['evolve-meta-ttl', 'evolve-random'] });
    expect(m!.text).toContain('evolve-meta-ttl (llm) 30 proposals, 5 accepted, 5 validated; evolve-random (random) 45 proposals, 2 accepted, 2 validated');
    expect(m!.text).toMatch(/^Not matched: .*mixes the proposer's skill with the number of proposals/);
    expect(armMatchingOf([evo('a', 'llm', 30, 5, 5, []), evo('b', 'random', 30, 5, 5, [])])[0]!.matched).toBe(true);
    // One evolution alone, or one recorded before the counts: nothing to match.
    expect(armMatchingOf([evo('a', 'llm', 30, 5, 5, [])])).toEqual([]);
  });

  it('cells and CSV carry the counts and the edit-size distribution', () => {
    const e = evo('evolve-meta-ttl', 'llm', 30, 5, 4, [10, 20, 30, 40]);
    const cells = Object.fromEntries(EVOLUTION_HEADER.map((h, i) => [h, evolutionCells(e)[i]]));
    expect(cells).toMatchObject({ proposals: '30', accepted: '5', validated: '4', 'proposer tokens': '5000', 'proposer USD': '$0.2500', 'edit size (words): median [q1–q3], n': '25.0 [17.5–32.5], 4' });
    expect(quartiles([10, 20, 30, 40])).toEqual({ q1: 17.5, median: 25, q3: 32.5 });
    const csv = experimentEvolutionsToCsv({ evolutions: [e] } as ExperimentReport).trim().split('\n');
    expect(csv[0]).toContain('proposals,accepted,validated,proposer_tokens,proposer_usd');
    expect(csv[1]).toContain(',30,5,4,5000,0.25,25,17.5,32.5,10 20 30 40,');
  });

  it('CSV names each replicate and its rng seed; empty for an evolution recorded before replicates', () => {
    const rows = experimentEvolutionsToCsv({ evolutions: [{ ...evo('evolve-meta-ttl.r2', 'llm', 3, 1, 1, [5]), replicate: 2, rngSeed: 8 }, evo('evolve-old', 'llm', 3, 1, 1, [5])] } as ExperimentReport).trim().split('\n');
    expect(rows[0]!.endsWith(',chosen,validation_wauc,replicate,rng_seed,model,model_caveat')).toBe(true);
    expect(rows[1]!.startsWith('evolve-meta-ttl.r2,')).toBe(true);
    // No models recorded in this report: the model is said to be unknown.
    expect(rows[1]!.endsWith(',c1,0.3,2,8,unknown model,')).toBe(true);
    expect(rows[2]!.endsWith(',c1,0.3,,,unknown model,')).toBe(true);
    const named = experimentEvolutionsToCsv({ evolutions: [evo('evolve-old', 'llm', 3, 1, 1, [5])], models: [{ actor: 'gpt-4o-mini', metaAgent: 'gpt-4o-mini', proposer: 'gpt-4o' }] } as unknown as ExperimentReport).trim().split('\n');
    expect(named[1]!.endsWith(',c1,0.3,,,gpt-4o-mini / gpt-4o,')).toBe(true);
  });
});

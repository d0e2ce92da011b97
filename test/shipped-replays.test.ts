/**
 * The evolution and evaluation shipped in public/replays/: scripts/record-show-replays.ts records
 * them again at tiny size (the real `metattl evolve` and `metattl eval` against the scripted mock)
 * and that recording, like the shipped files, has the format tags, opens in the Replay loader and
 * shows what it is shipped for — accepted children, a lineage of depth ≥ 2, a Pareto front of ≥ 2
 * candidates, an evaluation table with names; each shipped entry's provenance matches its file.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evalArgs, evolveArgs, GAME_SEED, recordShowReplays, RNG_SEED } from '../scripts/record-show-replays.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { parseReplayFile, type ReplaySource } from '../src/ui/replay/replay-source.ts';
import { SHIPPED_REPLAYS, shippedReplay } from '../src/ui/shared/replay/shipped-replays.ts';
import { REPO_ROOT } from './support/shared.ts';

/** Depth of the deepest candidate (the seed is 0). */
function lineageDepth(state: EvolutionState): number {
  const parent = new Map(state.candidates.map((c) => [c.id, c.parentId]));
  const depth = (id: string | null): number => (id === null ? -1 : 1 + depth(parent.get(id) ?? null));
  return Math.max(...state.candidates.map((c) => depth(c.id)));
}

const frontMembers = (state: EvolutionState): Set<string> => new Set(Object.values(state.fronts).flat());

function expectShowableEvolution(source: ReplaySource): EvolutionState {
  if (source.kind !== 'evolution') throw new Error(`expected an evolution, got ${source.kind}`);
  const state = source.state;
  expect(state.status).toBe('complete');
  expect(state.candidates.filter((c) => c.status === 'accepted').length).toBeGreaterThanOrEqual(2);
  expect(lineageDepth(state)).toBeGreaterThanOrEqual(2);
  expect(frontMembers(state).size).toBeGreaterThanOrEqual(2);
  return state;
}

function expectNamedEvaluation(source: ReplaySource): void {
  if (source.kind !== 'evaluation') throw new Error(`expected an evaluation, got ${source.kind}`);
  expect(source.report?.policies.map((p) => p.policyName)).toEqual(['static', 'naive', expect.stringMatching(/^Evolved c\d+ \(scripted run\)$/)]);
  expect(source.items.map((i) => i.label.split(' · ')[0])).toContain(source.report!.policies[2]!.policyName);
  expect(source.items.every((i) => !i.label.startsWith('evolved-'))).toBe(true);
}

describe('the shipped evolution and evaluation recordings', () => {
  let tiny: { evolution: string; evaluation: string };
  beforeAll(async () => {
    tiny = await recordShowReplays(mkdtempSync(join(tmpdir(), 'show-replays-')), 'tiny');
  }, 120_000);

  it('record again at tiny size with the CLI: an evolution with a lineage and a Pareto front, a named evaluation', () => {
    const evolutionText = readFileSync(tiny.evolution, 'utf8');
    expect(JSON.parse(evolutionText).format).toBe('metattl-evolution-1');
    const state = expectShowableEvolution(parseReplayFile(evolutionText));
    expect(state.config.rngSeed).toBe(RNG_SEED);
    const evaluationText = readFileSync(tiny.evaluation, 'utf8');
    expect(JSON.parse(evaluationText).format).toBe('metattl-evaluation-results-1');
    expectNamedEvaluation(parseReplayFile(evaluationText));
  });

  it('are listed with what produced them, open in the Replay loader and are small', () => {
    expect(SHIPPED_REPLAYS.map((r) => r.id)).toEqual(['lever-room-naive', 'evolution-scripted', 'evaluation-scripted', 'lever-room-smollm2']);
    for (const entry of SHIPPED_REPLAYS) {
      const path = join(REPO_ROOT, 'public', entry.path);
      expect(statSync(path).size).toBeLessThan(300_000);
      const text = readFileSync(path, 'utf8');
      const data = JSON.parse(text) as { startedAt: string; format: string };
      const model = (JSON.parse(text) as { config?: { models?: { actor?: { model?: string } } } }).config?.models?.actor?.model;
      if (model?.startsWith('SmolLM2')) {
        // The one real-model recording: labelled with the model that played it.
        expect(entry.provenance.producedBy).toMatch(/^real model SmolLM2-135M-Instruct/);
        expect(entry.label).toContain('real model: SmolLM2-135M-Instruct');
      } else {
        expect(entry.provenance.producedBy).toBe('scripted test model — not a real model');
        expect(entry.label).toContain('scripted test model');
      }
      // Counted nouns are singular at 1 (the mock's words; never "the best reached 1 points").
      expect(text, entry.id).not.toMatch(/\b1 points\b|\b1 episode logs\b/);
      const source = parseReplayFile(text);
      expect(source.kind).toBe(entry.kind);
      const startedAt = source.kind === 'evaluation' ? (source.items[0]!.record.startedAt) : data.startedAt;
      expect(entry.provenance.recordedOn).toBe(startedAt.slice(0, 10));
    }
    const evolution = readFileSync(join(REPO_ROOT, 'public', shippedReplay('evolution-scripted')!.path), 'utf8');
    const state = expectShowableEvolution(parseReplayFile(evolution));
    expect(shippedReplay('evolution-scripted')!.provenance.seed).toBe(`game seed ${GAME_SEED}, loop seed ${state.config.rngSeed}`);
    expect(state.config.train.map((t) => t.id)).toEqual([evolveArgs('shipped', '')[2]]);
    expect(shippedReplay('evolution-scripted')!.label).toContain(`${state.candidates.length} candidates`);
    const evaluation = parseReplayFile(readFileSync(join(REPO_ROOT, 'public', shippedReplay('evaluation-scripted')!.path), 'utf8'));
    expectNamedEvaluation(evaluation);
    expect(evaluation.items).toHaveLength(6);
    expect(evalArgs('shipped', 'x', 'y')).toContain('static,naive,x');
  });
});

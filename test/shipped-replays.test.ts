/**
 * The recordings shipped in public/replays/: the scripts that write them (scripts/record-replays.sh
 * for the Learn sessions, scripts/record-show-replays.ts for the evolution and the evaluation, all
 * with `--provider simulated`) record them again from scratch here, and what they play — every
 * guide, command, score and location, every candidate's strategy, verdict and scores, every
 * policy's W-AUC and comparison — equals the shipped files. The shipped files show what they are
 * shipped for: a Lever Room session that wins, a Vault session whose map reaches three rooms, every
 * step with a location; an evolution with accepted children and a lineage; an evaluation whose
 * meta-prompts differ, with an interval clear of zero. Each file opens in the Replay loader and
 * its list entry's label and provenance name what played it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { evalArgs, evolveArgs, GAME_SEED, recordShowReplays, RNG_SEED } from '../scripts/record-show-replays.ts';
import { buildRoomMap } from '../src/agents/room-map.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { SIMULATED_MODEL, SIMULATION_NOTICE } from '../src/llm/simulated-model.ts';
import { parseReplayFile, type ReplaySource } from '../src/ui/replay/replay-source.ts';
import { SHIPPED_REPLAYS, shippedReplay } from '../src/ui/shared/replay/shipped-replays.ts';
import { importSession } from '../src/ttl/session-io.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { REPO_ROOT } from './support/shared.ts';

const shippedText = (id: string): string => readFileSync(join(REPO_ROOT, 'public', shippedReplay(id)!.path), 'utf8');

/** Depth of the deepest candidate (the seed is 0). */
function lineageDepth(state: EvolutionState): number {
  const parent = new Map(state.candidates.map((c) => [c.id, c.parentId]));
  const depth = (id: string | null): number => (id === null ? -1 : 1 + depth(parent.get(id) ?? null));
  return Math.max(...state.candidates.map((c) => depth(c.id)));
}

function evolutionOf(source: ReplaySource): EvolutionState {
  if (source.kind !== 'evolution') throw new Error(`expected an evolution, got ${source.kind}`);
  return source.state;
}

/** What a session played, without its ids and clock times. */
function played(record: SessionRecord): unknown {
  return {
    config: { story: record.config.story.id, seed: record.config.seed, policy: record.config.policy, model: record.config.models.actor.model },
    episodes: record.episodes.map((e) => ({
      guide: e.guidingPrompt, score: e.finalScore, end: e.termination, start: e.trajectory?.startLocation,
      steps: e.trajectory?.steps.map((s) => [s.action, s.reward, s.score, s.location]),
    })),
  };
}

/** What an evolution found, without its ids and clock times. */
const evolved = (text: string): unknown =>
  evolutionOf(parseReplayFile(text)).candidates.map((c) => ({ id: c.id, parent: c.parentId, status: c.status, reason: c.reason, strategy: c.strategy, scores: c.valScores }));

/** What an evaluation measured, without its ids and clock times. */
function measured(text: string): unknown {
  const data = JSON.parse(text) as { report: { policies: { policyName: string; wAuc: unknown; curve: unknown }[] }; comparisons: { a: string; b: string; delta: unknown }[]; sessions: { key: string; scores: number[] }[] };
  return {
    policies: data.report.policies.map((p) => [p.policyName, p.wAuc, p.curve]),
    comparisons: data.comparisons.map((c) => [c.a, c.b, c.delta]),
    sessions: data.sessions.map((s) => [s.key, s.scores]),
  };
}

describe('the shipped recordings', () => {
  let fresh: { sessions: string; evolution: string; evaluation: string };
  beforeAll(async () => {
    const sessions = mkdtempSync(join(tmpdir(), 'sessions-replays-'));
    await promisify(execFile)('bash', [join(REPO_ROOT, 'scripts/record-replays.sh')], { cwd: REPO_ROOT, env: { ...process.env, METATTL_REPLAYS_DIR: sessions } });
    const show = await recordShowReplays(mkdtempSync(join(tmpdir(), 'show-replays-')), 'shipped');
    fresh = { sessions, ...show };
  }, 180_000);

  it('equal what their scripts record from scratch with the simulated model', () => {
    for (const id of ['lever-room-naive', 'vault-credit-assignment']) {
      const again = importSession(readFileSync(join(fresh.sessions, `${id}.json`), 'utf8'));
      expect(played(again), id).toEqual(played(importSession(shippedText(id))));
    }
    expect(evolved(readFileSync(fresh.evolution, 'utf8'))).toEqual(evolved(shippedText('evolution-scripted')));
    expect(measured(readFileSync(fresh.evaluation, 'utf8'))).toEqual(measured(shippedText('evaluation-scripted')));
  });

  it('the Learn sessions (the real model’s too) carry a location at every step; The Lever Room is won, The Vault’s map grows to three rooms', () => {
    const lever = importSession(shippedText('lever-room-naive'));
    const vault = importSession(shippedText('vault-credit-assignment'));
    expect([lever, vault].map((r) => r.config.models.actor.model)).toEqual([SIMULATED_MODEL, SIMULATED_MODEL]);
    for (const record of [lever, vault, importSession(shippedText('lever-room-smollm2'))]) {
      for (const e of record.episodes) {
        expect(e.trajectory!.startLocation).not.toBeNull();
        expect(e.trajectory!.steps.every((s) => s.location !== null && s.location !== undefined)).toBe(true);
      }
    }
    expect(lever.episodes.map((e) => e.finalScore)).toEqual([0, 2, 4, 5, 5, 5]);
    expect(lever.episodes.findIndex((e) => e.finalScore === lever.config.story.maxScore)).toBe(3);
    const map = buildRoomMap(vault.episodes.map((e) => e.trajectory!));
    expect(map.rooms.map((r) => [r.name, r.firstEpisode])).toEqual([['Lobby', 0], ['Vault Door', 0], ['Vault', 1]]);
    expect(map.rooms.find((r) => r.name === 'Vault')!.scoredIn).toEqual([1, 2, 3]);
  });

  it('the evolution accepts children in a lineage; the evaluation’s meta-prompts differ and the interval says so', () => {
    const state = evolutionOf(parseReplayFile(shippedText('evolution-scripted')));
    expect(state.status).toBe('complete');
    expect(state.config.rngSeed).toBe(RNG_SEED);
    expect(state.config.train.map((t) => t.id)).toEqual([evolveArgs('shipped', '')[2]]);
    expect(state.candidates.filter((c) => c.status === 'accepted').length).toBeGreaterThanOrEqual(1);
    expect(lineageDepth(state)).toBeGreaterThanOrEqual(2);
    const evaluation = parseReplayFile(shippedText('evaluation-scripted'));
    if (evaluation.kind !== 'evaluation') throw new Error('expected an evaluation');
    const names = evaluation.report!.policies.map((p) => p.policyName);
    expect(names).toEqual(['static', 'naive', `Evolved ${state.best.byMean} (simulated run)`]);
    expect(evaluation.items).toHaveLength(6);
    expect(evaluation.items.map((i) => i.label.split(' · ')[0])).toContain(names[2]);
    const wAuc = evaluation.report!.policies.map((p) => p.wAuc!.estimate);
    expect(new Set(wAuc).size).toBe(3);
    const data = JSON.parse(shippedText('evaluation-scripted')) as { comparisons: { a: string; b: string; delta: { mean: number; low: number; high: number } }[]; simulated?: string };
    const gain = data.comparisons.find((c) => c.a.startsWith('evolved-') && c.b === 'naive')!;
    expect(gain.delta.low).toBeGreaterThan(0);
    expect(data.simulated).toBe(SIMULATION_NOTICE);
    expect(evalArgs('shipped', 'x', 'y')).toContain('static,naive,x');
  });

  it('are listed with what played them, open in the Replay loader and are small', () => {
    expect(SHIPPED_REPLAYS.map((r) => r.id)).toEqual(['lever-room-naive', 'vault-credit-assignment', 'evolution-scripted', 'evaluation-scripted', 'lever-room-smollm2']);
    for (const entry of SHIPPED_REPLAYS) {
      const path = join(REPO_ROOT, 'public', entry.path);
      expect(statSync(path).size).toBeLessThan(300_000);
      const text = readFileSync(path, 'utf8');
      const source = parseReplayFile(text);
      expect(source.kind).toBe(entry.kind);
      const first = source.kind === 'evolution' ? null : source.items[0]!.record;
      const model = source.kind === 'evolution' ? source.state.config.models.actor : first!.config.models.actor.model;
      if (model === SIMULATED_MODEL) {
        expect(entry.provenance.producedBy).toBe(SIMULATION_NOTICE);
        expect(entry.label).toContain('(simulated model — not a language model)');
      } else {
        // The one real-model recording: labelled with the model that played it.
        expect(model).toMatch(/^SmolLM2-135M-Instruct/);
        expect(entry.provenance.producedBy).toMatch(/^real model SmolLM2-135M-Instruct/);
        expect(entry.label).toContain('real model: SmolLM2-135M-Instruct');
      }
      // Counted nouns are singular at 1 (never "the best reached 1 points").
      expect(text, entry.id).not.toMatch(/\b1 points\b|\b1 episode logs\b/);
      const startedAt = source.kind === 'evolution' ? (JSON.parse(text) as { startedAt: string }).startedAt : first!.startedAt;
      expect(entry.provenance.recordedOn).toBe(startedAt.slice(0, 10));
    }
    expect(shippedReplay('evolution-scripted')!.provenance.seed).toBe(`game seed ${GAME_SEED}, loop seed ${RNG_SEED}`);
    const state = evolutionOf(parseReplayFile(shippedText('evolution-scripted')));
    expect(shippedReplay('evolution-scripted')!.label).toContain(`${state.candidates.length} candidates`);
  });
});

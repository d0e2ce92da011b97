/**
 * The engine scores real games exactly: each Jericho walkthrough, replayed at its Jericho seed
 * (after its intro actions, which the catalog applies), ends with the final score of
 * ../shared/jericho/ground-truth.md and matches the per-step scores of score-traces.json.
 */
import { describe, expect, it } from 'vitest';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { jerichoGame, readShared, readSharedJson, REPO_ROOT } from './support/shared.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));

/** Final scores from ground-truth.md ("Results with the Jericho seed"). */
const GROUND_TRUTH: Record<string, number> = { detective: 360, zork1: 350, temple: 35, balances: 50, library: 30, zork3: 7, advent: 350 };

interface Trace {
  scores: number[];
  initial_score: number;
  victory_step: number | null;
}

describe('Jericho walkthroughs at their Jericho seed', () => {
  for (const [name, finalScore] of Object.entries(GROUND_TRUTH)) {
    it(`${name} ends at ${finalScore} with the reference per-step scores`, () => {
      const game = jerichoGame(name);
      const bytes = new Uint8Array(readShared(`stories/${game.rom}`));
      const entry = findByMd5(catalog, md5Hex(bytes));
      expect(entry?.id).toBe(name);
      const trace = readSharedJson<Record<string, Trace>>('jericho/score-traces.json')[name]!;
      const engine = loadStory(bytes, { seed: game.seed, rules: rulesFor(entry!) });
      expect(engine.start.score).toBe(trace.initial_score);
      const scores: number[] = [];
      let last = engine.start;
      for (const command of game.walkthrough) {
        last = engine.step(command);
        scores.push(last.score!);
      }
      expect(scores).toEqual(trace.scores);
      expect(last.score).toBe(finalScore);
      expect(last.done).toBe(true);
      expect(last.endReason).toBe('victory');
    });
  }
});

describe('seeds reach the interpreter', () => {
  it('zork1 with seed 0 instead of 12 does not win (ground-truth.md: only 4/53 seeds win)', () => {
    const game = jerichoGame('zork1');
    const bytes = new Uint8Array(readShared(`stories/${game.rom}`));
    const engine = loadStory(bytes, { seed: 0, rules: rulesFor(findByMd5(catalog, md5Hex(bytes))!) });
    let last = engine.start;
    for (const command of game.walkthrough) {
      if (last.done) break;
      last = engine.step(command);
    }
    expect(last.score).toBeLessThan(350);
  });
});

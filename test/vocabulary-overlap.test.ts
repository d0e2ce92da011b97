/**
 * Vocabulary overlap between games: the dictionary reader against an independent reader written
 * here (bit by bit from the Z-Machine Standard §3 and §13) on every story file we have, a
 * hand-checked pair of our own small games (the words only one of them knows, read off the name
 * lists of their Inform sources), the overlap formula's edges, `metattl stories overlap` on the real
 * story files (numbers recomputed here), the measured claim (the paper's OOD games share 71–78 % of
 * their dictionary words with the ID games, some Jericho games 31–41 %), and `vocab-ood`'s games
 * being the least-overlapping ones.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStoryDictionary } from '../src/engine/story-dictionary.ts';
import { overlapTable, overlapWithTraining, vocabularyWords, walkthroughTokens, type GameVocabulary } from '../src/eval/vocabulary-overlap.ts';
import type { EvaluationReport } from '../src/eval/interface.ts';
import { BUILTIN_EXPERIMENTS, VOCAB_OOD_GAMES } from '../src/experiment/builtins.ts';
import { freshExperimentState, runExperiment, type ExperimentExecutor } from '../src/experiment/experiment-runner.ts';
import { planExperiment } from '../src/experiment/plan.ts';
import { buildExperimentReport } from '../src/experiment/report.ts';
import { experimentReportToCsv, experimentReportToHtml, experimentReportToMarkdown } from '../src/experiment/report-formats.ts';
import type { Interval } from '../src/ttl/metrics.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT, readSharedJson, sharedDir } from './support/shared.ts';

/** Every story file we have: ../shared's two folders and the repository's own small games. */
function storyFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of [join(sharedDir(), 'stories'), join(sharedDir(), 'stories-more'), resolve(REPO_ROOT, 'public/stories')]) {
    for (const f of readdirSync(dir).filter((f) => /\.z\d$/.test(f))) out.set(f.replace(/\.z\d$/, ''), join(dir, f));
  }
  return out;
}

/**
 * An independent dictionary reader: each entry's text as one bit string, cut in 5-bit Z-characters,
 * read with the default alphabets (every file here has no alphabet table; asserted below).
 */
function independentDictionary(bytes: Buffer): { words: string[]; resolution: number } {
  const version = bytes[0]!;
  const dict = bytes.readUInt16BE(8);
  const nSep = bytes[dict]!;
  const entryLength = bytes[dict + nSep + 1]!;
  const count = Math.abs(bytes.readInt16BE(dict + nSep + 2));
  const textBytes = version > 3 ? 6 : 4;
  const rows = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '^^0123456789.,!?_#\'"/\\-:()'];
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const start = dict + nSep + 4 + i * entryLength;
    let bits = '';
    for (let b = 0; b < textBytes; b += 2) bits += bytes.readUInt16BE(start + b).toString(2).padStart(16, '0').slice(1);
    const z = bits.match(/.{5}/g)!.map((s) => parseInt(s, 2));
    let word = '';
    let row = 0;
    for (let k = 0; k < z.length; k++) {
      const c = z[k]!;
      if (c === 4 || c === 5) { row = c - 3; continue; }
      if (row === 2 && c === 6) {
        const code = z[k + 1]! * 32 + z[k + 2]!;
        // §3.8: codes outside printable ASCII here are undefined for output (none of the files uses the extra characters).
        if (k + 2 < z.length) word += code >= 32 && code <= 126 ? String.fromCharCode(code) : '?';
        k += 2;
      } else if (c === 0) word += ' ';
      else if (c >= 6) word += rows[row]![c - 6];
      row = 0;
    }
    words.push(word);
  }
  return { words, resolution: version > 3 ? 9 : 6 };
}

const WORDLIKE = /^[a-z0-9'-]*[a-z][a-z0-9'-]*$/;
/** Overlap recomputed plainly: distinct word-like entries cut to r, |mine ∩ training| / |mine|. */
function independentOverlap(mine: { words: string[]; resolution: number }, training: { words: string[]; resolution: number }[]): number {
  const r = Math.min(mine.resolution, ...training.map((t) => t.resolution));
  const cut = (ws: string[]) => ws.filter((w) => WORDLIKE.test(w)).map((w) => w.slice(0, r));
  const known = new Set(training.flatMap((t) => cut(t.words)));
  const own = [...new Set(cut(mine.words))];
  return own.filter((w) => known.has(w)).length / own.length;
}

const files = storyFiles();
const independent = new Map([...files].map(([game, path]) => [game, independentDictionary(readFileSync(path))]));
const ID = BUILTIN_EXPERIMENTS['paper-jericho']!.taskSets.ID!;
const OOD = BUILTIN_EXPERIMENTS['paper-jericho']!.taskSets.OOD!;

describe('the Z-machine dictionary reader', () => {
  it('reads every story file we have as the independent reader does (versions 3, 4, 5, 8)', () => {
    expect(files.size).toBeGreaterThanOrEqual(18);
    const versions = new Set<number>();
    for (const [game, path] of files) {
      const bytes = readFileSync(path);
      if (bytes[0]! >= 5) expect(bytes.readUInt16BE(0x34), `${game} has an alphabet table`).toBe(0);
      const dictionary = readStoryDictionary(new Uint8Array(bytes));
      versions.add(dictionary.version);
      expect(dictionary.words, game).toEqual(independent.get(game)!.words);
      expect(dictionary.resolution, game).toBe(independent.get(game)!.resolution);
    }
    expect([...versions].sort()).toEqual([3, 4, 5, 8]);
    // Zork I's parser cuts at 6 characters (version 3): "lantern" is stored as "lanter".
    expect(readStoryDictionary(new Uint8Array(readFileSync(files.get('zork1')!))).words).toContain('lanter');
  });

  it('refuses a file that is not a story with the engine\'s error', () => {
    expect(() => readStoryDictionary(new TextEncoder().encode('not a story file at all, just some text that is long enough to pass the size check of a header'))).toThrow(/story|Z-machine|version/i);
  });
});

describe('the overlap formula', () => {
  const game = (name: string, resolution: number, dictionary: string[], walkthrough: string[] | null = null): GameVocabulary => ({ game: name, resolution, dictionary, walkthrough });

  it('lever-room against vault: the 28 words only lever-room knows are its own object names (hand-checked from the Inform sources)', () => {
    const lever = readStoryDictionary(new Uint8Array(readFileSync(resolve(REPO_ROOT, 'public/stories/lever-room.z5'))));
    const vault = readStoryDictionary(new Uint8Array(readFileSync(resolve(REPO_ROOT, 'public/stories/vault.z5'))));
    // games/lever-room/lever-room.inf's `name` lists, minus the words vault.inf or the library also has.
    const own = ['blue', 'cage', 'caged', 'chamber', 'doorway', 'green', 'grip', 'handle', 'iron', 'lamp', 'lamps', 'levers', 'lights', 'oil', 'red', 'row', 'seam', 'seams', 'single', 'slab', 'slabs', 'small', 'stones', 'trap', 'trapdoor', 'wall', 'walls', 'yellow'];
    const mine = vocabularyWords(lever.words, 9);
    const theirs = vocabularyWords(vault.words, 9);
    expect([...mine].filter((w) => !theirs.has(w)).sort()).toEqual(own);
    // 353 entries minus ".", ",", ",a"…",e" and "comma," = 345 words.
    expect(mine.size).toBe(345);
    const row = overlapWithTraining('lever-room', [game('lever-room', 9, lever.words)], [game('vault', 9, vault.words)]);
    expect(row.dictionary).toEqual({ shared: 345 - 28, total: 345, share: (345 - 28) / 345 });
  });

  it('cuts words to the smallest resolution compared, drops punctuation and debugging entries, pools a task set', () => {
    const v3 = game('v3', 6, ['lanter', '$ve', '.', 'grue'], ['take lantern', 'kill grue. n']);
    const v5 = game('v5', 9, ['lantern', 'lamp', '#comm', ','], ['get lamp', 'n']);
    const other = game('other', 9, ['lamp', 'lantern', 'sword'], ['take sword']);
    expect(overlapWithTraining('v5', [v5], [v3]).dictionary).toEqual({ shared: 1, total: 2, share: 0.5 });
    expect(overlapWithTraining('v5', [v5], [other]).dictionary).toEqual({ shared: 2, total: 2, share: 1 });
    expect(overlapWithTraining('v5', [v5], [other]).resolution).toBe(9);
    expect(overlapWithTraining('pooled', [v5, other], [v3])).toMatchObject({ resolution: 6, dictionary: { shared: 1, total: 3 } });
    expect(walkthroughTokens(['kill grue. n', 'say "hello",x'])).toEqual(['kill', 'grue', 'n', 'say', 'hello', 'x']);
    // Walkthrough words of v5: get, lamp, n; v3's: take, lantern → lanter (cut), kill, grue, n.
    expect(overlapWithTraining('v5', [v5], [v3]).walkthrough).toEqual({ shared: 1, total: 3, share: 1 / 3 });
    expect(overlapWithTraining('x', [game('x', 9, ['a'])], [v3]).walkthrough).toBeNull();
    expect(() => overlapWithTraining('v5', [v5], [])).toThrow(/at least one training game/);
    expect(overlapTable([other, v5], [v3]).map((r) => r.game)).toEqual(['other', 'v5']);
  });
});

describe('metattl stories overlap on the real story files', () => {
  it('prints each game\'s dictionary and walkthrough overlap with the ID games; the measured claim holds', async () => {
    const dirs = [join(sharedDir(), 'stories'), join(sharedDir(), 'stories-more')];
    const result = await runCli(['stories', 'overlap', '--train', ID.join(','), ...dirs, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { formula: string; training: { game: string }[]; games: { game: string; resolution: number; dictionary: { share: number }; walkthrough: { shared: number; total: number; share: number } | null }[] };
    expect(out.training.map((t) => t.game)).toEqual(ID);
    const jericho = readSharedJson<{ name: string; walkthrough: string[] }[]>('jericho/games.json');
    const shares = out.games.map((g) => g.dictionary.share);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    for (const g of out.games) {
      expect(g.dictionary.share, g.game).toBeCloseTo(independentOverlap(independent.get(g.game)!, ID.map((t) => independent.get(t)!)), 12);
      expect(g.resolution, g.game).toBe(6); // zork1 is a version 3 file
      const walk = jericho.find((j) => j.name === g.game)?.walkthrough;
      if (!walk) {
        expect(g.walkthrough, g.game).toBeNull(); // minizork: not a Jericho game
        continue;
      }
      const words = (cmds: string[]) => new Set(cmds.flatMap((c) => c.toLowerCase().split(/[\s.,"]+/)).filter((w) => WORDLIKE.test(w)).map((w) => w.slice(0, 6)));
      const known = new Set(ID.flatMap((t) => [...words(jericho.find((j) => j.name === t)!.walkthrough)]));
      const own = [...words(walk)];
      expect(g.walkthrough, g.game).toEqual({ shared: own.filter((w) => known.has(w)).length, total: own.length, share: own.filter((w) => known.has(w)).length / own.length });
    }
    const share = (name: string) => out.games.find((g) => g.game === name)!.dictionary.share;
    for (const game of ID) expect(share(game)).toBe(1);
    // The paper's OOD games share 71–78 % of their dictionary words with the ID games …
    for (const game of OOD) {
      expect(share(game), game).toBeGreaterThanOrEqual(0.71);
      expect(share(game), game).toBeLessThan(0.78);
    }
    // … some Jericho games only 31–42 %: vocab-ood takes the three least-overlapping Jericho games.
    const leastJericho = out.games.filter((g) => jericho.some((j) => j.name === g.game)).slice(0, 3);
    expect(leastJericho.map((g) => g.game)).toEqual(VOCAB_OOD_GAMES);
    for (const g of leastJericho) {
      expect(g.dictionary.share, g.game).toBeGreaterThanOrEqual(0.31);
      expect(g.dictionary.share, g.game).toBeLessThan(0.4);
    }
    expect(BUILTIN_EXPERIMENTS['vocab-ood']!.taskSets['VOCAB-OOD']).toEqual(VOCAB_OOD_GAMES);
    expect(BUILTIN_EXPERIMENTS['vocab-ood']!.evaluateOn).toEqual(['ID', 'OOD', 'VOCAB-OOD']);

    const table = await runCli(['stories', 'overlap', '--train', 'detective', '--train', 'zork1,temple', join(sharedDir(), 'stories-more', 'trinity.z4'), 'balances']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toBe('vocabulary overlap with the training games detective, zork1, temple');
    expect(lines[2]).toMatch(/^trinity\s+4\s+1981\s+617\s+31\.1 %\s+\d+\.\d %\s+\d+$/);
    expect(lines[3]).toMatch(/^balances\s+5\s+445\s+345\s+77\.5 %/);
  });

  it('bad input: no --train, no games, a file that is not a story, a walkthroughs file that is not JSON', async () => {
    const noTrain = await runCli(['stories', 'overlap', 'balances']);
    expect(noTrain.code).toBe(2);
    expect(noTrain.stderr).toMatch(/^metattl: stories overlap: name the training games with --train/);
    const noGames = await runCli(['stories', 'overlap', '--train', 'zork1']);
    expect(noGames.code).toBe(2);
    const notStory = await runCli(['stories', 'overlap', '--train', 'zork1', resolve(REPO_ROOT, 'package.json')]);
    expect(notStory.code).toBe(1);
    expect(notStory.stderr).toMatch(/^metattl: .*(story|Z-machine)/i);
    const badWalk = await runCli(['stories', 'overlap', '--train', 'zork1', 'balances', '--walkthroughs', resolve(REPO_ROOT, 'README.md')]);
    expect(badWalk.code).toBe(2);
    expect(badWalk.stderr).toMatch(/--walkthroughs .*README\.md: cannot read it as JSON/);
  });
});

/** An evaluation report with one row per arm at W-AUC w (the report's shape, no sessions behind it). */
function evalReport(arms: Record<string, number>): EvaluationReport {
  const iv = (estimate: number): Interval => ({ estimate, low: estimate, high: estimate, n: 1, resamples: 2000 });
  return {
    id: 'r', status: 'complete', stopReason: null, stopMessage: null, plannedSessions: 2, faultedEpisodes: 0, baselinePolicyId: 'naive', bootstrap: { resamples: 2000, seed: 0, level: 0.95 }, games: [], totalSessions: 2,
    policies: Object.entries(arms).map(([policyId, w]) => ({
      policyId, taskSet: 'custom', sessions: 1, games: 1, wAuc: iv(w), averageScore: iv(10), bestScore: iv(12), diffVsBaseline: policyId === 'naive' ? null : iv(0.1),
      beatsBaseline: false, leakWarning: null, curve: [iv(1), iv(2)], costUsd: null,
    })),
  };
}

describe('the experiment report\'s vocabulary overlap', () => {
  it('vocab-ood: each task set\'s pooled dictionary overlap with the evolution\'s games, in JSON, Markdown, HTML and CSV', async () => {
    const base = BUILTIN_EXPERIMENTS['vocab-ood']!;
    const spec = { ...base, taskSets: Object.fromEntries(Object.entries(base.taskSets).map(([name, games]) => [name, games.map((g) => `${g}:0`)])) };
    const plan = planExperiment(spec);
    const exec: ExperimentExecutor = {
      now: () => '2026-01-01T00:00:00.000Z',
      save: async () => undefined,
      evolution: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', stopReason: 'budget', metricCallsUsed: 8, budget: 8, sessionsPlayed: 5, bestCandidateId: 'c1', bestStrategy: 's', bestValWAuc: 0.3, candidates: 2 } }),
      evaluation: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', report: evalReport({ naive: 0.1, evolved: 0.2 }) } }),
    };
    const { state } = await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], exec.now()), exec);
    // Every game but murdac has a vocabulary: VOCAB-OOD's pooled share is unknown, its other games are still listed.
    const vocabularies: Record<string, GameVocabulary> = {};
    for (const game of [...ID, ...OOD, 'trinity', 'anchor']) {
      const d = readStoryDictionary(new Uint8Array(readFileSync(files.get(game)!)));
      vocabularies[game] = { game, resolution: d.resolution, dictionary: d.words, walkthrough: null };
    }
    const report = buildExperimentReport(plan, state, { vocabularies });
    const pooled = (games: string[]) => ({ words: games.flatMap((g) => independent.get(g)!.words), resolution: Math.min(...games.map((g) => independent.get(g)!.resolution)) });
    const training = ID.map((t) => independent.get(t)!);
    expect(report.vocabulary!.map((v) => [v.step, v.taskSet, v.training, v.missing])).toEqual([
      ['eval-ID', 'ID', ID, []], ['eval-OOD', 'OOD', ID, []], ['eval-VOCAB-OOD', 'VOCAB-OOD', ID, ['murdac']],
    ]);
    const oodShare = independentOverlap(pooled(OOD), training);
    expect(report.vocabulary![0]!.dictionary!.share).toBe(1);
    expect(report.vocabulary![1]!.dictionary!.share).toBeCloseTo(oodShare, 12);
    expect(report.vocabulary![1]!.perGame.map((g) => g.game)).toEqual(OOD);
    expect(report.vocabulary![1]!.perGame.map((g) => g.dictionary.share)).toEqual(OOD.map((g) => expect.closeTo(independentOverlap(independent.get(g)!, training), 12)));
    expect(report.vocabulary![2]!.dictionary).toBeNull();
    expect(report.vocabulary![2]!.perGame.map((g) => g.game)).toEqual(['trinity', 'anchor']);
    expect(report.rows.map((r) => [r.taskSet, r.arm, r.dictionaryOverlap])).toEqual([
      ['ID', 'naive', 1], ['ID', 'evolved', 1], ['OOD', 'naive', report.vocabulary![1]!.dictionary!.share], ['OOD', 'evolved', report.vocabulary![1]!.dictionary!.share], ['VOCAB-OOD', 'naive', null], ['VOCAB-OOD', 'evolved', null],
    ]);

    const percent = `${(100 * oodShare).toFixed(1)} %`;
    const md = experimentReportToMarkdown(report);
    expect(md).toContain('| paper W-AUC | dictionary overlap with training |');
    expect(md).toContain('## Vocabulary overlap with the training games');
    expect(md).toMatch(new RegExp(`\\| eval-OOD \\| OOD \\| detective, zork1, temple \\| ${percent.replace('.', '\\.')} \\(\\d+/\\d+\\) \\| — \\| balances 77\\.5 %, library 71\\.3 %, zork3 77\\.9 % \\| — \\|`));
    expect(md).toContain('| eval-VOCAB-OOD | VOCAB-OOD | detective, zork1, temple | — | — | trinity 31.1 %, anchor 31.6 % | murdac |');
    const html = experimentReportToHtml(report);
    expect(html).toContain('<table id="vocabulary">');
    expect(html).toContain(`<td>${percent}</td>`);
    const csv = experimentReportToCsv(report).trim().split('\n');
    const at = csv[0]!.split(',').indexOf('dictionary_overlap');
    expect(csv[0]!.split(',').slice(at)).toEqual(['dictionary_overlap', 'identical_repeats', 'model', 'model_caveat']);
    expect(Number(csv[3]!.split(',')[at])).toBeCloseTo(oodShare, 12);
    expect(csv[5]!.split(',')[at]).toBe('');

    // Built without story files (the page): no column, no section.
    const bare = buildExperimentReport(plan, state);
    expect(bare.vocabulary).toBeUndefined();
    expect(experimentReportToMarkdown(bare)).not.toContain('dictionary overlap');
  });
});

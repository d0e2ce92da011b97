/**
 * `metattl probe recall` through the CLI bundle: against the deterministic mock (which knows no
 * walkthrough: its generic reply never matches, so recall, control and their difference are 0,
 * while the frequency baseline is the walkthrough's own) the prompts hold exactly the k commands
 * before each asked one of Jericho's walkthrough, the control's never the asked window; the
 * files and the JSON carry the counts, the code version and the provider's model per question.
 * Against the simulated provider (no memory of any game) recall equals the control. Usage errors
 * are named.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ servedModels: { 'mock-model': 'mock-model-2024-07-18' } });
});
afterAll(() => mock.close());

const env = { ...process.env, OPENAI_API_KEY: 'k' };
const GAMES = JSON.parse(readFileSync(resolve(REPO_ROOT, '../shared/jericho/games.json'), 'utf8')) as { name: string; walkthrough: string[] }[];
const walk = (name: string) => GAMES.find((g) => g.name === name)!.walkthrough;

describe('metattl probe recall', () => {
  it('asks for each probed command after the k before it, beside a shuffled control; reports the counts per game and pooled', async () => {
    const out = mkdtempSync(join(tmpdir(), 'recall-'));
    const r = await runCli(['probe', 'recall', '--tasks', 'detective,temple:0', '--k', '4', '--probes', '5', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--out', out, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ format: 'metattl-recall-probe-1', model: 'mock-model', options: { k: 4, probes: 5, seed: 0 }, pooled: { game: 'all games', probes: 10 } });
    expect(summary.codeVersion).toMatch(/^\d+\.\d+\.\d+\+/);
    expect(summary.games.map((g: { game: string; walkthroughLines: number; probes: number }) => [g.game, g.walkthroughLines, g.probes])).toEqual([['detective', walk('detective').length, 5], ['temple', walk('temple').length, 5]]);
    for (const g of summary.games) {
      // The mock knows no walkthrough: nothing matches, in recall or control.
      expect([g.normalised.count, g.shuffledNormalised.count, g.excess, g.failed]).toEqual([0, 0, 0, 0]);
      expect(g.normalised.high).toBeCloseTo(0.4345, 4); // Wilson 95 % upper bound for 0 of 5
    }
    const file = JSON.parse(readFileSync(join(out, 'recall.json'), 'utf8'));
    expect(file.items).toHaveLength(20);
    const positions = (n: number) => Array.from({ length: 5 }, (_, j) => 4 + Math.floor((j * (n - 4)) / 5));
    const detective = walk('detective');
    const recall = file.items.filter((x: { game: string; kind: string }) => x.game === 'detective' && x.kind === 'recall');
    expect(recall.map((x: { position: number }) => x.position)).toEqual(positions(detective.length));
    for (const x of recall) {
      expect(x.context).toEqual(detective.slice(x.position - 4, x.position));
      expect(x.target).toBe(detective[x.position]);
      expect(x).toMatchObject({ providerModel: 'mock-model-2024-07-18', exact: false, normalised: false });
    }
    // The frequency baseline is the walkthrough's own: the share of the probed commands equal to its most frequent one.
    const norm = (c: string) => ({ n: 'north', s: 'south', e: 'east', w: 'west', u: 'up', d: 'down' } as Record<string, string>)[c.toLowerCase()] ?? c.toLowerCase();
    const counts = new Map<string, number>();
    for (const c of detective) counts.set(norm(c), (counts.get(norm(c)) ?? 0) + 1);
    const mode = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    expect(summary.games[0].frequencyBaseline).toMatchObject({ command: mode, rate: { count: recall.filter((x: { target: string }) => norm(x.target) === mode).length, n: 5 } });
    // The prompts the provider got: the title and the numbered commands.
    const prompts = mock.requests.filter((q) => q.path.endsWith('/chat/completions')).map((q) => (q.body as { messages: { content: string }[] }).messages[1]!.content);
    expect(prompts).toContain(`These are consecutive commands from a walkthrough of the text adventure game “Detective”:\n${detective.slice(positions(detective.length)[0]! - 4, positions(detective.length)[0]!).map((c, j) => `${j + 1}. ${c}`).join('\n')}\nWhat is the next command of the walkthrough?`);
    expect(readFileSync(join(out, 'recall.md'), 'utf8')).toContain('| all games |');
    expect(readFileSync(join(out, 'recall.csv'), 'utf8').split('\n')[0]).toBe('game,walkthrough_lines,probes,failed,exact,normalised,normalised_low,normalised_high,shuffled_exact,shuffled_normalised,shuffled_low,shuffled_high,frequency_command,frequency_matches,excess,recall_only,control_only,sign_p,model,model_caveat');
  }, 60_000);

  it('the simulated provider (no memory of any game) recalls no more than the control; bad options are named', async () => {
    const r = await runCli(['probe', 'recall', '--tasks', 'ID', '--probes', '6', '--provider', 'simulated', '--json'], { ...env, OPENAI_API_KEY: '' });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.games.map((g: { game: string }) => g.game)).toEqual(['detective', 'zork1', 'temple']);
    expect(s.pooled.probes).toBe(18);
    expect(s.pooled.normalised.count).toBe(s.pooled.shuffledNormalised.count);
    for (const [args, message] of [
      [['--tasks', 'nosuchgame'], 'no Jericho walkthrough for nosuchgame'],
      [['--tasks', 'detective', '--k', '0'], '--k must be a whole number from 1 to 100'],
      [['--tasks', 'detective', '--k', '100'], 'has no command after the first 100'],
      [[], 'probe recall needs --tasks'],
    ] as const) {
      const bad = await runCli(['probe', 'recall', ...args, '--provider', 'simulated'], env);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toContain(message);
    }
    expect((await runCli(['probe', 'nope'], env)).stderr).toContain('unknown probe "nope"');
  }, 60_000);
});

/**
 * public/stories/catalog.json carries every engine-relevant field of ../shared/jericho/games.json
 * (scripts/build-catalog.mjs): RAM reads with bytes, signedness and offsets; status-line scores;
 * victory / game-over texts split at " OR " and without the C-source escapes they were pasted with.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/engine/catalog.ts';
import { readSharedJson, REPO_ROOT } from './support/shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const entry = (id: string) => catalog.stories.find((s) => s.id === id)!;

interface Game {
  name: string;
  score_read: { addr: number; bytes: number; signed?: boolean } | null;
  moves_read: { addr: number; bytes: number; offset?: number } | null;
  victory_detection: string;
  game_over_detection: string;
}

describe('catalog fields from games.json', () => {
  it('every Jericho game: score and moves reads with bytes, signedness (bytes) and offsets', () => {
    for (const g of readSharedJson<Game[]>('jericho/games.json')) {
      const e = entry(g.name);
      expect(e.scoreRead?.addr ?? null, g.name).toBe(g.score_read?.addr ?? null);
      expect(e.scoreRead?.bytes ?? null, g.name).toBe(g.score_read?.bytes ?? null);
      expect(e.scoreRead?.signed ?? false, g.name).toBe(g.score_read?.bytes === 1 && !!g.score_read.signed);
      expect(e.movesRead ?? null, g.name).toEqual(g.moves_read ? { addr: g.moves_read.addr, bytes: g.moves_read.bytes, ...(g.moves_read.offset ? { offset: g.moves_read.offset } : {}) } : null);
    }
    expect(entry('murdac').scoreRead).toEqual({ addr: 6357, bytes: 1 });
    expect(entry('seastalker').scoreRead).toEqual({ addr: 9310, bytes: 1, signed: true });
    expect(entry('905').movesRead).toEqual({ addr: 4295, bytes: 2, offset: -545 });
  });

  it('every story has its player object: Jericho\'s for each of its 57 games, selfobj for the teaching games', () => {
    const jericho = readSharedJson<Game[]>('jericho/games.json');
    expect(jericho).toHaveLength(57);
    for (const g of jericho) expect(Number.isInteger(entry(g.name).playerObject) && entry(g.name).playerObject! > 0, g.name).toBe(true);
    // Jericho's numbers (frotz/src/games/*.c get_self_object_num): the same as locations.json's
    // player_obj for the games we have files for (walkthroughs.test.ts), and a few others.
    expect(['905', 'zork1', 'zork3', 'curses', 'planetfall', 'ballyhoo'].map((id) => entry(id).playerObject)).toEqual([28, 4, 202, 15, 236, 211]);
    for (const id of ['lever-room', 'vault']) {
      const globals = JSON.parse(readFileSync(resolve(REPO_ROOT, 'games', id, `${id}.globals.json`), 'utf8')) as { player: number };
      expect(entry(id).playerObject).toBe(globals.player);
    }
    expect(catalog.stories.filter((s) => !s.playerObject).map((s) => s.id)).toEqual([]);
  });

  it('afflicted: no RAM score, the status line\'s last number negated', () => {
    expect(entry('afflicted')).toMatchObject({ scoreRead: null, statusLineScore: { negate: true }, victoryScore: null });
    expect(entry('905')).toMatchObject({ scoreRead: null, statusLineScore: null, victoryScore: 1 });
  });

  it('end texts: alternatives split, escapes removed, "never" is no text', () => {
    expect(entry('anchor').gameOverText).toEqual(['Do you want me to try to reincarnate you?', 'Would you like to RESTART, RESTORE a saved game, UNDO']);
    expect(entry('lurking').victoryText).toEqual(['The hacker, mud-covered and weak, staggers to his feet. "Can I have my key back?" he asks.']);
    expect(entry('zork2').victoryText).toEqual(['The ultimate adventure concludes in "Zork III: The Dungeon Master".']);
    expect(entry('inhumane').gameOverText).toBeNull();
    for (const s of catalog.stories) {
      for (const t of [s.victoryText, s.gameOverText].flat()) if (t) expect(t, s.id).not.toMatch(/\\|" OR "/);
    }
  });
});

// Regenerates public/stories/catalog.json: the bundled story (advent.z5, copied from glkote-term at
// build time) plus metadata — never files — for every Jericho game in ../shared/jericho/games.json
// (SHARED_DIR overrides ../shared), so a user who loads one of them gets its max score, seed, score
// and moves reads (bytes, signedness, offsets, or Jericho's status-line parse) and end texts (" OR "
// alternatives split, C-source escapes removed) automatically (matched by md5); then our teaching games (games/, compiled
// by scripts/build-games.sh into public/stories/), whose md5, score/turns addresses and player object
// are read from the compiled files. Every entry carries the player's object number (`playerObject`:
// Jericho's, src/stories/jericho-player-objects.json; ours, the Inform library's selfobj). Run scripts/build-games.sh first.
// Usage: node scripts/build-catalog.mjs
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const shared = resolve(root, process.env.SHARED_DIR ?? '../shared');
const games = JSON.parse(readFileSync(resolve(shared, 'jericho/games.json'), 'utf8'));
// Jericho's player object per game (frotz/src/games/<game>.c, get_self_object_num).
const { playerObjects } = JSON.parse(readFileSync(resolve(root, 'src/stories/jericho-player-objects.json'), 'utf8'));

const known = {
  advent: { title: 'Adventure', author: 'Will Crowther, Don Woods; Inform version by Graham Nelson', licence: 'Free non-commercial distribution (Inform example game terms)' },
  detective: { title: 'Detective', author: 'Matt Barringer; Inform port by Stuart Moore', licence: 'Freeware, no explicit distribution terms (not shipped)' },
  zork1: { title: 'Zork I: The Great Underground Empire (r88)', author: 'Infocom', licence: 'Commercial Infocom release (not shipped)' },
  zork3: { title: 'Zork III: The Dungeon Master (r17)', author: 'Infocom', licence: 'Commercial Infocom release (not shipped)' },
  temple: { title: 'The Temple', author: 'Johan Berntsson', licence: 'Free to distribute unmodified, non-profit (not shipped)' },
  balances: { title: 'Balances', author: 'Graham Nelson', licence: 'Free non-commercial distribution (Inform example game terms; not shipped)' },
  library: { title: 'All Quiet on the Library Front', author: 'Michael S. Phillips', licence: 'Free to distribute unmodified (not shipped)' },
};
const split = { detective: 'id', zork1: 'id', temple: 'id', balances: 'ood', library: 'ood', zork3: 'ood' };
/** Undo C-source string escapes (\\" and \\\\), repeatedly: some games.json texts were escaped twice. */
const unescapeC = (text) => {
  let out = text;
  while (/\\["\\]/.test(out)) out = out.replace(/\\(["\\])/g, '$1');
  return out;
};
/** The texts of a detection rule: `observation text contains "A" OR "B"` → ['A', 'B']; none → null. */
const endTexts = (s) => {
  const quoted = s ? /^observation text contains "(.*)"$/.exec(s)?.[1] : null;
  return quoted ? quoted.split('" OR "').map(unescapeC) : null;
};
/** A RAM read with everything Jericho applies: bytes, signedness (one byte only), offset. */
const ramRead = (r) =>
  r ? { addr: r.addr, bytes: r.bytes, ...(r.bytes === 1 && r.signed ? { signed: true } : {}), ...(r.offset ? { offset: r.offset } : {}) } : null;
/** Jericho parses the status line for games with no RAM score ("the last number after the final ':'"). */
const statusLineScore = (g) =>
  !g.score_read && /last number after the final ":"/.test(g.score_source) ? { negate: /negated/.test(g.score_source) } : null;

const stories = games.map((g) => {
  const info = known[g.name];
  const tags = ['jericho'];
  if (split[g.name]) tags.push(split[g.name]);
  if (g.name === 'advent') tags.push('demo');
  return {
    id: g.name,
    title: info?.title ?? g.name,
    author: info?.author ?? 'unknown (see Jericho)',
    licence: info?.licence ?? 'unknown: file not shipped',
    file: g.name === 'advent' ? 'advent.z5' : null,
    localName: g.rom,
    format: 'zcode',
    md5: g.rom_md5,
    maxScore: g.max_score,
    defaultSeed: g.seed,
    tags,
    scoreRead: ramRead(g.score_read),
    movesRead: ramRead(g.moves_read),
    statusLineScore: statusLineScore(g),
    victoryText: endTexts(g.victory_detection),
    gameOverText: endTexts(g.game_over_detection),
    victoryScore: g.score_read || statusLineScore(g) ? null : 1,
    introActions: g.intro_actions,
    playerObject: playerObjects[g.name] ?? null,
  };
});

// Teaching games (games/README.md): ours, shipped. The secret is drawn from the seed, a failed
// attempt ends with "Next time, try: …", and a player who remembers wins in five moves.
const teaching = [
  { id: 'lever-room', title: 'The Lever Room', gameOverText: '*** You have died ***' },
  { id: 'vault', title: 'The Vault', gameOverText: '*** You have been caught ***' },
];
for (const game of teaching) {
  const file = `${game.id}.z5`;
  const bytes = readFileSync(resolve(root, 'public/stories', file));
  // Byte addresses of the library globals `score` and `turns` and the object number of `selfobj`,
  // the player (written by scripts/build-games.sh).
  const globals = JSON.parse(readFileSync(resolve(root, 'games', game.id, `${game.id}.globals.json`), 'utf8'));
  stories.push({
    id: game.id,
    title: game.title,
    author: 'Meta-TTL Playground',
    licence: 'CC0-1.0',
    file,
    localName: file,
    format: 'zcode',
    md5: createHash('md5').update(bytes).digest('hex'),
    maxScore: 5,
    defaultSeed: 1,
    tags: ['teaching', 'demo'],
    scoreRead: { addr: globals.score, bytes: 2 },
    movesRead: { addr: globals.turns, bytes: 2 },
    statusLineScore: null,
    victoryText: ['*** You have won ***'],
    gameOverText: [game.gameOverText],
    victoryScore: null,
    introActions: [],
    playerObject: globals.player,
  });
}

const catalog = {
  about: 'Story catalog of Meta-TTL Playground. Entries with file = null are metadata only (Jericho data, microsoft/jericho b6b48b5): the story file is not shipped; load your own copy and it is matched by md5. Entries tagged "teaching" are our own games (games/, CC0-1.0), shipped.',
  version: 1,
  stories,
};
writeFileSync(resolve(root, 'public/stories/catalog.json'), JSON.stringify(catalog, null, 1) + '\n');
console.log(`catalog.json: ${stories.length} stories`);

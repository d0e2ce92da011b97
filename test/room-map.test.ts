/**
 * The session map (src/agents/room-map.ts): rooms and moves come from the locations the engine
 * reports, on a teaching game played in-process (The Vault: Lobby → Vault Door → Vault) and on
 * The Lever Room (one room, no moves); the shipped recordings, made before locations were
 * reported, give an empty map without error; the slider's view keeps only what was found by then.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRoomMap, roomMapUpTo, type MapEpisode } from '../src/agents/room-map.ts';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { REPO_ROOT } from './support/shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));

/** Plays `commands` on a shipped teaching game and returns the episode as the map reads it. */
function playEpisode(id: string, seed: number, commands: string[]): MapEpisode {
  const entry = catalog.stories.find((s) => s.id === id)!;
  const engine = loadStory(new Uint8Array(readFileSync(resolve(REPO_ROOT, 'public/stories', entry.file!))), { seed, rules: rulesFor(entry) });
  const steps: MapEpisode['steps'][number][] = [];
  let score = engine.start.score ?? 0;
  for (const [i, action] of commands.entries()) {
    const r = engine.step(action);
    steps.push({ index: i + 1, action, reward: (r.score ?? 0) - score, location: r.location });
    score = r.score ?? 0;
    if (r.done) break;
  }
  return { startLocation: engine.start.location, steps };
}

/** The vault's seed-dependent code, read from the death hint of a first attempt ("enter 000"). */
function vaultCode(seed: number): string {
  const entry = catalog.stories.find((s) => s.id === 'vault')!;
  const engine = loadStory(new Uint8Array(readFileSync(resolve(REPO_ROOT, 'public/stories', entry.file!))), { seed, rules: rulesFor(entry) });
  engine.step('take card');
  engine.step('east');
  const hint = /Next time, try: (ENTER [1-9]\d\d)\./.exec(engine.step('enter 000').text)?.[1];
  if (!hint) throw new Error('The Vault gave no code hint');
  return hint.toLowerCase();
}

describe('buildRoomMap on The Vault played in-process', () => {
  const code = vaultCode(1);
  const episodes = [
    playEpisode('vault', 1, ['look', 'east', 'west', 'take card', 'east']),
    playEpisode('vault', 1, ['take card', 'east', code, 'east', 'take gem']),
  ];
  const map = buildRoomMap(episodes);

  it('rooms are the locations in order of discovery, with the episode that found them', () => {
    expect(map.rooms.map((r) => [r.name, r.firstEpisode])).toEqual([['Lobby', 0], ['Vault Door', 0], ['Vault', 1]]);
    expect(map.rooms[1]!.firstStep).toBe(2);
    expect(map.rooms[2]!.firstStep).toBe(4);
  });

  it('moves are edges labelled by the command, found once per ordered pair of rooms', () => {
    const names = new Map(map.rooms.map((r) => [r.id, r.name]));
    expect(map.edges.map((e) => [names.get(e.from), names.get(e.to), e.commands, e.firstEpisode])).toEqual([
      ['Lobby', 'Vault Door', ['east'], 0],
      ['Vault Door', 'Lobby', ['west'], 0],
      ['Vault Door', 'Vault', ['east'], 1],
    ]);
  });

  it('each episode\'s path has a location for the start and every step, and its moves in order', () => {
    const [lobby, door, vault] = map.rooms.map((r) => r.id);
    expect(map.paths[0]!.rooms).toEqual([lobby, lobby, door, lobby, lobby, door]);
    expect(map.paths[0]!.moves).toEqual([`${lobby}>${door}`, `${door}>${lobby}`, `${lobby}>${door}`]);
    expect(map.paths[1]!.rooms).toEqual([lobby, lobby, door, door, vault, vault]);
  });

  it('marks rooms where points were scored and where each episode ended', () => {
    const byName = new Map(map.rooms.map((r) => [r.name, r]));
    expect(byName.get('Lobby')!.scoredIn).toEqual([0, 1]);
    expect(byName.get('Vault Door')!.endedIn).toEqual([0]);
    expect(byName.get('Vault')!.endedIn).toEqual([1]);
    expect(byName.get('Vault')!.scoredIn).toEqual([1]);
  });

  it('the map up to an episode holds only what was found by then', () => {
    const first = roomMapUpTo(map, 0);
    expect(first.rooms.map((r) => r.name)).toEqual(['Lobby', 'Vault Door']);
    expect(first.edges).toHaveLength(2);
    expect(first.paths).toHaveLength(1);
    expect(first.rooms.find((r) => r.name === 'Lobby')!.scoredIn).toEqual([0]);
    expect(roomMapUpTo(map, 1)).toEqual(map);
  });
});

describe('buildRoomMap, other games and records', () => {
  it('The Lever Room is one room, with no moves, where the episode scored and ended', () => {
    const map = buildRoomMap([playEpisode('lever-room', 1, ['pull red lever', 'pull yellow lever', 'look'])]);
    expect(map.rooms.map((r) => r.name)).toEqual(['Lever Room']);
    expect(map.edges).toEqual([]);
    expect(map.rooms[0]!.endedIn).toEqual([0]);
  });

  it.each(['lever-room-naive.json', 'lever-room-smollm2.json'])('the shipped recording %s (no locations recorded) gives an empty map', (file) => {
    const record = JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/replays', file), 'utf8')) as { episodes: { trajectory: MapEpisode }[] };
    const map = buildRoomMap(record.episodes.map((e) => e.trajectory));
    expect(map.rooms).toEqual([]);
    expect(map.edges).toEqual([]);
    expect(map.paths).toHaveLength(record.episodes.length);
    expect(map.paths[0]!.rooms.every((r) => r === null)).toBe(true);
    expect(map.paths[0]!.rooms).toHaveLength(record.episodes[0]!.trajectory.steps.length + 1);
  });

  it('a step without a location breaks the path: no edge spans it', () => {
    const a = { id: 5, name: 'Hall' };
    const b = { id: 6, name: 'Yard' };
    const map = buildRoomMap([{ startLocation: a, steps: [
      { index: 1, action: 'Go  North', reward: 0, location: null },
      { index: 2, action: 'look', reward: 0, location: b },
      { index: 3, action: 'S', reward: 0, location: a },
    ] }]);
    expect(map.edges.map((e) => [e.key, e.commands])).toEqual([['6>5', ['s']]]);
    expect(map.paths[0]!.rooms).toEqual([5, null, 6, 5]);
  });
});

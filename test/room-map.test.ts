/**
 * The session map (src/agents/room-map.ts): rooms and moves come from the locations the engine
 * reports, on a teaching game played in-process (The Vault: Lobby → Vault Door → Vault) and on
 * The Lever Room (one room, no moves); the shipped recordings, made before locations were
 * reported, give an empty map without error; the slider's view keeps only what was found by then.
 * (A room here is a game location, not the workshop room of `metattl room`: docs/glossary.md.)
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRoomMap, roomMapUpTo, type MapEpisode } from '../src/agents/room-map.ts';
import { REPO_ROOT } from './support/shared.ts';
import { jerichoEpisodes, playEpisode, vaultCode } from './support/map-episodes.ts';

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

  it.each(['test/fixtures/recordings/lever-room-scripted.json'])('the recording %s (made before locations were reported) gives an empty map', (file) => {
    const record = JSON.parse(readFileSync(resolve(REPO_ROOT, file), 'utf8')) as { episodes: { trajectory: MapEpisode }[] };
    const map = buildRoomMap(record.episodes.map((e) => e.trajectory));
    expect(map.rooms).toEqual([]);
    expect(map.edges).toEqual([]);
    expect(map.paths).toHaveLength(record.episodes.length);
    expect(map.paths[0]!.rooms.every((r) => r === null)).toBe(true);
    expect(map.paths[0]!.rooms).toHaveLength(record.episodes[0]!.trajectory.steps.length + 1);
  });

  it('Zork I with Jericho\'s locations along its walkthrough: the opening moves, and the map grows as episodes go deeper', () => {
    const map = buildRoomMap(jerichoEpisodes('zork1', [15, 30, 45, 60]));
    const names = new Map(map.rooms.map((r) => [r.id, r.name]));
    expect(map.edges.slice(0, 3).map((e) => `${names.get(e.from)} -${e.commands.join('/')}-> ${names.get(e.to)}`)).toEqual([
      'West House -n-> North House', 'North House -n-> Forest Path', 'Forest Path -u-> Up a Tree',
    ]);
    const found = [0, 1, 2, 3].map((e) => roomMapUpTo(map, e).rooms.length);
    expect(found).toEqual([...found].sort((a, b) => a - b));
    expect(found[3]).toBeGreaterThan(found[0]!);
    expect(map.rooms.every((r) => r.endedIn.every((e) => map.paths[e]!.rooms.at(-1) === r.id))).toBe(true);
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

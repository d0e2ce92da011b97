/**
 * The map panel's scene and its SVG export (src/ui/shared/map/map-scene.ts): rooms and moves
 * coloured by the episode that found them, the shown episode's path and the actor's room marked,
 * scored and end rooms marked; game and model text (room names, commands) escaped in the SVG, never
 * markup; the export is a 1920 × 1080 document.
 */
import { describe, expect, it } from 'vitest';
import { buildRoomMap, roomMapUpTo } from '../src/agents/room-map.ts';
import { episodeColour, mapScene, mapSvg, xmlText, type Point } from '../src/ui/shared/map/map-scene.ts';
import { layoutRooms } from '../src/ui/shared/map/room-layout.ts';
import { currentRoomOf, mapEpisodesOf, replayedMapEpisodes } from '../src/ui/shared/map/session-map.ts';
import type { Trajectory, TrajectoryStep } from '../src/agents/trajectory.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { playEpisode, vaultCode } from './support/map-episodes.ts';

describe('mapScene on The Vault', async () => {
  const code = vaultCode(3);
  const map = buildRoomMap([playEpisode('vault', 3, ['take card', 'east', 'west']), playEpisode('vault', 3, ['take card', 'east', code, 'east', 'take gem'])]);
  const at = await layoutRooms(map);
  const byName = (scene: ReturnType<typeof mapScene>, name: string) => scene.rooms.find((r) => r.name === name)!;

  it('colours rooms and moves by the episode that found them and draws the shown episode\'s path', () => {
    const scene = mapScene(map, at, 1, null);
    expect(scene.rooms.map((r) => [r.name, r.colour])).toEqual([['Lobby', episodeColour(0)], ['Vault Door', episodeColour(0)], ['Vault', episodeColour(1)]]);
    expect(scene.edges.map((e) => [e.label, e.onPath, e.colour])).toEqual([
      ['east', true, episodeColour(0)], ['west', false, episodeColour(0)], ['east', true, episodeColour(1)],
    ]);
    expect(scene.legend.map((l) => l.episode)).toEqual([0, 1]);
  });

  it('marks the room the actor is in (given, else where the episode ended), scored and end rooms', () => {
    const end = mapScene(map, at, 1, null);
    expect(end.rooms.filter((r) => r.current).map((r) => r.name)).toEqual(['Vault']);
    expect(byName(end, 'Vault').ended).toBe(true);
    expect(byName(end, 'Vault').scored).toBe(true);
    expect(byName(end, 'Lobby').scored).toBe(true);
    const live = mapScene(map, at, 1, byName(end, 'Vault Door').id);
    expect(live.rooms.filter((r) => r.current).map((r) => r.name)).toEqual(['Vault Door']);
    const first = mapScene(roomMapUpTo(map, 0), at, 0, null);
    expect(first.rooms.map((r) => r.name)).toEqual(['Lobby', 'Vault Door']);
    expect(first.rooms.filter((r) => r.ended).map((r) => r.name)).toEqual(['Lobby']);
    expect(byName(first, 'Vault Door').onPath).toBe(true);
  });

  it('keeps every room inside its box and the box the same whatever the episode shown (stable frame)', () => {
    const scene = mapScene(map, at, 0, null);
    for (const r of scene.rooms) {
      expect(r.x - r.width / 2).toBeGreaterThanOrEqual(scene.box.x);
      expect(r.y + r.height / 2).toBeLessThanOrEqual(scene.box.y + scene.box.height);
    }
    expect(mapScene(map, at, 1, null).box).toEqual(scene.box);
  });
});

describe('mapSvg', () => {
  const at = new Map<number, Point>([[1, { x: 0, y: 0 }], [2, { x: 200, y: 0 }]]);
  const hostile = '<script>alert("x")</script>';
  const map = buildRoomMap([{ startLocation: { id: 1, name: 'Hall & <b>Yard</b>' }, steps: [{ index: 1, action: hostile, reward: 1, location: { id: 2, name: 'Attic' } }] }]);

  it('escapes room names and commands: model output is text, never markup', () => {
    const svg = mapSvg(mapScene(map, at, 0, null), { title: 'Map <1>', subtitle: 'model "x"' });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('Hall &amp; &lt;b&gt;Yard&lt;/b&gt;');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/s…');
    expect(svg).toContain('Map &lt;1&gt;');
    expect(xmlText(`a'b`)).toBe('a&#39;b');
  });

  it('is a 1920 × 1080 document by default, another size on request', () => {
    const svg = mapSvg(mapScene(map, at, 0, null), { title: 't' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1920" height="1080"/);
    expect(mapSvg(mapScene(map, at, 0, null), { title: 't', width: 1280, height: 720 })).toContain('width="1280" height="720"');
  });
});

describe('the map of a session record', () => {
  const a = { id: 5, name: 'Hall' };
  const b = { id: 6, name: 'Yard' };
  const step = (index: number, location: { id: number; name: string } | null) => ({ index, action: 'n', reward: 0, location }) as unknown as TrajectoryStep;
  const record = {
    episodes: [
      { index: 1, trajectory: { startLocation: a, steps: [step(1, b)] } as unknown as Trajectory, steps: [] },
      { index: 2, trajectory: { startLocation: a, steps: [step(1, b), step(2, a)] } as unknown as Trajectory, steps: [] },
    ],
    config: { task: { kind: 'zmachine', id: 'vault:1' } },
  } as unknown as Pick<SessionRecord, 'episodes' | 'config'>;

  it('a replay draws the episodes before the current one whole and the current one as far as shown', () => {
    const shown = replayedMapEpisodes(record, 2, [step(1, b)]);
    expect(shown).toHaveLength(2);
    expect(shown[1]).toEqual({ startLocation: a, steps: [step(1, b)] });
    expect(currentRoomOf(shown[1])).toBe(6);
    expect(replayedMapEpisodes(record, 1, [])).toEqual([{ startLocation: a, steps: [] }]);
    expect(currentRoomOf({ startLocation: a, steps: [] })).toBe(5);
    expect(currentRoomOf({ startLocation: null, steps: [step(1, null)] })).toBeNull();
  });

  it('a running episode is drawn from its live steps and start location', () => {
    const running = { ...record, episodes: [...record.episodes, { index: 3, trajectory: null, steps: [] }] } as unknown as Pick<SessionRecord, 'episodes' | 'config'>;
    const eps = mapEpisodesOf(running, { index: 3, steps: [step(1, b)], startLocation: a });
    expect(eps[2]).toEqual({ startLocation: a, steps: [step(1, b)] });
    expect(mapEpisodesOf(running)[2]).toEqual({ startLocation: null, steps: [] });
  });
});

/**
 * The map layout (src/ui/shared/map/room-layout.ts, ELK stress): every room gets a place, rooms do
 * not overlap, and the layout is stable as rooms are added — placing a later episode's rooms never
 * moves a room placed for an earlier one (Zork I's walkthrough explored deeper each episode, with
 * Jericho's locations; The Vault played in-process). Same input, same places.
 * (A room here is a game location, not the workshop room of `metattl room`: docs/glossary.md.)
 */
import { describe, expect, it } from 'vitest';
import { buildRoomMap, roomMapUpTo } from '../src/agents/room-map.ts';
import { roomBoxSize, type Point } from '../src/ui/shared/map/map-scene.ts';
import { layoutRooms } from '../src/ui/shared/map/room-layout.ts';
import { jerichoEpisodes, playEpisode, vaultCode } from './support/map-episodes.ts';

function overlaps(map: { rooms: readonly { id: number; name: string }[] }, at: Map<number, Point>): string[] {
  const found: string[] = [];
  for (const [i, a] of map.rooms.entries()) {
    for (const b of map.rooms.slice(i + 1)) {
      const [pa, pb, sa, sb] = [at.get(a.id)!, at.get(b.id)!, roomBoxSize(a.name), roomBoxSize(b.name)];
      if (Math.abs(pa.x - pb.x) < (sa.width + sb.width) / 2 && Math.abs(pa.y - pb.y) < (sa.height + sb.height) / 2) found.push(`${a.name} / ${b.name}`);
    }
  }
  return found;
}

describe('layoutRooms', () => {
  const zork = buildRoomMap(jerichoEpisodes('zork1', [15, 30, 45, 60]));

  it('places every room of a whole session once, without overlaps, the same way each time', async () => {
    const at = await layoutRooms(zork);
    expect([...at.keys()].sort()).toEqual(zork.rooms.map((r) => r.id).sort());
    expect(zork.rooms.length).toBeGreaterThanOrEqual(15);
    expect(overlaps(zork, at)).toEqual([]);
    expect(await layoutRooms(zork)).toEqual(at);
  });

  it('a live session: rooms placed for earlier episodes keep their places as later episodes add rooms', async () => {
    let placed = new Map<number, Point>();
    for (let episode = 0; episode < zork.paths.length; episode++) {
      const shown = roomMapUpTo(zork, episode);
      const before = new Map(placed);
      placed = await layoutRooms(shown, placed);
      expect(placed.size).toBe(shown.rooms.length);
      for (const [id, p] of before) expect(placed.get(id)).toEqual(p);
      expect(overlaps(shown, placed)).toEqual([]);
    }
    expect(roomMapUpTo(zork, 0).rooms.length).toBeLessThan(zork.rooms.length);
  });

  it('a room found in a later episode of The Vault is placed beside the placed ones, which stay', async () => {
    const code = vaultCode(2);
    const first = buildRoomMap([playEpisode('vault', 2, ['take card', 'east'])]);
    const both = buildRoomMap([playEpisode('vault', 2, ['take card', 'east']), playEpisode('vault', 2, ['take card', 'east', code, 'east'])]);
    const early = await layoutRooms(first);
    const later = await layoutRooms(both, early);
    expect(both.rooms.map((r) => r.name)).toEqual(['Lobby', 'Vault Door', 'Vault']);
    for (const r of first.rooms) expect(later.get(r.id)).toEqual(early.get(r.id));
    expect(overlaps(both, later)).toEqual([]);
  });

  it('an empty map has no places', async () => {
    expect((await layoutRooms({ rooms: [], edges: [] })).size).toBe(0);
  });
});

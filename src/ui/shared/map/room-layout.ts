/**
 * The one module that imports elkjs (the Eclipse Layout Kernel compiled to JavaScript, no
 * dependencies): places a session map's rooms with ELK's stress layout, which draws rooms linked by
 * a move at about one edge length apart, like a hand-drawn IF map.
 * (A room here is a game location, not the workshop room of `metattl room`: docs/glossary.md.)
 *
 * Stability (a room found in episode 1 does not jump in episode 4): rooms already placed are passed
 * in and kept exactly where they are (ELK `stress.fixed` with `interactive`, then the whole result is
 * translated back so the fixed rooms keep their coordinates); only new rooms are placed, around them.
 * A finished session is laid out once over all its episodes and revealed episode by episode.
 *
 * Loaded on demand (the map panel imports it dynamically): elkjs is ~1.6 MB and stays out of the
 * first load.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { roomBoxSize, type Point } from './map-scene.ts';

export type { Point };

/** What the layout reads of a map: rooms (id, name) and moves (from, to room ids). */
export interface LayoutInput {
  rooms: readonly { id: number; name: string }[];
  edges: readonly { from: number; to: number }[];
}

/** Distance ELK aims for between rooms linked by a move, px. */
const EDGE_LENGTH = 150;

let elk: InstanceType<typeof ELK> | null = null;

/**
 * Places the rooms of `map`: those in `placed` stay at their points; the others are placed by
 * ELK's stress layout around them. Deterministic for the same input.
 * @param placed room id → centre from an earlier call (empty: lay out everything)
 * @returns room id → centre for every room of `map` (layout px, may be negative)
 * @throws Error when ELK fails (a malformed graph)
 */
export async function layoutRooms(map: LayoutInput, placed: ReadonlyMap<number, Point> = new Map()): Promise<Map<number, Point>> {
  const out = new Map<number, Point>();
  const fresh = map.rooms.filter((r) => !placed.has(r.id));
  for (const r of map.rooms) if (placed.has(r.id)) out.set(r.id, placed.get(r.id)!);
  if (fresh.length === 0) return out;
  const ids = new Set(map.rooms.map((r) => r.id));
  const pairs = new Set<string>();
  const edges: { id: string; sources: string[]; targets: string[] }[] = [];
  for (const e of map.edges) {
    if (!ids.has(e.from) || !ids.has(e.to) || e.from === e.to) continue;
    const key = e.from < e.to ? `${e.from}-${e.to}` : `${e.to}-${e.from}`;
    if (pairs.has(key)) continue;
    pairs.add(key);
    edges.push({ id: `e${key}`, sources: [`r${e.from}`], targets: [`r${e.to}`] });
  }
  const children: ElkNode[] = map.rooms.map((r) => {
    const { width, height } = roomBoxSize(r.name);
    const at = placed.get(r.id);
    return at
      ? { id: `r${r.id}`, width, height, x: at.x - width / 2, y: at.y - height / 2, layoutOptions: { 'org.eclipse.elk.stress.fixed': 'true' } }
      : { id: `r${r.id}`, width, height };
  });
  const graph: ElkNode = {
    id: 'map',
    layoutOptions: {
      'elk.algorithm': 'stress',
      'org.eclipse.elk.stress.desiredEdgeLength': String(EDGE_LENGTH),
      'org.eclipse.elk.interactive': placed.size > 0 ? 'true' : 'false',
      'elk.spacing.nodeNode': '40',
    },
    children,
    edges,
  };
  elk ??= new ELK();
  const result = await elk.layout(graph);
  const centres = new Map<number, Point>();
  for (const c of result.children ?? []) centres.set(Number(c.id.slice(1)), { x: (c.x ?? 0) + (c.width ?? 0) / 2, y: (c.y ?? 0) + (c.height ?? 0) / 2 });
  // ELK moves the drawing to its own origin: translate back so a fixed room is where it was.
  const anchor = map.rooms.find((r) => placed.has(r.id));
  const dx = anchor ? placed.get(anchor.id)!.x - centres.get(anchor.id)!.x : 0;
  const dy = anchor ? placed.get(anchor.id)!.y - centres.get(anchor.id)!.y : 0;
  for (const r of fresh) {
    const c = centres.get(r.id);
    if (!c) throw new Error(`The map layout placed no room ${r.id}.`);
    out.set(r.id, { x: c.x + dx, y: c.y + dy });
  }
  return out;
}

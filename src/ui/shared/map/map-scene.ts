/**
 * What the map panel draws, as plain data (no DOM): rooms as boxes at their laid-out centres,
 * moves as lines labelled by the command, each coloured by the episode that first found it, the
 * shown episode's path over the whole map, the room the actor is in, scored and end rooms marked.
 * `mapSvg` writes the same scene as a standalone SVG document (the export), every game or model
 * text escaped: room names and commands are text only, never markup.
 * (A room here is a game location, not the workshop room of `metattl room`: docs/glossary.md.)
 */
import type { RoomMap } from '../../../agents/room-map.ts';

/** A room's centre, in layout px. */
export interface Point {
  x: number;
  y: number;
}

/** A room box's size in layout px for its name (one line of 13 px type, 72–220 px wide). */
export function roomBoxSize(name: string): { width: number; height: number } {
  return { width: Math.min(220, Math.max(72, 16 + name.length * 7.5)), height: 36 };
}

/** Okabe–Ito colours (distinguishable with colour-vision deficiency), one per episode, repeating. */
export const EPISODE_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#8c6d1f', '#5d5d5d'] as const;

/** The colour of 0-based episode `episode`. */
export const episodeColour = (episode: number): string => EPISODE_COLOURS[((episode % EPISODE_COLOURS.length) + EPISODE_COLOURS.length) % EPISODE_COLOURS.length]!;

/** Longest command label drawn on an edge (the full text is in the edge's tooltip). */
const LABEL_CHARS = 22;
/** Longest room name drawn in its box (the widest box holds this many characters). */
const ROOM_CHARS = 27;

export interface SceneRoom {
  id: number;
  /** The name as drawn (shortened to fit its box; game text, drawn as text only). */
  name: string;
  /** The name in full (the tooltip). */
  fullName: string;
  /** Box centre and size, layout px. */
  x: number;
  y: number;
  width: number;
  height: number;
  firstEpisode: number;
  colour: string;
  /** Points were scored here in an episode up to the shown one. */
  scored: boolean;
  /** The shown episode ended here. */
  ended: boolean;
  /** The actor is here now (the live or replayed step; else where the shown episode ended). */
  current: boolean;
  /** The shown episode passed through. */
  onPath: boolean;
}

export interface SceneEdge {
  key: string;
  /** From and to points on the rooms' box borders, layout px. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Where the label sits (beside the line's middle). */
  labelX: number;
  labelY: number;
  /** The commands of this move, shortened to fit ("e / east"). */
  label: string;
  /** The commands in full (the tooltip). */
  fullLabel: string;
  firstEpisode: number;
  colour: string;
  /** The shown episode made this move. */
  onPath: boolean;
}

export interface MapScene {
  rooms: SceneRoom[];
  edges: SceneEdge[];
  /** Bounds of everything drawn, layout px, with a margin. */
  box: { x: number; y: number; width: number; height: number };
  /** 0-based episode shown. */
  episode: number;
  /** Episodes that found something shown, with their colours (the legend). */
  legend: { episode: number; colour: string }[];
}

/** Where the segment from a box's centre towards `to` leaves the box (half sizes `hw`, `hh`). */
function borderPoint(from: Point, to: Point, hw: number, hh: number): Point {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  if (dx === 0 && dy === 0) return from;
  const t = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
  return { x: from.x + dx * Math.min(1, t), y: from.y + dy * Math.min(1, t) };
}

/** `text` cut to `max` characters with an ellipsis. */
const shorten = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The scene of `map` (already cut to the shown episode with `roomMapUpTo`) at the places `at`.
 * Rooms without a place are left out (the layout has not placed them yet).
 * @param episode the 0-based episode shown (its path is drawn over the map)
 * @param current the room id the actor is in now, or null (then the shown episode's last room)
 */
export function mapScene(map: RoomMap, at: ReadonlyMap<number, Point>, episode: number, current: number | null): MapScene {
  const path = map.paths[episode];
  const pathRooms = new Set((path?.rooms ?? []).filter((r): r is number => r !== null));
  const pathMoves = new Set(path?.moves ?? []);
  const here = current ?? [...(path?.rooms ?? [])].reverse().find((r) => r !== null) ?? null;
  const rooms: SceneRoom[] = [];
  for (const r of map.rooms) {
    const p = at.get(r.id);
    if (!p) continue;
    const { width, height } = roomBoxSize(r.name);
    rooms.push({
      id: r.id, name: shorten(r.name || `#${r.id}`, ROOM_CHARS), fullName: r.name || `#${r.id}`, x: p.x, y: p.y, width, height, firstEpisode: r.firstEpisode, colour: episodeColour(r.firstEpisode),
      scored: r.scoredIn.some((e) => e <= episode), ended: r.endedIn.includes(episode), current: r.id === here, onPath: pathRooms.has(r.id),
    });
  }
  const byId = new Map(rooms.map((r) => [r.id, r]));
  const keys = new Set(map.edges.map((e) => e.key));
  const edges: SceneEdge[] = [];
  for (const e of map.edges) {
    const a = byId.get(e.from);
    const b = byId.get(e.to);
    if (!a || !b) continue;
    // A move made both ways is drawn as two lines a little apart, each with its own label.
    const twoWay = keys.has(`${e.to}>${e.from}`);
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const [nx, ny] = [-(b.y - a.y) / len, (b.x - a.x) / len];
    const off = twoWay ? 5 : 0;
    const p1 = borderPoint(a, b, a.width / 2, a.height / 2);
    const p2 = borderPoint(b, a, b.width / 2, b.height / 2);
    const full = e.commands.join(' / ') || '(no command)';
    edges.push({
      key: e.key, x1: p1.x + nx * off, y1: p1.y + ny * off, x2: p2.x + nx * off, y2: p2.y + ny * off,
      labelX: (p1.x + p2.x) / 2 + nx * (off + 10), labelY: (p1.y + p2.y) / 2 + ny * (off + 10),
      label: shorten(full, LABEL_CHARS), fullLabel: full, firstEpisode: e.firstEpisode, colour: episodeColour(e.firstEpisode), onPath: pathMoves.has(e.key),
    });
  }
  const margin = 40;
  const xs = rooms.flatMap((r) => [r.x - r.width / 2, r.x + r.width / 2]);
  const ys = rooms.flatMap((r) => [r.y - r.height / 2, r.y + r.height / 2]);
  const lx = edges.flatMap((e) => [e.labelX - 60, e.labelX + 60]);
  const ly = edges.map((e) => e.labelY);
  const minX = Math.min(...xs, ...lx, 0) - margin;
  const minY = Math.min(...ys, ...ly, 0) - margin;
  const maxX = Math.max(...xs, ...lx, 0) + margin;
  const maxY = Math.max(...ys, ...ly, 0) + margin;
  const found = new Set([...rooms.map((r) => r.firstEpisode), ...edges.map((e) => e.firstEpisode)]);
  return {
    rooms, edges, episode,
    box: { x: minX, y: minY, width: maxX - minX, height: maxY - minY },
    legend: [...found].sort((p, q) => p - q).map((e) => ({ episode: e, colour: episodeColour(e) })),
  };
}

/** `box` grown about its centre to at least `minWidth` × `minHeight`: a small map is drawn at
 * about its own size, not zoomed to fill the frame. */
export function atLeast(box: MapScene['box'], minWidth: number, minHeight: number): MapScene['box'] {
  const width = Math.max(box.width, minWidth);
  const height = Math.max(box.height, minHeight);
  return { x: box.x - (width - box.width) / 2, y: box.y - (height - box.height) / 2, width, height };
}

/** `text` safe inside an XML text node or attribute. */
export function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Size and titles of an exported map. */
export interface MapSvgOptions {
  /** Pixel size of the document (default 1920 × 1080, a slide). */
  width?: number;
  height?: number;
  /** Headline, e.g. "The Lever Room — map after episode 3". */
  title: string;
  /** Second line: story, policy, model, seed. */
  subtitle?: string;
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

/**
 * The scene as a standalone SVG document (white background, dark text: readable on a projector),
 * the map fitted below the titles, a legend of episode colours and marks at the bottom.
 * @returns SVG source (UTF-8 text, `image/svg+xml`)
 */
export function mapSvg(scene: MapScene, { width = 1920, height = 1080, title, subtitle }: MapSvgOptions): string {
  const top = subtitle ? 120 : 80;
  const bottom = 60;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="40" y="58" font-size="40" font-weight="700" fill="#1e1e1e">${xmlText(title)}</text>`);
  if (subtitle) out.push(`<text x="40" y="100" font-size="26" fill="#4a4a4a">${xmlText(subtitle)}</text>`);
  const b = atLeast(scene.box, 720, 340);
  out.push(`<svg x="20" y="${top}" width="${width - 40}" height="${height - top - bottom}" viewBox="${n(b.x)} ${n(b.y)} ${n(b.width)} ${n(b.height)}" preserveAspectRatio="xMidYMid meet">`);
  out.push('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="12" markerHeight="12" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="context-stroke"/></marker></defs>');
  for (const e of scene.edges) {
    out.push(`<line x1="${n(e.x1)}" y1="${n(e.y1)}" x2="${n(e.x2)}" y2="${n(e.y2)}" stroke="${e.colour}" stroke-width="${e.onPath ? 5 : 2}" stroke-opacity="${e.onPath ? 1 : 0.55}" marker-end="url(#arrow)"/>`);
    out.push(`<text x="${n(e.labelX)}" y="${n(e.labelY)}" font-size="13" text-anchor="middle" dominant-baseline="middle" fill="#1e1e1e" stroke="#ffffff" stroke-width="4" paint-order="stroke"${e.onPath ? ' font-weight="700"' : ''}>${xmlText(e.label)}</text>`);
  }
  for (const r of scene.rooms) {
    const [x, y] = [r.x - r.width / 2, r.y - r.height / 2];
    if (r.current) out.push(`<rect x="${n(x - 6)}" y="${n(y - 6)}" width="${n(r.width + 12)}" height="${n(r.height + 12)}" rx="12" fill="none" stroke="#1e1e1e" stroke-width="3" stroke-dasharray="6 4"/>`);
    out.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(r.width)}" height="${n(r.height)}" rx="8" fill="${r.onPath ? r.colour : '#ffffff'}" fill-opacity="${r.onPath ? 0.18 : 1}" stroke="${r.colour}" stroke-width="${r.onPath ? 3 : 2}"/>`);
    out.push(`<text x="${n(r.x)}" y="${n(r.y)}" font-size="13" text-anchor="middle" dominant-baseline="middle" fill="#1e1e1e"${r.current ? ' font-weight="700"' : ''}>${xmlText(r.name)}</text>`);
    if (r.scored) out.push(`<text x="${n(x + r.width - 2)}" y="${n(y + 2)}" font-size="18" text-anchor="middle" fill="#b8860b">★</text>`);
    if (r.ended) out.push(`<text x="${n(x - 4)}" y="${n(y + 2)}" font-size="16" text-anchor="middle" fill="#1e1e1e">⚑</text>`);
  }
  out.push('</svg>');
  let lx = 40;
  const ly = height - 24;
  for (const l of scene.legend) {
    out.push(`<rect x="${lx}" y="${ly - 16}" width="20" height="20" rx="4" fill="${l.colour}"/><text x="${lx + 28}" y="${ly}" font-size="20" fill="#1e1e1e">episode ${l.episode + 1}</text>`);
    lx += 150;
  }
  out.push(`<text x="${width - 40}" y="${ly}" font-size="20" text-anchor="end" fill="#4a4a4a">★ points scored · ⚑ episode ended · dashed: the actor is here · bold: episode ${scene.episode + 1}'s path</text>`);
  out.push('</svg>');
  return out.join('\n');
}

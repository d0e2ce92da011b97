/**
 * The map of a session: the rooms the player stood in and the moves between them, built from the
 * locations the engine reports at every step (`Trajectory.startLocation`, `TrajectoryStep.location`:
 * the player object's parent, Jericho's `get_player_location()`). Pure and synchronous: the UI
 * rebuilds it as steps arrive.
 * (A room here is a game location, not the workshop room of `metattl room`: docs/glossary.md.)
 *
 * What a node is: the location exactly as recorded, never walked up to an enclosing room. A
 * trajectory holds only `{id, name}`, not the object tree, and the recorded location is what the
 * reference test compares with Jericho step by step; so a chair, bed or vehicle the player is in is
 * a node of its own ("sit on chair" is a move from the room to the chair), the way Jericho reports it.
 *
 * A move is a step after which the location differs from the one before it; its label is the
 * command sent. A step without a known location (records made before locations were reported, a
 * story whose player object is unknown, web tasks) breaks the path: no edge spans it.
 */
import type { PlayerLocation } from '../engine/interface.ts';
import type { TrajectoryStep } from './trajectory.ts';

/** What the map reads of one episode (a finished trajectory or one still running). */
export interface MapEpisode {
  startLocation?: PlayerLocation | null;
  steps: readonly Pick<TrajectoryStep, 'index' | 'action' | 'reward' | 'location'>[];
}

export interface MapRoom {
  /** The location's object number (Z-Machine Standard §12). */
  id: number;
  /** Its short name as the game prints it (game text: render as text only). */
  name: string;
  /** 0-based index of the episode that first stood here. */
  firstEpisode: number;
  /** 1-based step after which it was first reached; 0 = the episode's start. */
  firstStep: number;
  /** 0-based episodes in which points were scored (a step with reward > 0 ending here). */
  scoredIn: number[];
  /** 0-based episodes whose last known location is this room. */
  endedIn: number[];
}

export interface MapEdge {
  /** `${from}>${to}`: one edge per ordered pair of rooms. */
  key: string;
  from: number;
  to: number;
  /** The commands that made this move, in order of first use (model output: text only). */
  commands: string[];
  /** 0-based episode that first made the move, and its 1-based step. */
  firstEpisode: number;
  firstStep: number;
}

export interface EpisodePath {
  /** Location id at the start and after every step (null: not known); length = steps + 1. */
  rooms: (number | null)[];
  /** Edge keys of the moves, in order (repeats kept). */
  moves: string[];
}

export interface RoomMap {
  /** Rooms in order of discovery. */
  rooms: MapRoom[];
  /** Edges in order of discovery. */
  edges: MapEdge[];
  /** One path per episode, in episode order. */
  paths: EpisodePath[];
}

/** Normalised command label: trimmed, inner whitespace collapsed, lower case. */
function commandLabel(action: string | null): string {
  return (action ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Builds the map of a session's episodes.
 * @param episodes in session order (index = 0-based episode number)
 * @returns rooms and edges in order of discovery, with the episode that first found each, and
 *   each episode's path; empty when no location was recorded
 */
export function buildRoomMap(episodes: readonly MapEpisode[]): RoomMap {
  const rooms = new Map<number, MapRoom>();
  const edges = new Map<string, MapEdge>();
  const paths: EpisodePath[] = [];
  const visit = (loc: PlayerLocation, episode: number, step: number): MapRoom => {
    let room = rooms.get(loc.id);
    if (!room) {
      room = { id: loc.id, name: loc.name, firstEpisode: episode, firstStep: step, scoredIn: [], endedIn: [] };
      rooms.set(loc.id, room);
    }
    return room;
  };
  episodes.forEach((ep, episode) => {
    let here = ep.startLocation ?? null;
    if (here) visit(here, episode, 0);
    const path: EpisodePath = { rooms: [here?.id ?? null], moves: [] };
    let last: MapRoom | null = here ? rooms.get(here.id)! : null;
    for (const step of ep.steps) {
      const next = step.location ?? null;
      if (next) {
        const room = visit(next, episode, step.index);
        if (here && here.id !== next.id) {
          const key = `${here.id}>${next.id}`;
          const command = commandLabel(step.action);
          let edge = edges.get(key);
          if (!edge) {
            edge = { key, from: here.id, to: next.id, commands: [], firstEpisode: episode, firstStep: step.index };
            edges.set(key, edge);
          }
          if (command && !edge.commands.includes(command)) edge.commands.push(command);
          path.moves.push(key);
        }
        if (step.reward > 0 && !room.scoredIn.includes(episode)) room.scoredIn.push(episode);
        last = room;
      }
      here = next;
      path.rooms.push(next?.id ?? null);
    }
    if (last && !last.endedIn.includes(episode)) last.endedIn.push(episode);
    paths.push(path);
  });
  return { rooms: [...rooms.values()], edges: [...edges.values()], paths };
}

/**
 * The map as it stood after episode `episode` (0-based, inclusive): the rooms and edges found by
 * then, with scored and end marks of those episodes only. The episode slider shows this.
 */
export function roomMapUpTo(map: RoomMap, episode: number): RoomMap {
  return {
    rooms: map.rooms
      .filter((r) => r.firstEpisode <= episode)
      .map((r) => ({ ...r, scoredIn: r.scoredIn.filter((e) => e <= episode), endedIn: r.endedIn.filter((e) => e <= episode) })),
    edges: map.edges.filter((e) => e.firstEpisode <= episode),
    paths: map.paths.slice(0, episode + 1),
  };
}

/**
 * A session record as the map panel reads it: its episodes (the running one with its live steps
 * and start location) and the export's titles (story, policy, model, seed). A web task's episodes
 * become the page map's (agents/page-map.ts: the pages visited as places), so the same panel
 * draws rooms for a story and pages for a web task. Pure.
 */
import { pageMapEpisodes } from '../../../agents/page-map.ts';
import { sessionModel } from '../../../ttl/session-model.ts';
import type { MapEpisode } from '../../../agents/room-map.ts';
import type { PageSnapshot } from '../../../web/interface.ts';
import type { PlayerLocation } from '../../../engine/interface.ts';
import type { TrajectoryStep } from '../../../agents/trajectory.ts';
import type { SessionRecord } from '../../../ttl/session-record.ts';

/** The running episode's steps so far (they are newer than the record's copy). */
export interface LiveEpisode {
  index: number;
  steps: readonly TrajectoryStep[];
  startLocation: PlayerLocation | null;
  /** Web tasks: the page the running episode started on. */
  startPage?: PageSnapshot | null;
}

/** What the map calls its places: rooms of a story, pages of a web task. */
export type MapPlaces = 'rooms' | 'pages';

/** The places of `record`'s map: pages for a web task, else rooms. */
export const mapPlacesOf = (record: Pick<SessionRecord, 'config'>): MapPlaces => (record.config.task?.kind === 'web' ? 'pages' : 'rooms');

/** The map's episodes of `record`, in order; a finished one from its trajectory; a web task's
 * through the page map (its pages as places). */
export function mapEpisodesOf(record: Pick<SessionRecord, 'episodes' | 'config'>, live: LiveEpisode | null = null): MapEpisode[] {
  if (mapPlacesOf(record) === 'pages') {
    return pageMapEpisodes(record.episodes.map((e) => {
      if (e.trajectory) return e.trajectory;
      if (live && live.index === e.index) return { startPage: live.startPage ?? null, steps: live.steps };
      return { startPage: null, steps: e.steps };
    }));
  }
  return record.episodes.map((e) => {
    if (e.trajectory) return e.trajectory;
    if (live && live.index === e.index) return { startLocation: live.startLocation, steps: live.steps };
    return { startLocation: null, steps: e.steps };
  });
}

/** The location id after the last step that has one (else the start's), or null. */
export function currentRoomOf(episode: MapEpisode | undefined): number | null {
  if (!episode) return null;
  for (let i = episode.steps.length - 1; i >= 0; i--) {
    const loc = episode.steps[i]!.location;
    if (loc) return loc.id;
  }
  return episode.startLocation?.id ?? null;
}

/** The export's headline and second line (story · policy · model, with its caveat when it is not a language model · seed). */
export function mapTitles(record: Pick<SessionRecord, 'config'>): { title: string; subtitle: string } {
  const c = record.config;
  const model = sessionModel(c);
  const policy = c.policy.kind === 'meta' ? `meta-agent “${c.policy.name}”` : c.policy.kind;
  return {
    title: c.story.title,
    subtitle: [`policy: ${policy}`, `model: ${model.caveat ?? model.name}`, `seed ${c.seed}`, `K = ${c.episodes}, S = ${c.maxSteps}`].join(' · '),
  };
}

/**
 * A replay's map episodes at its current frame: the episodes before `episode` (1-based) whole,
 * episode `episode` with the steps shown so far (`steps`), none after it.
 */
export function replayedMapEpisodes(record: Pick<SessionRecord, 'episodes' | 'config'>, episode: number, steps: readonly TrajectoryStep[]): MapEpisode[] {
  const at = Math.max(0, record.episodes.findIndex((e) => e.index === episode));
  const start = record.episodes[at]?.trajectory ?? null;
  const before = record.episodes.slice(0, at).map((e) => e.trajectory ?? { startLocation: null, startPage: null, steps: e.steps });
  if (mapPlacesOf(record) === 'pages') return pageMapEpisodes([...before, { startPage: start?.startPage ?? null, steps }]);
  return [...before, { startLocation: start?.startLocation ?? null, steps }];
}

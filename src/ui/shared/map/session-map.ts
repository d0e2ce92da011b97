/**
 * A session record as the map panel reads it: its episodes (the running one with its live steps
 * and start location) and the export's titles (story, policy, model, seed). Pure.
 */
import { sessionModel } from '../../../ttl/session-model.ts';
import type { MapEpisode } from '../../../agents/room-map.ts';
import type { PlayerLocation } from '../../../engine/interface.ts';
import type { TrajectoryStep } from '../../../agents/trajectory.ts';
import type { SessionRecord } from '../../../ttl/session-record.ts';

/** The running episode's steps so far (they are newer than the record's copy). */
export interface LiveEpisode {
  index: number;
  steps: readonly TrajectoryStep[];
  startLocation: PlayerLocation | null;
}

/** The map's episodes of `record`, in order; a finished one from its trajectory. */
export function mapEpisodesOf(record: Pick<SessionRecord, 'episodes'>, live: LiveEpisode | null = null): MapEpisode[] {
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
export function replayedMapEpisodes(record: Pick<SessionRecord, 'episodes'>, episode: number, steps: readonly TrajectoryStep[]): MapEpisode[] {
  const all = mapEpisodesOf(record);
  const at = Math.max(0, record.episodes.findIndex((e) => e.index === episode));
  return [...all.slice(0, at), { startLocation: all[at]?.startLocation ?? null, steps }];
}

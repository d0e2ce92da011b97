/**
 * What the booth shows of the game at a replay frame, for a recording without locations (no map to
 * draw): the last command typed and the game's answer to it (the episode's opening text before its
 * first step, its last text once it has ended), cut to its end so it fits a panel. Pure.
 */
import type { SessionRecord } from '../../ttl/session-record.ts';
import type { ReplayScene } from '../shared/replay/replay-scene.ts';

/** The game text a panel shows at most, characters (its end is kept: the newest lines). */
export const GAME_TEXT_CHARS = 360;

const tail = (text: string, max: number): string => {
  const flat = text.replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
  return flat.length <= max ? flat : `…${flat.slice(flat.length - max + 1).replace(/^\S*\s/, '')}`;
};

/** The last command (null before the first step, or when the step sent none) and the game's text
 * after it: `text` cut to `max` characters, `short` to a third of that (beside the map). */
export function gameTextAt(record: SessionRecord, scene: Pick<ReplayScene, 'episode' | 'steps' | 'ended'>, max = GAME_TEXT_CHARS): { command: string | null; text: string; short: string } {
  const episode = record.episodes.find((e) => e.index === scene.episode);
  const last = scene.steps.at(-1) ?? null;
  let text: string;
  if (scene.ended) text = scene.ended.finalObservation;
  else if (last === null) text = episode?.trajectory?.startObservation ?? episode?.steps[0]?.observation ?? '';
  else text = episode?.steps.find((s) => s.index === last.index + 1)?.observation ?? episode?.trajectory?.finalObservation ?? '';
  return { command: last?.action ?? null, text: tail(text, max), short: tail(text, Math.round(max / 3)) };
}

/**
 * The recorded sessions shipped under public/replays/ (scripts/record-replays.sh records them with
 * the deterministic mock provider), with the label the Replay view lists them by. Add an entry
 * here when a file is added there. Pure data.
 */

export interface ShippedReplay {
  /** Used in links: `?view=replay&replay=<id>`. */
  id: string;
  /** Page-relative path of the session file. */
  path: string;
  label: string;
  /** What it shows, in a sentence. */
  description: string;
}

export const SHIPPED_REPLAYS: readonly ShippedReplay[] = [
  {
    id: 'lever-room-naive',
    path: 'replays/lever-room-naive.json',
    label: 'The Lever Room — naive meta-agent, 5 episodes (scripted test model)',
    description: 'The actor learns the secret lever order one failure at a time, as the meta-agent adds each hint the game gave to its guide.',
  },
];

export const shippedReplay = (id: string): ShippedReplay | undefined => SHIPPED_REPLAYS.find((r) => r.id === id);

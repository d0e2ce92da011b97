/**
 * The recorded sessions shipped under public/replays/ (scripts/record-replays.sh records them: with
 * the deterministic mock provider, and one with the real small model SmolLM2-135M-Instruct run
 * locally), with the label the Replay view lists them by. Add an entry
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
  {
    id: 'lever-room-smollm2',
    path: 'replays/lever-room-smollm2.json',
    label: 'The Lever Room — naive meta-agent, 3 episodes (real model: SmolLM2-135M-Instruct, run locally)',
    description: 'A real 135M-parameter model run on a CPU with llama.cpp: every reply keeps the format (a grammar holds it), but its commands are not English and its guide copies the prompt’s placeholder — what a model that small cannot do.',
  },
];

export const shippedReplay = (id: string): ShippedReplay | undefined => SHIPPED_REPLAYS.find((r) => r.id === id);

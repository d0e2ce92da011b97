/**
 * The recorded runs shipped under public/replays/, with the label the Replay view lists them by
 * and what produced each: a session (scripts/record-replays.sh), an evolution and an evaluation
 * (scripts/record-show-replays.ts) with the deterministic mock provider, scripted — not a
 * real model — and one session played by a real small model (SmolLM2-135M-Instruct, run locally;
 * scripts/record-replays.sh). Add an entry here when a file is added there (test/shipped-replays.test.ts checks
 * that each opens and that its provenance matches the file). Pure data.
 */
import { modelLabel, SCRIPTED_TEST_MODEL } from './model-label.ts';

/** What produced a shipped recording. */
export interface ReplayProvenance {
  /** The model behind it, e.g. "scripted test model — not a real model" (the words `modelLabel` gives the mock's id). */
  producedBy: string;
  /** The seeds, e.g. "game seed 1" or "game seed 1, loop seed 2". */
  seed: string;
  /** UTC date (YYYY-MM-DD) it was recorded: the file's `startedAt`. */
  recordedOn: string;
  /** The command that writes it, from the repository's root. */
  command: string;
}

export interface ShippedReplay {
  /** Used in links: `?view=replay&replay=<id>`. */
  id: string;
  /** Page-relative path of the session file. */
  path: string;
  label: string;
  /** What it shows, in a sentence. */
  description: string;
  kind: 'session' | 'evolution' | 'evaluation';
  provenance: ReplayProvenance;
}

/** The mock provider, in the words of `modelLabel` (the replay's header says the same). */
const MOCK = `${modelLabel(SCRIPTED_TEST_MODEL)} — not a real model`;

export const SHIPPED_REPLAYS: readonly ShippedReplay[] = [
  {
    id: 'lever-room-naive',
    path: 'replays/lever-room-naive.json',
    label: 'The Lever Room — naive meta-agent, 5 episodes (scripted test model)',
    description: 'The actor learns the secret lever order one failure at a time, as the meta-agent adds each hint the game gave to its guide.',
    kind: 'session',
    provenance: { producedBy: MOCK, seed: 'game seed 1', recordedOn: '2026-12-02', command: 'bash scripts/record-replays.sh' },
  },
  {
    id: 'evolution-scripted',
    path: 'replays/evolution-scripted.json',
    label: 'An evolution on The Lever Room and The Vault — 4 candidates (scripted test model)',
    description: 'The outer loop rewrites the meta-agent’s strategy: two children in a row beat their parent and are kept, each tops one game’s Pareto front, a third is rejected.',
    kind: 'evolution',
    provenance: { producedBy: MOCK, seed: 'game seed 1, loop seed 2', recordedOn: '2026-12-02', command: 'npx tsx scripts/record-show-replays.ts' },
  },
  {
    id: 'evaluation-scripted',
    path: 'replays/evaluation-scripted.json',
    label: 'An evaluation: static, naive and the evolved meta-prompt on two games (scripted test model)',
    description: 'Three policies compared with bootstrap intervals; open any of its six sessions to watch it.',
    kind: 'evaluation',
    provenance: { producedBy: MOCK, seed: 'game seed 1', recordedOn: '2026-12-02', command: 'npx tsx scripts/record-show-replays.ts' },
  },
  {
    id: 'lever-room-smollm2',
    path: 'replays/lever-room-smollm2.json',
    label: 'The Lever Room — naive meta-agent, 3 episodes (real model: SmolLM2-135M-Instruct, run locally)',
    description: 'A real 135M-parameter model run on a CPU with llama.cpp: every reply keeps the format (a grammar holds it), but its commands are not English and its guide copies the prompt’s placeholder — what a model that small cannot do.',
    kind: 'session',
    provenance: { producedBy: 'real model SmolLM2-135M-Instruct (Q4_1, Apache-2.0), run locally by node-llama-cpp', seed: 'game seed 1', recordedOn: '2026-12-02', command: 'bash scripts/record-replays.sh' },
  },
];

export const shippedReplay = (id: string): ShippedReplay | undefined => SHIPPED_REPLAYS.find((r) => r.id === id);

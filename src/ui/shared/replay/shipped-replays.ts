/**
 * The recorded runs shipped under public/replays/, with the label the Replay view lists them by
 * and what produced each: two Learn sessions (scripts/record-replays.sh), an evolution and an
 * evaluation (scripts/record-show-replays.ts) played by the simulated model (`--provider
 * simulated`, llm/simulated-model.ts — not a language model; every label says so), and one session
 * played by a real small model (SmolLM2-135M-Instruct, run locally; scripts/record-replays.sh
 * --smollm2). Ids and file names are links (`?view=replay&replay=<id>`) and stay as they were
 * when a file is recorded again. Add an entry here when a file is added there
 * (test/shipped-replays.test.ts checks that each opens and that its provenance matches the file).
 * Pure data.
 */
import { SIMULATION_NOTICE } from '../../../llm/simulated-model.ts';

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

/** What played the simulated recordings: the simulated model's own notice (the files name their model `simulated`). */
const SIMULATED = SIMULATION_NOTICE;
const SIMULATED_SESSIONS = 'bash scripts/record-replays.sh';
const SIMULATED_RUNS = 'npx tsx scripts/record-show-replays.ts';

export const SHIPPED_REPLAYS: readonly ShippedReplay[] = [
  {
    id: 'lever-room-naive',
    path: 'replays/lever-room-naive.json',
    label: 'The Lever Room — credit-assignment meta-agent, 6 episodes, won from episode 4 (simulated model — not a language model)',
    description: 'The actor learns the secret lever order one failure at a time; the meta-agent keeps the moves that scored, in order, until the plan opens the door.',
    kind: 'session',
    provenance: { producedBy: SIMULATED, seed: 'game seed 1', recordedOn: '2026-12-06', command: SIMULATED_SESSIONS },
  },
  {
    id: 'vault-credit-assignment',
    path: 'replays/vault-credit-assignment.json',
    label: 'The Vault — credit-assignment meta-agent, 4 episodes, the map grows to three rooms (simulated model — not a language model)',
    description: 'Episode 1 wanders between the Lobby and the Vault Door and learns the code; episode 2 walks the route into the Vault and wins. Watch the map grow.',
    kind: 'session',
    provenance: { producedBy: SIMULATED, seed: 'game seed 1', recordedOn: '2026-12-06', command: SIMULATED_SESSIONS },
  },
  {
    id: 'evolution-scripted',
    path: 'replays/evolution-scripted.json',
    label: 'An evolution from the naive meta-prompt on The Lever Room and The Vault — 4 candidates (simulated model — not a language model)',
    description: 'The outer loop rewrites the meta-agent’s strategy: a fact bank beats the naive seed, dropping useless moves beats the fact bank, and a third rewrite gains nothing and is rejected.',
    kind: 'evolution',
    provenance: { producedBy: SIMULATED, seed: 'game seed 1, loop seed 2', recordedOn: '2026-12-06', command: SIMULATED_RUNS },
  },
  {
    id: 'evaluation-scripted',
    path: 'replays/evaluation-scripted.json',
    label: 'An evaluation: static, naive and the evolved meta-prompt on two games (simulated model — not a language model)',
    description: 'Three policies compared with bootstrap intervals: the evolved meta-prompt beats naive on both games, an interval well clear of zero; open any of its six sessions to watch it.',
    kind: 'evaluation',
    provenance: { producedBy: SIMULATED, seed: 'game seed 1', recordedOn: '2026-12-06', command: SIMULATED_RUNS },
  },
  {
    id: 'lever-room-smollm2',
    path: 'replays/lever-room-smollm2.json',
    label: 'The Lever Room — naive meta-agent, 3 episodes (real model: SmolLM2-135M-Instruct, run locally)',
    description: 'A real 135M-parameter model run on a CPU with llama.cpp: every reply keeps the format (a grammar holds it), but its commands are number lists and scraps of its prompt the game cannot parse, and its guides invent a story or copy the prompt’s words — what a model that small cannot do.',
    kind: 'session',
    provenance: { producedBy: 'real model SmolLM2-135M-Instruct (Q4_1, Apache-2.0), run locally by node-llama-cpp', seed: 'game seed 1', recordedOn: '2026-12-06', command: 'bash scripts/record-replays.sh --smollm2' },
  },
];

export const shippedReplay = (id: string): ShippedReplay | undefined => SHIPPED_REPLAYS.find((r) => r.id === id);
